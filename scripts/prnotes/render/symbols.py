"""The code-symbol index (代码符号索引): a page per kind and initial, and a page leading to them.

Each part lists its symbols with the notes that mention them; the Sphinx side
builds the list from the notes' facts when it writes the page
(``{prnotes-list} symbols``), so the parts stay small and a new note is read once.
"""

from __future__ import annotations

from .. import contract
from ..model import Site
from ..symbols import KINDS, initial, symbol_index
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .paging import list_directive

INTRO = (
    "笔记里出现的代码名字：文件、环境变量、配置与类、函数与变量，以及其他代码片段，"
    "每个名字后面是提到它的笔记。在代码里遇到一个名字，可以在这里找到讲到它的笔记。"
    "Python 和 PyTorch 的通用名字（如 `None`、`.item()`）不收录。"
)


def _initial_title(first: str) -> str:
    return {"0": "0–9", "other": "其他"}.get(first, first.upper())


# Up to this many symbols, the index lists them all on its own page; above it,
# a page per kind and initial.
INLINE_SYMBOLS = 150


def render_symbols(site: Site) -> dict[str, str]:
    docname = contract.SYMBOLS
    index = symbol_index(site.notes)
    split = len(index) > INLINE_SYMBOLS
    lines = [marker("seeds/"), "", "(symbols)=", "# 代码符号索引", "", INTRO]
    pages: dict[str, str] = {}
    parts: list[str] = []
    for kind in KINDS:
        counts: dict[str, int] = {}
        for symbol in index:
            if symbol.kind == kind.slug:
                first = initial(symbol.name)
                counts[first] = counts.get(first, 0) + 1
        if not counts:
            continue
        lines += ["", f"(symbols-{kind.slug})=", f"## {kind.title}", "", f"{escape(kind.meaning)}（{sum(counts.values())} 个）", ""]
        if not split:
            lines += list_directive("symbols", {"kind": kind.slug})
            continue
        links = []
        for first in sorted(counts, key=lambda f: (f == "other", f)):
            page = contract.symbols_docname(kind.slug, first)
            parts.append(page)
            links.append(f"{doc_link(_initial_title(first), docname, page)}（{counts[first]}）")
            pages[f"{page}.md"] = "\n".join(
                [
                    marker("seeds/"),
                    "",
                    f"# 代码符号：{kind.title} · {_initial_title(first)}",
                    "",
                    f"{escape(kind.meaning)}本页 {counts[first]} 个，按字母排序；每个名字后面是提到它的笔记，新 PR 在前。"
                    f"其他首字母见{doc_link('代码符号索引', page, docname)}。",
                    "",
                    *list_directive("symbols", {"kind": kind.slug, "initial": first}),
                ]
            )
        lines.append(" · ".join(links))
    if not index:
        lines += ["", "笔记里还没有代码片段。"]
    lines += ["", *hidden_toctree(relative(docname, p) for p in parts)]
    pages[f"{docname}.md"] = "\n".join(lines)
    return pages
