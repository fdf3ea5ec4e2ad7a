"""Icons without an icon font: GitHub's Octicons, as inline SVG and as CSS masks.

The theme draws its icons with FontAwesome: two web fonts (225 KB) and a
script (21 KB compressed), most of a first visit's weight, for a dozen
icons. The site draws them from the Octicons that sphinx-design ships (MIT,
``sphinx_design/compiled/octicon_LICENSE``) instead, and never loads the fonts
or the script (``templates/layout.html`` leaves the script out):

- the project's templates put the SVG in the page, ``{{ prnotes_icon("github") }}``
  (:func:`icon_svg`, a function of every page's template context);
- the icons the theme's own markup and CSS ask for by FontAwesome's classes
  (the menu and contents toggles, back to top, the search field, the
  breadcrumbs' separators, the admonitions) and the site's own marks (the
  GitHub mark beside a PR in a list, the 在 GitHub 上打开 link) are drawn by
  ``_static/prnotes-icons.css``, written at the start of each HTML build
  from :data:`MASKED`: each one a CSS mask of the SVG in the text colour, so
  it follows the light and dark modes as the glyphs did.

An icon that is not in these tables still asks for a font; the browser
tests fail when any font file is fetched (tests/test_browser.py).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup
from sphinx.application import Sphinx

from ...write import files as write
from .. import _internals
from ..site import web_site

CSS = "prnotes-icons.css"
# The icons the templates ask for by name -> the octicon drawn.
ICONS = {
    "github": "mark-github",
    "home": "home",
    "prev": "chevron-left",
    "next": "chevron-right",
    "light": "sun",
    "dark": "moon",
    "auto": "device-desktop",
}
# CSS selectors of what the theme and the site draw with FontAwesome -> the octicon drawn instead.
GLYPHS = {
    ".fa-bars::before": "three-bars",
    ".fa-outdent::before": "list-unordered",
    ".fa-list::before": "list-unordered",
    ".fa-arrow-up::before": "arrow-up",
    ".fa-magnifying-glass::before": "search",
    ".fa-github::before": "mark-github",
    ".fa-house::before": "home",
    ".fa-angle-left::before": "chevron-left",
    ".fa-angle-right::before": "chevron-right",
    ".fa-sun::before": "sun",
    ".fa-moon::before": "moon",
    ".fa-circle-half-stroke::before": "device-desktop",
    "ul.bd-breadcrumbs li.breadcrumb-item:not(.breadcrumb-home)::before": "chevron-right",
}
# Marks that keep the box the theme's CSS gives them (an admonition's icon), or one of their own.
MARKS = {
    ".admonition > .admonition-title::after, div.admonition > .admonition-title::after": "info",
    ".admonition.tip > .admonition-title::after, div.admonition.tip > .admonition-title::after": "light-bulb",
    ".bd-article a.prnotes-gh::after": "mark-github",
    ".bd-article a.prnotes-github::before": "mark-github",
}
MASKED = {**GLYPHS, **MARKS}


def icon_svg(name: str, classes: str = "") -> Markup:
    """An icon of :data:`ICONS` as inline SVG, hidden from assistive technology (the control it is in has a name)."""
    return Markup(_internals.octicon_svg(ICONS[name], ["prnotes-icon", *classes.split()]))


def data_uri(octicon: str) -> str:
    """The octicon as a ``data:`` URI of an SVG image (black on transparent: a mask)."""
    width, drawing = _internals.octicon_drawing(octicon)
    svg = f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} 16'>{drawing}</svg>"
    return "data:image/svg+xml," + quote(svg, safe=" /=:',.-")


def stylesheet() -> str:
    """``prnotes-icons.css``: every masked icon, drawn in the text colour."""
    lines = [
        "/* Written by prnotes.sphinxext.page.icons from the Octicons sphinx-design ships; do not edit. */",
        "/* The theme's FontAwesome classes never load their font: they hold no glyph. */",
        ".fa-solid, .fa-regular, .fa-brands, .fas, .far, .fab { font-family: inherit !important; }",
        ",\n".join(GLYPHS) + " {",
        "  display: inline-block; width: 1em; height: 1em; vertical-align: -.125em;",
        "}",
    ]
    selectors = ",\n".join(MASKED)
    lines += [
        selectors + " {",
        '  content: "" !important; font: inherit !important; background-color: currentColor;',
        "  -webkit-mask: var(--prnotes-icon) center / contain no-repeat; mask: var(--prnotes-icon) center / contain no-repeat;",
        "}",
    ]
    lines += [f'{selector} {{ --prnotes-icon: url("{data_uri(octicon)}"); }}' for selector, octicon in MASKED.items()]
    return "\n".join(lines) + "\n"



def write_stylesheet(app: Sphinx) -> None:
    """On ``builder-inited``: the stylesheet in the output's ``_static``, before any page is written
    (a page names it with its checksum); written only when it changed."""
    if not web_site(app):
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    write.write_file(static / CSS, stylesheet().encode("utf-8"))
    app.add_css_file(CSS)


def add_icon_function(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    context["prnotes_icon"] = icon_svg


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", write_stylesheet)
    app.connect("html-page-context", add_icon_function)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
