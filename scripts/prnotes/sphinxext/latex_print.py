"""How pages read in print: LaTeX-only post-transforms.

- sphinx-design badges. In HTML a badge is an ``sd_badge`` node with several
  CSS classes (``sd-badge sd-bg-danger ...``); sphinx-design writes it to
  LaTeX as bare text. Here each badge becomes an inline with one class,
  ``prnotes-badge-<filled|line>-<colour>``, which Sphinx writes as
  ``\\DUrole{...}`` and ``prnotes-book.sty`` draws as a filled or outlined box.
- sphinx-design cards (the landing page's subsystems). A card's link is an
  invisible "stretched" link in HTML; in LaTeX it would print as a stray copy
  of the title after the body. Here the link moves onto the card title.
- Field lists (a note's metadata). Sphinx sets them as a description list,
  label above value, which takes half a page; here they become a container of
  ``名称：值`` lines, class ``prnotes-meta``, set compactly by the style.
- Invisible characters (zero-width space and joiners, soft hyphen, variation
  selectors …) and rare spaces. The fonts have no glyph for them, and xelatex
  would report each as missing; here text is printed as
  :func:`prnotes.chars.for_print` says: the invisible ones dropped, the
  spaces plain.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..chars import for_print

FILLED, LINE = "filled", "line"


def badge_class(classes: list[str]) -> str:
    """The single LaTeX class for a badge's CSS classes."""
    for cls in classes:
        if cls.startswith("sd-outline-"):
            return f"prnotes-badge-{LINE}-{cls.removeprefix('sd-outline-')}"
        if cls.startswith("sd-bg-") and not cls.startswith("sd-bg-text-"):
            return f"prnotes-badge-{FILLED}-{cls.removeprefix('sd-bg-')}"
    return f"prnotes-badge-{LINE}-secondary"


def is_badge(node: nodes.Node) -> bool:
    return isinstance(node, nodes.inline) and "sd-badge" in node.get("classes", [])


class PrintBadges(SphinxPostTransform):
    default_priority = 400
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(is_badge)):
            # parent.replace, not replace_self: that would copy the CSS classes over.
            node.parent.replace(node, nodes.inline(node.rawsource, "", *node.children, classes=[badge_class(node["classes"])]))


def has_class(name: str):
    return lambda node: isinstance(node, nodes.Element) and name in node.get("classes", [])


class PrintCards(SphinxPostTransform):
    default_priority = 5  # before the references are resolved
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for card in list(self.document.findall(has_class("sd-card"))):
            links = list(card.findall(has_class("sd-stretched-link")))
            titles = list(card.findall(has_class("sd-card-title")))
            if len(links) != 1 or len(titles) != 1:
                continue
            link, title = links[0], titles[0]
            link.parent.parent.remove(link.parent)  # sphinx-design's passthrough wrapper
            link["classes"] = []
            link["refexplicit"] = True  # keep the card's title as the link text
            link.children = []
            link += nodes.inline("", "", *title.children)
            title.children = []
            title += link


def meta_lines(field_list: nodes.field_list) -> nodes.container:
    """``名称：值`` paragraphs for the fields of a list, in a ``prnotes-meta`` container."""
    box = nodes.container(classes=["prnotes-meta"])
    for field in field_list.findall(nodes.field):
        name, body = field[0], field[1]
        line = nodes.paragraph("", "", nodes.strong("", name.astext()), nodes.Text("："))
        paragraphs = [c for c in body.children if isinstance(c, nodes.paragraph)]
        if len(paragraphs) == len(body.children) == 1:
            line.extend(paragraphs[0].children)
            box += line
        else:  # a body of several blocks keeps them, after the name
            box += line
            box.extend(body.children)
    return box


class PrintFieldLists(SphinxPostTransform):
    default_priority = 400
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(nodes.field_list)):
            node.parent.replace(node, meta_lines(node))


class PrintableText(SphinxPostTransform):
    default_priority = 900  # last: after every transform that adds text
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(nodes.Text)):
            printed = for_print(str(node))
            if printed != str(node):
                node.parent.replace(node, nodes.Text(printed))


STYLE = Path(__file__).with_name("prnotes-book.sty")


def add_style(app: Sphinx, config) -> None:
    """Ship the book's style with the LaTeX sources (``\\usepackage{prnotes-book}``)."""
    if str(STYLE) not in config.latex_additional_files:
        config.latex_additional_files = [*config.latex_additional_files, str(STYLE)]


def setup(app: Sphinx) -> None:
    app.connect("config-inited", add_style)
    app.add_post_transform(PrintBadges)
    app.add_post_transform(PrintCards)
    app.add_post_transform(PrintFieldLists)
    app.add_post_transform(PrintableText)
