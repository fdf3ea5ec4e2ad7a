"""Read marks and "new since your last visit", kept in the reader's browser.

The pages carry what the browser needs; ``static/prnotes-readmarks.js``
(loaded with ``defer`` on every page of the site) does the rest, with
``localStorage`` only: no server, no cookie. Without JavaScript, or with
storage disabled, every entry shows as unread and nothing else changes.

- A note page names its note in ``<meta name="prnotes-note"
  content="owner/repo#N" data-digest="K">`` (:func:`prnotes.contract.note_key`;
  ``K`` is its digest's number, 第 K 期). Opening it marks it read.
- Every entry of a list of notes carries the same key and digest number
  (:func:`.lists.entry_data`); the script adds the class ``prnotes-read`` to
  the entries of notes read.
- The ``{prnotes-since}`` directive (on the landing page and on 未读,
  ``notes/unread``) becomes an empty ``<div class="prnotes-since pst-js-only"
  data-digests="K:n …" data-today="T" data-unread="…">``: the number of
  notes of each of the newest :data:`SINCE_DIGESTS` digests, newest first,
  taken from the notes' facts when the page is written; the first digest of
  今日 (a first visit counts from it); and, on the landing page, the address
  of 未读. The script fills it with how many notes arrived since the last
  visit that are still unread, linked to 未读, and a 全部标为已读 button.
  The box has its height before the script runs (the page does not move
  when it is filled), and the theme hides it without JavaScript; the script
  hides it when the browser keeps no storage.
- 未读 lists every note of those digests (the ``unread`` list of
  :mod:`.fill`); the script shows only the entries of notes new since the
  last visit and unread (class ``prnotes-new``; the others are hidden by
  CSS from the start, ``html.prnotes-js``, so nothing moves), the same
  notes the landing page counts. Without JavaScript every entry shows, and
  a line says so.

"Since the last visit" (the script's docstring has the details): a visit is
a run of page views with no gap longer than an hour. The notes that count
are those of digests newer than the newest digest the landing page showed
during the previous visit; on a first visit, those of the digests the
landing page lists. Reloading the page within a visit keeps the baseline,
so the count drops as the reader opens notes, and 全部标为已读 marks every
note of those digests read.
"""

from __future__ import annotations

import html
from collections import Counter

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective

from ... import contract
from ..facts import buildtime, state, stream
from ..facts.notes import Facts, present
from ..site import web_site

SCRIPT = "prnotes-readmarks.js"
# The landing page knows the note counts of this many digests (about two
# months of daily digests); a reader away longer is told "at least".
SINCE_DIGESTS = 60



class since_line(nodes.General, nodes.Element):
    """Where the landing page says what is new; ``digests`` is filled when the page is written."""


class SinceDirective(SphinxDirective):
    """``{prnotes-since}``: the line that says how many notes arrived since the last visit."""

    def run(self) -> list[nodes.Node]:
        Users.of(self.env)[self.env.docname] = True
        return [since_line()]


def digest_counts(env: BuildEnvironment) -> list[tuple[int, int]]:
    """``(digest number, notes)`` of the newest :data:`SINCE_DIGESTS` digests, newest first."""
    counts = Counter(f.digest_number for f in present(env).values())
    return sorted(counts.items(), reverse=True)[:SINCE_DIGESTS]


def fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    found = list(doctree.findall(since_line))
    if not found:
        return
    counts = " ".join(f"{number}:{notes}" for number, notes in digest_counts(app.env)) if web_site(app) else ""
    day = stream.newest_day(app.env) if counts else None
    for node in found:
        if not counts:
            node.parent.remove(node)
            continue
        node["digests"] = counts
        node["today"] = str(day.digests[0][0]) if day and day.digests else ""
        node["unread"] = "" if docname == contract.UNREAD else app.builder.get_relative_uri(docname, contract.UNREAD)


# What 未读 says without JavaScript, when it shows every note of the newest digests.
NO_SCRIPT = "浏览器不运行 JavaScript，看不到已读记号：下面是最近各期摘要的全部笔记。"


def visit_since_html(self, node: since_line) -> None:
    data = {"data-digests": node["digests"], "data-today": node.get("today", "")}
    if node.get("unread"):
        data["data-unread"] = node["unread"]
    self.body.append(self.starttag(node, "div", "", CLASS="prnotes-since pst-js-only", **data))


def depart_since_html(self, node: since_line) -> None:
    self.body.append("</div>\n")
    if not node.get("unread"):  # 未读 itself
        self.body.append(f'<noscript><p class="prnotes-since-noscript">{NO_SCRIPT}</p></noscript>\n')


def note_meta(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """The script on every page of the site; on a note page, the note's key and digest."""
    if not web_site(app):
        return
    app.add_js_file(SCRIPT, loading_method="defer")
    facts = Facts.of(app.env).get(pagename)
    if facts is None:
        return
    key = html.escape(contract.note_key(facts.repo, facts.number, pagename), quote=True)
    context["metatags"] = context.get("metatags", "") + (
        f'\n<meta name="prnotes-note" content="{key}" data-digest="{facts.digest_number}">'
    )


class Users(state.Collector[bool]):
    """Page docname -> True: the pages with a {prnotes-since} line, written
    again when the counts change. A note added, changed (its digest may have
    moved) or removed changes them; a digest's date, which digests are 今日."""

    name = "prnotes_since_users"

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, before: None) -> list[str]:
        if any(contract.is_note_docname(d) for d in outdated.added | outdated.changed | outdated.removed) or buildtime.changed_dates(env):
            return sorted(self.of(env))
        return []


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.stream")
    skip = (lambda self, node: None, lambda self, node: None)
    app.add_node(since_line, html=(visit_since_html, depart_since_html), latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_directive(contract.SINCE_DIRECTIVE, SinceDirective)
    app.connect("doctree-resolved", fill)
    app.connect("html-page-context", note_meta)
    app.add_env_collector(Users)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
