"""The page of one note: title, metadata, the advice verbatim, related notes."""

from __future__ import annotations

from .. import contract
from ..classify import VERDICT_BY_SLUG
from ..model import Note, Site
from ..refs import Ref
from .myst import badge, code, doc_link, escape, inline, marker, ref_role
from .tags import note_tag_badges
from .watchlist import render_followup_box


def _meta_badges(note: Note, site: Site, links: bool) -> str:
    tax = site.taxonomy
    parts = []
    if note.verdict:
        v = VERDICT_BY_SLUG[note.verdict]
        parts.append(badge(v.badge, v.title))
    sub = tax.subsystem(note.subsystem)
    parts.append(f"{{bdg-ref-info-line}}`{sub.title} <subsystem-{sub.slug}>`")
    parts.extend(note_tag_badges(note, site, links))
    return " ".join(parts)


def _fields(note: Note, site: Site) -> list[str]:
    tax = site.taxonomy
    fields = [f":{contract.REPO_FIELD}: {escape(note.repo)}"]
    if note.number is not None:
        fields.append(f":{contract.PR_FIELD}: {ref_role_for(note)}")
    if note.upstream_title:
        fields.append(f":{contract.UPSTREAM_FIELD}: {escape(note.upstream_title)}")
    if note.verdict:
        v = VERDICT_BY_SLUG[note.verdict]
        fields.append(f":{contract.VERDICT_FIELD}: {v.title}（{escape(v.meaning)}）")
    else:
        fields.append(f":{contract.VERDICT_FIELD}: 未注明")
    if note.audiences:
        names = {a.slug: a.title for a in tax.audiences}
        fields.append(f":{contract.AUDIENCE_FIELD}: " + "、".join(escape(names[a]) for a in note.audiences))
    sub = tax.subsystem(note.subsystem)
    fields.append(f":{contract.SUBSYSTEM_FIELD}: {doc_link(escape(sub.title), note.docname, contract.subsystem_docname(sub.slug))}")
    fields.append(f":来源: {code(f'{note.path}:{note.line}')}")
    return fields


def ref_role_for(note: Note) -> str:
    return ref_role(Ref(f"#{note.number}", note.repo, note.number))


def _as_seen_from(ref: Ref, repo: str) -> Ref:
    """The reference as a list item shows it: ``#N`` at home, else ``owner/repo#N``."""
    text = f"#{ref.number}" if ref.repo == repo else ref.target
    return Ref(text, ref.repo, ref.number, ref.kind)


def _related(note: Note, site: Site) -> list[str]:
    out: list[str] = []
    mentions = note.mentions
    if mentions:
        out += ["", "本篇提到：", ""]
        for ref in mentions:
            line = f"- {ref_role(_as_seen_from(ref, note.repo))}"
            target = site.note_for(ref.repo, ref.number) if ref.kind == "pull" else None
            if target is not None:
                line += " " + doc_link(inline(target.title_pieces), note.docname, target.docname)
            elif ref.kind == "issues":
                line += " （issue）"
            out.append(line)
    backlinks = ()
    if note.number is not None:
        backlinks = tuple(d for d in site.mentioned_by.get((note.repo, note.number), ()) if d != note.docname)
    if backlinks:
        notes = site.by_docname
        out += ["", "提到本篇的笔记：", ""]
        for doc in backlinks:
            out.append(f"- {doc_link(inline(notes[doc].title_pieces), note.docname, doc)}")
    if not out:
        out = ["", "本篇没有提到其他 PR，也还没有笔记提到本篇。"]
    return out


def render_note(note: Note, site: Site, links: bool = True) -> str:
    """MyST text of a note page; ``links=False`` for the PDF book, which has no tag pages."""
    lines = [
        marker(f"{note.path}:{note.line}"),
        "",
        f"({note.label})=",
        f"# {inline(note.title_pieces)}",
        "",
        _meta_badges(note, site, links),
        "",
        *_fields(note, site),
        "",
        f"## {contract.ADVICE_SECTION}",
        "",
        inline(note.pieces),
        "",
        *render_followup_box(note, links),
        f"## {contract.RELATED_SECTION}",
        *_related(note, site),
        "",
    ]
    return "\n".join(lines)
