"""The archive in volumes: what each holds, the link map across them, and
whether a closed volume's pages are still what its inputs make (docs/volumes.md).

A volume is a run of consecutive digests that closes, at the end of a
digest, once it holds :data:`prnotes.model.site.VOLUME_NOTES` notes (the
PDF's volumes: :func:`prnotes.model.site.assign_volumes`). Every volume but
the newest is *closed*: digests are only ever added after the others, so its
note and digest pages change only when something outside it changes what
they show (a new note citing one of them, the code, the settings).

:func:`partition` says which pages each volume holds and which pages are
beside it; :func:`link_map` maps every page and label of the site to its
page (``_build/volumes/linkmap.json``), which a build of some
volumes reads to link to the pages it does not hold
(:mod:`prnotes.sphinxext.links.volumes`); :func:`check` compares each closed
volume with its record (``_build/volumes/v<k>/record.json``): its inputs by
hash, and its pages in its output by hash, so that an output damaged or
removed is found and built again; :func:`build` builds the closed volumes
that are out of date, each a Sphinx build of its own, side by side, and
:func:`record` writes each volume's record after it. Hashes are of contents,
never of modification times, so a volume's folder restored from a CI cache
onto a fresh checkout, or built by a job of a CI matrix and downloaded by
the job that joins them, still matches.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import posixpath
import re
import shutil
import subprocess
import sys
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import BuildError
from .. import contract
from ..diagnostics import InputError
from ..model import similar
from ..model.classify import verdict_rank
from ..model.site import Site, Volume, assign_volumes
from ..model.taxonomy import taxonomy_files
from ..parse import regular
from ..parse.history import added_dates
from ..render.myst import escape, hidden_toctree
from ..write.files import apply, plan, write_file
from . import stamp as buildstamp
from .folders import BuildRefused, check_output

FOLDER = Path("_build") / "volumes"
LINK_MAP = FOLDER / "linkmap.json"
SITE = Path("_build") / "html"  # the site, whether one build or the hub writes it
RECORD = "record.json"  # in each closed volume's folder: what its output was built from
CHANGED = "its inputs changed"
LINK_MAP_SETTING = "prnotes_link_map"  # the setting a build of some pages reads the map from (sphinxext/links/volumes.py)
FACTS_OUT, FACTS_IN = "prnotes_facts_out", "prnotes_facts_in"  # the settings of sphinxext/facts/across.py
SEARCH_IN = "prnotes_search_in"  # the setting of sphinxext/search/publish.py: the closed volumes' outputs
SEARCH_INDEX, SEARCH_TEXTS = "searchindex.js", "_search/text"  # what the hub's search reads of them
EDGES = "prnotes_walk_edges"  # the setting of sphinxext/links/prevnext.py: the pages beside a volume
MAX_RECORD_BYTES = 16 << 20  # a line per page of the volume: far below this
_VOLUME_NAME = re.compile(r"^v\d+$")  # a volume's folder under FOLDER
_TITLE_RE = re.compile(r"^# (.+)$", re.MULTILINE)  # a page's title, its first heading
_ESCAPED_RE = re.compile(r"\\(.)")  # a Markdown escape, as the converter writes them
_TOCTREE_RE = re.compile(r"^```\{toctree\}\n(.*?)^```$", re.MULTILINE | re.DOTALL)  # render.myst.hidden_toctree
ROOT = "index"  # the landing page, the root of the site's toctrees
# A MyST target line, ``(label)=``, as the converter writes it before a heading.
_LABEL_RE = re.compile(r"^\(([^()\s]+)\)=[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Edge:
    """A page of another build beside a volume: its docname and its digest's seed file and number."""

    page: str
    digest: str
    number: int


@dataclass(frozen=True)
class Part:
    """One volume of the site: its digests' pages and its notes' pages."""

    volume: Volume
    closed: bool
    pages: tuple[str, ...]  # docnames, sorted: its digests, then its notes
    seeds: tuple[str, ...] = ()  # its digests' seed files (seeds/<file>.txt), whose dates its pages show
    # The pages beside it in the archive's order: (before its first, after its last) note of
    # the walk (上一篇/下一篇: newest digest first), and digest (上一期/下一期: oldest first).
    walk: tuple[Edge | None, Edge | None] = (None, None)
    digests: tuple[Edge | None, Edge | None] = (None, None)

    @property
    def name(self) -> str:
        return f"v{self.volume.number}"


@dataclass(frozen=True)
class Status:
    """What a build has to do with one closed volume."""

    part: Part
    inputs: str  # the hash of what its pages are made from, now
    reason: str  # "" when its recorded output is current; else why it is built
    stubs: dict[str, str] = field(default_factory=dict)  # its build's other pages (:func:`stubs`)

    @property
    def write_all(self) -> bool:
        """Whether its build must write every page: its output is damaged, incomplete or
        unknown, which Sphinx, seeing its sources as they were, would not write again."""
        return bool(self.reason) and self.reason != CHANGED


def partition(site: Site, size: int | None = None) -> tuple[Part, ...]:
    """The volumes of ``site`` at ``size`` notes a volume (:data:`VOLUME_NOTES`), oldest first; the newest is open."""
    if size is not None and size < 1:
        raise ValueError(f"a volume holds at least one note, not {size}")
    digests, volumes = assign_volumes(list(site.digests), size)
    verdict = {note.docname: verdict_rank(note.verdict) for note in site.notes}
    # The digests that hold notes, oldest first, and the walk: newest digest first, each in reading order.
    chain = [Edge(d.docname, d.path, d.number) for d in digests if d.notes]
    walk = [Edge(n, d.path, d.number) for d in reversed(digests) for _, _, n in sorted((verdict[n], i, n) for i, n in enumerate(d.notes))]
    parts = []
    for volume in volumes:
        mine = [d for d in digests if d.volume == volume.number]
        pages = sorted(d.docname for d in mine) + sorted(n for d in mine for n in d.notes)
        seeds = tuple(sorted(d.path for d in mine))
        parts.append(Part(volume, volume is not volumes[-1], tuple(pages), seeds, _beside(walk, pages), _beside(chain, pages)))
    return tuple(parts)


def _beside(order: list[Edge], pages: list[str]) -> tuple[Edge | None, Edge | None]:
    """The pages just before and just after the run of ``order`` that ``pages`` hold."""
    own = set(pages)
    at = [i for i, edge in enumerate(order) if edge.page in own] or [0, len(order)]
    return (order[at[0] - 1] if at[0] else None), (order[at[-1] + 1] if at[-1] + 1 < len(order) else None)


def _page_file(root: Path, docname: str) -> Path:
    return root / f"{docname}.md"


def _read(path: Path) -> bytes | None:
    try:
        return regular.read_regular(path)
    except OSError:
        return None


def _hash(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _content(facts: Path) -> str | None:
    """The hash of a facts file's content: not of its bytes, which differ with how the
    objects pickled were shared (a volume's build that read some pages again)."""
    try:
        return _hash(repr(pickle.loads(_read(facts) or b"")).encode("utf-8"))
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError, TypeError):
        return None  # the hub's build names what is wrong with it


def _code_and_settings(root: Path) -> dict[str, object]:
    """What every page of every volume is made from besides its own source, by content."""
    shared = [(root / "conf.py", "conf.py"), *taxonomy_files(root)]
    package = sorted(p for p in buildstamp.PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return {
        "settings": [[rel, _hash(_read(path))] for path, rel in shared],
        "package": [[p.relative_to(buildstamp.PACKAGE).as_posix(), _hash(_read(p))] for p in package],
        "environment": buildstamp.environment([]),
    }


def _pages(root: Path) -> dict[str, str]:
    """The text of every page of the site but the notes, by docname: the landing page, the
    lists, the subsystem pages, the digests and every other page the hub holds."""
    out = {}
    for path in sorted([root / "index.md", *(root / "notes").rglob("*.md")]):
        docname = path.relative_to(root).with_suffix("").as_posix()
        if not contract.is_note_docname(docname) and (data := _read(path)) is not None:
            out[docname] = data.decode("utf-8", errors="replace")
    return out


def _title(text: str) -> str | None:
    """A page's title: its first ``# `` heading, its Markdown escapes undone."""
    found = _TITLE_RE.search(text)
    return _ESCAPED_RE.sub(r"\1", found.group(1).strip()) if found else None


def _toctrees(docname: str, text: str) -> list[list[object]]:
    """A page's toctrees as the converter writes them (``render.myst.hidden_toctree``):
    ``[caption, [docname, ...]]`` each, the entries read from the page's folder."""
    here, blocks = posixpath.dirname(docname), [block.splitlines() for block in _TOCTREE_RE.findall(text)]
    return [
        [
            next((line.removeprefix(":caption:").strip() for line in lines if line.startswith(":caption:")), ""),
            [posixpath.normpath(posixpath.join(here, line.strip())) for line in lines if line.strip() and not line.startswith(":")],
        ]
        for lines in blocks
    ]


def tree(root: Path) -> dict[str, object]:
    """What a closed volume's pages show of the site around them, read from the converted
    pages: each page's title and toctrees, of which the header, the sidebar and the
    breadcrumbs are made (the landing page's has a subsystem toctree per repository, in
    the order of the header's links)."""
    pages = _pages(root)
    return {
        "titles": {d: title for d, text in pages.items() if (title := _title(text)) is not None},
        "toctrees": {d: trees for d, text in pages.items() if (trees := _toctrees(d, text))},
    }


def stubs(site_tree: dict[str, object], part: Part) -> dict[str, str]:
    """The pages a closed volume's build holds besides its own, so that its pages show the
    site's navigation: the landing page with its toctrees, each page they name, and each
    page on the way from one of those to a page of the volume, as in the site (breadth
    first from the landing page, as Sphinx finds a page's parent). Each is its title and
    a hidden toctree of what it holds of these; only the volume's own pages are kept from
    its build (:func:`build_hub`)."""
    trees, titles = site_tree["toctrees"], site_tree["titles"]
    parent, queue = {ROOT: ""}, deque([ROOT])
    while queue:
        page = queue.popleft()
        for child in (child for _, entries in trees.get(page, ()) for child in entries if child not in parent):
            parent[child] = page
            queue.append(child)
    keep = {ROOT, *(child for _, entries in trees.get(ROOT, ()) for child in entries)}
    for docname in part.pages:
        while docname in parent and parent[docname] not in keep:
            docname = parent[docname]
            keep.add(docname)
    own = set(part.pages)
    out = {}
    for page in sorted(keep):
        body = [
            line for caption, entries in trees.get(page, ())
            for line in hidden_toctree((f"/{e}" for e in entries if e in keep or e in own), str(caption))
        ]  # fmt: skip
        title = titles.get(page) or part.volume.title
        out[f"{page}.md"] = "\n".join([f"{contract.MARKER} for volume {part.name} of the archive.", "", f"# {escape(title)}", "", *body])
    return out


def edges(root: Path, part: Part) -> str:
    """The pages beside a closed volume, for its walk at its edges (:data:`EDGES`): JSON,
    ``{"walk": [before, after], "digests": [before, after]}``, each null or ``{"page":
    docname, "title": its title, "digest": its digest's seed file, "number": its number}``."""

    def one(edge: Edge | None) -> dict[str, object] | None:
        title = edge and _title((_read(_page_file(root, edge.page)) or b"").decode("utf-8", errors="replace"))
        return edge and {"page": edge.page, "title": title or edge.page, "digest": edge.digest, "number": edge.number}

    found = {"walk": [one(e) for e in part.walk], "digests": [one(e) for e in part.digests]}
    return json.dumps(found, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def inputs(root: Path, part: Part, shared: dict[str, object], dates: dict[str, str]) -> str:
    """The hash of what a closed volume's pages are made from: their sources (which
    hold their back-links and the targets of their PR links), its digests' dates (from
    git) and the one after its last note's, the pages beside it (:func:`edges`), and ``shared``: the settings,
    the code, the environment and the volume's :func:`stubs` (the navigation its pages show) and its notes' 相似笔记 lists with what
    their entries show (the link map's)."""
    seeds = [*part.seeds, *([part.walk[1].digest] if part.walk[1] else [])]
    return buildstamp.digest(
        {
            "pages": [[d, _hash(_read(_page_file(root, d)))] for d in part.pages],
            "dates": [[seed, dates.get(seed)] for seed in seeds],
            "edges": edges(root, part),
            **shared,
        }
    )


def output(root: Path, part: Part) -> Path:
    """Where a closed volume's build writes its HTML: ``_build/volumes/v<k>/html``."""
    return root / FOLDER / part.name / "html"


def outputs(html: Path, part: Part) -> str | None:
    """The hash of a volume's pages in the output folder ``html``, with what the hub's
    search reads of them (the whole index, each page's snippet text); None when one is missing."""
    files = [*(f"{d}.html" for d in part.pages), SEARCH_INDEX, *(f"{SEARCH_TEXTS}/{d}.txt" for d in part.pages)]
    found = []
    for name in files:
        digest = _hash(_read(html / name))
        if digest is None:
            return None
        found.append([name, digest])
    return buildstamp.digest(found)


def record_file(root: Path, part: Part) -> Path:
    """Where a closed volume's record is kept: beside its output, in its own folder, so
    that the folder alone (a CI matrix job's artifact, a cache) says what it was built from."""
    return root / FOLDER / part.name / RECORD


def load_record(root: Path, part: Part) -> dict[str, object] | None:
    """The volume's record (:func:`record`); None when there is no usable one."""
    try:
        saved = json.loads(regular.read_regular(record_file(root, part), MAX_RECORD_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return None
    return saved if isinstance(saved, dict) else None


def check(root: Path, parts: tuple[Part, ...]) -> list[Status]:
    """Each closed volume against its record: whether its output can be reused, or why not."""
    site_tree, shared, dates = tree(root), _code_and_settings(root), added_dates(root)
    found = json.loads(_read(root / LINK_MAP) or b"{}").get("similar", {})  # the lists the builds show (link_map)
    out = []
    for part in parts:
        if not part.closed:
            continue
        around = stubs(site_tree, part)
        lists = [[d, [[o, found["notes"].get(o)] for o in found["lists"][d]]] for d in part.pages if d in found.get("lists", {})]
        now = inputs(root, part, {**shared, "stubs": around, "similar": lists}, dates)
        saved = load_record(root, part)
        if saved is None:
            reason = "never built"
        elif saved.get("inputs") != now or saved.get("pages") != list(part.pages):
            reason = CHANGED
        elif (made := outputs(output(root, part), part)) is None:
            reason = "a page of its output is missing"
        elif saved.get("facts") is not None and _hash(_read(facts_file(root, part))) != saved.get("facts"):
            reason = "its notes' facts, which the hub reads, are missing or damaged"
        elif made != saved.get("outputs"):
            reason = "its output differs from what was built (damaged)"
        else:
            reason = ""
        out.append(Status(part, now, reason, around))
    return out


def record(root: Path, statuses: list[Status]) -> list[str]:
    """Write each volume's record (:func:`record_file`): its inputs (as :func:`check` found
    them, before the build), its pages, their hashes in its output now and its notes' facts'
    hash. A volume with a file missing from its output gets none, so that it is built next
    time. Returns the names recorded."""
    done = []
    for status in statuses:
        made = outputs(output(root, status.part), status.part)
        path = record_file(root, status.part)
        if made is None:
            path.unlink(missing_ok=True)
            continue
        saved = {
            "inputs": status.inputs, "outputs": made, "pages": list(status.part.pages),
            "facts": _hash(_read(facts_file(root, status.part))),
        }  # fmt: skip
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, (json.dumps(saved, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        done.append(status.part.name)
    return sorted(done)


def link_map(root: Path, site: Site, parts: tuple[Part, ...]) -> dict[str, object]:
    """Every page of the site and the volume that holds it (0: the hub), every label a
    page defines with its page, and the repositories (the header's links): what a build
    of some pages needs to link to the rest.

    A note page's one label is its note's (:attr:`prnotes.model.site.Note.label`); the
    other pages are read for theirs."""
    volume_of, texts = {d: part.volume.number for part in parts for d in part.pages}, _pages(root)
    pages = {docname: volume_of.get(docname, 0) for docname in [*texts, *(note.docname for note in site.notes)]}
    labels: dict[str, str] = {note.label: note.docname for note in site.notes}
    for docname, text in texts.items():
        for label in _LABEL_RE.findall(text):
            labels.setdefault(label, docname)
    # 相似笔记, scored over the whole archive: each note's list, and what an entry shows of each note listed.
    lists = {d: listed for d, listed in similar.lists_of(site.notes).items() if listed}
    listed = {d for found in lists.values() for d in found}
    shown = {
        n.docname: {"title": n.title, "repo": n.repo, "number": n.number, "verdict": n.verdict or "", "subsystem": n.subsystem,
                    "digest": site.digest_of(n).number, "mentions": [[r.repo, r.number, r.kind] for r in n.mentions]}
        for n in site.notes if n.docname in listed
    }  # fmt: skip
    similar_ = {"lists": lists, "notes": shown}
    return {"pages": dict(sorted(pages.items())), "labels": dict(sorted(labels.items())), "repositories": list(site.repos), "similar": similar_}


def make_folders(root: Path, names: list[str]) -> None:
    """``_build/volumes`` and, for each build ``names`` names, its sources', output's and
    doctrees' folders; a file in the way stops with one line naming it (:func:`.stamp.make_folders`)."""
    buildstamp.make_folders([root / FOLDER, *(root / FOLDER / name / sub for name in names for sub in ("src", "html", "doctrees"))])


def write_link_map(root: Path, site: Site, parts: tuple[Part, ...]) -> Path:
    """:func:`link_map`, written to ``_build/volumes/linkmap.json`` (unchanged: left as it is)."""
    path = root / LINK_MAP
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(link_map(root, site, parts), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    write_file(path, text.encode("utf-8"))
    return path


def stage(root: Path, part: Part, around: dict[str, str]) -> Path:
    """A closed volume's sources, ``_build/volumes/v<k>/src``: its pages as the conversion
    wrote them, at their own paths, and ``around``, its :func:`stubs` (only what changed
    is written; a page it no longer holds is removed)."""
    src = root / FOLDER / part.name / "src"
    pages = {}
    for docname in part.pages:
        data = _read(_page_file(root, docname))
        if data is None:
            raise BuildError(f"{docname}.md is missing; run `prnotes notes` first")
        pages[f"{docname}.md"] = data.decode("utf-8")
    pages.update(around)
    _write_sources(root, src, pages)
    return src


def _write_sources(root: Path, src: Path, pages: dict[str, str]) -> None:
    """Write a build's staged sources (only what changed; a page it no longer holds is
    removed); a problem names the staged file, from the project's root."""
    src.mkdir(parents=True, exist_ok=True)
    try:
        apply(src, pages, plan(src, pages))
    except InputError as exc:
        where = src.relative_to(root).as_posix()
        raise InputError([replace(p, path=f"{where}/{p.path}") for p in exc.problems]) from None


def facts_file(root: Path, part: Part) -> Path:
    """Where a closed volume's build writes its notes' facts, which the hub reads."""
    return root / FOLDER / part.name / "facts.pickle"


def _sphinx(root: Path, name: str, src: Path, settings: dict[str, str], write_all: bool = False, html: Path | None = None) -> Path:
    """Build the pages of ``src`` as the site's build ``name`` (a volume, or the hub), with
    the link map and ``settings``, into ``html`` (``_build/volumes/<name>/html``)."""
    html, doctrees = html or root / FOLDER / name / "html", root / FOLDER / name / "doctrees"
    try:
        check_output(src, html)  # a file where the build writes a folder of pages
    except BuildRefused as exc:
        raise BuildError(f"{name}: {exc}") from None
    defines = [arg for key, value in sorted(settings.items()) for arg in ("-D", f"{key}={value}")]
    command = [
        sys.executable, "-m", "prnotes.build.sphinx_build", "-b", "html", "-W", "--keep-going", "-q", "-j", "1",
        *(["-a"] if write_all else []),
        "-c", str(root), "-d", str(doctrees), "-D", f"{LINK_MAP_SETTING}={root / LINK_MAP}", *defines, str(src), str(html),
    ]  # fmt: skip
    proc = subprocess.run(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        raise BuildError(f"{name}: sphinx-build failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}")
    return html


def build_hub(root: Path, parts: tuple[Part, ...]) -> Path:
    """The site in volumes, ``_build/html``, where one build puts the site: the hub, every page but the closed
    volumes' (the open volume's, the landing page, the lists, the subsystem pages, …),
    built from ``_build/volumes/hub/src`` with the link map, and each closed volume's
    pages copied in from its output at their own URLs (only what differs is written).
    The hub reads the closed volumes' facts (:func:`facts_file`, ``sphinxext/facts/across.py``),
    so that its lists and feeds hold their notes, and their whole search indexes
    (``sphinxext/search/publish.py``), so that its search finds them. The closed volumes must be current
    (:func:`check`): their pages and facts are taken as they are."""
    closed = {d for part in parts if part.closed for d in part.pages}
    opened = [d for part in parts if not part.closed for d in part.pages if contract.is_note_docname(d)]
    pages = {f"{d}.md": text for d, text in _pages(root).items() if d not in closed}
    pages |= {f"{d}.md": data.decode("utf-8") for d in opened if (data := _read(_page_file(root, d))) is not None}
    src = root / FOLDER / "hub" / "src"
    _write_sources(root, src, pages)
    # The closed volumes' facts fill the hub's lists: when they change, every page is written again.
    files = [facts_file(root, part) for part in parts if part.closed]
    if missing := [f for f in files if not f.is_file()]:
        raise BuildError(f"{missing[0].relative_to(root).as_posix()} is missing; build the volumes again")
    seen = buildstamp.digest([[f.parent.name, _content(f)] for f in files])
    record = root / FOLDER / "hub" / "facts.sha256"
    changed = (_read(record) or b"").decode("ascii", "replace") != seen
    closed_html = os.pathsep.join(str(output(root, part)) for part in parts if part.closed)
    settings = {FACTS_IN: os.pathsep.join(str(f) for f in files), SEARCH_IN: closed_html} if files else {}
    site = root / SITE
    # The one build's stamp (prnotes build) no longer says what _build/html holds.
    buildstamp.Layout(root, site, root / "_build" / "doctrees").stamp.unlink(missing_ok=True)
    html = _sphinx(root, "hub", src, settings, changed, html=site)  # -j 1: a parallel read holds the environment twice over
    write_file(record, seen.encode("ascii"))
    for part in parts:
        if not part.closed:
            continue
        for docname in part.pages:
            data = _read(output(root, part) / f"{docname}.html")
            if data is None:
                raise BuildError(f"volume {part.name}: {docname}.html is missing from its output; build the volumes first")
            target = html / f"{docname}.html"
            target.parent.mkdir(parents=True, exist_ok=True)
            write_file(target, data)
    return html


def build(
    root: Path, statuses: list[Status], processes: int | None = None, only: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """Build, side by side in processes of their own, the closed volumes :func:`check` found
    out of date (``only``: of those, the volumes so named, as a CI job of a matrix builds
    one), each into its own output; then record each volume built or reused (a volume
    whose build failed, or that is out of date and was not built, loses its record, so
    that it is built, never reused as it is), and remove the folders of
    volumes that are not closed volumes of the archive now. Returns the names built and
    the failures' messages."""
    todo = [status for status in statuses if status.reason and (not only or status.part.name in only)]
    left = {status.part.name for status in statuses if status.reason} - {status.part.name for status in todo}
    failed: dict[str, str] = {}
    if todo:
        # The work is Sphinx in processes of its own: threads suffice to run them side by side.
        with ThreadPoolExecutor(max_workers=min(len(todo), processes or os.cpu_count() or 1)) as pool:
            for status, error in zip(todo, pool.map(lambda s: _attempt(root, s), todo)):
                if error:
                    failed[status.part.name] = error
    dropped = failed.keys() | left
    record(root, [status for status in statuses if status.part.name not in dropped])
    for status in (status for status in statuses if status.part.name in dropped):
        record_file(root, status.part).unlink(missing_ok=True)
    _remove_others(root, {status.part.name for status in statuses})
    return [s.part.name for s in todo if s.part.name not in failed], [failed[name] for name in sorted(failed)]


def _remove_others(root: Path, keep: set[str]) -> None:
    """The folders of volumes that are not closed volumes of the archive now (its size
    changed, or digests were removed): their pages are another volume's now."""
    folder = root / FOLDER
    for path in sorted(folder.iterdir()) if folder.is_dir() else ():
        if path.is_dir() and _VOLUME_NAME.match(path.name) and path.name not in keep:
            shutil.rmtree(path, ignore_errors=True)


def _attempt(root: Path, status: Status) -> str:
    """Build one closed volume; "" when it was built, else what failed."""
    part = status.part
    settings = {FACTS_OUT: str(facts_file(root, part)), EDGES: edges(root, part)}
    try:
        _sphinx(root, part.name, stage(root, part, status.stubs), settings, status.write_all)
    except BuildError as exc:
        return str(exc)
    return ""
