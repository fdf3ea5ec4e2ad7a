"""The code-symbol index (代码符号索引): a part per kind and initial, and a page leading to them.

Each part lists its symbols with the notes that mention them; the Sphinx side
builds the list from the notes' facts when it writes the page
(``{prnotes-list} symbols``), so the parts stay small and a new note is read
once. A part is paged by count (:mod:`.paging`): :data:`SYMBOL_PAGE` symbols a
page, in the order the archive first named them, alphabetical on each page.
"""

from __future__ import annotations

from .. import contract
from ..model.site import Site
from ..model.symbols import KINDS, initial, symbol_index
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .paging import Key, Page, entries_label, list_directive, note_key, paged

INTRO = ("笔记里出现的代码名字：文件、环境变量、配置与类、函数与变量，以及其他代码片段，" "每个名字后面是提到它的笔记。在代码里遇到一个名字，可以在这里找到讲到它的笔记。" "Python 和 PyTorch 的通用名字（如 `None`、`.item()`）不收录。")


def _initial_title(first: str) -> str:
    return {"0": "0–9", "other": "其他"}.get(first, first.upper())


# Up to this many symbols, the index lists them all on its own page; above it,
# a part per kind and initial, SYMBOL_PAGE symbols a page (each with up to a
# dozen notes, prnotes.sphinxext.lists.fill.SYMBOL_NOTES: at most about 2.7 KB of HTML).
INLINE_SYMBOLS = 150
SYMBOL_PAGE = 80


def arrival_keys(site: Site) -> dict[tuple[str, str], Key]:
    """Each symbol's arrival key: the key of the first note that names it, then
    its place in that note's symbols (as the Sphinx side works it out)."""
    first: dict[tuple[str, str], Key] = {}
    for note in sorted(site.notes, key=lambda n: note_key(site, n)):
        for place, symbol in enumerate(note.symbols):
            first.setdefault((symbol.kind, symbol.name), (*note_key(site, note), place))
    return first


def render_symbols(site: Site) -> dict[str, str]:
    docname = contract.SYMBOLS
    index = symbol_index(site.notes)
    split = len(index) > INLINE_SYMBOLS
    by_part: dict[tuple[str, str], list[Key]] = {}
    for (kind_slug, name), key in (arrival_keys(site) if split else {}).items():
        by_part.setdefault((kind_slug, initial(name)), []).append(key)
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
            keys = sorted(by_part.get((kind.slug, first), ()))
            title = f"代码符号：{kind.title} · {_initial_title(first)}"
            head = [
                marker("seeds/"),
                "",
                f"# {title}",
                "",
                f"{escape(kind.meaning)}共 {counts[first]} 个，每页按字母排序；每个名字后面是提到它的笔记，新 PR 在前。"
                f"其他首字母见{doc_link('代码符号索引', page, docname)}。",
                "",
            ]

            def body(part: Page, here: str, slug: str = kind.slug, first: str = first) -> list[str]:
                return list_directive("symbols", {"kind": slug, "initial": first, **part.where()})

            pages.update(paged(page, keys, SYMBOL_PAGE, head, title, body, label=entries_label("个"), unit="个"))
        lines.append(" · ".join(links))
    if not index:
        lines += ["", "笔记里还没有代码片段。"]
    lines += ["", *hidden_toctree(relative(docname, p) for p in parts)]
    pages[f"{docname}.md"] = "\n".join(lines)
    return pages
