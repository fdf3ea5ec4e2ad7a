"""Reading lists: one page per verdict and per audience, and a page leading to them.

Each note shows its title, its subsystem (the heading it stands under) and the
first sentence of its advice. The lists are ``{prnotes-list}`` directives that
the Sphinx extension fills from the notes when it writes the page, so editing
a note's text re-reads only the note; a list is paged by count
(:mod:`.paging`).
"""

from __future__ import annotations

import re
import unicodedata

from .. import contract
from ..model.classify import VERDICT_BY_SLUG, VERDICTS
from ..model.site import Note, Site
from .myst import badge, doc_link, escape, hidden_toctree, marker
from .paging import Page, list_directive, members, note_pages, subsystem_heading, verdict_counts
_LATIN_EDGE = re.compile(r"[A-Za-z0-9]")


def cjk_join(*parts: str) -> str:
    """Join text, with a space where Latin letters or digits meet Chinese."""
    out = ""
    for part in parts:
        if out and part and (bool(_LATIN_EDGE.match(out[-1])) != bool(_LATIN_EDGE.match(part[0]))):
            if not (out[-1].isspace() or part[0].isspace() or unicodedata.category(out[-1]).startswith("P")
                    or unicodedata.category(part[0]).startswith("P")):
                out += " "
        out += part
    return out


def audience_heading(title: str) -> str:
    """"写给 CI 维护者": the name of an audience's reading list (plain text)."""
    return cjk_join("写给", title)


def _grouped(site: Site, notes: list[Note], where: dict[str, str], show: tuple[str, ...]):
    """A body (see :mod:`.paging`) that lists a page's notes under their subsystems."""

    def body(page: Page, here: str) -> list[str]:
        present = {n.subsystem for n in members(site, notes, page)}
        lines: list[str] = []
        for sub in site.subsystems:
            if sub.key in present:
                lines += [f"## {escape(subsystem_heading(site, sub))}", ""]
                lines += list_directive("notes", {**where, "subsystem": sub.key, **page.where()}, show=show)
        return lines

    return body


def render_verdict_page(site: Site, verdict: str) -> dict[str, str]:
    v = VERDICT_BY_SLUG[verdict]
    docname = contract.verdict_docname(verdict)
    notes = [n for n in site.notes if n.verdict == verdict]
    head = [
        marker("seeds/"),
        "",
        f"({contract.verdict_label(verdict)})=",
        f"# {v.title}清单",
        "",
        f"{badge(v.badge, v.title)} {escape(v.meaning)}",
        "",
        f"共 {len(notes)} 篇，按子系统分组；每篇附阅读建议的第一句话。",
        "",
    ]
    return note_pages(site, docname, notes, head, f"{v.title}清单", _grouped(site, notes, {"verdict": verdict}, ("summary",)))


def render_audience_page(site: Site, audience: str) -> dict[str, str]:
    title = next(a.title for a in site.taxonomy.audiences if a.slug == audience)
    docname = contract.audience_docname(audience)
    notes = [n for n in site.notes if audience in n.audiences]
    head = [
        marker("taxonomy.toml and seeds/"),
        "",
        f"(reading-for-{contract.slug(audience)})=",
        f"# {escape(audience_heading(title))}",
        "",
        escape(cjk_join("阅读建议里点名适合", title, "的笔记")) + f"，共 {len(notes)} 篇（{verdict_counts(tuple(notes))}），"
        "按子系统分组；每篇附阅读结论和阅读建议的第一句话。",
        "",
    ]
    body = _grouped(site, notes, {"audience": audience}, ("verdict", "summary"))
    return note_pages(site, docname, notes, head, audience_heading(title), body, source="taxonomy.toml and seeds/")


def audiences_used(site: Site) -> list[str]:
    return [a.slug for a in site.taxonomy.audiences if any(a.slug in n.audiences for n in site.notes)]


def verdicts_used(site: Site) -> list[str]:
    return [v.slug for v in VERDICTS if any(n.verdict == v.slug for n in site.notes)]


def render_reading_index(site: Site) -> str:
    docname = contract.READING_INDEX
    titles = {a.slug: a.title for a in site.taxonomy.audiences}
    lines = [
        marker("taxonomy.toml and seeds/"),
        "",
        "# 阅读清单",
        "",
        "按阅读结论或按读者挑笔记。每份清单按子系统分组，每篇附阅读建议的第一句话。",
        "",
        "## 按阅读结论",
        "",
    ]
    for slug in verdicts_used(site):
        v = VERDICT_BY_SLUG[slug]
        count = sum(1 for n in site.notes if n.verdict == slug)
        link = doc_link(f"{v.title}清单", docname, contract.verdict_docname(slug))
        lines.append(f"- {badge(v.badge, v.title)} {link}（{count} 篇）：{escape(v.meaning)}")
    audiences = audiences_used(site)
    if audiences:
        lines += ["", "## 按读者", ""]
        for slug in audiences:
            count = sum(1 for n in site.notes if slug in n.audiences)
            link = doc_link(escape(audience_heading(titles[slug])), docname, contract.audience_docname(slug))
            lines.append(f"- {link}（{count} 篇）")
    lines += [
        "",
        *hidden_toctree(
            [contract.verdict_docname(s).rsplit("/", 1)[1] for s in verdicts_used(site)]
            + [contract.audience_docname(s).rsplit("/", 1)[1] for s in audiences]
        ),
    ]
    return "\n".join(lines)


def render_reading_lists(site: Site) -> dict[str, str]:
    """Every reading-list page, ``{relative path: text}``."""
    pages = {f"{contract.READING_INDEX}.md": render_reading_index(site)}
    for slug in verdicts_used(site):
        pages.update(render_verdict_page(site, slug))
    for slug in audiences_used(site):
        pages.update(render_audience_page(site, slug))
    return pages

