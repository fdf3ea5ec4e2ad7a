"""Lists of notes, built from the environment when a page is written.

A hub page (a subsystem, a reading list, a tag, the watch list, the symbol
index, the PR index, a digest) does not hold its list as Markdown: the
converter writes a ``{prnotes-list}`` directive that states which notes it
lists, and this module builds the list from the facts every note page
declares (:mod:`..facts.notes`), the way ablog's ``postlist`` works. So

- reading a hub page costs the same whatever the archive holds: no Markdown
  links to resolve, one node per page until it is written;
- a new or edited note is read once, and the hub pages whose lists it joins,
  leaves or changes are written again, not read again (:func:`pages_listing_changes`).

The directive's argument is the kind of list; ``:where:`` holds
``key=value`` conditions, all of which a note must meet:

- ``notes``: ``subsystem``, ``verdict``, ``audience``, ``tag``, ``topic``
  (a tag, or the slug of the subsystem the note is filed under, in any
  repository), ``volume``, ``digest`` (a quoted seed path), ``arrival``;
  ``:order:`` is ``number`` (newest PR first, the default), ``seed`` (digest
  order) or ``reading`` (the order a digest is read in:
  :func:`.stream.reading_key`); ``:show:`` may name ``verdict``, ``summary``
  and ``subsystem`` (then the PR and the subsystem go on a line of their own
  under the title);
- ``today``: 今日, every note of the newest day's digests in reading order
  (:func:`.stream.newest_day`), after a line that gives the day, its digests
  and their counts; ``:show:`` as for ``notes``. The day is this build's, so
  the page is written again whenever a note or a digest date changes;
- ``week``: ``back`` (0 for 本周): every note of that week's digests in
  reading order (:func:`.stream.weeks`), after a line that gives the ISO
  week, its days, digests and counts, and a line that links every week's
  page; written again, as 今日, whenever a note or a date changes;
- ``unread``: every note of the digests the landing page's count covers
  (:func:`.readmarks.digest_counts`), newest digest first, each in reading
  order (:func:`.stream.walk`); the browser shows only those new since the
  reader's last visit and unread (:mod:`.readmarks`);
- ``followups``: the items of the 待跟进 boxes of the notes as for ``notes``
  (``:order: newest``: newest digest first, then in digest order), each with
  its label, the PR or issue it names, the note (linked to the marked
  sentence) and the digest with its date;
- ``symbols``: ``kind`` and, optionally, ``initial`` (see :func:`prnotes.model.symbols.initial`)
  and ``arrival``; each symbol with the notes that mention it, newest first,
  at most :data:`SYMBOL_NOTES` of them;
- ``prs``: ``repo``, and ``from`` and ``to`` or ``arrival``: every PR number
  of the repository (in the range) that has a note or is mentioned, with the
  note and the newest :data:`PR_NOTES` notes that mention it.

``arrival=A..B`` (``A..`` for no end) keeps the entries whose arrival key
lies from ``A`` to ``B``, keys written as numbers joined by dots
(:mod:`prnotes.render.paging`): a note's is its digest's number and its
place in the digest; a follow-up item's adds its place in the note's box; a
PR number's is the key of the first note that has or mentions it, then the
number; a symbol's the key of the first note that names it, then its place
in that note's symbols. That is how a page of a list is stated.

Each entry of a ``notes`` list is a :class:`note_entry`: on the site, an
``<li class="prnotes-note">`` whose ``data-`` attributes name the note
(:func:`entry_data`), the stable hooks of the read marks, the filters, tests
and user styles. An item of a ``followups`` list carries the same
attributes of its note, with the class ``prnotes-followup-entry``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import cached_property

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from ... import contract
from ...model.classify import NO_VERDICT, VERDICT_BY_SLUG, verdict_counts
from ...model.symbols import initial, sort_key as symbol_sort_key, Symbol
from .. import _internals
from ..facts import buildtime, state, stream
from . import readmarks
from ..links import splice
from ..facts.frozen import thaw
from ..facts.notes import Facts, NoteFacts, present, site_repositories
from ..links.prlinks import link, resolve
from ..facts.summaries import summary_of

KINDS = ("notes", "today", "week", "unread", "followups", "symbols", "prs")
# A symbol lists this many notes (the newest); the rest are counted.
SYMBOL_NOTES = 12
# A PR number lists this many notes that mention it (the newest); the rest are counted.
PR_NOTES = 8
# The class of a note's entry in a list, and of a follow-up's (module docstring).
ENTRY_CLASS = "prnotes-note"
FOLLOWUP_ENTRY_CLASS = "prnotes-followup-entry"


@dataclass(frozen=True)
class ListQuery:
    kind: str
    where: tuple[tuple[str, str], ...] = ()
    order: str = "number"
    show: tuple[str, ...] = ()

    @cached_property
    def conditions(self) -> dict[str, str]:
        return dict(self.where)

    @cached_property
    def arrival(self) -> tuple[Key, Key | None] | None:
        """The ``arrival`` range: its first key and its last (``None``: no end)."""
        value = self.conditions.get("arrival")
        if value is None:
            return None
        first, _, last = value.partition("..")
        return parse_key(first), (parse_key(last) if last else None)

    def arrives(self, key: Key) -> bool:
        """Whether an entry of this arrival key is in the ``arrival`` range (always, without one)."""
        if self.arrival is None:
            return True
        first, last = self.arrival
        return first <= key and (last is None or key <= last)

    def note_arrives(self, facts: NoteFacts) -> bool:
        """Whether the note, or an entry of it (a follow-up item), may be in the ``arrival`` range."""
        if self.arrival is None:
            return True
        first, last = self.arrival
        key = (facts.digest_number, facts.position)
        return first[:2] <= key and (last is None or key <= last[:2])

    def note_matches(self, facts: NoteFacts) -> bool:
        if self.kind in ("notes", "followups") and not self.note_arrives(facts):
            return False
        for key, value in self.where:
            if key == "subsystem" and facts.subsystem != value:
                return False
            if key == "verdict" and facts.verdict != value:
                return False
            if key == "audience" and value not in facts.audiences:
                return False
            if key == "tag" and value not in facts.tags:
                return False
            if key == "topic" and value not in facts.tags and contract.subsystem_slug(facts.subsystem) != value:
                return False
            if key == "volume" and str(facts.volume) != value:
                return False
            if key == "digest" and facts.digest != contract.unquote_path(value):
                return False
        return True

    def symbols_of(self, facts: NoteFacts) -> list[tuple[str, str]]:
        kind, first = self.conditions.get("kind"), self.conditions.get("initial")
        return [(k, n) for k, n in facts.symbols if k == kind and (first is None or initial(n) == first)]

    def in_range(self, repo: str, number: int) -> bool:
        where = self.conditions
        return repo.lower() == where.get("repo", "").lower() and int(where.get("from", 0)) <= number <= int(where.get("to", -1))

    def prs_of(self, facts: NoteFacts) -> list[tuple[str, int]]:
        own = [(facts.repo, facts.number)] if facts.number is not None else []
        return [(r, n) for r, n in own + [(r, n) for r, n, _ in facts.mentions] if self.in_range(r, n)]

    def affects(self, facts: NoteFacts, index: FactsIndex | None = None) -> bool:
        """Whether the list would show anything of a note with these facts
        (``index``: the build's, for the arrival keys of PR numbers and symbols;
        without it, a page of such a list counts as affected by every note it might show)."""
        if self.kind == "symbols":
            if self.arrival is not None and index is not None:
                return index.names_arriving(facts, self)
            return bool(self.symbols_of(facts))
        if self.kind == "prs":
            if self.arrival is not None:
                where = self.conditions.get("repo", "").lower()
                own = [(facts.repo, facts.number)] if facts.number is not None else []
                found = [n for r, n in own + [(r, n) for r, n, _ in facts.mentions] if r.lower() == where]
                if index is None:
                    return bool(found)
                first = index.pr_first.get(where, {})
                return any(self.arrives(first.get(n, ())) for n in found)
            return bool(self.prs_of(facts))
        if self.kind == "followups":
            return bool(facts.follow_ups) and self.note_matches(facts)
        if self.kind in ("today", "week", "unread"):
            return True  # any note may join, leave or reorder the newest day, a week or the newest digests
        return self.note_matches(facts)

    def shows_date_of(self, facts: NoteFacts) -> bool:
        """Whether the list shows the date of the note's digest (or, for 今日, depends on it)."""
        return self.kind in ("today", "week") or (self.kind == "followups" and self.affects(facts))


Key = tuple[int, ...]


def parse_key(text: str) -> Key:
    """``12.3`` -> ``(12, 3)``."""
    return tuple(int(part) for part in text.split(".") if part)


def parse_query(kind: str, where: str, order: str, show: str) -> ListQuery:
    pairs = []
    for word in where.split():
        key, _, value = word.partition("=")
        pairs.append((key, value))
    return ListQuery(kind, tuple(pairs), order or "number", tuple(show.split()))


class note_entry(nodes.list_item):
    """A list item that stands for one note; ``data`` holds its ``data-`` attributes."""


def entry_data(docname: str, facts: NoteFacts) -> tuple[tuple[str, str], ...]:
    """The ``data-`` attributes of a note's entry in a list:

    - ``pr``: :func:`prnotes.contract.note_key` (``owner/repo#N``);
    - ``verdict``: the verdict as the reader sees it (精读, 速读, 按需), empty without one;
    - ``repo``: ``owner/repo``; ``subsystem``: the subsystem's slug;
    - ``digest``: the number of its digest (第 N 期; larger is newer).

    The filters' URL parameters use the same values (``?verdict=精读&repo=…&subsystem=…``).
    """
    verdict = VERDICT_BY_SLUG.get(facts.verdict)
    return (
        ("pr", contract.note_key(facts.repo, facts.number, docname)),
        ("verdict", verdict.title if verdict else ""),
        ("repo", facts.repo),
        ("subsystem", facts.subsystem),
        ("digest", str(facts.digest_number)),
    )


def visit_entry_html(self, node: note_entry) -> None:
    self.body.append(self.starttag(node, "li", "", **{f"data-{key}": value for key, value in node["data"]}))


def depart_entry_html(self, node: note_entry) -> None:
    self.body.append("</li>\n")


def _as_list_item(visit: bool):
    """Any other writer shows an entry as the list item it is."""
    return (lambda self, node: self.visit_list_item(node)) if visit else (lambda self, node: self.depart_list_item(node))


class list_placeholder(nodes.General, nodes.Element):
    """Where a list goes; replaced by :class:`FillLists` before any writer sees it."""


class ListDirective(SphinxDirective):
    """``{prnotes-list} KIND`` with ``:where:``, ``:order:`` and ``:show:`` (module docstring)."""

    required_arguments = 1
    option_spec = {"where": directives.unchanged, "order": directives.unchanged, "show": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        if kind not in KINDS:
            raise self.error(f"unknown list kind {kind!r}; one of {', '.join(KINDS)}")
        query = parse_query(kind, self.options.get("where", ""), self.options.get("order", ""), self.options.get("show", ""))
        users = Users.of(self.env)
        users[self.env.docname] = (*users.get(self.env.docname, ()), query)
        return [list_placeholder(query=query)]


class OrphanDirective(SphinxDirective):
    """``{prnotes-orphan}``: this page is reached by links (an earlier part of a list), not from a toctree."""

    def run(self) -> list[nodes.Node]:
        self.env.metadata[self.env.docname]["orphan"] = True
        return []


# --- building the nodes -------------------------------------------------------


@dataclass(frozen=True)
class FactsIndex:
    """The notes' facts grouped the ways lists ask for them, made once per build
    (per writing process), so a list costs what it shows, not the archive's size."""

    notes: dict[str, NoteFacts]  # docname -> facts, every note of the site
    by_condition: dict[tuple[str, str], tuple[str, ...]]  # (key, value) of a ``:where:`` -> docnames
    prs: dict[str, tuple[tuple[int, str, str, bool], ...]]  # repo, lower case -> (number, docname, kind, own), by number
    # repo, lower case -> number -> its arrival key: the first note's that has or mentions it, then the number
    pr_first: dict[str, dict[int, Key]]
    pr_order: dict[str, tuple[tuple[Key, int], ...]]  # repo, lower case -> (arrival key, number), sorted
    symbol_first: dict[tuple[str, str], Key]  # (kind, name) -> the first note's key that names it, then its place there
    # (kind, initial) -> the symbols of that part of the index and their arrival keys, in arrival order:
    # a page of the part bisects its range (scanning every symbol for each page was quadratic)
    symbol_parts: dict[tuple[str, str], tuple[tuple[Key, ...], tuple[tuple[str, str], ...]]]
    symbol_notes: dict[tuple[str, str], tuple[str, ...]]  # (kind, name) -> the docnames that name it
    # id of a note's facts -> (the facts, its symbols' arrival keys by part, sorted): see names_arriving
    _by_note: dict[int, tuple[NoteFacts, dict[tuple[str, str], list[Key]]]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, env: BuildEnvironment) -> FactsIndex:
        """The index of this build, made when the first list is built (every note is read by then)."""
        return state.once(env, cls.make)

    @classmethod
    def make(cls, env: BuildEnvironment) -> FactsIndex:
        notes = present(env)
        by_condition: dict[tuple[str, str], list[str]] = {}
        prs: dict[str, list[tuple[int, str, str, bool]]] = {}
        pr_first: dict[str, dict[int, Key]] = {}
        symbol_first: dict[tuple[str, str], Key] = {}
        symbol_notes: dict[tuple[str, str], list[str]] = {}
        for docname, f in notes.items():
            note_key = (f.digest_number, f.position)
            for place, symbol in enumerate(f.symbols):
                key = (*note_key, place)
                if symbol not in symbol_first or key < symbol_first[symbol]:
                    symbol_first[symbol] = key
            for symbol in dict.fromkeys(f.symbols):
                symbol_notes.setdefault(symbol, []).append(docname)
            numbers = ([(f.repo, f.number)] if f.number is not None else []) + [(r, n) for r, n, _ in f.mentions]
            for repo, number in numbers:
                first = pr_first.setdefault(repo.lower(), {})
                key = (*note_key, number)
                if number not in first or key < first[number]:
                    first[number] = key
            keys = [("subsystem", f.subsystem), ("verdict", f.verdict), ("volume", str(f.volume)),
                    ("digest", f.digest), *(("audience", a) for a in f.audiences), *(("tag", t) for t in f.tags),
                    *(("topic", t) for t in (*f.tags, contract.subsystem_slug(f.subsystem)))]  # fmt: skip
            for key in dict.fromkeys(keys):
                by_condition.setdefault(key, []).append(docname)
            # By repository name case-insensitively, as GitHub reads it.
            if f.number is not None:
                prs.setdefault(f.repo.lower(), []).append((f.number, docname, "pull", True))
            for repo, number, kind in f.mentions:
                prs.setdefault(repo.lower(), []).append((number, docname, kind, False))
        return cls(
            notes,
            {k: tuple(v) for k, v in by_condition.items()},
            {k: tuple(sorted(v)) for k, v in prs.items()},
            pr_first,
            {repo: tuple(sorted((key, number) for number, key in first.items())) for repo, first in pr_first.items()},
            symbol_first,
            _symbol_parts(symbol_first),
            {k: tuple(v) for k, v in symbol_notes.items()},
        )

    def symbols_arriving(self, query: ListQuery) -> list[tuple[str, str]]:
        """The symbols of the query's part of the index (kind and initial) in its ``arrival`` range."""
        keys, symbols = self._part(query)
        if query.arrival is None:
            return list(symbols)
        first, last = query.arrival
        return list(symbols[bisect_left(keys, first) : len(keys) if last is None else bisect_right(keys, last)])

    def names_arriving(self, facts: NoteFacts, query: ListQuery) -> bool:
        """Whether the note names a symbol of the query's part in its ``arrival`` range:
        its symbols are grouped and sorted once, and each page bisects them."""
        kept = self._by_note.get(id(facts))
        if kept is None or kept[0] is not facts:
            grouped: dict[tuple[str, str], list[Key]] = {}
            for kind, name in dict.fromkeys(facts.symbols):
                grouped.setdefault((kind, initial(name)), []).append(self.symbol_first.get((kind, name), ()))
            kept = self._by_note[id(facts)] = (facts, {part: sorted(keys) for part, keys in grouped.items()})
        kind, first = query.conditions.get("kind", ""), query.conditions.get("initial")
        keys = kept[1].get((kind, first), []) if first is not None else sorted(k for (c, _), ks in kept[1].items() if c == kind for k in ks)
        if query.arrival is None:
            return bool(keys)
        low, high = query.arrival
        at = bisect_left(keys, low)
        return at < len(keys) and (high is None or keys[at] <= high)

    def _part(self, query: ListQuery) -> tuple[tuple[Key, ...], tuple[tuple[str, str], ...]]:
        kind, first = query.conditions.get("kind", ""), query.conditions.get("initial")
        if first is not None:
            return self.symbol_parts.get((kind, first), ((), ()))
        entries = sorted(
            (key, symbol) for (c, _), (keys, symbols) in self.symbol_parts.items() if c == kind for key, symbol in zip(keys, symbols)
        )
        return tuple(k for k, _ in entries), tuple(s for _, s in entries)

    def candidates(self, query: ListQuery) -> list[str]:
        """Docnames that may match ``query``'s conditions: the fewest of any one condition."""
        sets = []
        for key, value in query.where:
            if key == "arrival":
                continue
            if key == "digest":
                value = contract.unquote_path(value)
            sets.append(self.by_condition.get((key, value), ()))
        return list(min(sets, key=len)) if sets else list(self.notes)

    def prs_in(self, repo: str, first: int, last: int) -> tuple[tuple[int, str, str, bool], ...]:
        entries = self.prs.get(repo.lower(), ())
        return entries[bisect_left(entries, (first,)) : bisect_left(entries, (last + 1,))]

    def prs_arriving(self, repo: str, query: ListQuery) -> list[tuple[int, str, str, bool]]:
        """The entries of the PR numbers of ``repo`` whose arrival keys are in the query's range."""
        order = self.pr_order.get(repo.lower(), ())
        first, last = query.arrival or ((), None)
        start = bisect_left(order, (first,))
        end = len(order) if last is None else bisect_left(order, (last, 1 << 62))
        entries = self.prs.get(repo.lower(), ())
        out = []
        for number in sorted(number for _, number in order[start:end]):
            out.extend(entries[bisect_left(entries, (number,)) : bisect_left(entries, (number + 1,))])
        return out


class Builder:
    """Makes the nodes of one page's lists, links resolved (it runs after Sphinx resolved the page's own)."""

    def __init__(self, app: Sphinx, page: str) -> None:
        self.app, self.env, self.page = app, app.env, page
        self.index = FactsIndex.of(app.env)
        self.facts = self.index.notes
        repos = site_repositories(app.env)
        self.one_repo = len(repos) == 1
        self.repo_rank = {repo: index for index, repo in enumerate(repos)}

    def notes(self, query: ListQuery) -> list[tuple[str, NoteFacts]]:
        found = [(d, self.facts[d]) for d in self.index.candidates(query) if query.note_matches(self.facts[d])]
        if query.order == "seed":
            found.sort(key=lambda df: (df[1].digest_number, df[1].position, df[0]))
        elif query.order == "reading":
            found.sort(key=lambda df: (stream.reading_key(df[1]), df[0]))
        elif query.order == "newest":
            found.sort(key=lambda df: (-df[1].digest_number, df[1].position, df[0]))
        else:
            found.sort(key=self.note_order)
        return found

    def note_order(self, note: tuple[str, NoteFacts]) -> tuple:
        """The model's order (:meth:`prnotes.model.site.Site.note_order`): repository
        (most notes first), newest number, title."""
        docname, facts = note
        return (self.repo_rank.get(facts.repo, len(self.repo_rank)), *facts.sort_key, self.title_text(docname, facts), facts.repo, docname)

    def title_text(self, docname: str, facts: NoteFacts) -> str:
        return "".join(thaw(n).astext() for n in facts.title) or docname

    # small pieces

    def badge(self, verdict: str) -> list[nodes.Node]:
        v = VERDICT_BY_SLUG.get(verdict)
        if v is None:
            return []
        return [_internals.design_badge(v.title, v.badge), nodes.Text(" ")]

    def note_link(self, docname: str, facts: NoteFacts, anchor: str = "") -> nodes.reference:
        """The note's title linking to it (at ``anchor``, if given); references in the title are plain text there."""
        text = nodes.inline(classes=["std", "std-doc"])
        for frozen in facts.title:
            text += _unlinked(thaw(frozen))
        return self.link(docname, "", text, anchor=anchor)

    def link(self, docname: str, text: str, *children: nodes.Node, anchor: str = "", **attributes) -> nodes.reference:
        """A link from this page to ``docname`` (at ``anchor``, if given)."""
        uri = self.app.builder.get_relative_uri(self.page, docname) + (f"#{anchor}" if anchor else "")
        return nodes.reference("", text, *children, internal=True, refuri=uri, **attributes)

    def pr_ref(self, repo: str, number: int, kind: str = "pull", text: str = "") -> nodes.Node:
        text = text or (f"#{number}" if self.one_repo else f"{repo}#{number}")
        reftype = "pr" if kind == "pull" else "issue"
        contnode = nodes.inline(text, text, classes=["xref", f"prnotes-{reftype}"])
        return link(self.app, self.env, self.page, reftype, repo, number, contnode)

    def resolved(self, node: nodes.Node) -> nodes.Node:
        """``node`` with its PR references resolved as on any page (see :mod:`.prlinks`)."""
        if isinstance(node, addnodes.pending_xref):
            return resolve(self.app, self.env, node, node[0]) or node[0]
        if isinstance(node, nodes.Element):
            found = []
            for xref in node.findall(addnodes.pending_xref):
                xref["refdoc"] = self.page
                found.append((xref, resolve(self.app, self.env, xref, xref[0]) or xref[0]))
            splice.replace_selves(found)  # in one pass: a summary may hold thousands
        return node

    def note_line(self, docname: str, facts: NoteFacts, verdict: bool = True) -> nodes.paragraph:
        para = nodes.paragraph()
        if verdict:
            para.extend(self.badge(facts.verdict))
        para += self.note_link(docname, facts)
        if facts.number is not None:
            para += nodes.Text(" ")
            para += self.pr_ref(facts.repo, facts.number)
        return para

    # the kinds

    def build(self, query: ListQuery) -> list[nodes.Node]:
        method = getattr(self, f"build_{query.kind}")
        items = method(query)
        if query.kind == "today":
            lead, rest = self.today_lead(), self._rest(stream.newest_day(self.env), "今日另有 {} 篇，在这一天的各期摘要里")
        elif query.kind == "week":
            lead, rest = self.week_lead(query), self._rest(self.the_week(query), "这一周另有 {} 篇，在这一周的各期摘要里")
        else:
            lead, rest = [], []
        if not items:
            return [*lead, nodes.paragraph("", "（暂无）", classes=["prnotes-empty"]), *rest]
        bullets = nodes.bullet_list(classes=["prnotes-list", f"prnotes-list-{query.kind}"])
        bullets.extend(items)
        return [*lead, bullets, *rest]

    def build_notes(self, query: ListQuery) -> list[nodes.list_item]:
        return [self.note_item(docname, facts, query.show) for docname, facts in self.notes(query)]

    def note_item(self, docname: str, facts: NoteFacts, show: tuple[str, ...]) -> nodes.list_item:
        """A note as a list shows it: its title (with the verdict, if shown); its PR
        beside it, or under it with the subsystem; then its first sentence, if shown."""
        item = note_entry(classes=[ENTRY_CLASS], data=entry_data(docname, facts))
        if "subsystem" in show:
            title = nodes.paragraph(classes=["prnotes-entry-title"])
            if "verdict" in show:
                title.extend(self.badge(facts.verdict) or [_internals.design_badge(NO_VERDICT, "light"), nodes.Text(" ")])
            title += self.note_link(docname, facts)
            item += title
            item += self.entry_meta(facts)
        else:
            item += self.note_line(docname, facts, verdict="verdict" in show)
        if "summary" in show:
            item += nodes.paragraph("", "", self.resolved(summary_of(self.env, docname, self.page)))
        return item

    def entry_meta(self, facts: NoteFacts) -> nodes.paragraph:
        """``owner/repo#N · 子系统``: the pull request on GitHub (the title links the
        note) and the subsystem's page."""
        meta = nodes.paragraph(classes=["prnotes-entry-meta"])
        if facts.number is not None:
            text = f"{facts.repo}#{facts.number}"
            meta += nodes.reference(
                "", "", nodes.inline(text, text, classes=["xref", "prnotes-pr"]),
                refuri=contract.github_url(facts.repo, facts.number), reftitle=f"在 GitHub 上打开 {text}",
                classes=["prnotes-entry-pr"],
            )  # fmt: skip
            meta += nodes.Text(" · ")
        subsystem = contract.subsystem_docname(facts.subsystem)
        if (title := self.env.titles.get(subsystem)) is not None:
            meta += self.link(subsystem, title.astext(), classes=["prnotes-entry-subsystem"])
        return meta

    def build_today(self, query: ListQuery) -> list[nodes.list_item]:
        day = stream.newest_day(self.env)
        if day is None:
            return []
        shown = day.notes[: stream.TODAY_SHOWN]
        return [self.note_item(docname, self.facts[docname], query.show) for docname in shown]

    def today_lead(self) -> list[nodes.Node]:
        """``2026-11-09 · 第 4 期、第 5 期 · 5 篇（精读 2 篇，速读 3 篇）``, the digests linked;
        ``第 4 期 至 第 60 期（共 57 期）`` on a day of more than :data:`.stream.TODAY_DIGESTS_NAMED`."""
        day = stream.newest_day(self.env)
        if day is None:
            return []
        para = nodes.paragraph(classes=["prnotes-today-lead"])
        para += nodes.inline("", day.label, classes=["prnotes-date"])
        para += nodes.Text(" · ")
        para.extend(self.digests_and_counts(day.digests, day.notes))
        return [para]

    def digests_and_counts(self, digests: tuple[tuple[int, str], ...], notes: tuple[str, ...]) -> list[nodes.Node]:
        """``第 4 期、第 5 期 · 5 篇（精读 2 篇，速读 3 篇）``, the digests linked; the first
        and the last of more than :data:`.stream.TODAY_DIGESTS_NAMED`."""
        named = digests if len(digests) <= stream.TODAY_DIGESTS_NAMED else (digests[0], digests[-1])
        links = (self.link(contract.digest_docname(seed), f"第 {number} 期") for number, seed in named)
        out = splice.joined(links, "、" if named is digests else " 至 ")
        if named is not digests:
            out.append(nodes.Text(f"（共 {len(digests)} 期）"))
        counts = verdict_counts(self.facts[d].verdict for d in notes)
        out.append(nodes.Text(f" · {len(notes)} 篇（{counts}）"))
        return out

    def the_week(self, query: ListQuery) -> stream.Week | None:
        weeks = stream.weeks(self.env)
        back = int(query.conditions.get("back", 0))
        return weeks[back] if back < len(weeks) else None

    def build_week(self, query: ListQuery) -> list[nodes.list_item]:
        week = self.the_week(query)
        if week is None:
            return []
        return [self.note_item(docname, self.facts[docname], query.show) for docname in week.notes[: stream.TODAY_SHOWN]]

    def week_lead(self, query: ListQuery) -> list[nodes.Node]:
        """``2026-W49 · 2026-11-30 至 2026-12-06 · 第 3 期、第 4 期 · 7 篇（…）``, then a line
        that links the page of every week (:func:`.stream.weeks`); without dates, that there are none."""
        week = self.the_week(query)
        if week is None:
            return [nodes.paragraph("", "摘要没有日期（不在 git 仓库里构建），无法分周；各期摘要见摘要归档。", classes=["prnotes-today-lead"])]
        para = nodes.paragraph(classes=["prnotes-today-lead", "prnotes-week-lead"])
        para += nodes.inline("", week.label, classes=["prnotes-date"])
        para += nodes.Text(f" · {week.span} · ")
        if week.digests:
            para.extend(self.digests_and_counts(week.digests, week.notes))
        else:
            para += nodes.Text("这一周没有摘要")
        return [para, self.week_links(int(query.conditions.get("back", 0)))]

    def week_links(self, here: int) -> nodes.paragraph:
        """``按周：本周（2026-W49，7 篇）· 上周（…）…``, each week's page linked but this one's."""
        para = nodes.paragraph(classes=["prnotes-weeks"])
        para += nodes.Text("按周：")
        weeks = []
        for back, week in enumerate(stream.weeks(self.env)):
            text = f"{contract.week_title(back)}（{week.label[5:]}，{len(week.notes)} 篇）"
            title = f"{week.label}：{week.span}"
            weeks.append(nodes.strong("", text) if back == here else self.link(contract.week_docname(back), text, reftitle=title))
        para.extend(splice.joined(weeks, " · "))
        return para

    def build_unread(self, query: ListQuery) -> list[nodes.list_item]:
        window = {number for number, _ in readmarks.digest_counts(self.env)}
        return [self.note_item(d, self.facts[d], query.show) for d in stream.walk(self.env) if self.facts[d].digest_number in window]

    def _rest(self, span, says: str) -> list[nodes.Node]:
        """The notes of a day or week past the ones shown (on a day or week of more
        notes than a page shows): ``says`` with their count, and where they are
        (the digests above, or 摘要归档)."""
        more = len(span.notes) - stream.TODAY_SHOWN if span else 0
        if more <= 0:
            return []
        para = nodes.paragraph(classes=["prnotes-today-rest"])
        para += nodes.Text(says.format(more) + "（见上面的期数，或")
        para += self.link(contract.DIGESTS_INDEX, "摘要归档")
        para += nodes.Text("）。")
        return [para]

    def build_followups(self, query: ListQuery) -> list[nodes.list_item]:
        items = []
        for docname, facts in self.notes(query):
            for place, item in enumerate(facts.follow_ups, start=1):
                if not query.arrives((facts.digest_number, facts.position, place)):
                    continue
                label = nodes.paragraph(classes=[contract.FOLLOWUP_LABEL_CLASS])
                for frozen in item.label:
                    label += self.resolved(thaw(frozen))
                meta = nodes.paragraph(classes=[contract.FOLLOWUP_TARGET_CLASS])
                meta.extend(self.followup_targets(item.targets, facts.repo))
                meta += nodes.Text(" · 出自 ")
                meta += self.note_link(docname, facts, item.anchor)
                if facts.number is not None:
                    meta += nodes.Text(" ")
                    meta += self.pr_ref(facts.repo, facts.number)
                meta += nodes.Text(" · ")
                meta.extend(self.digest_with_date(facts))
                items.append(note_entry("", label, meta, classes=[FOLLOWUP_ENTRY_CLASS], data=entry_data(docname, facts)))
        return items

    def followup_targets(self, targets: tuple[tuple[str, int, str], ...], home: str) -> list[nodes.Node]:
        """``跟进：PR #N、issue owner/repo#M``, or that the item names none."""
        if not targets:
            return [nodes.Text(contract.FOLLOWUP_NO_TARGET)]
        # Short only where every number on the page is short: one repository, and this one.
        short = {(repo, number): f"#{number}" if self.one_repo and repo == home else f"{repo}#{number}" for repo, number, _ in targets}
        refs = ([nodes.Text("PR " if kind == "pull" else "issue "), self.pr_ref(repo, number, kind, short[repo, number])] for repo, number, kind in targets)
        return [nodes.Text("跟进："), *splice.joined(refs)]

    def digest_with_date(self, facts: NoteFacts) -> list[nodes.Node]:
        """``第 N 期`` linking to the digest, and its date (this build's, from git)."""
        when = nodes.inline(classes=["prnotes-followup-when"])
        when += self.link(contract.digest_docname(facts.digest), f"第 {facts.digest_number} 期")
        when += nodes.Text(" · ")
        when += buildtime.date_node(self.env, facts.digest)
        return [when]

    def build_symbols(self, query: ListQuery) -> list[nodes.list_item]:
        by_symbol = {
            symbol: [(docname, self.facts[docname]) for docname in self.index.symbol_notes[symbol]]
            for symbol in self.index.symbols_arriving(query)
        }
        items = []
        for kind, name in sorted(by_symbol, key=lambda s: symbol_sort_key(Symbol(*s))):
            notes = sorted(by_symbol[(kind, name)], key=self.note_order)
            para = nodes.paragraph()
            para += nodes.literal(name, name)
            para += nodes.Text("：")
            para.extend(splice.joined(self.note_link(docname, facts) for docname, facts in notes[:SYMBOL_NOTES]))
            if len(notes) > SYMBOL_NOTES:
                para += nodes.Text(f"，另有 {len(notes) - SYMBOL_NOTES} 篇（可用搜索查找）")
            items.append(nodes.list_item("", para))
        return items

    def build_prs(self, query: ListQuery) -> list[nodes.list_item]:
        notes_by_pr: dict[tuple[str, int], str] = {}
        mentioned: dict[tuple[str, int], list[str]] = {}
        kinds: dict[tuple[str, int], str] = {}
        where = query.conditions
        repo = where.get("repo", "")
        if query.arrival is not None:
            entries = self.index.prs_arriving(repo, query)
        else:
            entries = self.index.prs_in(repo, int(where.get("from", 0)), int(where.get("to", 10**12)))
        for number, docname, kind, own in entries:
            if own:
                notes_by_pr[(repo, number)] = docname
            else:
                mentioned.setdefault((repo, number), []).append(docname)
                kinds.setdefault((repo, number), kind)
        items = []
        # Newest number first, as on the subsystem pages.
        for key in sorted(set(notes_by_pr) | set(mentioned), key=lambda k: -k[1]):
            repo, number = key
            kind = "pull" if key in notes_by_pr else kinds.get(key, "pull")
            para = nodes.paragraph()
            para += self.pr_ref(repo, number, kind)
            if kind == "issues":
                para += nodes.Text(" （issue）")
            own = notes_by_pr.get(key)
            if own is not None:
                para += nodes.Text(" ")
                para += self.note_link(own, self.facts[own])
            by = sorted(d for d in set(mentioned.get(key, ())) if d != own)
            if by:
                # The newest PR_NOTES of them, so that an entry stays small however often a PR is named.
                shown = set(sorted(by, key=lambda d: (-self.facts[d].digest_number, -self.facts[d].position))[:PR_NOTES])
                para += nodes.Text(" — 提到它的笔记：")
                para.extend(splice.joined(self.note_link(d, self.facts[d]) for d in by if d in shown))
                if len(by) > PR_NOTES:
                    where_else = "笔记页列出全部" if own is not None else "可用搜索查找"
                    para += nodes.Text(f"，另有 {len(by) - PR_NOTES} 篇（{where_else}）")
            items.append(nodes.list_item("", para))
        return items


def _unlinked(node: nodes.Node) -> nodes.Node:
    """A copy of title nodes fit for link text: references become their text."""
    if isinstance(node, (addnodes.pending_xref, nodes.reference)):
        inner = nodes.inline()
        inner.extend(_unlinked(c) for c in node.children)
        return inner
    if isinstance(node, nodes.Element):
        node.children = [_unlinked(c) for c in node.children]
        for child in node.children:
            child.parent = node
    return node


def fill_lists(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved``: replace each list placeholder with its list."""
    placeholders = list(doctree.findall(list_placeholder))
    if not placeholders:
        return
    if app.builder.format != "html":
        # The book opens each chapter with the subsystem's page; its notes follow as sections.
        for node in placeholders:
            node.parent.remove(node)
        return
    builder = Builder(app, docname)
    splice.replace_selves([(node, builder.build(node["query"])) for node in placeholders])


def _symbol_parts(first: dict[tuple[str, str], Key]) -> dict[tuple[str, str], tuple[tuple[Key, ...], tuple[tuple[str, str], ...]]]:
    """The symbols by part of the index (kind, initial), in arrival order: (their keys, the symbols)."""
    parts: dict[tuple[str, str], list[tuple[Key, tuple[str, str]]]] = {}
    for symbol, key in first.items():
        parts.setdefault((symbol[0], initial(symbol[1])), []).append((key, symbol))
    return {part: (tuple(k for k, _ in sorted(e)), tuple(s for _, s in sorted(e))) for part, e in parts.items()}


# --- which pages to write again ----------------------------------------------


class Users(state.Collector[tuple]):
    """Page docname -> the queries of its lists; the pages written again when
    what their lists show changes."""

    name = "prnotes_list_users"

    def before(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated) -> dict[str, NoteFacts]:
        """Before reading: the facts of the notes about to change or go."""
        facts = Facts.of(env)
        return {d: facts[d] for d in sorted(outdated.changed | outdated.removed) if d in facts}

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, old: dict[str, NoteFacts]) -> list[str]:
        return pages_listing_changes(env, outdated, old)


def changed_facts(old: dict[str, NoteFacts], facts: dict[str, NoteFacts], outdated: state.Outdated) -> list[NoteFacts]:
    """The facts, before and after, of the notes that came, went or changed
    what a list shows of them. A note read again with the same facts (its page
    changed elsewhere: a new back-link, say) changes no list: on a day's digest
    that is most of the notes read again."""
    out = []
    for docname in sorted(outdated.added | outdated.changed | outdated.removed):
        before, after = old.get(docname), facts.get(docname)
        if before == after:
            continue
        out += [f for f in (before, after) if f is not None]
    return out


def pages_listing_changes(env: BuildEnvironment, outdated: state.Outdated, old: dict[str, NoteFacts]) -> list[str]:
    """After reading: pages whose lists a changed note joins, leaves or shows
    differently, and lists that show a digest date that changed."""
    facts = Facts.of(env)
    changed = changed_facts(old, facts, outdated)
    dates = buildtime.changed_dates(env)
    dated = [f for f in facts.values() if f.digest in dates] if dates else []
    if not changed and not dated:
        return []
    users = Users.of(env)
    paged = any(q.arrival is not None and q.kind in ("prs", "symbols") for queries in users.values() for q in queries)
    index = FactsIndex.of(env) if paged else None
    return [
        page
        for page, queries in users.items()
        if any(q.affects(f, index) for q in queries for f in changed) or any(q.shows_date_of(f) for q in queries for f in dated)
    ]


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    app.setup_extension("prnotes.sphinxext.links.prlinks")
    app.setup_extension("prnotes.sphinxext.facts.summaries")
    app.setup_extension("prnotes.sphinxext.facts.stream")
    skip = (lambda self, node: None, lambda self, node: None)
    app.add_node(list_placeholder, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    item = (_as_list_item(True), _as_list_item(False))
    app.add_node(note_entry, html=(visit_entry_html, depart_entry_html), latex=item, text=item, man=item, texinfo=item)
    app.add_directive(contract.LIST_DIRECTIVE, ListDirective)
    app.add_directive(contract.ORPHAN_DIRECTIVE, OrphanDirective)
    # Before the search marks list items as derived text (search/derived.py).
    app.connect("doctree-resolved", fill_lists, priority=400)
    app.add_env_collector(Users)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
