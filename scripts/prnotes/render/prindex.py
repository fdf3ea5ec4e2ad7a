"""The PR index: every PR the site has a note for or mentions, with who mentions it."""

from __future__ import annotations

from .. import contract
from ..model import Site
from ..refs import Ref
from .lists import note_link
from .myst import escape, marker, ref_role


def render_prindex(site: Site) -> str:
    docname = contract.PR_INDEX
    notes = site.by_docname
    numbers: set[tuple[str, int]] = {(n.repo, n.number) for n in site.notes if n.number is not None}
    numbers |= set(site.mentioned_by)
    kinds = {(r.repo, r.number): r.kind for n in site.notes for r in n.mentions}
    lines = [
        marker("seeds/"),
        "",
        "# PR 索引",
        "",
        "本页列出站内每篇笔记的 PR，以及笔记里提到的每个 PR 和 issue，"
        "按仓库、再按编号从新到旧排列。有笔记的编号链接到笔记，其余链接到 GitHub。",
    ]
    current_repo = None
    # Repositories A→Z, then newest number first, as on the subsystem pages.
    for repo, number in sorted(numbers, key=lambda k: (k[0].lower(), -k[1])):
        if repo != current_repo:
            lines += ["", f"## {escape(repo)}", ""]
            current_repo = repo
        kind = kinds.get((repo, number), "pull")
        note = site.note_for(repo, number)
        item = f"- {ref_role(Ref(f'#{number}', repo, number, kind))}"
        if kind == "issues":
            item += " （issue）"
        if note is not None:
            item += " " + note_link(note, docname)
        by = [d for d in site.mentioned_by.get((repo, number), ()) if note is None or d != note.docname]
        if by:
            item += " — 提到它的笔记：" + "、".join(note_link(notes[d], docname) for d in by)
        lines.append(item)
    lines.append("")
    return "\n".join(lines)
