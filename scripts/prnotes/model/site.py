"""The site model: validated notes with their metadata and cross-links.

:func:`build_site` checks what no single file can (duplicate titles or PR
numbers across files, ``(#N)`` against ``prs.toml``), then derives every
note's metadata once, so renderers only read fields.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import MutableMapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from .. import contract
from .classify import audiences_of, tags_of, verdict_of
from .filing import file_note
from .grouping import SMALL, Cited, Group, cited, group_notes, linked, nearest, repo_words
from ..diagnostics import Diagnostic, InputError, place
from .followups import FollowUp, follow_ups_in
from ..parse.seeds import MAX_PR_NUMBER, NEAR_NUMBER_RE, PrInfo, RawEntry, SeedFile
from ..parse.refs import Inline, Ref, Text, segment
from .similar import note_terms
from .symbols import Symbol, symbols_in, sort_key as symbol_sort_key
from .taxonomy import Taxonomy


@dataclass(frozen=True)
class Note:
    """One digest entry with everything the pages show about it."""

    repo: str
    title: str
    number: int | None
    upstream_title: str
    body: str
    pieces: tuple[Inline, ...]
    title_pieces: tuple[Inline, ...]
    verdict: str | None
    audiences: tuple[str, ...]
    subsystem: str  # the site-wide key of its repository's subsystem (contract.subsystem_key)
    tags: tuple[str, ...]
    path: str
    line: int
    seq: int  # arrival order: seed file name order, then position in the file
    digest: str = ""  # docname of the digest page that lists it
    position: int = 0  # 1-based place in its digest
    follow_ups: tuple[FollowUp, ...] = ()
    symbols: tuple[Symbol, ...] = ()
    secondary: tuple[str, ...] = ()  # subsystem slugs (of its set) the filing weighed and lost: tags
    # Hex digits of its page name's hash, without a PR number (contract.NotePages): more
    # than 12 when an earlier note's name is what 12 would give.
    page_digits: int = contract.NOTE_HASH_DIGITS
    terms: str = ""  # its 相似笔记 terms, as its Analysis keeps them

    @property
    def subsystem_slug(self) -> str:
        """Its subsystem's slug within its repository's set."""
        return contract.subsystem_slug(self.subsystem)

    @cached_property
    def docname(self) -> str:
        return contract.note_docname(self.repo, self.number, self.title, self.page_digits)

    @cached_property
    def label(self) -> str:
        return contract.note_label(self.repo, self.number, self.title, self.page_digits)

    @cached_property
    def mentions(self) -> tuple[Ref, ...]:
        """Distinct references in the body, sorted by repository and number."""
        seen = {(r.repo, r.number, r.kind): r for r in self.pieces if isinstance(r, Ref)}
        return tuple(seen[k] for k in sorted(seen))

    @property
    def sort_key(self) -> tuple:
        # By repository (PR numbers of two repositories say nothing about
        # which is newer), then newest PR first; notes without a number
        # after, by title.
        return (self.repo.lower(), self.number is None, -(self.number or 0), self.title, self.repo)


# A volume (卷) gathers consecutive digests; it closes once it holds this many
# notes. The PDF is built by volume (prnotes.build.pdf): a new digest typesets the
# newest volume only. Earlier volumes never change: digests are only ever added
# after the others. (Lists are paged by count of entries: prnotes.render.paging.)
VOLUME_NOTES = 500


@dataclass(frozen=True)
class Digest:
    """A seed file: one issue (第 N 期) of the digest, its notes in seed order."""

    path: str  # seeds/<file>.txt
    number: int  # 1-based, in file-name order
    repo: str
    docname: str
    notes: tuple[str, ...]  # docnames, in the order the file lists them
    volume: int = 1

    @property
    def title(self) -> str:
        return f"第 {self.number} 期"


@dataclass(frozen=True)
class Volume:
    """Consecutive digests, 第 first–last 期."""

    number: int
    first: int  # digest numbers
    last: int
    notes: int

    @property
    def title(self) -> str:
        return f"第 {self.first} 期" if self.first == self.last else f"第 {self.first}–{self.last} 期"


def assign_volumes(digests: list[Digest], size: int | None = None) -> tuple[list[Digest], tuple[Volume, ...]]:
    """Number the volumes from the oldest digest on: a volume closes once it
    holds ``size`` notes (:data:`VOLUME_NOTES`, read when called), at the end of a digest."""
    size = VOLUME_NOTES if size is None else size
    out: list[Digest] = []
    volumes: list[Volume] = []
    number, first, count = 1, 1, 0
    for digest in digests:
        if count >= size:
            volumes.append(Volume(number, first, digest.number - 1, count))
            number, first, count = number + 1, digest.number, 0
        count += len(digest.notes)
        out.append(replace(digest, volume=number))
    if digests:
        volumes.append(Volume(number, first, digests[-1].number, count))
    return out, tuple(volumes)


@dataclass(frozen=True)
class RepoSubsystem:
    """A subsystem of one repository's set as the site has it: one page."""

    key: str  # contract.subsystem_key: also every note's ``subsystem``
    repo: str
    slug: str
    title: str
    intro: str
    # Its title where it names the subsystem on its own (its page, the
    # navigation, feeds, the book): with its repository when another
    # repository has a subsystem of that title (contract.qualified_titles).
    heading: str = ""

    @property
    def docname(self) -> str:
        return contract.subsystem_docname(self.key)

    @property
    def label(self) -> str:
        return contract.subsystem_label(self.key)


@dataclass(frozen=True)
class Site:
    """Every note plus the indexes built over them."""

    notes: tuple[Note, ...]  # sorted by docname
    taxonomy: Taxonomy
    warnings: tuple[Diagnostic, ...] = ()
    # (repo, number) -> docnames of notes that mention that PR or issue
    mentioned_by: dict[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)
    digests: tuple[Digest, ...] = ()  # in file-name order, oldest first
    volumes: tuple[Volume, ...] = ()
    # repository -> its groups, for a repository filed by its own layout (prnotes.model.grouping)
    groups: dict[str, tuple[Group, ...]] = field(default_factory=dict)
    # subsystem key -> the docnames of the pages its repository's layout groups
    # would have, had it no set: a set added later moves no reader's bookmark
    moved: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # A book of some notes (prnotes.build.subset): (repo, number) -> the notes left
    # out of it that mention that PR, as (repo, number or None, title, digest
    # number); the book names them instead of linking to their pages.
    mentioned_outside: dict[tuple[str, int], tuple[tuple[str, int | None, tuple[Inline, ...], int], ...]] = field(
        default_factory=dict
    )

    @cached_property
    def repos(self) -> tuple[str, ...]:
        """Repositories of the notes, most notes first, ties by name
        (:func:`prnotes.contract.repository_order`): every list of them goes so."""
        return tuple(contract.repository_order(Counter(n.repo for n in self.notes)))

    @cached_property
    def _repo_rank(self) -> dict[str, int]:
        return {repo: index for index, repo in enumerate(self.repos)}

    def note_order(self, note: Note) -> tuple:
        """A note's place in a list of several repositories' notes (a tag's):
        its repository in :attr:`repos` order, then :attr:`Note.sort_key`."""
        return (self._repo_rank.get(note.repo, len(self._repo_rank)), *note.sort_key)

    @cached_property
    def digest_by_docname(self) -> dict[str, Digest]:
        return {d.docname: d for d in self.digests}

    def digest_of(self, note: Note) -> Digest:
        return self.digest_by_docname[note.digest]

    def volume_of(self, note: Note) -> int:
        return self.digest_of(note).volume

    @cached_property
    def by_docname(self) -> dict[str, Note]:
        return {n.docname: n for n in self.notes}

    @cached_property
    def _by_pr(self) -> dict[tuple[str, int], Note]:
        return {(n.repo.lower(), n.number): n for n in self.notes if n.number is not None}

    @cached_property
    def _by_subsystem(self) -> dict[str, tuple[Note, ...]]:
        groups: dict[str, list[Note]] = {}
        for note in self.notes:
            groups.setdefault(note.subsystem, []).append(note)
        return {k: tuple(sorted(v, key=lambda n: n.sort_key)) for k, v in groups.items()}

    @cached_property
    def subsystems(self) -> tuple[RepoSubsystem, ...]:
        """Every subsystem that has notes: by repository (:attr:`repos`), each
        repository's in its set's order. Each is one page."""
        out: list[RepoSubsystem] = []
        for repo in self.repos:
            chosen = self.taxonomy.set_for(repo)
            for sub in (*self.groups.get(repo, ()), *chosen.subsystems):
                key = self.taxonomy.subsystem_key(repo, sub.slug)
                if key in self._by_subsystem and all(o.key != key for o in out):
                    out.append(RepoSubsystem(key, repo, sub.slug, sub.title, sub.intro))
        headings = contract.qualified_titles({s.key: (s.repo, s.title) for s in out})
        return tuple(replace(s, heading=headings[s.key]) for s in out)

    def grouped_by_layout(self, key: str) -> bool:
        """Whether a subsystem is one of a repository's groups (its own layout), not of a set."""
        sub = self.subsystem(key)
        return any(g.slug == sub.slug for g in self.groups.get(sub.repo, ()))

    @cached_property
    def _subsystem_by_key(self) -> dict[str, RepoSubsystem]:
        return {s.key: s for s in self.subsystems}

    def subsystem(self, key: str) -> RepoSubsystem:
        """The subsystem of that key (a note's ``subsystem``)."""
        return self._subsystem_by_key[key]

    def subsystems_of(self, repo: str) -> tuple[RepoSubsystem, ...]:
        """The repository's subsystems that have notes, in its set's order."""
        return tuple(s for s in self.subsystems if s.repo == repo)

    def namesakes(self, key: str) -> tuple[RepoSubsystem, ...]:
        """Other repositories' subsystems of the same slug or title (量化 of vLLM
        and of SGLang): pages that link to each other."""
        sub = self.subsystem(key)
        return tuple(o for o in self.subsystems if o.repo != sub.repo and (o.slug == sub.slug or o.title == sub.title))

    @property
    def by_repository(self) -> bool:
        """Whether lists of subsystems are grouped by repository: the archive holds more than one."""
        return len(self.repos) > 1

    def note_for(self, repo: str, number: int) -> Note | None:
        return self._by_pr.get((repo.lower(), number))

    def in_subsystem(self, slug: str) -> tuple[Note, ...]:
        """Notes of a subsystem in page order (see :attr:`Note.sort_key`)."""
        return self._by_subsystem.get(slug, ())


@dataclass(frozen=True)
class Analysis:
    """What one entry's text says, given the taxonomy: everything derived from
    the entry alone, so it can be kept between runs (:mod:`prnotes.write.cache`)."""

    subsystem: str
    matched: bool
    secondary: tuple[str, ...]
    verdict: str | None
    audiences: tuple[str, ...]
    tags: tuple[str, ...]
    pieces: tuple[Inline, ...]
    title_pieces: tuple[Inline, ...]
    follow_ups: tuple[FollowUp, ...]
    symbols: tuple[Symbol, ...]
    # The code it cites: a repository without a set of its own is filed by it.
    cites: Cited | None = None
    # Only words of its body filed it (no prefix, code or title word said anything).
    by_body: bool = False
    terms: str = ""  # its 相似笔记 terms (model/similar.py), one a line, each as often as it counts


def archive_aliases(repos: set[str] | frozenset[str], taxonomy: Taxonomy) -> tuple[tuple[str, str], ...]:
    """The taxonomy's aliases, plus each repository of the archive by its name.

    A note that writes ``vLLM #52326`` or ``sglang 的 #9102`` means that
    project's pull request whichever digest it stands in; the taxonomy's own
    ``[aliases]`` win where they name the same word. A name shorter than three
    characters is no alias: it would be a word or a letter in the text.
    """
    aliases = dict(taxonomy.aliases)
    for repo in sorted(repos, key=str.lower):
        name = repo.split("/", 1)[1].lower()
        if len(name) >= 3:
            aliases.setdefault(name, repo)
    return tuple(sorted(aliases.items()))


def analyse(
    repo: str, title: str, upstream: str, body: str, taxonomy: Taxonomy, aliases: tuple[tuple[str, str], ...] | None = None
) -> Analysis:
    filing = file_note(title, upstream, body, taxonomy, repo)
    pieces = segment(body, repo, taxonomy.aliases if aliases is None else aliases)
    # Titles keep code spans, but references in a heading stay plain text.
    title_pieces = tuple(Text(p.text) if isinstance(p, Ref) and not p.code else p for p in segment(title, repo))
    symbols = tuple(sorted(symbols_in(title_pieces) | symbols_in(pieces), key=symbol_sort_key))
    return Analysis(
        subsystem=taxonomy.subsystem_key(repo, filing.subsystem),
        matched=filing.matched,
        secondary=filing.runners_up,
        verdict=verdict_of(body),
        audiences=audiences_of(body, taxonomy),
        tags=tags_of(title, upstream, body, filing.subsystem, taxonomy),  # filing.subsystem: the slug
        pieces=pieces,
        title_pieces=title_pieces,
        follow_ups=follow_ups_in(pieces),
        symbols=symbols,
        cites=cited(title, upstream, body, repo_words(repo), repo),
        terms="\n".join(t for t, n in note_terms(title, body, (s.name for s in symbols)).items() for _ in range(n)),
        by_body=filing.matched and not any(e.strong for e in filing.evidence),
    )


def aliases_key(aliases: tuple[tuple[str, str], ...]) -> str:
    """The aliases as :func:`analysis_key` takes them: once per conversion, not per entry."""
    return "\1".join(f"{word}={target}" for word, target in aliases)


def analysis_key(repo: str, title: str, upstream: str, body: str, aliases: str = "") -> str:
    """What an :class:`Analysis` depends on besides the taxonomy and the code
    (``aliases``: :func:`aliases_key` of the archive's aliases)."""
    return hashlib.sha1("\0".join((repo, title, upstream, body, aliases)).encode("utf-8", "surrogatepass")).hexdigest()


class RepoNames:
    """The repositories an archive names, each by its :func:`contract.repo_key`.

    GitHub reads owner and repository names case-insensitively, so names that
    differ only in case are one repository, spelled as the first seed (in
    file-name order) spells it, else as it is first mentioned. Two names that
    differ otherwise and share a key would share every page name: the second
    to arrive is refused (:meth:`claim`).
    """

    def __init__(self) -> None:
        self.first: dict[str, tuple[str, str]] = {}  # key -> (spelling, file:line where first named)

    def claim(self, repo: str, where: str) -> str | None:
        """Record ``repo`` as named at ``where``; the problem if its key is another repository's."""
        spelled, first = self.first.setdefault(contract.repo_key(repo), (repo, where))
        if contract.same_repo(spelled, repo):
            return None
        return (
            f"{repo} and {spelled} ({first}) are two repositories whose pages would have the same names "
            f"({contract.repo_dir(repo)}/…): the site cannot hold both"
        )

    def spelling(self, repo: str) -> str:
        """The spelling of the repository ``repo`` names (``repo`` itself if the archive has not named it)."""
        spelled, _ = self.first.get(contract.repo_key(repo), (repo, ""))
        return spelled if contract.same_repo(spelled, repo) else repo


def build_site(
    seeds: list[SeedFile],
    prs: dict[tuple[str, str], PrInfo],
    taxonomy: Taxonomy,
    memo: MutableMapping[str, Analysis] | None = None,
) -> Site:
    """Validate entries across files and derive every note's metadata.

    ``memo`` keeps analyses between runs, by :func:`analysis_key`; it must
    belong to this taxonomy and this code (:mod:`prnotes.write.cache` sees to it).
    """
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    used_prs: set[tuple[str, str]] = set()
    titles: dict[tuple[str, str], RawEntry] = {}
    numbers: dict[tuple[str, int], RawEntry] = {}
    notes: list[Note] = []
    digests: list[Digest] = []
    digest_docnames: dict[str, str] = {}
    seq = 0
    unmatched: list[tuple[RawEntry, str]] = []  # warned about unless the layout files them
    cites: dict[str, Cited] = {}  # docname -> what it cites, for repositories without a set
    by_body: set[str] = set()  # notes only their body's words filed
    names = RepoNames()
    pages = contract.NotePages()
    refused: set[str] = set()
    for seed in seeds:
        if (problem := names.claim(seed.repo, f"{seed.path}:1")) is not None:
            problems.append(Diagnostic(seed.path, 1, problem))
            refused.add(seed.path)
    aliases = archive_aliases({names.spelling(seed.repo) for seed in seeds}, taxonomy)
    alias_words = aliases_key(aliases)
    for seed in seeds:
        if seed.path in refused:
            continue
        repo = names.spelling(seed.repo)
        digest_doc = contract.digest_docname(seed.path)
        if digest_doc in digest_docnames:
            problems.append(
                Diagnostic(seed.path, 1, f"{seed.path} and {digest_docnames[digest_doc]} would share the page {digest_doc}.md; rename one")
            )
            continue
        digest_docnames[digest_doc] = seed.path
        members: list[str] = []
        for entry in seed.entries:
            seq += 1
            entry = replace(entry, repo=repo)
            key = (entry.repo, entry.title)
            first = titles.get(key)
            if first is not None and (entry.number is None or first.number is None or entry.number == first.number):
                # Two PRs may share a title when each title gives its own
                # number; otherwise the title is what names the note.
                problems.append(Diagnostic.at(entry, f"duplicate title {entry.title!r} in {entry.repo} (first at {place(first)})"))
                continue
            titles.setdefault(key, entry)
            pr_key = (entry.repo.lower(), entry.title)
            info = prs.get(pr_key)
            number = entry.number
            if entry.title.rstrip().endswith(("。", "！", "？")):
                warnings.append(
                    Diagnostic.at(
                        entry,
                        f"title {entry.title!r} ends like a sentence: if it is a paragraph of the advice above, "
                        "join it to that paragraph (a blank line starts the next entry)",
                    )
                )
            if number is None and info is None and (near := NEAR_NUMBER_RE.search(entry.title.rstrip())):
                warnings.append(
                    Diagnostic.at(
                        entry,
                        f"title ends in {near.group()!r}, which is not a PR number (1 to {MAX_PR_NUMBER}, "
                        "no leading zero); the note gets no PR number or link",
                    )
                )
            if info is not None:
                used_prs.add(pr_key)
                if number is not None and number != info.number:
                    problems.append(
                        Diagnostic.at(entry, f"title says #{number} but {info.repo!r} in prs.toml (line {info.line}) says #{info.number}")
                    )
                    continue
                number = info.number
            if number is not None:
                nkey = (entry.repo.lower(), number)
                if nkey in numbers:
                    first = numbers[nkey]
                    source = f"; prs.toml (line {info.line}) gives it this number" if info is not None and entry.number is None else ""
                    problems.append(Diagnostic.at(entry, f"PR #{number} of {entry.repo} is claimed twice (first by {place(first)}){source}"))
                    continue
                numbers[nkey] = entry
            docname, digits = pages.name(entry.repo, number, entry.title, entry)
            if (first := pages.owner(docname)) is not entry:  # the whole hash alike: SHA-1 collided
                problems.append(Diagnostic.at(entry, f"{entry.title!r} would share the page {docname}.md with {place(first)}; change one title"))
                continue
            upstream = info.upstream_title if info else ""
            akey = analysis_key(entry.repo, entry.title, upstream, entry.body, alias_words)
            found = memo.get(akey) if memo is not None else None
            if found is None:
                found = analyse(entry.repo, entry.title, upstream, entry.body, taxonomy, aliases)
                if memo is not None:
                    memo[akey] = found
            subsystem, matched, verdict = found.subsystem, found.matched, found.verdict
            if not matched:
                unmatched.append((entry, docname))
            if verdict is None:
                warnings.append(
                    Diagnostic(entry.path, entry.body_line, f"no reading verdict found in the advice of {entry.title!r}")
                )
            members.append(docname)
            if found.cites is not None:
                cites[docname] = found.cites
            if found.by_body:
                by_body.add(docname)
            notes.append(
                Note(
                    repo=entry.repo,
                    title=entry.title,
                    number=number,
                    upstream_title=upstream,
                    body=entry.body,
                    pieces=found.pieces,
                    title_pieces=found.title_pieces,
                    verdict=verdict,
                    audiences=found.audiences,
                    subsystem=subsystem,
                    tags=found.tags,
                    path=entry.path,
                    line=entry.line,
                    seq=seq,
                    digest=digest_doc,
                    position=len(members),
                    follow_ups=found.follow_ups,
                    symbols=found.symbols,
                    secondary=found.secondary,
                    page_digits=digits,
                    terms=found.terms,
                )
            )
        digests.append(Digest(seed.path, len(digests) + 1, repo, digest_doc, tuple(members)))
    for key, info in sorted(prs.items(), key=lambda kv: kv[1].line):
        if key not in used_prs:
            warnings.append(Diagnostic.at(info, f"prs.toml entry {info.title!r} of {info.repo} matches no seed entry"))
    # A PR or issue of another repository has a part of the PR index, named by its key too.
    for note in notes:
        for ref in note.mentions:
            if (problem := names.claim(ref.repo, place(note))) is not None:
                problems.append(Diagnostic.at(note, problem))
    if problems:
        raise InputError(problems)
    notes, groups, moved = _file_by_layout(notes, cites, taxonomy, frozenset(by_body))
    filed = {n.docname: n.subsystem for n in notes}
    fallback = {n.repo: taxonomy.subsystem_key(n.repo, taxonomy.fallback) for n in notes}
    for entry, docname in unmatched:
        if filed[docname] == fallback[entry.repo]:
            warnings.append(Diagnostic.at(entry, f"no subsystem rule matches {entry.title!r}; filed under 'other'"))
    notes.sort(key=lambda n: n.docname)
    numbered, volumes = assign_volumes(digests)
    # A reference to O/R#2 in o/r's notes is a back-link of o/r's note #2.
    mentioned: dict[tuple[str, int], set[str]] = {}
    for note in notes:
        for ref in note.mentions:
            mentioned.setdefault((names.spelling(ref.repo), ref.number), set()).add(note.docname)
    return Site(
        notes=tuple(notes),
        taxonomy=taxonomy,
        warnings=tuple(sorted(warnings)),
        mentioned_by={k: tuple(sorted(v)) for k, v in sorted(mentioned.items())},
        digests=tuple(numbered),
        volumes=volumes,
        groups=groups,
        moved=moved,
    )


def _pulls(note: Note) -> frozenset[int]:
    """The note's own PR and the PRs of its repository it mentions."""
    own = {note.number} if note.number is not None else set()
    return frozenset(own | {r.number for r in note.mentions if r.repo == note.repo and r.kind == "pull"})


def _file_by_layout(
    notes: list[Note], cites: dict[str, Cited], taxonomy: Taxonomy, by_body: frozenset[str] = frozenset()
) -> tuple[list[Note], dict[str, tuple[Group, ...]], dict[str, tuple[str, ...]]]:
    """File the notes of each repository without a set by the code they cite
    (:mod:`prnotes.model.grouping`); the others stay as their words filed them,
    but for a note that only its body's words filed (``by_body``), which goes
    where the notes it shares most code names with went (:func:`nearest`).

    For a repository with a set, the pages its groups would have are
    addresses of the set's pages: each of them leads to the subsystem page
    that holds most of that group's notes (``moved``)."""
    by_repo: dict[str, list[int]] = {}
    for i, note in enumerate(notes):
        if note.docname in cites:
            by_repo.setdefault(note.repo, []).append(i)
    groups: dict[str, tuple[Group, ...]] = {}
    moved: dict[str, set[str]] = {}
    out = list(notes)
    for repo, indexes in sorted(by_repo.items()):
        indexes.sort(key=lambda i: notes[i].seq)
        repo_cites = [linked(cites[notes[i].docname], _pulls(notes[i])) for i in indexes]
        grouping = group_notes(repo_cites, frozenset({taxonomy.fallback}))
        chosen = taxonomy.set_for(repo)
        if not chosen.is_default:
            weak = {k for k, i in enumerate(indexes) if notes[i].docname in by_body}
            if weak:
                filed = {k: notes[i].subsystem for k, i in enumerate(indexes) if k not in weak}
                for k, key in nearest(repo_cites, filed, sorted(weak)).items():
                    out[indexes[k]] = replace(notes[indexes[k]], subsystem=key)
            for group in grouping.groups:
                if group.slug in chosen.order:
                    continue
                held = Counter(notes[indexes[k]].subsystem for k, slug in grouping.filed.items() if slug == group.slug)
                target = min(held, key=lambda key: (-held[key], key))
                moved.setdefault(target, set()).add(contract.subsystem_docname(contract.subsystem_key(repo, group.slug, False)))
            continue
        if grouping.groups:
            # A group named like an area of the default set is that area, in its words.
            groups[repo] = tuple(
                replace(g, title=chosen.subsystem(g.slug).title, intro=chosen.subsystem(g.slug).intro) if g.slug in chosen.order else g
                for g in grouping.groups
            )
            for k, slug in grouping.filed.items():
                out[indexes[k]] = replace(notes[indexes[k]], subsystem=taxonomy.subsystem_key(repo, slug))
            # What neither a group nor the generic words file joins the group it shares most with, not 其他.
            fallback = taxonomy.subsystem_key(repo, taxonomy.fallback)
            if left := [k for k, i in enumerate(indexes) if k not in grouping.filed and out[i].subsystem == fallback]:
                filed = {k: out[indexes[k]].subsystem for k in grouping.filed}
                for k, key in nearest(repo_cites, filed, left).items():
                    out[indexes[k]] = replace(out[indexes[k]], subsystem=key)
        _first_groups_moved(repo, [out[i] for i in indexes], repo_cites, taxonomy, moved)
    return out, groups, {k: tuple(sorted(v)) for k, v in sorted(moved.items())}


def _first_groups_moved(
    repo: str, notes: list[Note], cites: list[Cited], taxonomy: Taxonomy, moved: dict[str, set[str]]
) -> None:
    """The pages of groups a repository without a set had while it was small (its
    digests up to :data:`~prnotes.model.grouping.SMALL` notes, where a pair is a
    group) and has no more: each leads to the subsystem page that holds most of
    that group's notes now (``moved``), so that a page once read stays an address."""
    if len(notes) <= SMALL:
        return
    sizes, first = Counter(n.digest for n in notes), 0
    for digest in dict.fromkeys(n.digest for n in notes):  # in arrival order
        if first + sizes[digest] > SMALL:
            break
        first += sizes[digest]
    if not first:
        return
    now = {n.subsystem for n in notes}
    earlier = group_notes(cites[:first], frozenset({taxonomy.fallback}))
    for group in earlier.groups:
        key = taxonomy.subsystem_key(repo, group.slug)
        if key in now:
            continue
        held = Counter(notes[k].subsystem for k, slug in earlier.filed.items() if slug == group.slug)
        target = min(held, key=lambda key: (-held[key], key))
        moved.setdefault(target, set()).add(contract.subsystem_docname(key))

