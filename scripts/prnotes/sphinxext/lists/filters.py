"""List pages' controls: narrow a page's notes by verdict, repository and
subsystem, hide the notes read, and move between notes with j and k.

A page whose lists hold entries of notes (:mod:`.lists`: every entry has
``data-verdict``, ``data-repo`` and ``data-subsystem``) gets, before its
first list (or before the section of it, when several sections hold lists), a form of labelled ``<select>`` controls, one for each of
these that the page's entries differ in (a subsystem page has no subsystem
control; a one-repository site no repository control), each offering the
values its entries have, and a 只看未读 checkbox. ``static/prnotes-filters.js``
(loaded with ``defer`` on these pages only) hides the entries that do not
match (the ``hidden`` attribute: they stay on the page) and sections left
with none, and keeps the choice in the URL, so a filtered view can be
bookmarked, reloaded and shared::

    ?verdict=精读&repo=sgl-project/sglang&subsystem=kv-cache&unread=1

The values are the entries' own: the verdict as the reader sees it (精读,
速读, 按需), ``owner/repo``, the subsystem's slug; the search page uses
the same parameters. ``unread=1`` hides the entries the read marks mark
read (:mod:`.readmarks`; the script applies it again whenever they
change). A value in the URL that no control offers (a bookmark of a renamed
subsystem) is added to its control, so it can be seen and cleared. The form
is on the page from the start (the list does not move when the script
runs); without JavaScript the theme hides it (``pst-js-only``) and every
entry shows. 未读 (``notes/unread``), whose list the read marks narrow, has none.

``static/prnotes-keys.js`` (``defer``, on these pages and on note pages):
j and k move to the next and the previous note: on a list page, focus goes
to the next or previous entry shown; on a note page, to 下一篇 and 上一篇.
Not while the reader types in a field, nor with a modifier key. A switch in
the footer of those pages turns them off (and on), kept in the browser
(``templates/prnotes-keys.html``): a shortcut of one letter must be one a
reader can turn off (WCAG 2.1.4).
"""

from __future__ import annotations

import html

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ... import contract
from ...model.classify import VERDICTS
from ..facts import state
from ..facts.notes import Facts, site_repositories
from .fill import note_entry
from ..site import web_site

SCRIPT = "prnotes-filters.js"
KEYS_SCRIPT = "prnotes-keys.js"
FORM_CLASS = "prnotes-filters"
# The checkbox that hides the notes read: its URL parameter and its label.
UNREAD_PARAM, UNREAD_LABEL = "unread", "只看未读"
# (URL parameter, the control's label, the text of its "any" choice)
CONTROLS = (("verdict", "阅读结论", "全部结论"), ("repo", "仓库", "全部仓库"), ("subsystem", "子系统", "全部子系统"))


class filter_form(nodes.General, nodes.Element):
    """The filter controls of a page; ``choices`` is ``((name, ((value, text), …)), …)``."""


def subsystem_order(env: BuildEnvironment) -> dict[str, int]:
    """Subsystem slug -> its place on the landing page (the taxonomy's order)."""
    return state.once(env, _subsystem_order)


def _subsystem_order(env: BuildEnvironment) -> dict[str, int]:
    pages = env.toctree_includes.get(env.config.root_doc, [])
    prefix = contract.subsystem_docname("")
    slugs = [d.removeprefix(prefix) for d in pages if d.startswith(prefix)]
    return {slug: index for index, slug in enumerate(slugs)}


def choices(env: BuildEnvironment, entries: list[note_entry]) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """For each control whose values differ among ``entries``: its values, in the site's order."""
    values: dict[str, set[str]] = {name: set() for name, _, _ in CONTROLS}
    for entry in entries:
        data = dict(entry["data"])
        for name in values:
            if data.get(name):
                values[name].add(data[name])
    order = subsystem_order(env)
    verdicts = [v.title for v in VERDICTS]
    out = []
    for name, _, _ in CONTROLS:
        found = values[name]
        if len(found) < 2:
            continue
        if name == "verdict":
            ranked = sorted(found, key=lambda v: (verdicts.index(v) if v in verdicts else len(verdicts), v))
            out.append((name, tuple((v, v) for v in ranked)))
        elif name == "repo":
            # The site's order: most notes first (prnotes.contract.repository_order).
            rank = {repo: index for index, repo in enumerate(site_repositories(env))}
            out.append((name, tuple((r, r) for r in sorted(found, key=lambda r: (rank.get(r, len(rank)), r.lower(), r)))))
        else:
            titles = env.titles
            ranked = sorted(found, key=lambda s: (order.get(s, len(order)), s))
            labels = contract.subsystem_labels({s: _title(titles, contract.subsystem_docname(s), s) for s in ranked})
            out.append((name, tuple((s, labels[s]) for s in ranked)))
    return tuple(out)


def _title(titles, docname: str, default: str) -> str:
    return titles[docname].astext() if docname in titles else default


def add_form(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """On ``doctree-resolved``, once the lists are filled: the form before the first list."""
    if not web_site(app):
        return
    # 未读's list is narrowed by the read marks themselves (readmarks.py).
    lists = [b for b in doctree.findall(nodes.bullet_list) if "prnotes-list" in b["classes"] and "prnotes-list-unread" not in b["classes"]]
    entries = [e for b in lists for e in b.children if isinstance(e, note_entry)]
    if not entries:
        return
    holding = [b for b in lists if any(isinstance(e, note_entry) for e in b.children)]
    first = holding[0]
    # Right before the list when one part of the page holds them all (a
    # subsystem page, the landing page's 今日); before the part that holds the
    # first one when several do (a reading list's subsystems, which the
    # filters may hide: the script keeps the part with the form).
    anchor = first
    if len({id(_part(b)) for b in holding}) > 1:
        while anchor.parent is not None and not (isinstance(anchor.parent, nodes.section) and isinstance(anchor.parent.parent, nodes.document)):
            anchor = anchor.parent
        if anchor.parent is None:
            anchor = first
    anchor.parent.insert(anchor.parent.index(anchor), filter_form(choices=choices(app.env, entries)))


def _part(node: nodes.Node) -> nodes.Node | None:
    """The section a node is in."""
    while node is not None and not isinstance(node, nodes.section):
        node = node.parent
    return node


def visit_form_html(self, node: filter_form) -> None:
    labels = {name: (label, anything) for name, label, anything in CONTROLS}
    parts = [f'<form class="{FORM_CLASS} pst-js-only" aria-label="筛选本页的笔记">']
    for name, values in node["choices"]:
        label, anything = labels[name]
        parts.append(f'<span class="prnotes-filter"><label for="prnotes-filter-{name}">{label}</label>')
        parts.append(f'<select id="prnotes-filter-{name}" name="{name}"><option value="">{anything}</option>')
        parts += [f'<option value="{html.escape(v, quote=True)}">{html.escape(t)}</option>' for v, t in values]
        parts.append("</select></span>")
    parts.append(
        f'<span class="prnotes-filter prnotes-filter-unread"><input type="checkbox" id="prnotes-filter-{UNREAD_PARAM}" '
        f'name="{UNREAD_PARAM}" value="1"><label for="prnotes-filter-{UNREAD_PARAM}">{UNREAD_LABEL}</label></span>'
    )
    parts.append('<button type="reset" class="prnotes-filter-reset">清除筛选</button>')
    parts.append('<p class="prnotes-filter-status" role="status" aria-live="polite"></p>')
    parts.append("</form>\n")
    self.body.append("".join(parts))
    raise nodes.SkipNode


def load_script(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if doctree is None or not web_site(app):
        return
    listed = next(iter(doctree.findall(filter_form)), None) is not None
    if listed:
        app.add_js_file(SCRIPT, loading_method="defer")
    if listed or pagename in Facts.of(app.env) or next(iter(doctree.findall(note_entry)), None) is not None:
        app.add_js_file(KEYS_SCRIPT, loading_method="defer")
        context["prnotes_keys"] = True  # the footer's switch (templates/prnotes-keys.html)


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.lists.fill")
    app.setup_extension("prnotes.sphinxext.lists.readmarks")
    skip = (lambda self, node: None, lambda self, node: None)
    app.add_node(filter_form, html=(visit_form_html, None), latex=skip, text=skip, man=skip, texinfo=skip)
    # After the lists are filled (lists.py, 400), before the search marks what it leaves out (500).
    app.connect("doctree-resolved", add_form, priority=450)
    app.connect("html-page-context", load_script)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
