"""The PR index: every PR the site has a note for or mentions, a part per repository, paged by count.

A repository's part lists its numbers newest first, :data:`PR_PAGE` numbers a
page (:mod:`.paging`): a number's place is when the archive first had or
named it, so a full page never changes, and a new digest adds its numbers to
the newest page.
"""

from __future__ import annotations

from .. import contract
from ..model.site import Site
from .myst import doc_link, escape, hidden_toctree, marker, relative
from .paging import Key, Page, entries_label, list_directive, note_key, page_docname, page_of, paged, pages

# Numbers per page: each with its note and up to eight notes that mention
# it (prnotes.sphinxext.lists.fill.PR_NOTES), about 1.3 KB of HTML on a dense archive and at most 3 KB.
PR_PAGE = 100
# Up to this many numbers, the index lists them all on its own page.
INLINE_NUMBERS = 150
# The numbering of earlier releases: a page per range of this many numbers,
# whose addresses now redirect (see arrival_keys).
RANGE = 500


def arrival_keys(site: Site) -> dict[str, tuple[str, dict[int, Key]]]:
    """Per repository (lower case): its name as first written, and each of its
    numbers' arrival key, the key of the first note that has or mentions it,
    then the number (the Sphinx side works out the same: prnotes.sphinxext.lists.fill)."""
    out: dict[str, tuple[str, dict[int, Key]]] = {}
    spelled = {repo.lower(): repo for repo in site.repos}
    for note in sorted(site.notes, key=lambda n: note_key(site, n)):
        key = note_key(site, note)
        numbers = [(note.repo, note.number)] if note.number is not None else []
        numbers += [(ref.repo, ref.number) for ref in note.mentions]
        for repo, number in numbers:
            name, first = out.setdefault(repo.lower(), (spelled.get(repo.lower(), repo), {}))
            if number not in first:
                first[number] = (*key, number)
    return out


def _range_redirects(repo: str, docname: str, first: dict[int, Key], listed: list[Page]) -> dict[str, str]:
    """The pages of the numbering by ranges (``<repo>-<start>``), each to the
    page now holding the number of its range that arrived first."""
    oldest: dict[int, Key] = {}
    for number, key in first.items():
        start = number // RANGE * RANGE
        if start not in oldest or key < oldest[start]:
            oldest[start] = key
    return {contract.pr_range_docname(repo, start): page_docname(docname, page_of(listed, key)) for start, key in oldest.items()}


def render_prindex(site: Site) -> dict[str, str]:
    docname = contract.PR_INDEX
    repos = arrival_keys(site)
    # The site's repositories in its order (most notes first); those its notes only mention after, by name.
    rank = {repo.lower(): index for index, repo in enumerate(site.repos)}
    order = sorted(repos, key=lambda r: (rank.get(r, len(rank)), repos[r][0].lower(), repos[r][0]))
    total = sum(len(first) for _, first in repos.values())
    lines = [
        marker("seeds/"),
        "",
        "# PR 索引",
        "",
        "站内每篇笔记的 PR，以及笔记里提到的每个 PR 和 issue，按仓库分组，从新到旧排列。",
    ]
    pages_out: dict[str, str] = {}
    if total <= INLINE_NUMBERS:
        for lower in order:
            repo = repos[lower][0]
            lines += ["", f"## {escape(repo)}", "", *list_directive("prs", {"repo": repo})]
        pages_out[f"{docname}.md"] = "\n".join(lines) + "\n"
        return pages_out
    lines += ["", f"每个仓库一页，最新的编号在前；编号多的仓库每 {PR_PAGE} 个一页，按编号第一次出现在站内的先后分页。", ""]
    parts = []
    for lower in order:
        repo, first = repos[lower]
        page = contract.pr_list_docname(repo)
        parts.append(page)
        lines.append(f"- {doc_link(escape(repo), docname, page)}（{len(first)} 个）")
        keys = sorted(first.values())
        listed = pages(keys, PR_PAGE)
        head = [
            marker("seeds/"),
            "",
            f"# PR 索引：{escape(repo)}",
            "",
            f"站内有笔记或被笔记提到的 {escape(repo)} 的 {len(first)} 个 PR 和 issue，每页从新到旧排列。"
            f"其他仓库见{doc_link('PR 索引', page, docname)}。",
            "",
        ]

        def body(part: Page, here: str, repo: str = repo) -> list[str]:
            return list_directive("prs", {"repo": repo, **part.where()})

        redirects = _range_redirects(repo, page, first, listed)
        pages_out.update(
            paged(page, keys, PR_PAGE, head, f"PR 索引：{escape(repo)}", body, label=entries_label("个"), redirects=redirects, unit="个")
        )
    lines += ["", *hidden_toctree(relative(docname, p) for p in parts)]
    pages_out[f"{docname}.md"] = "\n".join(lines) + "\n"
    return pages_out
