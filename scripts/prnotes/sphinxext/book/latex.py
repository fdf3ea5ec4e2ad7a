"""How pages read in print: LaTeX-only post-transforms.

- A note (:func:`lay_out_note`). Under its heading one line of facts (the
  verdict, ``owner/repo#N``, the upstream title, the digest and its date)
  instead of the page's badges and fields, which repeat the verdict and the
  chapter; the advice and its follow-ups without a part heading; what it
  mentions and what mentions it in one short paragraph, or nothing. A title
  too long for a heading is cut there and printed whole under it. Before each
  note, a LaTeX comment names it (:data:`ENTRY_MARK`): ``prnotes.pdf`` puts an
  xelatex error on the note it stopped in. A chapter's introduction is one
  paragraph, which the style keeps with the start of the first note.
- Long paragraphs (:func:`split_paragraph`), typeset in parts: one long
  paragraph costs xelatex the square of its length.
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
- Field lists (a page's metadata). Sphinx sets them as a description list,
  label above value, which takes half a page; here they become a container of
  ``名称：值`` lines, class ``prnotes-meta``, set compactly by the style.
- Invisible characters (zero-width space and joiners, soft hyphen, variation
  selectors …) and rare spaces. The fonts have no glyph for them, and xelatex
  would report each as missing; here text is printed as
  :func:`prnotes.parse.chars.for_print` says: the invisible ones dropped, the
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
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from ... import contract
from ...parse.chars import for_print
from ...model.classify import VERDICT_BY_SLUG
from .. import _internals
from ..facts import buildtime
from ..links import splice
from ..facts.notes import Facts, NoteFacts, repositories

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


# --- a note in print -----------------------------------------------------------

# A title longer than this is cut for its heading (and so for the running
# head, the bookmark and the table of contents) and printed whole below it.
TITLE_PRINT_MAX = 160
# What is left of it in the heading (then "…").
TITLE_CUT = 120
# A follow-up label or an upstream title longer than this: cut (a label) or
# printed under the heading (an upstream title).
LINE_PRINT_MAX = 200
# An entry of a note's 相关 lists that is not a note of the book: cut to this.
RELATED_CUT = 60
ELLIPSIS = "…"
NO_VERDICT = "未注明"  # what a note whose advice states no verdict shows, as its lists count it
ENTRY_MARK = "%prnotes:entry "  # a LaTeX comment before each note: pdf.py names the entry xelatex failed in


def cut_text(text: str, keep: int) -> str:
    """``text`` cut to ``keep`` characters, with "…" if anything was cut."""
    return text if len(text) <= keep else text[:keep].rstrip() + ELLIPSIS


def cut_inline(children: list[nodes.Node], keep: int) -> list[nodes.Node]:
    """Inline nodes cut to ``keep`` characters of text: whole nodes while they
    fit, then the text of the one that does not, then "…"."""
    out: list[nodes.Node] = []
    for child in children:
        text = child.astext()
        if len(text) <= keep:
            out.append(child.deepcopy())
            keep -= len(text)
            continue
        kept = text[:keep].rstrip()
        if kept:
            out.append(nodes.literal(kept, kept) if isinstance(child, nodes.literal) else nodes.Text(kept))
        out.append(nodes.Text(ELLIPSIS))
        break
    return out


def field_value(header: list[nodes.Node], name: str) -> list[nodes.Node]:
    """The inline nodes of the field ``name`` of a note's metadata, or []."""
    for node in header:
        for field in node.findall(nodes.field) if isinstance(node, nodes.Element) else ():
            if field[0].astext() == name:
                paragraphs = [c for c in field[1].children if isinstance(c, nodes.paragraph)]
                return [child.deepcopy() for p in paragraphs for child in p.children]
    return []


def facts_line(env, facts: NoteFacts, upstream: list[nodes.Node]) -> nodes.container:
    """One line under a note's heading: the verdict, ``repo#PR`` linking to
    GitHub, the upstream title, the digest and its date."""
    line = nodes.paragraph()
    if facts.verdict in VERDICT_BY_SLUG:
        verdict = VERDICT_BY_SLUG[facts.verdict]
        line += nodes.inline("", verdict.title, classes=[f"prnotes-badge-{FILLED}-{verdict.badge}"])
    else:
        line += nodes.inline("", NO_VERDICT, classes=[f"prnotes-badge-{LINE}-secondary"])
    line += nodes.Text(" ")
    if facts.number is not None:
        target = f"{facts.repo}#{facts.number}"
        line += nodes.reference("", target, refuri=contract.github_url(facts.repo, facts.number))
    else:
        line += nodes.reference("", facts.repo, refuri=contract.github_repo_url(facts.repo))
    if upstream:
        line += nodes.Text(" · ")
        line += nodes.inline("", "", *upstream, classes=["prnotes-upstream"])
    when = nodes.inline("", f"第 {facts.digest_number} 期 · ", classes=["prnotes-when"])
    when += buildtime.date_node(env, facts.digest)
    line += when
    return nodes.container("", line, classes=["prnotes-facts"])


def _titled(node: nodes.Node, title: str) -> bool:
    return isinstance(node, nodes.section) and bool(node.children) and node[0].astext() == title


def internal_target(ref: nodes.reference) -> str | None:
    """The document an internal link of the LaTeX builder leads to (its URI is ``%docname#id``)."""
    uri = ref.get("refuri", "")
    return uri[1:].split("#", 1)[0] if uri.startswith("%") else None


_TRAILING_NOTE = re.compile(r"（[^（）]*）$")  # （issue）, （第 38 期）


def related_item(item: list[nodes.Node], store: dict[str, NoteFacts], home: str) -> list[nodes.Node]:
    """One entry of a note's 相关 lists, short: a note of the book is its
    number (``#N``, ``owner/repo#N`` from another repository), linking to it
    in the book; a PR without a note, or a note the book leaves out, is its
    PR's link to GitHub and what the site says after the title (（issue）,
    （第 38 期）); anything else is cut to :data:`RELATED_CUT` characters."""
    refs = [ref for node in item if isinstance(node, nodes.Element) for ref in node.findall(nodes.reference)]
    for ref in refs:
        facts = store.get(internal_target(ref) or "")
        if facts is not None:
            if facts.number is None:
                text = cut_text(ref.astext(), RELATED_CUT)
            else:
                text = f"#{facts.number}" if facts.repo == home else f"{facts.repo}#{facts.number}"
            return [nodes.reference("", text, refuri=ref["refuri"], internal=True)]
    if item and isinstance(item[0], nodes.reference):
        trailing = _TRAILING_NOTE.search(item[-1].astext()) if isinstance(item[-1], nodes.Text) else None
        return [item[0].deepcopy(), *([nodes.Text(trailing.group())] if trailing else [])]
    return cut_inline(item, RELATED_CUT)


def compact_related(section: nodes.section, store: dict[str, NoteFacts], home: str) -> nodes.container | None:
    """A note's 相关 part as one run-in paragraph (本篇提到：#1、#2；提到本篇的笔记：#3), or None when it lists nothing."""
    lines: list[nodes.paragraph] = []
    lead: nodes.paragraph | None = None
    for child in section.children[1:]:
        if isinstance(child, nodes.paragraph):
            lead = child
        elif isinstance(child, nodes.bullet_list) and child.children:
            line = nodes.paragraph()
            if lead is not None:
                line.extend(c.deepcopy() for c in lead.children)
            for index, item in enumerate(child.children):
                if index:
                    line += nodes.Text("、")
                paragraphs = [c for c in item.children if isinstance(c, nodes.paragraph)]
                line.extend(related_item([c for p in paragraphs for c in p.children], store, home))
            lines.append(line)
            lead = None
    if not lines:
        return None
    # One paragraph: what the note mentions, then what mentions it.
    joined = nodes.paragraph()
    for index, line in enumerate(lines):
        if index:
            joined += nodes.Text("；")
        joined.extend(line.children)
    return nodes.container("", joined, classes=["prnotes-related"])


def lay_out_note(section: nodes.section, facts: NoteFacts, env, store: dict[str, NoteFacts]) -> None:
    """A note in print: its heading, one line of facts, the advice and its
    follow-ups, what it mentions and what mentions it; no part headings, and
    no part that would say it has nothing."""
    title = section[0]
    end = 1
    while end < len(section) and not isinstance(section[end], nodes.section):
        end += 1
    header = section.children[1:end]
    body: list[nodes.Node] = [n for n in header if isinstance(n, nodes.target)]
    if len(title.astext()) > TITLE_PRINT_MAX:
        whole = nodes.paragraph("", "", *(c.deepcopy() for c in title.children))
        title[:] = cut_inline(whole.children, TITLE_CUT)
        body.append(nodes.container("", whole, classes=["prnotes-whole-title"]))
    upstream = field_value(header, contract.UPSTREAM_FIELD)
    if len("".join(n.astext() for n in upstream)) > LINE_PRINT_MAX:
        whole = nodes.paragraph("", "", nodes.Text(f"{contract.UPSTREAM_FIELD}："), *upstream)
        body.append(facts_line(env, facts, []))
        body.append(nodes.container("", whole, classes=["prnotes-whole-title"]))
    else:
        body.append(facts_line(env, facts, upstream))
    for part in section.children[end:]:
        if _titled(part, contract.ADVICE_SECTION):
            body.extend(part.children[1:])
        elif _titled(part, contract.RELATED_SECTION):
            related = compact_related(part, store, facts.repo)
            if related is not None:
                body.append(related)
        else:
            body.append(part)
    for label in (n for b in body if isinstance(b, nodes.Element) for n in b.findall(nodes.inline)):
        if contract.FOLLOWUP_LABEL_CLASS in label["classes"] and len(label.astext()) > LINE_PRINT_MAX:
            label[:] = cut_inline(label.children, LINE_PRINT_MAX)
    section[1:] = body


def wrap_chapter_intro(chapter: nodes.section) -> None:
    """A chapter's introduction (what comes before its notes) in a
    ``prnotes-chapter-intro`` container: print keeps it with the heading
    and with the start of the first note."""
    end = 1
    while end < len(chapter) and isinstance(chapter[end], (nodes.paragraph, nodes.comment)):
        end += 1
    paragraphs = [n for n in chapter.children[1:end] if isinstance(n, nodes.paragraph)]
    if paragraphs:
        # One paragraph: what the chapter holds, then how many notes, run on.
        intro = nodes.paragraph("", "", *(c for p in paragraphs for c in p.children))
        chapter[1:end] = [nodes.container("", intro, classes=["prnotes-chapter-intro"])]


class PrintNoteLayout(SphinxPostTransform):
    """Each note of the book laid out for print (:func:`lay_out_note`), and a
    comment naming it before it in the LaTeX source (:data:`ENTRY_MARK`)."""

    default_priority = 200  # after the references (10) and dates (5) are resolved, before links are unlinked (300)
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        store = Facts.of(self.env)
        chapters: dict[int, nodes.section] = {}
        for start in list(self.document.findall(addnodes.start_of_file)):
            docname = _internals.included_document(start)
            facts = store.get(docname)
            section = next((c for c in start.children if isinstance(c, nodes.section)), None)
            if facts is None or section is None or not section.children:
                continue
            lay_out_note(section, facts, self.env, store)
            start.insert(0, nodes.raw("", f"{ENTRY_MARK}{docname}", format="latex"))
            chapter = start.parent
            while chapter is not None and not isinstance(chapter, nodes.section):
                chapter = chapter.parent
            if chapter is not None:
                chapters.setdefault(id(chapter), chapter)
        for chapter in chapters.values():
            wrap_chapter_intro(chapter)


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


# --- long paragraphs ---------------------------------------------------------

# xeCJK takes back glue with \unskip between characters, and TeX finds the
# item before the last one by walking the paragraph from its start: the time
# to typeset a paragraph grows with the square of its length (a 200 KB
# paragraph took 15 s, 1 MB over 400 s). A paragraph longer than
# LONG_PARAGRAPH characters is typeset in parts of about PART characters,
# each set as a paragraph of its own in a box whose last line is taken off
# and set again at the start of the next part (prnotes-book.sty,
# \prnoteslongbegin): it prints as one paragraph, lines filled to the end.
PART = 1000
LONG_PARAGRAPH = 1500
# Where a part may end: between two ideographs, or inside a run of letters
# and digits (no glue there for TeX to take back), else between two
# characters that are not spaces.
_CUTS = (re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])"), re.compile(r"(?<=[A-Za-z0-9])(?=[A-Za-z0-9])"), re.compile(r"(?<=\S)(?=\S)"))
# The source line ends after each part too (TeX reads lines of at most
# 200,000 characters, and a part's markup may be many times its text).
LONG_BEGIN, LONG_NEXT, LONG_END = r"\prnoteslongbegin", "\\prnoteslongnext{}%\n", r"\prnoteslongend"


def part_cuts(text: str, opaque: list[tuple[int, int]], part: int = PART) -> list[int]:
    """Offsets into ``text`` where its parts end, about ``part`` characters
    apart; never inside an ``opaque`` span (raw LaTeX), nor next to a space."""

    def allowed(at: int) -> bool:
        return not any(start < at < end for start, end in opaque)

    cuts: list[int] = []
    at = part
    while at < len(text) - part // 2:
        found = None
        for pattern in _CUTS:
            for m in pattern.finditer(text, at, min(len(text), at + part)):
                if allowed(m.start()):
                    found = m.start()
                    break
            if found is not None:
                break
        if found is None:
            at += part
            continue
        cuts.append(found)
        at = found + part
    return cuts


def split_node(node: nodes.Node, at: int) -> tuple[nodes.Node, nodes.Node]:
    """``node`` as two nodes holding its text before and after offset ``at``
    (0 < at < its length); an element is copied, ids only on the first part."""
    if isinstance(node, nodes.Text):
        return nodes.Text(node[:at]), nodes.Text(node[at:])
    left, right = node.copy(), node.copy()
    right["ids"] = []
    offset = 0
    for child in list(node.children):
        size = len(child.astext())
        if offset + size <= at:
            left.append(child)
        elif offset >= at:
            right.append(child)
        else:
            first, second = split_node(child, at - offset)
            left.append(first)
            right.append(second)
        offset += size
    return left, right


def split_paragraph(paragraph: nodes.paragraph) -> bool:
    """Mark the parts of a long paragraph for print (:data:`PART`); False if it has none."""
    text, opaque, offset = paragraph.astext(), [], 0
    for child in paragraph.children:
        size = len(child.astext())
        if isinstance(child, nodes.Element) and next(iter(child.findall(nodes.raw)), None) is not None:
            opaque.append((offset, offset + size))
        offset += size
    cuts = part_cuts(text, opaque)
    if not cuts:
        return False
    children, out, offset = list(paragraph.children), [], 0
    for cut in cuts:
        while children:
            child = children.pop(0)
            size = len(child.astext())
            if offset + size <= cut:
                out.append(child)
                offset += size
                if offset == cut:
                    break
                continue
            first, second = split_node(child, cut - offset)
            out.append(first)
            children.insert(0, second)
            offset = cut
            break
        out.append(nodes.raw("", LONG_NEXT, format="latex"))
    paragraph[:] = out + children
    parent = paragraph.parent
    index = parent.index(paragraph)
    parent.insert(index + 1, nodes.raw("", LONG_END, format="latex"))
    parent.insert(index, nodes.raw("", LONG_BEGIN, format="latex"))
    return True


# Where a paragraph may be set in parts: among the blocks of a section, or in
# the book's own containers that are not lists or boxes.
PARTED_IN = ("prnotes-whole-title", "prnotes-related")


class PrintLongParagraphs(SphinxPostTransform):
    """Long paragraphs typeset in parts (:func:`split_paragraph`)."""

    default_priority = 850  # before PrintableText (900) adds break points to the text
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for paragraph in list(self.document.findall(nodes.paragraph)):
            parent = paragraph.parent
            inside = isinstance(parent, nodes.section) or (
                isinstance(parent, nodes.container) and any(c in PARTED_IN for c in parent["classes"])
            )
            if inside and len(paragraph.astext()) > LONG_PARAGRAPH:
                split_paragraph(paragraph)


class PrintableText(SphinxPostTransform):
    default_priority = 900  # last: after every transform that adds text
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        found = []
        for node in self.document.findall(nodes.Text):
            if isinstance(node.parent, (nodes.FixedTextElement, nodes.raw, nodes.math)):
                continue  # verbatim: every character prints
            pieces = printable(str(node))
            if pieces is not None:
                found.append((node, pieces))
        splice.replace_all(found)  # in one pass: a paragraph may hold thousands of texts


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
        found = []
        for ref in list(self.document.findall(nodes.reference)):
            uri = ref.get("refuri", "")
            if uri.startswith("%") and uri[1:].split("#", 1)[0] not in inside:
                found.append((ref, nodes.inline("", "", *ref.children, classes=ref.get("classes", []))))
        splice.replace_selves(found)


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


def print_symbols(app: Sphinx) -> None:
    if app.builder.format == "latex":
        _internals.print_as_written(lambda ch: ch if ch == "✓" else f"\\prnotessymbol{{{ch}}}")


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    app.connect("builder-inited", print_symbols)
    app.add_config_value("prnotes_book_scope", "全部笔记", "", str)
    app.connect("config-inited", add_style)
    app.add_post_transform(PrintNoteLayout)
    app.add_post_transform(UnlinkOutsideBook)
    app.connect("write-started", add_keywords)
    app.add_post_transform(PrintNotes)
    app.add_post_transform(PrintCards)
    app.add_post_transform(PrintLongParagraphs)
    app.add_post_transform(PrintableText)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
