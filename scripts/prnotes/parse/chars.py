"""Which characters input text may hold, and how print shows invisible ones.

One decision per class of character, taken once for every input (seed text,
the strings of ``prs.toml`` and ``taxonomy.toml``, seed file names), so that
every output (pages, feed, search index, meta tags, PDF) can rely on it:

* rejected, with the file and line: control characters other than tab and
  newline (XML and the MyST field lists cannot hold them), Unicode
  noncharacters (not text; XML forbids U+FFFE and U+FFFF), bidirectional
  controls (they make text display in another order than it is stored, the
  "Trojan Source" trick), the line and paragraph separators U+2028 and U+2029
  (a line break the seed format does not see) and private-use characters
  (they mean something only in the font that defines them);
* accepted: everything else, the invisible format characters included
  (zero-width space and joiners, word joiner, soft hyphen, variation
  selectors, emoji tags). Browsers and feed readers handle them; for print,
  :func:`for_print` drops the invisible ones and turns the rare spaces into
  ordinary ones, since the book's fonts have no glyph for them.

Which characters show nothing (:func:`shows_nothing`) is decided here too:
whitespace, Unicode's default-ignorable code points (the Hangul fillers
among them) and the blank braille cell. A line of only those is blank, and a
title of only those is empty.
"""

from __future__ import annotations

import re
import unicodedata

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_SEPARATORS = "\u2028\u2029"
# U+FDD0..U+FDEF and the last two code points of every plane. Planes 15 and
# 16 are private use as a whole, so their last two are covered below.
_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(15)
)
_PRIVATE_USE = "\ue000-\uf8ff\U000f0000-\U0010ffff"
# Lone surrogates come only from file names that are not UTF-8 (Python
# decodes those with surrogateescape).
_SURROGATES = "\ud800-\udfff"

DISALLOWED_RE = re.compile(f"[{_CONTROLS}{_BIDI}{_SEPARATORS}{_NONCHARACTERS}{_PRIVATE_USE}{_SURROGATES}]")
# What may not stand in text shown on one line: those, and tab and newline.
ONE_LINE_BAD_RE = re.compile(f"[\\t\\n]|{DISALLOWED_RE.pattern}")


def _classify(ch: str) -> tuple[str, str]:
    """``(what ch is, why it may not stand in text)`` for a disallowed character."""
    cp = ord(ch)
    name = f"U+{cp:04X}"
    if unicodedata.category(ch) == "Cc":
        return f"control character {name}", ""
    if re.fullmatch(f"[{_BIDI}]", ch):
        return f"bidirectional control character {name}", "it changes the order in which text is shown"
    if cp in (0x2028, 0x2029):
        what = "line" if cp == 0x2028 else "paragraph"
        return f"{what} separator {name}", "end the line with a newline instead"
    if 0xD800 <= cp <= 0xDFFF:
        return "bytes that are not UTF-8", ""
    if (cp & 0xFFFE) == 0xFFFE or 0xFDD0 <= cp <= 0xFDEF:
        return f"noncharacter {name}", "it is not text"
    return f"private-use character {name}", "it has no meaning outside the font that defines it"


def kind(ch: str) -> str:
    """What a disallowed character is, with its code point: "control character U+0007"."""
    return _classify(ch)[0]


def problem(ch: str) -> str | None:
    """Why ``ch`` may not stand in input text, or ``None`` if it may."""
    if not DISALLOWED_RE.fullmatch(ch):
        return None
    what, why = _classify(ch)
    return f"{what} is not allowed" + (f": {why}" if why else "")


def shown(text: str) -> str:
    """``text`` safe to print on one line: tabs, newlines and disallowed characters escaped.

    A bidirectional control printed as it is would reorder the terminal
    line that shows it; a surrogate (a byte of a name that is not UTF-8)
    is shown as that byte.
    """

    def escape(match: re.Match[str]) -> str:
        cp = ord(match.group())
        if 0xDC80 <= cp <= 0xDCFF:
            return f"\\x{cp - 0xDC00:02x}"
        return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"

    return ONE_LINE_BAD_RE.sub(escape, text)


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt; the
# same from Unicode 14 to 17): code points a renderer shows as nothing when
# it does not support them, and mostly when it does. tests/test_hostile.py
# checks the list against the property where Node.js is installed.
DEFAULT_IGNORABLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
# The Hangul fillers are default-ignorable, yet the fonts have them and they
# matter in old Hangul: print keeps them.
HANGUL_FILLERS = "\u115f\u1160\u3164\uffa0"
# Characters that are not default-ignorable and show nothing all the same:
# the blank braille cell.
BLANK_GLYPHS = "\u2800"
# What shows something: neither whitespace (Unicode's White_Space: Python's
# \s, and the controls among it are rejected anyway), nor default-ignorable,
# nor a blank glyph.
_SHOWS_SOMETHING_RE = re.compile(f"[^\\s{DEFAULT_IGNORABLE}{BLANK_GLYPHS}]")
# Invisible for print: dropping them changes nothing a reader of the book sees.
_INVISIBLE_RE = re.compile("[" + "".join(ch for ch in DEFAULT_IGNORABLE if ch not in HANGUL_FILLERS) + "]")


def shows_nothing(text: str) -> bool:
    """Whether ``text`` looks blank: only whitespace, default-ignorable characters and blank glyphs.

    A title or a seed line of only such characters is empty, however many
    it holds (``ㅤ``, U+3164, looks like a space; so do U+2800 and U+200B).
    """
    return _SHOWS_SOMETHING_RE.search(text) is None


# Spaces the fonts lack: the no-break ones become U+00A0, the rest U+0020.
_SPACES = str.maketrans({**{cp: " " for cp in (0x1680, *range(0x2000, 0x200B), 0x205F)}, 0x2007: "\u00a0", 0x202F: "\u00a0"})


def for_print(text: str) -> str:
    """``text`` as the book prints it: invisible characters dropped, rare spaces plain."""
    return _INVISIBLE_RE.sub("", text).translate(_SPACES)
