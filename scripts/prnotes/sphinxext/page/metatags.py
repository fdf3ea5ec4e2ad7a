"""The ``<meta>`` tags of each page: its description and its Open Graph card.

A note's description is its summary sentence (:mod:`.summaries`); another
page's is the start of its first paragraph. The pages written from a
template alone have one too: the search page its own sentence, the 404 page
the first paragraph of its body (sphinx-notfound-page's ``notfound_context``). The Open Graph tags give the
page's title, its absolute URL (on ``html_baseurl``; left out by a build
that knows no address), the site's name and the description. Every value is page text, which may come from a seed: each is
HTML-escaped exactly once, here.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from sphinx.application import Sphinx

from ..facts.summaries import summary_text
from ..site import web_site

# A description longer than this is cut, as search engines and cards show about as much.
DESCRIPTION_CHARS = 200


# Line breaks and runs of ASCII blanks read as one space; every other character stays as written.
_BLANKS = re.compile(r"[ \t\r\n]+")


def _cut(text: str) -> str:
    text = _BLANKS.sub(" ", text).strip()
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1].rstrip() + "…"


# The pages without a document, by page name: their title (Sphinx gives the
# search page none) and what they are for (templates/search.html).
TEMPLATE_PAGES = {"search": ("搜索", "在全部笔记里搜索：中文词句、英文词、代码名字、文件名和 PR 编号都能找，结果可按结论、仓库和子系统筛选。")}
_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S)
_TAG = re.compile(r"<[^>]*>")


def _first_paragraph(body: str) -> str:
    """The text of the first ``<p>`` of a page body given as HTML."""
    found = _PARAGRAPH.search(body)
    return html.unescape(_TAG.sub("", found.group(1))) if found else ""


def description(app: Sphinx, pagename: str, doctree: nodes.document | None, body: str = "") -> str:
    found = summary_text(app.env, pagename)
    if found:
        return _cut(found)
    if doctree is None:
        return _cut(TEMPLATE_PAGES[pagename][1] if pagename in TEMPLATE_PAGES else _first_paragraph(body))
    para = next(iter(doctree.findall(nodes.paragraph)), None)
    return _cut(para.astext()) if para is not None else ""


def meta_tags(title: str, url: str, site: str, text: str) -> str:
    """The tags; ``url`` '' (no address known) leaves ``og:url`` out."""

    def tag(attr: str, key: str, value: str) -> str:
        return f'<meta {attr}="{key}" content="{html.escape(value, quote=True)}" />'

    tags = [tag("name", "description", text)] if text else []
    tags += [tag("property", "og:title", title), tag("property", "og:type", "website")]
    if url:
        tags.append(tag("property", "og:url", url))
    tags.append(tag("property", "og:site_name", site))
    if text:
        tags.append(tag("property", "og:description", text))
    return "\n".join(tags)


def add_meta_tags(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not web_site(app):
        return
    env = app.env
    if pagename in env.titles:
        title = env.titles[pagename].astext()
    else:
        title = html.unescape(context.get("title") or "") or TEMPLATE_PAGES.get(pagename, ("", ""))[0]
    base = app.config.html_baseurl
    url = base.rstrip("/") + "/" + app.builder.get_target_uri(pagename) if base else ""
    tags = meta_tags(title, url, app.config.project, description(app, pagename, doctree, context.get("body") or ""))
    context["metatags"] = context.get("metatags", "") + "\n" + tags


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.summaries")
    app.connect("html-page-context", add_meta_tags)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
