"""The code-symbol index (代码符号索引): every symbol with the notes that mention it."""

from __future__ import annotations

from .. import contract
from ..model import Site
from ..symbols import KINDS, symbol_index
from .myst import code, doc_link, escape, inline, marker

INTRO = (
    "笔记里出现的代码：每个代码片段（反引号里的内容），以及正文里带下划线的名字和带扩展名的文件名。"
    "按种类分组，组内按字母排序（不分大小写，忽略开头的“.”和“_”）。"
    "在代码里遇到一个名字，可以在这里找到所有提到它的笔记。"
)


def render_symbols(site: Site) -> str:
    docname = contract.SYMBOLS
    index = symbol_index(site)
    notes = site.by_docname
    lines = [marker("seeds/"), "", "(symbols)=", "# 代码符号索引", "", INTRO]
    for kind in KINDS:
        entries = [(s, docs) for s, docs in index.items() if s.kind == kind.slug]
        if not entries:
            continue
        lines += ["", f"## {kind.title}", "", f"{escape(kind.meaning)}（{len(entries)} 个）", ""]
        for symbol, docs in entries:
            links = "、".join(doc_link(inline(notes[d].title_pieces), docname, d) for d in docs)
            lines.append(f"- {code(symbol.name)}：{links}")
    if not index:
        lines += ["", "笔记里还没有代码片段。"]
    lines.append("")
    return "\n".join(lines)
