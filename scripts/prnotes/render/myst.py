"""MyST building blocks that keep seed text literal.

Seed text is untrusted. Every ASCII punctuation character in it is
backslash-escaped, which CommonMark defines as "this character, literally";
that disarms emphasis, links, HTML, roles, directives, math, targets, comments
and block markers alike. Code spans get a fence longer than any backtick run
inside them. Nothing else is needed because nothing else is special.
"""

from __future__ import annotations

import functools
import posixpath
import re

from .. import contract
from ..parse.refs import Break, Code, Inline, Ref, Text

_PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_PUNCT_RE = re.compile("([" + re.escape(_PUNCT) + "])")
_BACKTICK_RUN = re.compile(r"`+")


def escape(text: str) -> str:
    """Literal text: escape ASCII punctuation; newlines become spaces."""
    return _PUNCT_RE.sub(r"\\\1", text).replace("\n", " ")


def code(text: str) -> str:
    """A code span showing ``text`` exactly (newlines become spaces)."""
    text = text.replace("\n", " ")
    longest = max((len(m) for m in _BACKTICK_RUN.findall(text)), default=0)
    fence = "`" * (longest + 1)
    if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()):
        text = f" {text} "
    return f"{fence}{text}{fence}"


def role(name: str, title: str, target: str) -> str:
    """``{name}`title <target>``` for our own roles; both parts are ASCII-safe."""
    return f"{{{name}}}`{title} <{target}>`"


def ref_role(ref: Ref) -> str:
    name = "pr" if ref.kind == "pull" else "issue"
    return role(f"{name}-code" if ref.code else name, ref.text, ref.target)


def inline(pieces: tuple[Inline, ...], link_text: bool = False) -> str:
    """Render inline pieces as MyST.

    ``link_text``: the pieces are the text of a link, where a link cannot
    nest; references there are plain text (code ones stay code).
    """
    out = []
    for piece in pieces:
        if isinstance(piece, Text):
            out.append(escape(piece.text))
        elif isinstance(piece, Code) or (link_text and isinstance(piece, Ref) and piece.code):
            out.append(code(piece.text))
        elif isinstance(piece, Break):
            out.append(" " if link_text else "\n\n")
        elif link_text:
            out.append(escape(piece.text))
        else:
            out.append(ref_role(piece))
    return "".join(out)


def external_link(text_md: str, url: str) -> str:
    """A Markdown link to a URL the converter built (never one from seed text)."""
    return f"[{text_md}](<{url}>)"


def doc_link(text_md: str, from_doc: str, to_doc: str) -> str:
    """A Markdown link from one docname to another, by relative path."""
    return f"[{text_md}]({relative(from_doc, to_doc)}.md)"


@functools.lru_cache(maxsize=4096)
def _dir_rel(from_dir: str, to_dir: str) -> str:
    return posixpath.relpath(to_dir or ".", from_dir or ".")


def relative(from_doc: str, to_doc: str) -> str:
    """Path of docname ``to_doc`` relative to the folder of ``from_doc``."""
    to_dir, _, name = to_doc.rpartition("/")
    rel_dir = _dir_rel(from_doc.rpartition("/")[0], to_dir)
    return name if rel_dir == "." else f"{rel_dir}/{name}"


def marker(source: str) -> str:
    """The first line of every generated page: what made it, from what."""
    return f"{contract.MARKER} from {source}; edit the source, not this page."


def hidden_toctree(entries, caption: str = "") -> list[str]:
    """Lines of a hidden toctree: it makes the page tree, the page shows its own list."""
    entries = list(entries)
    if not entries:
        return []
    return ["```{toctree}", ":hidden:", *([f":caption: {caption}"] if caption else []), "", *entries, "```", ""]


def badge(colour: str, text: str) -> str:
    return f"{{bdg-{colour}}}`{text}`"
