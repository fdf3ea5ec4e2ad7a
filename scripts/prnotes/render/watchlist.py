"""The follow-up watch list (跟进清单), the 待跟进 box on each note, and the
marks on the follow-up sentences of a note's advice.

A note shows each follow-up once: the sentence is marked where the advice says
it (:func:`marked_advice`, a span with an anchor), and the box lists the short
labels with the PR or issue each one names (:func:`render_followup_box`). The
watch list is built by the Sphinx side from the boxes
(:mod:`prnotes.sphinxext.lists.fill`): each item with its label, its PR or issue,
the note (linking to the marked sentence) and the digest with its date.
"""

from __future__ import annotations

from .. import contract
from ..model.followups import FollowUp
from ..model.site import Note, Site
from ..parse.refs import Inline, Ref, Text
from .myst import doc_link, escape, hidden_toctree, inline, marker, ref_role, relative
from .paging import Page, list_directive, note_key, paged, pages, subsystem_heading, volume_redirects

INTRO = "笔记里提到、值得后续关注的事项。每条写明要关注什么、对应的 PR 或 issue，以及出自哪篇笔记、哪一期。"
# Up to this many items the watch list is one page, a section per subsystem;
# above it, a page per subsystem, split into pages of FOLLOWUP_PAGE items
# (prnotes.render.paging): an item is about 1.4 KB of HTML.
INLINE_FOLLOWUPS = 60
FOLLOWUP_PAGE = 120
# The watch list's order: newest digest first, then as the digest lists its notes.
ORDER = "newest"


def _split(pieces: tuple[Inline, ...], cuts: list[int]) -> list[tuple[Inline, ...]]:
    """``pieces`` cut at plain-text offsets into ``len(cuts) + 1`` parts; every
    cut falls in plain text or between pieces (follow-ups are clauses, which
    only plain text bounds)."""
    out: list[list[Inline]] = [[]]
    cuts = sorted(cuts)
    next_cut = 0  # index into cuts
    offset = 0
    for piece in pieces:
        if isinstance(piece, Text):
            text, pos = piece.text, 0
            while next_cut < len(cuts) and cuts[next_cut] <= offset + len(text):
                cut = max(pos, cuts[next_cut] - offset)
                if cut > pos:
                    out[-1].append(Text(text[pos:cut]))
                pos = cut
                out.append([])
                next_cut += 1
            if pos < len(text):
                out[-1].append(Text(text[pos:]))
        else:
            while next_cut < len(cuts) and cuts[next_cut] <= offset:
                out.append([])
                next_cut += 1
            out[-1].append(piece)
        offset += len(piece.text)
    out.extend([] for _ in cuts[next_cut:])
    return [tuple(part) for part in out]


def marked_advice(note: Note) -> str:
    """The advice as MyST, each follow-up clause a span with its anchor; the text is unchanged."""
    items = note.follow_ups
    if not items:
        return inline(note.pieces)
    parts = _split(note.pieces, [cut for item in items for cut in (item.start, item.end)])
    out = []
    for index, part in enumerate(parts):
        text = inline(part)
        if index % 2:
            anchor = contract.followup_anchor(index // 2 + 1)
            text = f"[{text}]{{#{anchor} .{contract.FOLLOWUP_CLASS}}}"
        out.append(text)
    return "".join(out)


def _target(ref: Ref, repo: str) -> str:
    """A follow-up's PR or issue: ``PR #N`` at home, ``issue owner/repo#N`` elsewhere."""
    text = f"#{ref.number}" if contract.same_repo(ref.repo, repo) else ref.target
    word = "PR" if ref.kind == "pull" else "issue"
    return f"{word} {ref_role(Ref(text, ref.repo, ref.number, ref.kind))}"


def followup_item(item: FollowUp, repo: str) -> str:
    """One line of the 待跟进 box: the label, then what it names."""
    label = f"[{inline(item.label, link_text=True)}]{{.{contract.FOLLOWUP_LABEL_CLASS}}}"
    targets = "、".join(_target(ref, repo) for ref in item.targets)
    named = f"跟进：{targets}" if targets else contract.FOLLOWUP_NO_TARGET
    return f"- {label} [· {named}]{{.{contract.FOLLOWUP_TARGET_CLASS}}}"


def render_followup_box(note: Note, links: bool = True) -> list[str]:
    """Lines of the 待跟进 admonition for a note page; empty if it has none.

    Without ``links`` (the PDF book has no watch-list page) the box does not
    point at the watch list.
    """
    items = note.follow_ups
    if not items:
        return []
    see_also = (["```{only} html", f"全站的待跟进事项见{doc_link('跟进清单', note.docname, contract.WATCHLIST)}。", "```"] if links else [])
    return [
        f":::{{admonition}} {contract.FOLLOWUPS_SECTION}",
        f":class: tip {contract.FOLLOWUPS_BOX_CLASS}",
        "",
        *(followup_item(item, note.repo) for item in items),
        "",
        *see_also,
        ":::",
        "",
    ]


def _count(items: int, notes: int) -> str:
    return f"{items} 条，来自 {notes} 篇笔记"


def render_watchlist(site: Site) -> dict[str, str]:
    """The watch list: one page with a section per subsystem while it is small,
    else an index of subsystems and a page per subsystem (paged by count of items)."""
    docname = contract.WATCHLIST
    groups = []
    for sub in site.subsystems:
        notes = [n for n in site.in_subsystem(sub.key) if n.follow_ups]
        if notes:
            groups.append((sub, notes, sum(len(n.follow_ups) for n in notes)))
    total = sum(items for _, _, items in groups)
    lines = [marker("seeds/"), "", "(followups)=", "# 跟进清单", "", INTRO, ""]
    if not groups:
        lines.append("目前没有笔记提到后续事项。")
        return {f"{docname}.md": "\n".join(lines) + "\n"}
    lines += [f"共 {_count(total, sum(len(notes) for _, notes, _ in groups))}，按子系统分组，新的一期在前。", ""]
    out: dict[str, str] = {}
    if total <= INLINE_FOLLOWUPS:
        for sub, notes, items in groups:
            lines += [f"({contract.watchlist_label(sub.key)})=", f"## {escape(subsystem_heading(site, sub))}", "", f"{_count(items, len(notes))}。", ""]
            lines += list_directive("followups", {"subsystem": sub.key}, order=ORDER)
        out[f"{docname}.md"] = "\n".join(lines).rstrip("\n") + "\n"
        return out
    for sub, notes, items in groups:
        page = contract.watchlist_docname(sub.key)
        heading = subsystem_heading(site, sub)
        lines.append(f"- {doc_link(escape(heading), docname, page)}：{_count(items, len(notes))}")
        head = [
            marker("seeds/"),
            "",
            f"# 跟进清单：{escape(heading)}",
            "",
            f"{escape(heading)}的笔记里提到的后续事项，共 {_count(items, len(notes))}，新的一期在前。",
            "",
        ]

        def body(part: Page, here: str, key: str = sub.key) -> list[str]:
            return list_directive("followups", {"subsystem": key, **part.where()}, order=ORDER)

        # An item's arrival key: its note's, then its place in the note's box.
        ordered = sorted(notes, key=lambda n: note_key(site, n))
        keys = [(*note_key(site, n), index) for n in ordered for index in range(1, len(n.follow_ups) + 1)]
        redirects = volume_redirects(site, page, ordered, pages(keys, FOLLOWUP_PAGE), key=lambda n: (*note_key(site, n), 1))
        out.update(paged(page, keys, FOLLOWUP_PAGE, head, f"跟进清单：{heading}", body, redirects=redirects, unit="条"))
    lines += ["", *hidden_toctree(relative(docname, contract.watchlist_docname(s.key)) for s, _, _ in groups)]
    out[f"{docname}.md"] = "\n".join(lines).rstrip("\n") + "\n"
    return out
