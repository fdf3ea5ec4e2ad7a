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
   prefix of :data:`ENV_PREFIXES` (``VLLM_GPU_SYNC_CHECK``, also as the last
   part of a dotted name: ``envs.VLLM_USE_V1``); other upper-case names are
   constants (rule 4);
3. 函数与变量 (``function``): a call (``gpu_sync_allowed()``,
   ``envs.disable_envs_cache()``, ``torch.tensor(..., device=...)``);
4. 配置与类 (``config``): a name whose last dotted part is a class
   (``MambaHybridModelState``) or a constant (``NONE_HASH``), a command-line
   option (``--max-model-len``), a lower-case key given a value
   (``enforce_eager=True``; the symbol is the key);
5. 函数与变量 (``function``): any other name, lower-case or snake_case, dotted
   or not (``resolve_none_hash_seed``, ``fused_moe``);
6. 其他 (``other``): everything else: expressions, literals, versions.

Generic names (:func:`is_generic`: ``None``, ``replace``, ``copy_()``,
``.item()``, ``torch.tensor(..., device=...)``) are left out. What counts as
generic is data, ``generic_names.toml`` next to this module: Python's
constants, keywords, built-ins and the methods of its built-in types,
lifecycle verbs, and PyTorch's everyday tensor calls, matched after dropping a
leading ``.``, a call's arguments and a generic namespace (``torch.``,
``torch.Tensor.``, ``self.``), with in-place forms (``zero_``) and dunder
names (``__init__``). Paths and environment variables are never generic.

A code span that holds only a PR reference (`` `#52626` ``) is a reference, not
a symbol: the PR index lists it.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..parse.refs import Code, Inline, Text


@dataclass(frozen=True)
class Kind:
    slug: str
    title: str
    meaning: str


KINDS = (
    Kind("path", "文件路径", "仓库里的文件与目录。"),
    Kind("env", "环境变量", "进程和 CI 读取的环境变量。"),
    Kind("config", "配置与类", "类、常量、命令行参数和配置项。"),
    Kind("function", "函数与变量", "函数、方法、变量和参数。"),
    Kind("other", "其他", "表达式、字面量等其他代码片段。"),
)

_EXTENSIONS = "py|pyi|sh|bash|yaml|yml|toml|json|txt|md|rst|cfg|ini|cpp|cc|cu|cuh|c|h|hpp|cmake|rocm|cuda|cpu|dockerfile"
PATH_RE = re.compile(rf"[^\s()]*/[^\s()]*|[^\s()/]+\.(?:{_EXTENSIONS})|Dockerfile[.\w-]*", re.IGNORECASE)
ENV_RE = re.compile(r"(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?P<value>=\S*)?")
ENV_PREFIXES = ("VLLM_", "BUILDKITE_", "CUDA_", "HIP_", "ROCM_", "HSA_", "NCCL_", "TORCH_", "PYTORCH_", "HF_", "OMP_", "GITHUB_")
_PART = r"[A-Za-z_][A-Za-z0-9_]*"
# A dotted name, with an optional leading "." (a method: `.item()`).
NAME_RE = re.compile(rf"\.?{_PART}(?:\.{_PART})*")
CALL_RE = re.compile(rf"(?P<callee>\.?{_PART}(?:\.{_PART})*)\s*\(.*\)", re.DOTALL)
CLASS_RE = re.compile(r"_*[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")
CONSTANT_RE = re.compile(r"_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+_*")
OPTION_RE = re.compile(r"(?P<name>--?[A-Za-z][A-Za-z0-9_-]*)(?:[= ]\S+)?")
SETTING_RE = re.compile(rf"(?P<name>[a-z_][a-z0-9_]*(?:\.{_PART})*)=\S+")
DUNDER_RE = re.compile(r"__[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*__")
# Code-like words in plain text. ASCII classes on purpose: a Chinese character
# next to a name is a word boundary.
BARE_NAME_RE = re.compile(r"(?<![A-Za-z0-9_./-])_?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\(\))?(?![A-Za-z0-9_/-])")
BARE_FILE_RE = re.compile(
    r"(?<![A-Za-z0-9_./-])(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.(?:py|sh|yaml|yml|toml|json|cu|cpp|h)(?![A-Za-z0-9_])"
)
GENERIC_NAMES = Path(__file__).with_name("generic_names.toml")


@dataclass(frozen=True, order=True)
class Symbol:
    """A symbol as the index lists it; sorts by kind, then case-insensitively."""

    kind: str
    name: str


def symbol_of(span: str) -> Symbol:
    """The kind and name of one code span, by the rules in the module docstring."""
    text = span.strip()
    if PATH_RE.fullmatch(text):
        return Symbol("path", text)
    env = ENV_RE.fullmatch(text)
    if env and (env.group("value") or env.group("name").startswith(ENV_PREFIXES)):
        return Symbol("env", env.group("name"))
    if NAME_RE.fullmatch(text):
        last = text.rpartition(".")[2]
        if last.startswith(ENV_PREFIXES) and ENV_RE.fullmatch(last):
            return Symbol("env", last)
        if CLASS_RE.fullmatch(last) or CONSTANT_RE.fullmatch(last):
            return Symbol("config", text)
        return Symbol("function", text)
    if CALL_RE.fullmatch(text):
        return Symbol("function", text)
    for regex in (OPTION_RE, SETTING_RE):
        match = regex.fullmatch(text)
        if match:
            return Symbol("config", match.group("name"))
    return Symbol("other", text)


@dataclass(frozen=True)
class GenericNames:
    """The contents of ``generic_names.toml``."""

    namespaces: frozenset[str]
    names: frozenset[str]


@functools.cache
def generic_names(path: Path = GENERIC_NAMES) -> GenericNames:
    """Read the list of generic names (a file of the package: an error in it is a bug, so it raises)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for group, table in data.items():
        if group == "namespaces":
            continue
        for key, values in table.items():
            if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
                raise ValueError(f"{path.name}: [{group}] {key} must be a list of strings")
            names.update(values)
    return GenericNames(frozenset(data.get("namespaces", ())), frozenset(names))


def _bare_name(name: str, namespaces: frozenset[str]) -> str:
    """A name without its leading ".", its call arguments and a generic namespace."""
    call = CALL_RE.fullmatch(name)
    if call:
        name = call.group("callee")
    name = name.lstrip(".")
    owner, dot, last = name.rpartition(".")
    return last if dot and owner in namespaces else name


def is_generic(symbol: Symbol, generic: GenericNames | None = None) -> bool:
    """Whether a symbol is a generic Python or PyTorch name (module docstring)."""
    if symbol.kind in ("path", "env"):
        return False
    generic = generic or generic_names()
    name = _bare_name(symbol.name, generic.namespaces)
    if name in generic.names or DUNDER_RE.fullmatch(name):
        return True
    # In-place forms: `copy_`, `zero_` (not `_private`, nor `__x__`).
    return name.endswith("_") and not name.startswith("_") and name[:-1] in generic.names


def symbols_in(pieces: tuple[Inline, ...]) -> set[Symbol]:
    """The symbols of some text, generic names left out."""
    found = set()
    for piece in pieces:
        if isinstance(piece, Code) and piece.text.strip():
            found.add(symbol_of(piece.text))
        elif isinstance(piece, Text):
            for regex in (BARE_NAME_RE, BARE_FILE_RE):
                found.update(symbol_of(m.group(0)) for m in regex.finditer(piece.text))
    return {s for s in found if not is_generic(s)}


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


class _WithSymbols(Protocol):
    docname: str
    symbols: tuple[Symbol, ...]


def symbol_index(notes: Iterable[_WithSymbols]) -> dict[Symbol, tuple[str, ...]]:
    """Every symbol of the notes with the docnames of the notes that mention it."""
    index: dict[Symbol, set[str]] = {}
    for note in notes:
        for symbol in note.symbols:
            index.setdefault(symbol, set()).add(note.docname)
    return {s: tuple(sorted(index[s])) for s in sorted(index, key=sort_key)}
