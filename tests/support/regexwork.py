"""The work a regular expression does, counted: a deterministic proxy for ``re``.

``re`` cannot say how many steps a search took, and a time is no test. This
module runs a compiled pattern the way ``re``'s engine does (the same parse
tree, :mod:`re._parser`; the same backtracking order: alternatives left to
right, greedy repeats longest first, lazy ones shortest first, a search
trying each start position in turn) and counts one step for each character
tested, each node entered and each start position tried. The count differs
from ``re``'s own work by a constant factor, not by its growth: a pattern
that rescans the rest of the text from each of many start positions counts
quadratically many steps here as it costs there.

:func:`steps` counts one call; :class:`Counted` stands in for a module's
pattern objects (:func:`counting`), answers every call with ``re``'s own
result and adds up the steps the interpreter took to find it, so a test can
compare the work a function does on inputs of two sizes.
``tests/test_hostile.py`` checks that the interpreter finds what ``re``
finds.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from re import _constants as C
from re import _parser

MAX = C.MAXREPEAT


class Work:
    """A step counter."""

    def __init__(self) -> None:
        self.steps = 0


def _word(ch: str, ascii_only: bool) -> bool:
    return (ch.isascii() or not ascii_only) and (ch.isalnum() or ch == "_")


_CATEGORIES = {
    C.CATEGORY_DIGIT: lambda ch, a: ch.isdecimal() and (ch.isascii() or not a),
    C.CATEGORY_NOT_DIGIT: lambda ch, a: not (ch.isdecimal() and (ch.isascii() or not a)),
    C.CATEGORY_SPACE: lambda ch, a: ch in " \t\n\r\f\v" if a else ch.isspace(),
    C.CATEGORY_NOT_SPACE: lambda ch, a: not (ch in " \t\n\r\f\v" if a else ch.isspace()),
    C.CATEGORY_WORD: lambda ch, a: _word(ch, a),
    C.CATEGORY_NOT_WORD: lambda ch, a: not _word(ch, a),
}


class _Matcher:
    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self.tree = _parser.parse(pattern.pattern, pattern.flags & ~re.UNICODE)
        self.flags = self.tree.state.flags
        self.work = work
        self.text = ""

    # -- one character ---------------------------------------------------------

    def _char_ok(self, op, av, ch: str, flags: int) -> bool:
        ascii_only = bool(flags & re.ASCII)
        if op is C.ANY:
            return flags & re.DOTALL or ch != "\n"
        if op in (C.LITERAL, C.NOT_LITERAL):
            same = ord(ch) == av or (flags & re.IGNORECASE and ch.lower() == chr(av).lower())
            return same if op is C.LITERAL else not same
        if op is C.IN:
            negate = bool(av) and av[0][0] is C.NEGATE
            cands = {ch, ch.lower(), ch.upper()} if flags & re.IGNORECASE else {ch}
            hit = False
            for item_op, item_av in av[1:] if negate else av:
                self.work.steps += 1
                for c in cands:
                    if item_op is C.LITERAL:
                        hit = ord(c) == item_av
                    elif item_op is C.RANGE:
                        hit = item_av[0] <= ord(c) <= item_av[1]
                    elif item_op is C.CATEGORY:
                        hit = _CATEGORIES[item_av](c, ascii_only)
                    else:
                        raise NotImplementedError(item_op)
                    if hit:
                        break
                if hit:
                    break
            return hit != negate
        raise NotImplementedError(op)

    @staticmethod
    def _single(node) -> bool:
        return node[0] in (C.ANY, C.LITERAL, C.NOT_LITERAL, C.IN)

    # -- sequences ---------------------------------------------------------------

    def seq(self, items, idx: int, pos: int, flags: int) -> Iterator[int]:
        if idx == len(items):
            yield pos
            return
        for end in self.node(items[idx], pos, flags):
            yield from self.seq(items, idx + 1, end, flags)

    def node(self, node, pos: int, flags: int) -> Iterator[int]:
        self.work.steps += 1
        op, av = node
        text = self.text
        if self._single(node):
            if pos < len(text) and self._char_ok(op, av, text[pos], flags):
                yield pos + 1
        elif op is C.SUBPATTERN:
            _, add, delete, sub = av
            yield from self.seq(sub.data, 0, pos, (flags | add) & ~delete)
        elif op is C.BRANCH:
            for alternative in av[1]:
                self.work.steps += 1
                yield from self.seq(alternative.data, 0, pos, flags)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, hi, sub = av
            found = self.repeat(op, lo, hi, sub.data, pos, flags)
            if op is C.POSSESSIVE_REPEAT:
                for end in found:
                    yield end
                    break
            else:
                yield from found
        elif op is C.ATOMIC_GROUP:
            for end in self.seq(av.data, 0, pos, flags):
                yield end
                break
        elif op in (C.ASSERT, C.ASSERT_NOT):
            direction, sub = av
            if direction == 1:
                hit = any(True for _ in self.seq(sub.data, 0, pos, flags))
            else:
                width = sub.getwidth()[0]
                start = pos - width
                hit = start >= 0 and any(end == pos for end in self.seq(sub.data, 0, start, flags))
            if hit == (op is C.ASSERT):
                yield pos
        elif op is C.AT:
            if self._at(av, pos, flags):
                yield pos
        else:
            raise NotImplementedError(op)

    def _at(self, code, pos: int, flags: int) -> bool:
        text = self.text
        if code is C.AT_BEGINNING:
            return pos == 0 or bool(flags & re.MULTILINE) and text[pos - 1] == "\n"
        if code is C.AT_BEGINNING_STRING:
            return pos == 0
        if code is C.AT_END:
            if flags & re.MULTILINE:
                return pos == len(text) or text[pos] == "\n"
            return pos == len(text) or (pos == len(text) - 1 and text[pos] == "\n")
        if code is C.AT_END_STRING:
            return pos == len(text)
        if code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            if not text:
                return False
            a = bool(flags & re.ASCII)
            before = pos > 0 and _word(text[pos - 1], a)
            after = pos < len(text) and _word(text[pos], a)
            return (before != after) == (code is C.AT_BOUNDARY)
        raise NotImplementedError(code)

    def repeat(self, op, lo: int, hi: int, items, pos: int, flags: int) -> Iterator[int]:
        text = self.text
        if len(items) == 1 and self._single(items[0]):
            # One character at a time, as re's REPEAT_ONE: greedy takes the
            # longest run and gives back; lazy grows one at a time.
            node_op, node_av = items[0]
            limit = len(text) if hi is MAX else min(len(text), pos + hi)
            if op is C.MIN_REPEAT:
                end = pos
                while True:
                    if end - pos >= lo:
                        yield end
                    self.work.steps += 1
                    if end >= limit or not self._char_ok(node_op, node_av, text[end], flags):
                        return
                    end += 1
            end = pos
            while end < limit:
                self.work.steps += 1
                if not self._char_ok(node_op, node_av, text[end], flags):
                    break
                end += 1
            for stop in range(end, pos + lo - 1, -1):
                self.work.steps += 1
                yield stop
            return
        yield from self._repeat(op, lo, hi, items, pos, flags, 0)

    def _repeat(self, op, lo, hi, items, pos, flags, count) -> Iterator[int]:
        lazy = op is C.MIN_REPEAT
        if lazy and count >= lo:
            yield pos
        if hi is MAX or count < hi:
            for end in self.seq(items, 0, pos, flags):
                if end == pos and count >= lo:
                    continue  # an empty iteration ends the repeat
                yield from self._repeat(op, lo, hi, items, end, flags, count + 1)
        if not lazy and count >= lo:
            yield pos

    # -- calls ---------------------------------------------------------------------

    def match_at(self, text: str, pos: int) -> int | None:
        self.text = text
        for end in self.seq(self.tree.data, 0, pos, self.flags):
            return end
        return None

    def search(self, text: str, pos: int, advance: bool = False) -> tuple[int, int] | None:
        """The first match at or after ``pos``; with ``advance``, not an empty one at ``pos``
        (``re``'s rule for the match after an empty one)."""
        self.text = text
        for start in range(pos, len(text) + 1):
            self.work.steps += 1
            for end in self.seq(self.tree.data, 0, start, self.flags):
                if advance and start == pos and end == pos:
                    continue
                return start, end
        return None


def _bounds(text: str, pos: int, endpos: int | None) -> tuple[str, int]:
    end = len(text) if endpos is None else max(0, min(endpos, len(text)))
    return text[:end], max(0, min(pos, end))


def steps(pattern: re.Pattern[str], text: str, how: str = "search", pos: int = 0, endpos: int | None = None) -> int:
    """Steps ``pattern.<how>(text, pos, endpos)`` takes (``how``: search, match, fullmatch, finditer)."""
    work = Work()
    _run(pattern, work, how, text, pos, endpos)
    return work.steps


def spans(pattern: re.Pattern[str], text: str, how: str = "finditer") -> list[tuple[int, int]]:
    """What the interpreter finds: the spans of ``how`` (search or finditer), to check it against ``re``."""
    return _run(pattern, Work(), how, text, 0, None)


def _run(pattern, work, how, text, pos, endpos) -> list[tuple[int, int]]:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    matcher = _Matcher(pattern, work)
    text, pos = _bounds(text, pos, endpos)
    if how == "match":
        end = matcher.match_at(text, pos)
        return [] if end is None else [(pos, end)]
    if how == "fullmatch":
        # re's fullmatch: a match that ends at the end, backtracking until one does.
        matcher.text = text
        for end in matcher.seq(matcher.tree.data, 0, pos, matcher.flags):
            if end == len(text):
                return [(pos, end)]
        return []
    found: list[tuple[int, int]] = []
    advance = False
    while pos <= len(text):
        hit = matcher.search(text, pos, advance)
        if hit is None or how == "search":
            return found + ([hit] if hit else [])
        found.append(hit)
        start, pos = hit
        advance = pos == start
    return found


class Counted:
    """A stand-in for a compiled pattern: ``re``'s results, the interpreter's steps added to ``work``."""

    def __init__(self, pattern: re.Pattern[str], work: Work) -> None:
        self._pattern, self._work = pattern, work
        self.pattern, self.flags, self.groups = pattern.pattern, pattern.flags, pattern.groups

    def _count(self, how: str, text: str, pos: int = 0, endpos: int | None = None) -> None:
        _run(self._pattern, self._work, how, text, pos, endpos)

    def search(self, text, pos=0, endpos=sys.maxsize):
        self._count("search", text, pos, endpos)
        return self._pattern.search(text, pos, endpos)

    def match(self, text, pos=0, endpos=sys.maxsize):
        self._count("match", text, pos, endpos)
        return self._pattern.match(text, pos, endpos)

    def fullmatch(self, text, pos=0, endpos=sys.maxsize):
        self._count("fullmatch", text, pos, endpos)
        return self._pattern.fullmatch(text, pos, endpos)

    def finditer(self, text, pos=0, endpos=sys.maxsize):
        self._count("finditer", text, pos, endpos)
        return self._pattern.finditer(text, pos, endpos)

    def findall(self, text, pos=0, endpos=sys.maxsize):
        self._count("finditer", text, pos, endpos)
        return self._pattern.findall(text, pos, endpos)

    def sub(self, repl, text, count=0):
        self._count("finditer", text)
        return self._pattern.sub(repl, text, count)

    def subn(self, repl, text, count=0):
        self._count("finditer", text)
        return self._pattern.subn(repl, text, count)

    def split(self, text, maxsplit=0):
        self._count("finditer", text)
        return self._pattern.split(text, maxsplit)


def _wrap(value, work: Work, depth: int = 0):
    if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
        return Counted(value, work)
    if isinstance(value, tuple) and depth < 3:
        wrapped = tuple(_wrap(v, work, depth + 1) for v in value)
        return wrapped if any(a is not b for a, b in zip(wrapped, value)) else value
    return value


def counting(monkeypatch, work: Work, *modules) -> None:
    """Replace every compiled pattern among the globals of ``modules`` (in tuples too) by a :class:`Counted` one."""
    for module in modules:
        for name, value in list(vars(module).items()):
            wrapped = _wrap(value, work)
            if wrapped is not value:
                monkeypatch.setattr(module, name, wrapped)


def patterns_of(*modules) -> dict[str, re.Pattern[str]]:
    """``module.NAME`` (``[i]`` for tuple members) -> every compiled text pattern among the modules' globals."""
    found: dict[str, re.Pattern[str]] = {}

    def visit(where: str, value, depth: int) -> None:
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            if value not in found.values():
                found[where] = value
        elif isinstance(value, tuple) and depth < 3:
            for index, item in enumerate(value):
                visit(f"{where}[{index}]", item, depth + 1)

    for module in modules:
        for name, value in vars(module).items():
            visit(f"{module.__name__.rsplit('.', 1)[-1]}.{name}", value, 0)
    return found


def literals(pattern: re.Pattern[str]) -> list[str]:
    """The runs of literal characters in a pattern, each as its own string: what an adversary repeats."""
    runs: list[str] = []

    def walk(items) -> None:
        current = ""
        for op, av in items:
            if op is C.LITERAL:
                current += chr(av)
                continue
            if current:
                runs.append(current)
                current = ""
            if op is C.IN:
                runs.extend(chr(a) for o, a in av if o is C.LITERAL)
                runs.extend(chr(a[0]) for o, a in av if o is C.RANGE)
            elif op is C.NOT_LITERAL:
                runs.append(chr(av))
            elif op is C.SUBPATTERN:
                walk(av[3].data)
            elif op is C.BRANCH:
                for alternative in av[1]:
                    walk(alternative.data)
            elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
                walk(av[2].data)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1].data)
            elif op is C.ATOMIC_GROUP:
                walk(av.data)
        if current:
            runs.append(current)

    walk(_parser.parse(pattern.pattern, pattern.flags & ~re.UNICODE).data)
    return list(dict.fromkeys(runs))
