"""Follow-ups: what a note tells its reader to keep an eye on, and a short
label of each.

**Which clauses.** An advice text is split into clauses
(:mod:`prnotes.parse.sentences`); a clause is a follow-up when one of these rules
holds, checked in order:

1. it uses a follow-up word (:data:`FOLLOW_UP_RE`): ``跟踪`` (but not
   ``正在跟踪``, which describes the reader: "若你正在跟踪 MRV2 …"), ``跟进``,
   ``技术债``, ``关注后续``, ``建议后续``, ``后续维护``, ``后续新增``,
   ``后续可/需/应/再 …``, ``考虑后续``;
2. it asks a watch question (:data:`WATCH_QUESTION_RE`): ``关注`` or ``留意``
   followed, in the same clause, by ``何时``, ``是否会``, ``是否有`` or ``能否``;
3. it is an enumerated item whose lead-in announces things to watch
   (:data:`WATCH_LEAD_RE`: ``关注两点：一是 …；二是 …``) or itself matches
   rule 1.

``重点关注`` / ``重点留意`` mean "while reading, look at", not "watch later", so
they do not count for rules 2 and 3. ``后续`` alone does not count either:
``后续开发`` and ``与后续 PR 对照阅读`` are reading advice.

Each follow-up is one clause, without its enumerator and trailing separator,
with its place in the advice text (so the note page can mark it there).

**The label** says what to watch in the clause's own words, cut down; code
spans and references stay as they are. The clause is cut into parts at
``，`` (outside brackets and quotes), then:

1. the label starts at the first part with a watch word (rule 1 or 2, or
   ``关注``, ``留意``, ``注意``, ``跟踪``, ``跟进``, ``追踪``, ``观察``); an
   enumerated item starts at its first part. Earlier parts are context
   (``由于分区是静态的，…``);
2. it ends before the first later part that gives a purpose or further advice
   (:data:`TAIL_RE`: ``以消除 …``, ``避免 …``, ``建议 …``, ``可以考虑 …``,
   ``后续可 …``), and, while longer than :data:`LABEL_MAX` characters, before
   its last part;
3. the lead-in is dropped: a run of connectives, advice words, watch words and
   time words (:data:`LEAD_WORDS`: ``但注意``, ``也建议关注后续是否有``,
   ``后续维护需关注``, ``合入后跟踪``), up to the last word of the run that
   can end one, so ``可观测性`` and ``注意力`` keep their first characters;
4. a watch predicate at the end is dropped (``… 需要长期跟踪``);
   ``把 X 当作 Y`` becomes ``X（Y）`` and ``维护 X 时保持其 Y`` becomes ``X Y``;
5. when nothing is left, the part before (or else after) is the label; when
   the label starts with ``其`` or ``它``, the part before is put in front.

A follow-up's targets are the PRs and issues its label names; a follow-up
without one says so on the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..parse.refs import Inline, Ref, plain_text
from ..parse.sentences import Atom, Clause, atoms_of, clauses, pieces_of, sentence_spans

FOLLOW_UP_RE = re.compile(r"(?<!正在)跟踪|跟进|技术债|关注后续|建议后续|后续维护|后续新增|后续[可需应再]|考虑后续")
# The scan from a watch word stops at the next one: a question after both is
# found from the later one, so each character is scanned once, not once per
# watch word before it (only whether a clause holds a watch question counts).
_WATCH = r"(?<!重点)(?:关注|留意)"
WATCH_QUESTION_RE = re.compile(rf"{_WATCH}(?:(?!{_WATCH})[^，,；;。])*?(?:何时|是否会|是否有|能否)")
WATCH_LEAD_RE = re.compile(r"(?<!重点)(?:关注|留意|跟踪)[两三四五六七八九十几0-9]+(?:点|件事|个方面)")

# A code span or reference in the shadow text the label rules read: one
# character that no rule matches, so the rules never cut into one.
OPAQUE = "\ufffc"
# Where the label starts (label rule 1).
WATCH_WORD_RE = re.compile(rf"{FOLLOW_UP_RE.pattern}|{WATCH_QUESTION_RE.pattern}|(?<!重点)(?:关注|留意|注意(?!力)|跟踪|跟进|追踪|观察)")
# A later part that only says why, or advises more (label rule 2).
TAIL_RE = re.compile(
    r"\s*(?:(?:后续|之后|今后|届时|同时|也|还|或)\s*)*"
    r"(?:以(?![及后前上下来内外至往])|以便|以免|避免|防止|从而|进而|确保|使得?|让|否则|"
    r"建议|推荐|不妨|最好|可以|可考虑|考虑|可(?!能|观|用|靠|见|选|控|读|视|复|扩|行|变|配))"
)
# Label rule 3: words a lead-in is made of, longest first, and whether the
# lead-in may end with the word. One-character words never end it: "可" may
# start "可观测性", "并" "并发".
LEAD_WORDS: tuple[tuple[str, bool], ...] = (
    # connectives
    (r"但是|不过|然而|另外|此外|同时|并且|而且|尤其是|特别是|最后|其次|首先|尤其|特别", False),
    (r"[但也还并且另再而仍]", False),
    # advice words
    (r"(?:建议|推荐|需要|应该|应当|务必|不妨|最好|值得|可以|可考虑|推动|推进|督促|争取)(?!的)", True),
    (r"[需应要可请宜得]", False),
    # how closely
    (r"重点|密切|持续|继续|长期|一直|主动|及时|进一步", False),
    # watch words
    (r"(?:关注(?!点)|留意|注意(?!力|事项)|跟踪|跟进(?!\s*(?:PR|pr|提交|修复|工作))|追踪|观察|盯住|盯紧|关心|确认)(?!的)", True),
    (r"是否有|有没有|是否存在", True),
    # time words
    (r"(?:后续(?!\s*(?:PR|pr|提交|版本))|今后|之后|接下来|随后|合入后|合并后|上线后|发布后|落地后)(?!的)", True),
    # "后续维护需关注 …": maintenance as the time frame
    (r"维护时?|一下", False),
)
_LEAD_RES = tuple((re.compile(rf"(?:{pattern})\s*"), can_end) for pattern, can_end in LEAD_WORDS)
# Label rule 4.
PREDICATE_RE = re.compile(
    r"[，,]?\s*(?:[仍还也])?(?:需要|需|要|应该|应|值得|建议|可以)?\s*"
    r"(?:长期|持续|密切|继续|后续|重点)*\s*(?:跟踪|跟进|关注|留意|观察|追踪)(?:下去|一下)?\s*$"
)
PREDICATE_MAX = 40  # characters: "，仍需要长期持续密切跟踪下去" is 15
AS_RE = re.compile(r"^(?:把|将)\s*(?P<x>.+?)\s*(?:当作|当成|作为|视为|看作|列为)\s*(?P<y>.+)$")
WHILE_RE = re.compile(r"^(?:在)?(?:维护|修改|改动|重构|扩展|升级|调整)\s*(?P<x>.+?)\s*时[，,]?\s*(?:保持|确保|维持|保证)其\s*(?P<y>.+)$")
PRONOUN_RE = re.compile(r"[其它]")
PART_END = frozenset("，,")
OPENERS = "（(「『“‘【《"
CLOSERS = "）)」』”’】》"
# Label rule 2: a label longer than this loses parts from its end, if it has more than one.
LABEL_MAX = 60
_TRIM = " \t\u3000，,、；;：:。"


@dataclass(frozen=True)
class FollowUp:
    """One thing to watch.

    ``pieces`` is the clause as the note words it, ``start``/``end`` where it
    stands in the advice's plain text (:func:`prnotes.parse.refs.plain_text` of the
    note's pieces), ``label`` what to watch (module docstring).
    """

    pieces: tuple[Inline, ...]
    label: tuple[Inline, ...] = ()
    start: int = 0
    end: int = 0

    @property
    def text(self) -> str:
        return plain_text(self.pieces)

    @property
    def targets(self) -> tuple[Ref, ...]:
        """The PRs and issues the label names, each once, in text order."""
        seen: dict[tuple[str, int], Ref] = {}
        for piece in self.label:
            if isinstance(piece, Ref):
                seen.setdefault((piece.repo.lower(), piece.number), piece)
        return tuple(seen.values())


def is_follow_up(clause: Clause) -> bool:
    """Whether a clause is a follow-up, by the rules in the module docstring."""
    text = clause.text
    if FOLLOW_UP_RE.search(text) or WATCH_QUESTION_RE.search(text):
        return True
    return bool(clause.lead) and bool(WATCH_LEAD_RE.search(clause.lead) or FOLLOW_UP_RE.search(clause.lead))


# --- the label ------------------------------------------------------------------

def _widths(atoms: list[Atom]) -> list[int]:
    """``w[i]``: characters a reader sees in ``atoms[:i]``."""
    widths = [0]
    for atom in atoms:
        widths.append(widths[-1] + (len(atom) if isinstance(atom, str) else len(atom.text)))
    return widths


def _trim(shadow: str, lo: int, hi: int) -> tuple[int, int]:
    while lo < hi and shadow[lo] in _TRIM:
        lo += 1
    while hi > lo and shadow[hi - 1] in _TRIM:
        hi -= 1
    return lo, hi


def _parts(shadow: str) -> list[tuple[int, int]]:
    """The clause cut at ``，`` outside brackets and quotes, trimmed, as index ranges."""
    parts, depth, lo = [], 0, 0
    for index, ch in enumerate(shadow):
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth = max(0, depth - 1)
        elif ch in PART_END and depth == 0:
            parts.append((lo, index))
            lo = index + 1
    parts.append((lo, len(shadow)))
    return [r for r in (_trim(shadow, lo, hi) for lo, hi in parts) if r[0] < r[1]]


def lead_in(text: str) -> int:
    """Length of the lead-in at the start of ``text`` (label rule 3)."""
    pos, end = 0, 0
    while True:
        for regex, can_end in _LEAD_RES:
            match = regex.match(text, pos)
            if match and match.end() > pos:
                pos = match.end()
                if can_end:
                    end = pos
                break
        else:
            return end


def _core(shadow: str, lo: int, hi: int) -> tuple[int, int]:
    """Text from ``lo`` to ``hi`` without its lead-in and its closing watch
    predicate (label rules 3 and 4)."""
    lo, hi = _trim(shadow, lo + lead_in(shadow[lo:hi]), hi)
    # A predicate is a few words: searched for near the end only, where it
    # must stand, so a long run of its words costs no rescan from each one.
    predicate = PREDICATE_RE.search(shadow, max(lo, hi - PREDICATE_MAX), hi)
    if predicate and predicate.start() > lo:
        lo, hi = _trim(shadow, lo, predicate.start())
    return lo, hi


def label_of(clause: Clause) -> tuple[Inline, ...]:
    """What a follow-up clause asks the reader to watch (module docstring)."""
    atoms = atoms_of(clause.pieces)
    shadow = "".join(a if isinstance(a, str) else OPAQUE for a in atoms)
    parts = _parts(shadow)
    if not parts:
        return clause.pieces
    first = 0
    if not clause.lead:
        first = next((i for i, (lo, hi) in enumerate(parts) if WATCH_WORD_RE.search(shadow, lo, hi)), 0)
    last = first
    while last + 1 < len(parts) and not TAIL_RE.match(shadow, *parts[last + 1]):
        last += 1
    start = parts[first][0] + lead_in(shadow[parts[first][0] : parts[first][1]])
    widths = _widths(atoms)
    while last > first and widths[parts[last][1]] - widths[start] > LABEL_MAX:
        last -= 1
    lo, hi = _core(shadow, parts[first][0], parts[last][1])
    if lo >= hi:  # rule 5: only a watch word was there
        other = first - 1 if first > 0 else first + 1
        if other >= len(parts):
            return clause.pieces
        lo, hi = _core(shadow, *parts[other])
        if lo >= hi:
            return clause.pieces
    elif first > 0 and PRONOUN_RE.match(shadow, lo):
        before_lo, before_hi = _core(shadow, *parts[first - 1])
        if before_lo < before_hi:
            return pieces_of([*atoms[before_lo:before_hi], "，", *atoms[lo:hi]])
    found = AS_RE.match(shadow[lo:hi])
    if found:
        x0, x1 = lo + found.start("x"), lo + found.end("x")
        y0, y1 = lo + found.start("y"), lo + found.end("y")
        return pieces_of([*atoms[x0:x1], "（", *atoms[y0:y1], "）"])
    found = WHILE_RE.match(shadow[lo:hi])
    if found:
        x0, x1 = lo + found.start("x"), lo + found.end("x")
        y0, y1 = lo + found.start("y"), lo + found.end("y")
        return pieces_of([*atoms[x0:x1], *_space(shadow[x1 - 1], shadow[y0]), *atoms[y0:y1]])
    return pieces_of(atoms[lo:hi])


def _space(left: str, right: str) -> list[str]:
    """A space where two joined parts meet at a code span or a Latin letter, as the seeds write it."""
    return [" "] if left == OPAQUE or right == OPAQUE or left.isascii() or right.isascii() else []


def follow_ups_in(pieces: tuple[Inline, ...]) -> tuple[FollowUp, ...]:
    """Every follow-up clause of an advice text, in text order, with its label and place."""
    found = []
    for offset, sentence in sentence_spans(pieces):
        # A clause and its lead-in are parts of the sentence: if no rule matches
        # the whole sentence, none matches a part. Most sentences stop here.
        if not any(rule.search(plain_text(sentence)) for rule in (FOLLOW_UP_RE, WATCH_QUESTION_RE, WATCH_LEAD_RE)):
            continue
        for clause in clauses(sentence):
            if is_follow_up(clause):
                start = offset + clause.start
                found.append(FollowUp(clause.pieces, label_of(clause), start, start + len(clause.text)))
    return tuple(found)
