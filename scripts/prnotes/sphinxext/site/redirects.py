"""Old addresses of list pages, kept working as redirect files.

Lists used to be cut by volume (``<list>/v<k>``) and the PR index by ranges
of numbers (``pr-index/<owner>--<repo>-<start>``); now they are paged by
count (:mod:`prnotes.render.paging`). A list's own page names its old
addresses in a ``{prnotes-redirects}`` directive, a line each: the old
docname and the page that now holds the oldest entry the old page held. After
an HTML build, each becomes a small HTML file at the old address that sends
the reader on (``<meta http-equiv="refresh">``, a canonical link and a plain
link for readers without it). They are written again when the page that
names them was read again, or when the file is missing, and :mod:`.stale`
leaves them alone; an address that no page names any more is removed like
any stale page.
"""

from __future__ import annotations

import html
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from ... import contract
from ...write.files import write_file
from ..facts import state
from . import web_site
from .. import _internals



class Redirects(state.Collector[tuple]):
    """Docname of a list page -> ((old docname, docname it leads to), ...)."""

    name = "prnotes_redirects"


class RedirectsDirective(SphinxDirective):
    """``{prnotes-redirects}``: lines of ``old-docname new-docname`` (shows nothing)."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        pairs = []
        for line in self.content:
            old, _, new = line.strip().partition(" ")
            if not old or not new.strip():
                raise self.error(f"a redirect is 'old-docname new-docname', not {line!r}")
            pairs.append((old, new.strip()))
        Redirects.of(self.env)[self.env.docname] = tuple(pairs)
        return []


def names(env: BuildEnvironment) -> set[str]:
    """Every old docname that a page redirects."""
    return {old for pairs in Redirects.of(env).values() for old, _ in pairs}


def page(title: str, uri: str) -> bytes:
    """The redirect file: it sends the reader to ``uri`` at once."""
    uri, title = html.escape(uri), html.escape(title)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n"
        f'<link rel="canonical" href="{uri}">\n'
        f'<meta http-equiv="refresh" content="0; url={uri}">\n'
        '<meta name="robots" content="noindex">\n'
        f'<meta name="description" content="本页已移到{title}。">\n'
        f'<meta property="og:title" content="{title}">\n'
        "</head>\n<body>\n"
        f'<p>本页已移到<a href="{uri}">{title}</a>。</p>\n'
        "</body>\n</html>\n"
    ).encode("utf-8")


def _reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    state.of(env).read = frozenset(docnames)


def write_redirects(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or not web_site(app):
        return
    env, builder = app.env, app.builder
    read = state.of(env).read
    for docname, pairs in sorted(Redirects.of(env).items()):
        for old, new in pairs:
            if old in _internals.documents(env) or new not in _internals.documents(env) or not old.startswith(f"{contract.NOTES_DIR}/"):
                continue
            path = Path(builder.get_outfilename(old))  # old.html, or old/index.html (dirhtml)
            if docname not in read and path.exists():
                continue
            title = env.titles[new].astext() if new in env.titles else new
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, page(title, builder.get_relative_uri(old, new)))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.state")
    app.add_directive(contract.REDIRECTS_DIRECTIVE, RedirectsDirective)
    app.connect("env-before-read-docs", _reading)
    app.connect("build-finished", write_redirects)
    app.add_env_collector(Redirects)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
