"""Write the search's files when an HTML build has finished: ``_search/``.

- ``entry.json``: the split index's entry (:mod:`.split`), with the name of
  the search script and a key of what it was made from;
- the bilingual pairs the notes make (:mod:`.pairs`, from every note's words
  that :mod:`.pairs` keeps), the English words of the dictionary for the
  notes' Chinese words (:func:`.pairs.translate`) and the other way round
  (:func:`.pairs.english_for`), stored in the split index's term chunks;
- ``<version>/``: the split index, in a folder named by its hash, so a
  browser that cached one build's chunks never mixes them with another's;
- ``search-<hash>.js``: the search script (:mod:`.scripts`);
- ``text/<docname>.txt``: each page's snippet text (:mod:`.fragments`).

The hub of the site in volumes also holds the closed volumes' notes and
digests (``prnotes_search_in``: their whole indexes and snippet texts).

Everything goes through :func:`prnotes.write.files.apply`, all or nothing:
unchanged files are not touched, the files of an earlier version, an
earlier script and pages no longer on the site are removed. When neither the
whole index, nor the notes' facts, nor the script changed, the index is not
split again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError

from ...write import files as write
from ...model.classify import VERDICT_BY_SLUG, VERDICTS
from ... import contract
from .. import _internals
from ..facts.buildtime import facts as build_facts, label
from ..facts.frozen import plain_text
from ..facts.notes import Facts, present
from . import fragments, glossary, pairs, scripts, split
from .language import Utf8JavaScriptIndex
from .language import LANG

SEARCH_DIR = "_search"
ENTRY = "entry.json"
TEXT_DIR = "text"
HIGHLIGHT_SCRIPT = "_static/sphinx_highlight.js"


def ours(app: Sphinx) -> bool:
    # Not the EPUB's: a book has no search (and its builder writes no index).
    return (
        app.builder.format == "html"
        and _internals.writes_search_index(app.builder)
        and (app.config.html_search_language or app.config.language) == LANG
    )


# The HTML outputs of other builds of the site (the closed volumes, for the
# hub: docs/volumes.md), os.pathsep between them, whose notes and digests the
# search holds too, as one build's search would.
SEARCH_IN = "prnotes_search_in"


def note_rows(env) -> dict[str, split.NoteRow]:
    rows = {}
    known = build_facts(env)
    for docname, facts in Facts.of(env).items():
        verdict = VERDICT_BY_SLUG.get(facts.verdict)
        rows[docname] = split.NoteRow(
            verdict=verdict.title if verdict else "",
            repo=facts.repo,
            number=facts.number,
            date=label(known, facts.digest),  # as the note page shows it
            subsystem=facts.subsystem,
        )
    return rows


def subsystem_names(data: dict) -> dict[str, str]:
    prefix = contract.subsystem_docname("")
    return contract.subsystem_labels({
        d.removeprefix(prefix): t
        for d, t in zip(data["docnames"], data["titles"])
        if d.startswith(prefix) and contract.is_subsystem_key(d.removeprefix(prefix))
    })  # fmt: skip


def text_path(docname: str) -> str:
    return f"{TEXT_DIR}/{docname}.txt"


def _on_disk(root: Path) -> list[str]:
    found = []
    for dirpath, _dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/")
        found.extend(name if rel == "." else f"{rel}/{name}" for name in files if not name.endswith(write.TMP_SUFFIX))
    return found


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def note_texts(env) -> dict[str, pairs.NoteText]:
    """Every note's words, as the pairs read them, by docname (from :class:`..facts.notes.Facts`)."""
    return {
        d: pairs.NoteText(repo=f.repo, title=plain_text(f.title), upstream=f.upstream, advice=f.advice, words=f.words)
        for d, f in present(env).items()
        if contract.is_note_docname(d)
    }


def publish(app: Sphinx, exception: Exception | None) -> None:
    """On ``build-finished``: bring ``_search/`` up to date with the whole index."""
    if exception is not None or not ours(app):
        return
    outdir = Path(app.outdir)
    root = outdir / SEARCH_DIR
    texts = fragments.written(app)
    try:
        raw, data = _internals.whole_index(outdir, Utf8JavaScriptIndex())
    except _internals.IndexShapeError as exc:
        raise ExtensionError(f"the site's search cannot be written: {exc}") from None
    texts = dict(texts)
    for html in filter(None, app.config[SEARCH_IN].split(os.pathsep)):
        try:
            other_raw, other = _internals.whole_index(Path(html), Utf8JavaScriptIndex())
        except _internals.IndexShapeError as exc:
            raise ExtensionError(f"{SEARCH_IN}: {exc}; build the volumes again") from None
        data, added = split.joined(data, other)
        raw += other_raw
        for docname in added:
            text = _read(Path(html) / SEARCH_DIR / text_path(docname))
            if text is not None:
                texts[docname] = text.decode("utf-8", "replace")
    notes = note_rows(app.env)
    corpus = note_texts(app.env)
    links = pairs.links(pairs.derive(corpus.values(), glossary.load()))
    terms = data["terms"].keys() | data["titleterms"].keys()
    ordered = [corpus[d] for d in sorted(corpus)]
    found = pairs.note_words(ordered)  # the dictionary's cut of the notes, for both directions
    for term, entries in pairs.english_for(ordered, terms, glossary.load(), found).items():
        links[term] = sorted([*links.get(term, []), *entries])
    words = pairs.translate(ordered, glossary.load(), found)
    script_name = scripts.search_script_name()
    made_from = hashlib.sha256()
    rows = json.dumps(sorted((d, list(vars(r).values())) for d, r in notes.items()), ensure_ascii=False)
    parts = (json.dumps(value, ensure_ascii=False, sort_keys=True) for value in (links, words))
    for part in (str(split.FORMAT), script_name, rows, *parts):
        made_from.update(part.encode() + b"\n")
    made_from.update(raw)
    source = made_from.hexdigest()[:16]

    files: dict[str, str] = {}
    try:
        old = json.loads((root / ENTRY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    if isinstance(old, dict) and old.get("source") == source and (root / str(old.get("version"))).is_dir():
        entry = old
    else:
        made = split.split(data, notes, subsystem_names(data), tuple(v.title for v in VERDICTS), links, words)
        entry = {**made.entry, "script": script_name, "source": source}
        files.update({f"{made.version}/{path}": text for path, text in made.files.items()})
    files[ENTRY] = split.entry_text(entry)
    files[script_name] = scripts.search_script()
    docnames = set(data["docnames"])
    files.update({text_path(d): text for d, text in texts.items() if d in docnames})

    present = _on_disk(root) if root.is_dir() else []
    keep = set(files) | {text_path(d) for d in docnames} | {p for p in present if p.startswith(f"{entry['version']}/")}
    remove = sorted(p for p in present if p not in keep)
    changed, unchanged = [], []
    for rel, text in sorted(files.items()):
        (unchanged if _read(root / rel) == text.encode("utf-8") else changed).append(rel)
    if changed or remove:
        root.mkdir(exist_ok=True)
        write.apply(root, files, write.Plan(tuple(changed), tuple(unchanged), tuple(remove)))


def page_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """On ``html-page-context``: no search script of Sphinx's on any page (the loader loads ours)."""
    if ours(app):
        _internals.drop_script(context, HIGHLIGHT_SCRIPT)
