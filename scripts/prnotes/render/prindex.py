"""The PR index: every PR the site has a note for or mentions, a page per repository and number range."""

from __future__ import annotations

from .. import contract
from ..model import Site
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .paging import list_directive

# Numbers per page: a range page holds the PRs of one repository whose numbers
# fall in [k * RANGE, (k + 1) * RANGE). Fixed ranges keep a new note to one page.
RANGE = 500
# Up to this many numbers, the index lists them all on its own page.
INLINE_NUMBERS = 150


def render_prindex(site: Site) -> dict[str, str]:
    docname = contract.PR_INDEX
    numbers: set[tuple[str, int]] = {(n.repo, n.number) for n in site.notes if n.number is not None}
    numbers |= set(site.mentioned_by)
    ranges: dict[tuple[str, int], int] = {}
    for repo, number in numbers:
        key = (repo, number // RANGE * RANGE)
        ranges[key] = ranges.get(key, 0) + 1
    lines = [
        marker("seeds/"),
        "",
        "# PR 索引",
        "",
        "站内每篇笔记的 PR，以及笔记里提到的每个 PR 和 issue，按仓库、再按编号分页，"
        "每页从新到旧排列。有笔记的编号链接到笔记，其余链接到 GitHub。",
    ]
    pages: dict[str, str] = {}
    parts: list[str] = []
    if len(numbers) <= INLINE_NUMBERS:
        for repo in sorted({r for r, _ in numbers}, key=lambda r: (r.lower(), r)):
            lines += ["", f"## {escape(repo)}", "", *list_directive("prs", {"repo": repo, "from": 0, "to": 10**9})]
        pages[f"{docname}.md"] = "\n".join(lines) + "\n"
        return pages
    current = None
    # Repositories A→Z, then newest range first.
    for repo, start in sorted(ranges, key=lambda k: (k[0].lower(), k[0], -k[1])):
        if repo != current:
            lines += ["", f"## {escape(repo)}", ""]
            current = repo
        end = start + RANGE - 1
        page = contract.pr_range_docname(repo, start)
        parts.append(page)
        label = f"\\#{start}–{end}"
        lines.append(f"- {doc_link(label, docname, page)}（{ranges[(repo, start)]} 个）")
        pages[f"{page}.md"] = "\n".join(
            [
                marker("seeds/"),
                "",
                f"# PR 索引：{escape(repo)} {label}",
                "",
                f"这一段编号里站内有笔记或被笔记提到的 {ranges[(repo, start)]} 个 PR 和 issue，从新到旧排列。"
                f"其他编号见{doc_link('PR 索引', page, docname)}。",
                "",
                *list_directive("prs", {"repo": repo, "from": start, "to": end}),
            ]
        )
    lines += ["", *hidden_toctree(relative(docname, p) for p in parts)]
    pages[f"{docname}.md"] = "\n".join(lines) + "\n"
    return pages
