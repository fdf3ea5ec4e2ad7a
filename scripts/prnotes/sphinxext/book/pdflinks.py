"""Links to the PDF books, where there is a book to link to.

``{prnotes-pdf}`PDF``` (on the landing page) becomes ``PDF：全书 · 第 1–32 期 · …``
when the page is written, each a link to a book:

- where the book is published (``prnotes_pdf_url``: conf.py sets it from
  ``PRNOTES_PDF_URL``, or on Read the Docs to the address of the PDF its
  build publishes), the whole book there; Read the Docs publishes one PDF;
- otherwise, the books ``make pdf`` has built in ``_build/latex/``
  (``prnotes.pdf``, the whole book; ``prnotes-vN.pdf``, a volume): the HTML
  build copies each into the site, ``_build/html/pdf/`` (:data:`OUTPUT_DIR`),
  and links the copy, so the link works opened from disk, served
  (``make serve``) and published with the site (the Pages workflow deploys
  ``_build/html``); a copy whose book is gone is removed with its link;
- with neither, no link: the list item that holds the role goes, so a page
  never links to a file that is not there.

The books found are this build's facts (looked up, and copied, once when
the build starts, :mod:`.state`); when they change (``make pdf`` ran since
the last build, a volume was added), the pages that show the links are
written again, not read again (:class:`Users`). ``prnotes build`` counts
the books among what a build depends on (:mod:`prnotes.build.stamp`), and
``prnotes pdf`` brings a current site up to date after it made a book, so
the link appears after ``make pdf`` and ``make html`` in either order.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from ... import contract
from ...build.subset import BOOK_NAME
from ..facts import state
from ..facts.notes import Facts
from ..links import splice
from ..site import web_site

_SAVED = "prnotes_pdf_books"  # env attribute, kept by Users: the books of the last build
_VOLUME = re.compile(rf"{BOOK_NAME}-v(\d+)\.pdf")
WHOLE = "全书"
# Where the HTML build puts its copies of the books, under its output.
OUTPUT_DIR = "pdf"


class pdf_links(nodes.Inline, nodes.Element):
    """Where the links go; filled in at write time."""


def pdf_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [pdf_links(rawtext, label=text)], []


def latex_dir(app: Sphinx) -> Path:
    """Where ``make pdf`` leaves the books (``prnotes.pdf`` in :mod:`prnotes.build.pdf`)."""
    return Path(app.confdir) / "_build" / "latex"


def volume_titles(env: BuildEnvironment) -> dict[int, str]:
    """Each volume's title, 第 a–b 期, from the digests its notes came from."""
    spans: dict[int, tuple[int, int]] = {}
    for facts in Facts.of(env).values():
        low, high = spans.get(facts.volume, (facts.digest_number, facts.digest_number))
        spans[facts.volume] = (min(low, facts.digest_number), max(high, facts.digest_number))
    return {v: f"第 {a} 期" if a == b else f"第 {a}–{b} 期" for v, (a, b) in spans.items()}


def find_books(app: Sphinx) -> tuple[tuple[str, str], ...]:
    """(what, where) of each book to link: the published one, or those built beside the site
    (``where`` then the path of its copy in the HTML output, :func:`publish_books`)."""
    if app.config.prnotes_pdf_url:
        return ((WHOLE, app.config.prnotes_pdf_url),)
    return tuple((what, f"{OUTPUT_DIR}/{path.name}") for what, path in built_books(latex_dir(app)))


def built_books(folder: Path) -> list[tuple[str, Path]]:
    """The whole book and the volumes in ``folder``, in that order (a book of a selection is none of the site's)."""
    if not folder.is_dir():
        return []
    found = []
    if (folder / f"{BOOK_NAME}.pdf").is_file():
        found.append((0, WHOLE, folder / f"{BOOK_NAME}.pdf"))
    for path in folder.glob(f"{BOOK_NAME}-v*.pdf"):
        if (match := _VOLUME.fullmatch(path.name)) and path.is_file():
            found.append((int(match.group(1)), f"v{match.group(1)}", path))
    return [(what, path) for _, what, path in sorted(found)]


def publish_books(app: Sphinx) -> None:
    """Copy the books built beside the site into its output (only those that changed: size and
    time kept), and remove the copies of books that are gone; with a published book, no copy."""
    out = Path(app.outdir) / OUTPUT_DIR
    books = [] if app.config.prnotes_pdf_url else built_books(latex_dir(app))
    keep = set()
    for _, source in books:
        target = out / source.name
        keep.add(target.name)
        st = source.stat()
        try:
            now = target.stat()
            if (now.st_size, now.st_mtime_ns) == (st.st_size, st.st_mtime_ns):
                continue
        except FileNotFoundError:
            pass
        out.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial")
        shutil.copy2(source, partial)
        os.replace(partial, target)
    if out.is_dir():
        for old in out.glob("*.pdf"):
            if old.name not in keep:
                old.unlink()
        if not any(out.iterdir()):
            out.rmdir()


def look_up(app: Sphinx, env: BuildEnvironment, *outdated) -> list[str]:
    """On ``env-get-outdated`` (the build's state is new): this build's books, copied into the site."""
    books = find_books(app) if web_site(app) else ()
    if web_site(app):
        publish_books(app)
    state.of(env).books = books
    state.of(env).target_uri = app.builder.get_target_uri
    return []


def books(env: BuildEnvironment) -> tuple[tuple[str, str], ...]:
    return state.of(env).books


class FillPdfLinks(SphinxPostTransform):
    default_priority = 5
    formats = ("html",)

    def run(self, **kwargs) -> None:
        found = books(self.env)
        titles = volume_titles(self.env) if found else {}
        for node in list(self.document.findall(pdf_links)):
            if not found:
                _remove(node)
                continue
            links = []
            for what, where in found:
                text = titles.get(int(what[1:]), what) if what.startswith("v") else what
                # A path relative to the HTML output, as seen from the page being written.
                uri = where if "://" in where or where.startswith("/") else "../" * state.of(self.env).target_uri(self.env.docname).count("/") + where
                links.append(nodes.reference("", text, refuri=uri, classes=["prnotes-pdf"]))
            node.replace_self([nodes.Text(f"{node['label']}："), *splice.joined(links, " · ")])


def _remove(node: nodes.Node) -> None:
    """Take the placeholder out, with the list item (or paragraph) it was all of."""
    holder = node.parent
    holder.remove(node)
    while holder.parent is not None and not holder.astext().strip().rstrip("：:"):
        item = holder
        holder = holder.parent
        holder.remove(item)
        if isinstance(item, nodes.list_item):
            break


class DropPdfLinks(SphinxPostTransform):
    """Other builders (the book, the EPUB) say nothing of the PDF."""

    default_priority = 6

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(pdf_links)):
            _remove(node)


class Users(state.Collector[bool]):
    """The documents that show the links, written again when the books change."""

    name = "prnotes_pdf_users"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        if next(iter(doctree.findall(pdf_links)), None) is not None:
            self.of(app.env)[app.env.docname] = True

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, before: None) -> list[str]:
        now = books(env)
        old = getattr(env, _SAVED, None)
        setattr(env, _SAVED, now)
        return sorted(self.of(env)) if old is not None and old != now else []


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.site.address")
    skip = (lambda self, node: None, lambda self, node: None)
    app.add_node(pdf_links, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_role(contract.PDF_ROLE, pdf_role)
    # After the build's state is made afresh (state.py, priority 0).
    app.connect("env-get-outdated", look_up, priority=100)
    app.add_post_transform(FillPdfLinks)
    app.add_post_transform(DropPdfLinks)
    app.add_env_collector(Users)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
