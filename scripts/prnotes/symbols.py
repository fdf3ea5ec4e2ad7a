"""The code symbols the notes mention: every code span, with its kind.

A symbol is the text of a code span, or a code-like word in plain text: a name
with an underscore (``resolve_none_hash_seed``, ``VLLM_GPU_SYNC_CHECK``,
``fused_moe``) or a file name with a known extension (``setup.py``). Words
without an underscore (``forward``) cannot be told from prose, so only code
spans bring them in.

Kinds, decided from the span's text (first rule wins):

1. 文件路径 (``path``): a span without spaces that has a ``/`` or ends in a
   file extension (``vllm/utils/gpu_sync_debug.py``, ``run_ci_command.py``,
   ``Dockerfile.rocm``);
2. 环境变量 (``env``): an upper-case name with an underscore that is given a
   value (``VLLM_TARGET_DEVICE=cpu``; the symbol is the name) or starts with a
   prefix of :data:`ENV_PREFIXES` (``VLLM_GPU_SYNC_CHECK``); other upper-case
   names are constants (``NONE_HASH``) and fall under rule 3;
3. 函数与标识符 (``identifier``): everything else (``resolve_none_hash_seed``,
   ``gpu_sync_allowed()``, ``torch.tensor(..., device=...)``).

A code span that holds only a PR reference (`` `#52626` ``) is a reference, not
a symbol: the PR index lists it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import Site
from .refs import Code, Inline, Text


@dataclass(frozen=True)
class Kind:
    slug: str
    title: str
    meaning: str


KINDS = (
    Kind("path", "文件路径", "仓库里的文件与目录。"),
    Kind("env", "环境变量", "全大写、带下划线的名字；写成 NAME=value 的也归到 NAME。"),
    Kind("identifier", "函数与标识符", "函数、类、变量、参数、表达式。"),
)

_EXTENSIONS = "py|pyi|sh|bash|yaml|yml|toml|json|txt|md|rst|cfg|ini|cpp|cc|cu|cuh|c|h|hpp|cmake|rocm|cuda|cpu|dockerfile"
PATH_RE = re.compile(rf"[^\s()]*/[^\s()]*|[^\s()/]+\.(?:{_EXTENSIONS})|Dockerfile[.\w-]*", re.IGNORECASE)
ENV_RE = re.compile(r"(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?P<value>=\S*)?")
ENV_PREFIXES = ("VLLM_", "BUILDKITE_", "CUDA_", "HIP_", "ROCM_", "HSA_", "NCCL_", "TORCH_", "PYTORCH_", "HF_", "OMP_", "GITHUB_")
# Code-like words in plain text. ASCII classes on purpose: a Chinese character
# next to a name is a word boundary.
BARE_NAME_RE = re.compile(r"(?<![A-Za-z0-9_./-])_?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\(\))?(?![A-Za-z0-9_/-])")
BARE_FILE_RE = re.compile(
    r"(?<![A-Za-z0-9_./-])(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.(?:py|sh|yaml|yml|toml|json|cu|cpp|h)(?![A-Za-z0-9_])"
)


@dataclass(frozen=True, order=True)
class Symbol:
    """A symbol as the index lists it; sorts by kind, then case-insensitively."""

    kind: str
    name: str


def symbol_of(span: str) -> Symbol:
    """The kind and name of one code span, by the rules in the module docstring."""
    text = span.strip()
    if PATH_RE.fullmatch(text) and not text.startswith("."):
        return Symbol("path", text)
    env = ENV_RE.fullmatch(text)
    if env and (env.group("value") or env.group("name").startswith(ENV_PREFIXES)):
        return Symbol("env", env.group("name"))
    return Symbol("identifier", text)


def symbols_in(pieces: tuple[Inline, ...]) -> set[Symbol]:
    found = set()
    for piece in pieces:
        if isinstance(piece, Code) and piece.text.strip():
            found.add(symbol_of(piece.text))
        elif isinstance(piece, Text):
            for regex in (BARE_NAME_RE, BARE_FILE_RE):
                found.update(symbol_of(m.group(0)) for m in regex.finditer(piece.text))
    return found


def initial(name: str) -> str:
    """The part of the symbol index a name is listed in: its first letter
    (``a``–``z``, leading ``.`` and ``_`` skipped), ``0`` for a digit, else ``other``."""
    for ch in name.lstrip("._"):
        if "a" <= ch.lower() <= "z" and ch.isascii():
            return ch.lower()
        return "0" if ch.isdigit() and ch.isascii() else "other"
    return "other"


def sort_key(symbol: Symbol) -> tuple:
    # Kind order first; leading "." or "_" would otherwise pull a name to the
    # top; ties (names differing only in case) fall back to the exact text.
    return ([k.slug for k in KINDS].index(symbol.kind), symbol.name.lstrip("._").lower(), symbol.name)


def symbol_index(site: "Site") -> dict[Symbol, tuple[str, ...]]:
    """Every symbol on the site with the docnames of the notes that mention it."""
    index: dict[Symbol, set[str]] = {}
    for note in site.notes:
        for symbol in note.symbols:
            index.setdefault(symbol, set()).add(note.docname)
    return {s: tuple(sorted(index[s])) for s in sorted(index, key=sort_key)}
