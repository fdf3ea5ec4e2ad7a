"""Similar notes: which notes deal with the same thing, from their own words.

Two notes are similar when they share distinctive terms: code symbols, file
paths, identifiers and Chinese bigrams that few notes use. Neither needs to
cite the other, and they may be of different repositories. The measure:

- A note's terms are the search's (:func:`prnotes.sphinxext.search.tokens.tokens`:
  CJK bigrams, identifiers whole and in parts, folded English words) of its
  title and advice, less English stop words, PR references (``#123`` and
  ``owner/repo#123`` whole: two notes citing one PR share no term by it),
  lone CJK characters and bigrams with a Chinese function character
  (:data:`STOP_CHARACTERS`), plus each code symbol it names, whole
  (```vllm/v1/core/kv_cache_utils.py``). The terms of its verdict's phrase
  (值得快速浏览, what every note of that verdict says) count in its length
  but are never distinctive, however small the archive.
- A CJK bigram weighs :data:`BIGRAM_WEIGHT` of any other term
  (:func:`kind_weight`): it is a piece of a word, or spans two, where an
  identifier, a path or an English word is a whole name.
- A term is *distinctive* when at least 2 and at most :func:`cap` notes have
  it: a term of one note matches nothing, a term of many says little.
- ``score(a, b) = Σ w_a(t) · w_b(t) · idf(t)² / (|a| · |b|)`` over the
  distinctive terms both have, where ``w(t) = k(t) · (1 + ln tf)`` (``k``:
  :func:`kind_weight`), ``idf(t) =
  ln((cap + 1) / df(t)) / ln((cap + 1) / 2)`` (:func:`idf`: 1 for a term of
  two notes) and ``|a|`` is the length of ``a``'s own vector of ``w`` (all
  its terms).
  This is the cosine of the TF-IDF vectors restricted to distinctive terms,
  each note's length measured on its own words. A pair of notes of the same
  subsystem scores :data:`SAME_SUBSYSTEM` times that: the subsystem is
  filed by the code the notes cite (their folders, and the modules that
  define the names they cite), which their shared words do not see.
- A note lists, best first, up to :data:`LISTED` notes: its best
  neighbour when that one is clearly related, and after it every other
  note that scores at least :data:`THRESHOLD`. The best is clearly related
  when it scores at least :data:`CERTAIN`, or when it stands out: at least
  :data:`FLOOR`, and at least :data:`STANDOUT` times what the next best
  shares (its score before :data:`SAME_SUBSYSTEM`: a note of the note's own
  subsystem does not hide a best of another repository), or when the two
  are each other's best and it scores at least :data:`MUTUAL`: of all the
  archive, each picks the other out.
  How high a pair can score depends on the two notes' lengths and on how
  much of their wording is code (a long note of Chinese prose scores low
  with everything, a short one of identifiers high), so an absolute cut-off
  alone is either too high for the first or too low for the second. Asking
  the best to stand out from the note's own other scores is a cut-off
  relative to the note: a note whose best match is well clear of the rest
  lists it even below :data:`THRESHOLD`, while a note whose best few are
  close together (shared phrasing or one shared word, not a shared subject)
  lists none of them unless the best is :data:`CERTAIN` or picks the note
  back. :data:`FLOOR`
  keeps a note that shares a word or two with everything from listing the
  least bad.
  Scores equal to two decimals go to the note of the same subsystem first,
  then by page name.
- Then the notes it cites or that cite it (``#N``, ``owner/repo#N``;
  either way) that share a distinctive term with it (a score of at least
  :data:`CITED`): a digest writes "read it with #52626" of the note most
  like it, and 相关 says only that one names the other.

A score depends on the two notes, on ``df`` of the terms they share and on
``cap``, never on the number of notes otherwise: adding a note changes only
the scores of pairs sharing one of its terms (:meth:`Index.having`), so a
day's digest recomputes the lists of the notes that share a term with it.
A note's list depends on its own scores and on its best neighbour's best
(the relative rule compares its best with its next best; the mutual rule
asks whom its best picks), so the lists that can change are those of the
notes that share a term with it and of the notes whose best is one of
those.
``cap`` grows with small archives (a quarter of the notes) and is fixed from
:data:`DF_CAP` × 4 notes on.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..parse.refs import CODE_REF_RE
from .classify import verdict_phrases
from ..sphinxext.search.tokens import STOPWORDS, tokens

# The longest list; the least score of a note listed after the best; the score
# from which the best is listed whatever the others score; the least score of
# a best listed for standing out, and by how much it must beat the next best
# (tuned on tests/similar_pairs.tsv; FLOOR, STANDOUT and SAME_SUBSYSTEM on the held-out dev parts;
# BENCHMARKS.md, "Similar notes").
LISTED = 5
THRESHOLD = 0.1
CERTAIN = 0.15
FLOOR = 0.065
STANDOUT = 1.3
# The least score of a best listed because each of the two is the other's
# best (tuned on the held-out dev parts; BENCHMARKS.md, "Held-out data").
MUTUAL = 0.06
# The least score of a note listed because one of the two cites the other:
# any distinctive term shared.
CITED = 0.01
# A note of the same subsystem scores this many times what it shares: the
# subsystem is filed by the code a note cites, which the words do not see.
SAME_SUBSYSTEM = 1.4
# What a CJK bigram weighs, a whole term (identifier, path, English word) weighing 1.
BIGRAM_WEIGHT = 0.7
# A term of more notes than this is no longer distinctive.
DF_CAP = 40
# Changes when the measure does: lists kept from an earlier build are then all made again.
VERSION = f"8:{LISTED}:{THRESHOLD}:{CERTAIN}:{FLOOR}:{STANDOUT}:{MUTUAL}:{CITED}:{SAME_SUBSYSTEM}:{BIGRAM_WEIGHT}:{DF_CAP}"

_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# Chinese function characters: a bigram with one is a piece of a phrase
# (在你, 需要, 可以, 的设), not of a name. Characters that also begin or end
# common words of the notes (能 of 性能, 并 of 并行, 对 of 对齐, 更 of 更新,
# 果 of 结果, 有 of 有效) are not in it.
STOP_CHARACTERS = frozenset("的了在是和与及或也就都而你我他它这那之于以为被把让给从但且即若如才只不没很最再又还已将个些此该其")
SYMBOL = "`"  # the prefix of a whole code symbol's term
VERDICT = "!"  # the prefix of a term of the verdict's phrase: never distinctive


def cap(notes: int) -> int:
    """The most notes a distinctive term may have, for an archive of ``notes`` notes."""
    return min(DF_CAP, max(3, notes // 4))


def idf(df: int, cap_: int) -> float:
    """How rare a distinctive term is: 1 for a term of two notes, falling to
    nearly 0 at ``cap_`` notes, whatever ``cap_`` is (so a cut-off holds
    for small archives and large ones alike)."""
    return math.log((cap_ + 1) / df) / math.log((cap_ + 1) / 2)


def kind_weight(term: str) -> float:
    """What a term weighs by its kind: :data:`BIGRAM_WEIGHT` for a CJK bigram, 1 otherwise."""
    return BIGRAM_WEIGHT if _CJK_CHAR.match(term) else 1.0


def note_terms(title: str, advice: str, symbols: Iterable[str] = ()) -> dict[str, int]:
    """A note's terms with their counts (the module docstring)."""
    counts: Counter[str] = Counter()
    # The verdict's phrase (值得快速浏览) is what every note of that verdict
    # says: its terms count in the note's length but match no note.
    chars = list(advice)
    for start, end in verdict_phrases(advice):
        counts.update(VERDICT + term for term in _all_tokens(advice[start:end]))
        chars[start:end] = " " * (end - start)
    for text in (title, "".join(chars)):
        for term in _all_tokens(CODE_REF_RE.sub(" ", text)):
            if term in STOPWORDS or term.startswith("#"):
                continue
            if _CJK_CHAR.match(term) and (len(term) == 1 or term[0] in STOP_CHARACTERS or term[1] in STOP_CHARACTERS):
                continue
            counts[term] += 1
    for name in symbols:
        counts[SYMBOL + name.lower()] += 1
    return dict(sorted(counts.items()))


def _all_tokens(text: str) -> list[str]:
    """Every token of ``text``, repeats kept (``tokens`` gives each once per call): one call per line of it."""
    out: list[str] = []
    for part in re.split(r"[。！？；\n]", text):
        out.extend(tokens(part))
    return out


def length(terms: Mapping[str, int]) -> float:
    """The length of a note's vector of ``k(t) · (1 + ln tf)``, over all its terms."""
    return math.sqrt(sum((kind_weight(t) * (1 + math.log(tf))) ** 2 for t, tf in terms.items())) or 1.0


@dataclass(frozen=True)
class Pick:
    """One scoring of a note: its best neighbour, and its list when that one
    picks another note (``alone``) or picks it back (``picked_back``: the mutual rule)."""

    best: str | None
    alone: tuple[str, ...]
    picked_back: tuple[str, ...]

    def listed(self, docname: str, best_of: Mapping[str, str | None]) -> tuple[str, ...]:
        """The note's list, ``best_of`` giving every note's best."""
        return self.picked_back if self.best is not None and best_of.get(self.best) == docname else self.alone


class Index:
    """The archive's terms, for scoring: ``notes`` maps docname -> its terms
    (:func:`note_terms`); ``lengths`` their :func:`length`, when known.

    Made once per build that changed a note; its cost is counting the terms
    of every note (``Counter.update``) and weighting each note's distinctive
    ones."""

    def __init__(self, notes: Mapping[str, Mapping[str, int]], lengths: Mapping[str, float] | None = None) -> None:
        self.notes = notes
        self.df: Counter[str] = Counter()
        for terms in notes.values():
            self.df.update(terms.keys())
        self.cap = cap(len(notes))
        rarity = {t: idf(df, self.cap) for t, df in self.df.items() if self.distinctive(t)}
        # docname -> {distinctive term: its weight, over the note's length}; term -> [(docname, weight)]
        self.weights: dict[str, dict[str, float]] = {}
        self.postings: dict[str, list[tuple[str, float]]] = {t: [] for t in rarity}
        for docname, terms in notes.items():
            norm = lengths[docname] if lengths is not None else length(terms)
            mine = self.weights[docname] = {}
            for term in sorted(terms.keys() & rarity.keys()):
                tf = terms[term]
                mine[term] = weight = kind_weight(term) * (1 if tf == 1 else 1 + math.log(tf)) * rarity[term] / norm
                self.postings[term].append((docname, weight))

    def distinctive(self, term: str) -> bool:
        return 2 <= self.df[term] <= self.cap and term[0] != VERDICT

    def scores(self, docname: str) -> dict[str, float]:
        """The note's score with every note it shares a distinctive term with."""
        found: dict[str, float] = {}
        for term, own in self.weights[docname].items():
            for other, weight in self.postings[term]:
                if other != docname:
                    found[other] = found.get(other, 0.0) + own * weight
        return found

    def _weighed(self, docname: str, subsystem_of: Mapping[str, str], same: float) -> tuple[dict[str, float], dict[str, float]]:
        """What the note shares with each note, and that score with :data:`SAME_SUBSYSTEM`."""
        subsystem = subsystem_of.get(docname)
        shared = self.scores(docname)
        scores = {
            other: score * (same if subsystem is not None and subsystem_of.get(other) == subsystem else 1)
            for other, score in shared.items()
        }
        return shared, scores

    def pick(
        self,
        docname: str,
        subsystem_of: Mapping[str, str],
        threshold: float = THRESHOLD,
        *,
        certain: float = CERTAIN,
        floor: float = FLOOR,
        standout: float = STANDOUT,
        same: float = SAME_SUBSYSTEM,
        mutual: float = MUTUAL,
        cited: Iterable[str] = (),
        cited_floor: float = CITED,
    ) -> Pick:
        """The note's list both ways the mutual rule may decide (module
        docstring), from one scoring of the note: ``cited`` are the notes it
        cites or that cite it. The cut-offs are the site's unless given;
        ``certain=threshold``, ``standout=math.inf``, ``mutual=math.inf`` and
        no ``cited`` give an absolute cut-off alone."""
        subsystem = subsystem_of.get(docname)
        shared, scores = self._weighed(docname, subsystem_of, same)
        if not scores:
            return Pick(None, (), ())
        # The best by its score; the next by what it shares alone, so that a
        # note of the same subsystem does not hide a best of another repository.
        top = max(scores, key=lambda other: (scores[other], other))
        best = scores[top]
        runner_up = max((score for other, score in shared.items() if other != top), default=0.0)
        # Only the notes that may be listed are ranked: the best (to two decimals) and those from threshold on.
        least = min(threshold, round(best, 2) - 0.005)
        ranked = sorted(
            (-round(score, 2), subsystem_of.get(other) != subsystem, other) for other, score in scores.items() if score >= least
        )
        listed = [ranked[0][2], *(other for *_, other in ranked[1:] if scores[other] >= threshold)]

        def with_cited(found: list[str]) -> tuple[str, ...]:
            # A note it cites, or that cites it, that deals with the same thing: any distinctive term shared.
            found = found + sorted((o for o in set(cited) if o not in found and scores.get(o, 0.0) >= cited_floor), key=lambda o: (-scores[o], o))
            return tuple(found[:LISTED])

        if best >= certain or (best >= floor and best >= standout * runner_up):
            return Pick(top, with_cited(listed), with_cited(listed))
        return Pick(top, with_cited([]), with_cited(listed) if best >= mutual else with_cited([]))

    def having(self, terms: Iterable[str]) -> set[str]:
        """The notes that have any of ``terms``, distinctive or not."""
        terms = set(terms)
        found: set[str] = set()
        common = set()
        for term in terms:
            if term in self.postings:
                found.update(d for d, _ in self.postings[term])
            elif self.df[term] > self.cap:
                common.add(term)
        if common:  # rare: a term no longer distinctive; its notes have no posting of it
            found.update(d for d, t in self.notes.items() if not common.isdisjoint(t))
        return found


def lists_of(notes: Iterable) -> dict[str, tuple[str, ...]]:
    """Every note's list, scored over ``notes`` (:class:`prnotes.model.site.Note`, the whole
    archive) from their own text: what one build of them shows, for the builds of the archive
    in volumes, each of which holds some of them (docs/volumes.md)."""
    notes = list(notes)
    # Each note's terms as the conversion kept them (the entry's Analysis), else cut now.
    index = Index({n.docname: dict(sorted(Counter(n.terms.split("\n")).items())) if n.terms else note_terms(n.title, n.body, (s.name for s in n.symbols)) for n in notes})
    cited = citations((n.docname, n.repo, n.number, [(r.repo, r.number) for r in n.mentions]) for n in notes)
    subsystem_of = {n.docname: n.subsystem for n in notes}
    picks = {d: index.pick(d, subsystem_of, cited=cited.get(d, ())) for d in sorted(index.notes)}
    bests = {d: pick.best for d, pick in picks.items()}
    return {d: pick.listed(d, bests) for d, pick in picks.items()}


def citations(notes: Iterable[tuple[str, str, int | None, Iterable[tuple[str, int]]]]) -> dict[str, set[str]]:
    """Note -> the notes it cites (``#N``, ``owner/repo#N``, whatever the kind) or that cite it, of
    ``notes`` given as (docname, repository, number, the (repository, number) pairs it mentions)."""
    notes = list(notes)
    page = {(repo.lower(), number): d for d, repo, number, _ in notes if number is not None}
    out: dict[str, set[str]] = {}
    for docname, _, _, mentions in notes:
        for other in {page.get((repo.lower(), number)) for repo, number in mentions} - {None, docname}:
            out.setdefault(docname, set()).add(other)
            out.setdefault(other, set()).add(docname)
    return out
