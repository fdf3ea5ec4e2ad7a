"""How pages read in print: LaTeX-only post-transforms.

- sphinx-design badges. In HTML a badge is an ``sd_badge`` node with several
  CSS classes (``sd-badge sd-bg-danger ...``); sphinx-design writes it to
  LaTeX as bare text. Here each badge becomes an inline with one class,
  ``prnotes-badge-<filled|line>-<colour>``, which Sphinx writes as
  ``\\DUrole{...}`` and ``prnotes-book.sty`` draws as a filled or outlined box.
  A badge that links (``{bdg-ref-*}``, a note's subsystem) is a reference
  with those classes once resolved: the box goes inside the link, so it
  prints as a box like the others, not as coloured text.
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
- Symbols Sphinx would print as others (✔ as a bold ✓, ✕ as ×, ⎽ as _, ℯ
  as e: :data:`prnotes.sphinxext._internals.SUBSTITUTED`) print as written:
  ✓ from the Noto fonts, the others from FreeSerif (``\\prnotessymbol``),
  the one font of the book's packages that has them.
- Long words and long lines. XeTeX crashes or never ends on a word of a
  thousand letters (a pasted URL, a run of ``x``), and TeX reads a source
  line of at most 200,000 characters. Text gets a break opportunity every
  :data:`BREAK_EVERY` characters inside a run of :data:`LONG_RUN` characters
  that has no space and no Chinese (where the line may break anyway), and a
  source line break that TeX does not see (``%`` and a newline) every
  :data:`SOURCE_LINE` characters. Neither prints anything: the text, and
  what a reader copies from it, stays as written.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from ..chars import for_print
from . import _internals
from .notefacts import repositories

FILLED, LINE = "filled", "line"


def badge_class(classes: list[str]) -> str:
    """The single LaTeX class for a badge's CSS classes."""
    for cls in classes:
        if cls.startswith(_internals.DESIGN_BADGE_OUTLINE):
            return f"prnotes-badge-{LINE}-{cls.removeprefix(_internals.DESIGN_BADGE_OUTLINE)}"
        if cls.startswith(_internals.DESIGN_BADGE_FILL) and not cls.startswith(_internals.DESIGN_BADGE_TEXT):
            return f"prnotes-badge-{FILLED}-{cls.removeprefix(_internals.DESIGN_BADGE_FILL)}"
    return f"prnotes-badge-{LINE}-secondary"


def with_class(document: nodes.Node, kind: type[nodes.Element], name: str) -> list[nodes.Element]:
    """The nodes of one kind that have a class, in document order.

    ``findall`` with a node class walks the tree without a Python call per
    node; the book is a single tree of every note, so this matters there."""
    return [node for node in document.findall(kind) if name in node["classes"]]


def print_badge(node: nodes.inline) -> None:
    # parent.replace, not replace_self: that would copy the CSS classes over.
    node.parent.replace(node, nodes.inline(node.rawsource, "", *node.children, classes=[badge_class(node["classes"])]))


def print_link_badge(link: nodes.reference) -> None:
    box = nodes.inline("", "", *link.children, classes=[badge_class(link["classes"])])
    link["classes"] = []
    link.children = []
    link += box


def has_class(name: str):
    return lambda node: isinstance(node, nodes.Element) and name in node.get("classes", [])


class PrintCards(SphinxPostTransform):
    default_priority = 5  # before the references are resolved
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for card in with_class(self.document, nodes.container, _internals.DESIGN_CARD):
            links = list(card.findall(has_class(_internals.DESIGN_STRETCHED_LINK)))
            titles = list(card.findall(has_class(_internals.DESIGN_CARD_TITLE)))
            if len(links) != 1 or len(titles) != 1:
                continue
            link, title = links[0], titles[0]
            _internals.unwrap_stretched_link(link)
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


class PrintNotes(SphinxPostTransform):
    """Badges as boxes, linking badges as boxes inside their links, field lists as 名称：值 lines."""

    default_priority = 400  # after the references are resolved (10)
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in with_class(self.document, nodes.inline, _internals.DESIGN_BADGE):
            print_badge(node)
        for link in with_class(self.document, nodes.reference, _internals.DESIGN_BADGE):
            print_link_badge(link)
        for node in list(self.document.findall(nodes.field_list)):
            node.parent.replace(node, meta_lines(node))


LONG_RUN = 40
BREAK_EVERY = 20
SOURCE_LINE = 4000
# A run where nothing lets TeX break the line: no space, no CJK character or punctuation.
_UNBREAKABLE_RE = re.compile(rf"[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]{{{LONG_RUN},}}")
# Printed as nothing; in a title, nothing in the PDF's bookmarks either.
BREAK = "\\texorpdfstring{\\allowbreak}{}%\n"
SOURCE_BREAK = "%\n"


def break_points(text: str) -> list[tuple[int, str]]:
    """``(offset, raw LaTeX)`` to insert into ``text``: break opportunities in long unbroken runs, source line ends."""
    points: dict[int, str] = {}
    for m in _UNBREAKABLE_RE.finditer(text):
        for at in range(m.start() + BREAK_EVERY, m.end() - BREAK_EVERY // 2, BREAK_EVERY):
            points[at] = BREAK
    last = 0
    for at in sorted(set(points) | set(range(SOURCE_LINE, len(text), SOURCE_LINE))):
        if at - last >= SOURCE_LINE and at not in points:
            points[at] = SOURCE_BREAK
        if at in points:
            last = at
    return sorted(points.items())


def printable(text: str) -> list[nodes.Node] | None:
    """``text`` as print nodes, or None when it prints as it is."""
    printed = for_print(text)
    points = break_points(printed)
    if not points:
        return None if printed == text else [nodes.Text(printed)]
    out: list[nodes.Node] = []
    start = 0
    for at, raw in points:
        out += [nodes.Text(printed[start:at]), nodes.raw("", raw, format="latex")]
        start = at
    return out + [nodes.Text(printed[start:])]


class PrintableText(SphinxPostTransform):
    default_priority = 900  # last: after every transform that adds text
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(nodes.Text)):
            if isinstance(node.parent, (nodes.FixedTextElement, nodes.raw, nodes.math)):
                continue  # verbatim: every character prints
            pieces = printable(str(node))
            if pieces is not None:
                node.parent.replace(node, pieces)


STYLE = Path(__file__).with_name("prnotes-book.sty")


def add_style(app: Sphinx, config) -> None:
    """Ship the book's style with the LaTeX sources (``\\usepackage{prnotes-book}``)."""
    if str(STYLE) not in config.latex_additional_files:
        config.latex_additional_files = [*config.latex_additional_files, str(STYLE)]


def book_root(config) -> str:
    """The book's root document (``latex_documents``)."""
    return config.latex_documents[0][0] if config.latex_documents else config.root_doc


def book_docs(env) -> set[str]:
    """Every document the book holds: its root and what its toctrees reach."""
    found, todo = set(), [book_root(env.config)]
    while todo:
        doc = todo.pop()
        if doc not in found:
            found.add(doc)
            todo.extend(env.toctree_includes.get(doc, ()))
    return found


def pdf_keywords(env) -> list[str]:
    """The book's keywords: the repositories of its notes, then its chapters
    (the root page's toctree entries), in book order."""
    chapters = [env.titles[d].astext() for d in env.toctree_includes.get(book_root(env.config), []) if d in env.titles]
    return [*repositories(env), *chapters]


class UnlinkOutsideBook(SphinxPostTransform):
    """A link to a page the book does not hold (a tag, a digest, the watch list)
    becomes its text: the whole book is built from the site's own pages."""

    default_priority = 300  # after the references are resolved (10), before badges are printed (400)
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        inside = book_docs(self.env)
        for ref in list(self.document.findall(nodes.reference)):
            uri = ref.get("refuri", "")
            if uri.startswith("%") and uri[1:].split("#", 1)[0] not in inside:
                text = nodes.inline("", "", *ref.children, classes=ref.get("classes", []))
                ref.replace_self(text)


# TeX's special characters, written so that hyperref's \\pdfstringdef turns
# them back into themselves; Sphinx's own escaping (a hyphen becomes
# \\sphinxhyphen{}) is for typeset text and would lose characters here.
_PDF_STRING = str.maketrans(
    {
        "\\": r"\textbackslash{}",
        "{": r"\{",
        "}": r"\}",
        "#": r"\#",
        "$": r"\$",
        "%": r"\%",
        "&": r"\&",
        "_": r"\_",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
)


def pdf_string(text: str) -> str:
    """``text`` as a hyperref option value that the PDF shows unchanged."""
    return text.translate(_PDF_STRING)


def add_keywords(app: Sphinx, builder) -> None:
    """Put the keywords into the PDF's document information (the preamble,
    after hyperref); the title page sets title, author and subject."""
    if builder.name != "latex":
        return
    keywords = ", ".join(pdf_string(k) for k in pdf_keywords(app.env))
    builder.context["preamble"] += f"\n\\hypersetup{{pdfkeywords={{{keywords}}}}}\n"
    # What this edition holds, for the title page and the PDF's subject
    # (`prnotes pdf` sets it; a config value of its own, so the HTML build's
    # environment serves the book unchanged).
    scope = pdf_string(app.config.prnotes_book_scope)
    builder.context["preamble"] += f"\\def\\prnotesscope{{{scope}}}\n"


def _symbol_latex(ch: str) -> str:
    return ch if ch == "✓" else f"\\prnotessymbol{{{ch}}}"


def print_symbols(app: Sphinx) -> None:
    if app.builder.format == "latex":
        _internals.print_as_written(_symbol_latex)


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.notefacts")
    app.connect("builder-inited", print_symbols)
    app.add_config_value("prnotes_book_scope", "全部笔记", "", str)
    app.connect("config-inited", add_style)
    app.add_post_transform(UnlinkOutsideBook)
    app.connect("write-started", add_keywords)
    app.add_post_transform(PrintNotes)
    app.add_post_transform(PrintCards)
    app.add_post_transform(PrintableText)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
