"""相似笔记: each note page lists the notes most like it (:mod:`prnotes.model.similar`).

When a note is read, its terms (title, advice, code symbols) go into the
environment (:class:`Terms`). Once everything is read, the lists are worked
out (:func:`lists_after`) and kept in the environment for the next build:
a build that read no note keeps them all; otherwise only the notes that
share a term with a note added, changed or removed are scored again (a
score depends on nothing else, see :mod:`prnotes.model.similar`), unless the
measure or its cut-off changed, when all are. A note whose list changed,
or whose list names a note that changed (its title may have), is written
again, not read again.

A build of some of the archive's pages (a closed volume, the hub:
docs/volumes.md) holds too few notes to score them: it takes its notes'
lists from the link map instead (:func:`given`), which ``prnotes volumes``
works out over the whole archive from the model
(:func:`prnotes.model.similar.lists_of`, the same terms and lists as
here), with what the entry of a note another build holds shows.

On the site, a note with a list gets a 相似笔记 section after its others
(the 编辑来源 line stays last), built when the page is written: each
entry is a list entry like the others (:class:`.lists.note_entry`, with
its hooks), with its verdict, title and ``repo#PR``. A listed note that
the page's 相关 section already links (one it cites, or one that cites
it) is not listed again: its link there gets a 相似 badge instead, so the
reader sees which of the notes it mentions deal with the same thing. A
note with nothing left to list gets no section. The book has none. The
section is left out of the search index: it repeats other notes' titles.
"""

from __future__ import annotations

from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ... import contract
from ...model import similar
from ..facts import state
from ..facts.frozen import freeze, thaw
from ..lists.fill import Builder, entry_data, note_entry
from ..facts.notes import Facts, NoteFacts
from .volumes import map_of
from ..site import web_site
from .. import _internals

SECTION = "相似笔记"
SECTION_ID = "similar-notes"
LIST_CLASS = "prnotes-similar"  # not prnotes-list: the filters leave it alone
# env attributes kept between builds by Terms: note -> its list, note -> its best
# neighbour (the mutual rule reads it), and what they were made with
_LISTS = "prnotes_similar_lists"
_BESTS = "prnotes_similar_bests"
_MADE_WITH = "prnotes_similar_made_with"
_SHOWN = "prnotes_similar_shown"  # in a build of some pages: what each list's entries show (given)
ALIKE = "相似"  # the badge on a 相关 link to a listed note
ALIKE_CLASS = "prnotes-alike"


@dataclass(frozen=True)
class Before:
    """What the changed and removed notes were before this build read them."""

    terms: dict[str, tuple[float, dict[str, int]]]  # as Terms holds them


class Terms(state.Collector[tuple]):
    """Note docname -> (its length, {term: count}): prnotes.model.similar.length
    and note_terms; this build's lists, and the notes to write again."""

    name = "prnotes_similar_terms"
    read_priority = 600  # after Facts (500) has the note's title and advice

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        facts = Facts.of(env).get(env.docname)
        if facts is None:
            return
        title = "".join(thaw(n).astext() for n in facts.title)
        terms = similar.note_terms(title, facts.advice, (name for _, name in facts.symbols))
        self.of(env)[env.docname] = (similar.length(terms), terms)

    def before(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated) -> Before:
        stored = self.of(env)
        going = outdated.changed | outdated.removed
        return Before({d: stored[d] for d in sorted(going) if d in stored})

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, old: Before | None) -> list[str]:
        return lists_after(env, outdated, old)


def lists_after(env: BuildEnvironment, outdated: state.Outdated, old: Before | None) -> list[str]:
    """Work out this build's lists (keeping what no change touched); the notes to write again.
    A build of some of the archive's pages (a volume, the hub) takes its notes' lists from the
    link map, scored over the whole archive (:func:`given`)."""
    if given(env):
        return _take_given(env, outdated)
    stored = Terms.of(env)
    notes = {d: t for d, (_, t) in sorted(stored.items()) if d in _internals.documents(env)}
    lengths = {d: n for d, (n, _) in stored.items()}
    previous: dict[str, tuple[str, ...]] = getattr(env, _LISTS, {})
    made_with = getattr(env, _MADE_WITH, None)
    now_with = (similar.VERSION, similar.cap(len(notes)))
    changed = {d for d in outdated.added | outdated.changed | outdated.removed if contract.is_note_docname(d)}
    if not changed and made_with == now_with and previous.keys() == notes.keys():
        return []
    index = similar.Index(notes, lengths)
    subsystem_of = {d: f.subsystem for d, f in Facts.of(env).items()}
    if made_with != now_with or old is None:
        scored = set(notes)
    else:
        scored = rescored(index, notes, changed, {d: t for d, (_, t) in old.terms.items()}, made_with[1])
        scored |= {d for d, listed in previous.items() if not changed.isdisjoint(listed)}
        scored &= notes.keys()
    cited = citations(Facts.of(env), notes.keys())
    picks, bests = repick(index, subsystem_of, cited, getattr(env, _BESTS, {}), scored)
    lists = {d: v for d, v in previous.items() if d in notes}
    lists |= {d: pick.listed(d, bests) for d, pick in picks.items()}
    setattr(env, _LISTS, lists)
    setattr(env, _BESTS, bests)
    setattr(env, _MADE_WITH, now_with)
    pages = sorted(d for d, v in lists.items() if v != previous.get(d) or not changed.isdisjoint(v))
    return pages


def repick(
    index: similar.Index, subsystem_of: dict, cited: dict[str, set[str]], before: dict[str, str | None], scored: set[str]
) -> tuple[dict[str, similar.Pick], dict[str, str | None]]:
    """The ``scored`` notes scored again (:meth:`~prnotes.model.similar.Index.pick`), and
    every note's best neighbour (``before``: as the last build found them); then the
    notes whose best was scored again and now picks them, or no longer does (the mutual
    rule), scored again too."""
    picks = {d: index.pick(d, subsystem_of, cited=cited.get(d, ())) for d in sorted(scored)}
    bests = {d: b for d, b in before.items() if d in index.notes and d not in picks} | {d: p.best for d, p in picks.items()}
    for d in sorted(d for d, b in bests.items() if d not in picks and b in picks and (before.get(b) == d) != (bests[b] == d)):
        picks[d] = index.pick(d, subsystem_of, cited=cited.get(d, ()))
    return picks, bests


def citations(facts: dict, notes) -> dict[str, set[str]]:
    """Note -> the notes it cites (``#N``, ``owner/repo#N``) or that cite it (:func:`prnotes.model.similar.citations`)."""
    return similar.citations((d, f.repo, f.number, [(repo, number) for repo, number, _ in f.mentions]) for d, f in facts.items() if d in notes)


def rescored(index: similar.Index, notes: dict, changed: set[str], old_terms: dict[str, dict[str, int]], old_cap: int) -> set[str]:
    """The notes whose scores ``changed`` notes (added, edited, removed) may have
    changed: those that have one of their terms that is distinctive now or
    was before (``old_terms``: the terms the edited and removed ones had; ``old_cap``:
    :func:`prnotes.model.similar.cap` before), and the changed notes still there."""
    new_terms = {d: notes[d] for d in changed if d in notes}
    terms = set().union(*(t.keys() for t in new_terms.values()), *(t.keys() for t in old_terms.values()))
    mattering = set()
    for term in terms - {t for t in terms if t.startswith(similar.VERDICT)}:
        before = index.df[term] - sum(term in t for t in new_terms.values()) + sum(term in t for t in old_terms.values())
        if index.distinctive(term) or 2 <= before <= old_cap:
            mattering.add(term)
    return index.having(mattering) | set(new_terms)


def lists(env: BuildEnvironment) -> dict[str, tuple[str, ...]]:
    return getattr(env, _LISTS, {})


def given(env: BuildEnvironment) -> dict[str, dict]:
    """The archive's lists and what each listed note's entry shows, from the link map of the
    archive in volumes (:func:`prnotes.build.volumes.link_map`); empty in one build of the site."""
    return map_of(env).get("similar") or {}


def _take_given(env: BuildEnvironment, outdated: state.Outdated) -> list[str]:
    """This build's lists from :func:`given`; the notes whose list, or an entry of it, changed."""
    found, previous = given(env), getattr(env, _LISTS, {})
    lists = {d: tuple(found.get("lists", {}).get(d, ())) for d in _internals.documents(env) if contract.is_note_docname(d)}
    entries = {d: [found.get("notes", {}).get(o) for o in listed] for d, listed in lists.items()}
    changed, before = outdated.added | outdated.changed, getattr(env, _SHOWN, {})
    pages = sorted(d for d, v in lists.items() if v != previous.get(d) or entries.get(d) != before.get(d) or not changed.isdisjoint(v))
    setattr(env, _LISTS, lists)
    setattr(env, _SHOWN, entries)
    return pages


def _facts(env: BuildEnvironment) -> dict[str, NoteFacts]:
    """The facts of the notes a list may name: this build's, and from :func:`given` those of the notes another build holds."""
    shown = {
        d: NoteFacts(e["repo"], e["number"], "", e["digest"], 0, 0, e["verdict"], e["subsystem"],
                     mentions=tuple(tuple(m) for m in e["mentions"]), title=(freeze(nodes.Text(e["title"])),))
        for d, e in given(env).get("notes", {}).items()
    }  # fmt: skip
    return shown | Facts.of(env)


def _pull(repo: str, number: int | None) -> tuple[str, int | None]:
    return repo.lower(), number


def _cites(one, other) -> bool:
    """Whether the note of facts ``one`` mentions the note of facts ``other``."""
    return other.number is not None and any(_pull(repo, number) == _pull(other.repo, other.number) for repo, number, _ in one.mentions)


def shown(env: BuildEnvironment, docname: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What a note's page shows of its list: (the notes its 相似笔记 section
    lists, the notes its 相关 section links with a 相似 badge: those it cites
    or that cite it, which :func:`citations` added to the list)."""
    facts = state.once(env, _facts)
    mine = facts.get(docname)
    listed = [d for d in lists(env).get(docname, ()) if d in facts]
    linked = tuple(d for d in listed if mine is not None and (_cites(mine, facts[d]) or _cites(facts[d], mine)))
    return tuple(d for d in listed if d not in linked), linked


def mark_related(app: Sphinx, doctree: nodes.document, docname: str, linked: tuple[str, ...]) -> None:
    """A 相似 badge at the end of each entry of the 相关 section that links one of ``linked``."""
    uris = {app.builder.get_relative_uri(docname, d) for d in linked}
    for section in doctree.findall(nodes.section):
        if contract.RELATED_SECTION not in section["names"]:
            continue
        for item in list(section.findall(nodes.list_item)):
            line = next(iter(item.findall(nodes.paragraph)), None)
            if line is not None and any(r.get("refuri", "").partition("#")[0] in uris for r in line.findall(nodes.reference)):
                badge = _internals.design_badge(ALIKE, "info")
                badge["classes"] += [ALIKE_CLASS, "no-search"]
                line += [nodes.Text(" "), badge]


def add_section(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved``: a note's 相似笔记 section, after its others, before the 编辑来源 line."""
    if not web_site(app) or docname not in Facts.of(app.env):
        return
    listed, linked = shown(app.env, docname)
    if linked:
        mark_related(app, doctree, docname, linked)
    top = next(iter(doctree.findall(nodes.section)), None)
    if not listed or top is None:
        return
    builder = Builder(app, docname)
    bullets = nodes.bullet_list(classes=[LIST_CLASS])
    for other in listed:
        facts = state.once(app.env, _facts)[other]
        item = note_entry(classes=["prnotes-note"], data=entry_data(other, facts))
        item += builder.note_line(other, facts)
        bullets += item
    section = nodes.section("", nodes.title(SECTION, SECTION), bullets, ids=[SECTION_ID], classes=["no-search"])
    source = [p for p in doctree.findall(nodes.paragraph) if "prnotes-source" in p["classes"]]
    for paragraph in source:
        paragraph.parent.remove(paragraph)
    top += section
    for paragraph in source:
        top += paragraph


def page_toc(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: nodes.document | None) -> None:
    """On ``html-page-context``: the page's table of contents (当前页面) names the
    section too, which is added after Sphinx collected the page's sections."""
    toc = context.get("toc") or ""
    if doctree is None or not any(SECTION_ID in s["ids"] for s in doctree.findall(nodes.section)):
        return
    inner = toc.rfind("</ul>", 0, toc.rfind("</ul>"))  # the end of the list of the title's sections
    if inner > 0:
        entry = f'<li class="toctree-l1"><a class="reference internal" href="#{SECTION_ID}">{SECTION}</a></li>\n'
        context["toc"] = toc[:inner] + entry + toc[inner:]


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.lists.fill")
    # After the lists (400), before the search marks what it leaves out (500).
    app.connect("doctree-resolved", add_section, priority=420)
    app.connect("html-page-context", page_toc)
    app.add_env_collector(Terms)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
