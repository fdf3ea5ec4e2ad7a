"""Previous/next links: the notes walk the digests, the digests the archive.

Every page's previous and next page (the footer's buttons and the head's
``<link rel="prev">``/``<link rel="next">``) is set here, from the notes'
facts, not from the toctree:

- a note: the walk of :func:`.stream.walk`, its digest in the digest page's
  order (:func:`.stream.reading_key`), then on into the digest before it
  (older), so that a reader who missed a day keeps going; the first note of
  the newest digest has no previous page and the last note of the oldest
  digest no next one. The subsystem's order is on the subsystem page;
- a digest: 上一期 is the digest before it (older), 下一期 the one after it
  (newer), as the digest page's own line says;
- any other page: the pages of the toctree in order, notes and digests left
  out, so a subsystem page leads to the next subsystem page, not into its
  notes.

The buttons name what they lead to: 上一篇/下一篇 for a note, 上一期/下一期
for a digest, 上一页/下一页 for any other page (``prnotes_prev_label`` and
``prnotes_next_label``, shown by ``templates/components/prev-next.html``).
The end of a digest shows: on its last note, 下一篇 says that it leads into
the digest before (``下一篇 · 上一期：第 3 期 · 2026-12-02``, the date this
build's), and a line over the buttons that the digest ends there
(``prnotes_digest_end``: ``第 4 期到此读完``).

A closed volume's build (docs/volumes.md) holds only its own notes and
digests: the pages beside them in the archive's order are another build's,
and ``prnotes_walk_edges`` names them (``prnotes volumes`` passes them:
:func:`prnotes.build.volumes.edges`), with their titles and digests, so
that the walk goes on across the volume's edges as in one build.

A page whose neighbours changed is written again though its source did not
change (:class:`NeighbourPages`): when a digest
arrives, the newest digest before it (its 下一期) and that digest's first
note (its 上一篇), the pages beside a page whose title changed, and a
digest's last note when the date of the digest before changes.
"""

from __future__ import annotations

import html
import json

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ... import contract
from .. import _internals
from ..facts import buildtime, state, stream
from ..facts.notes import present

LABELS = {"note": ("上一篇", "下一篇"), "digest": ("上一期", "下一期"), "page": ("上一页", "下一页")}
# The neighbours as the last build left them: {docname: (previous, next)}.
SAVED = "prnotes_neighbours"
# What the last notes of digests said as the last build left them: {docname: (end line, 下一篇's label)}.
SAVED_ENDS = "prnotes_digest_ends"

Neighbours = dict[str, tuple[str | None, str | None]]
EDGES = "prnotes_walk_edges"


def _kind(docname: str) -> str:
    if contract.is_note_docname(docname):
        return "note"
    if contract.is_digest_docname(docname):
        return "digest"
    return "page"


def _chain(order: list[str] | tuple[str, ...], into: Neighbours, ends: list | None = None) -> None:
    """Each page of ``order`` with the pages before and after it; ``ends``: the pages of
    another build before the first and after the last (:func:`edges`)."""
    outside = [(edge or {}).get("page") for edge in ends or (None, None)]
    for index, docname in enumerate(order):
        before = order[index - 1] if index else outside[0]
        after = order[index + 1] if index + 1 < len(order) else outside[1]
        into[docname] = (before, after)


def edges(env: BuildEnvironment) -> dict[str, list]:
    """The pages of other builds beside this build's walk and digests (module docstring):
    ``{"walk": [before, after], "digests": [before, after]}``, each None or a dict of its
    ``page``, ``title``, ``digest`` (seed file) and ``number``."""
    return json.loads(env.config[EDGES] or "{}")


def _outside(env: BuildEnvironment) -> dict[str, dict]:
    """The pages of :func:`edges` by docname."""
    return {edge["page"]: edge for pair in edges(env).values() for edge in pair if edge}


def toctree_order(env: BuildEnvironment) -> list[str]:
    """Every page of the toctree, in reading order, from the root down."""
    tree = _internals.page_tree(env)
    order: list[str] = []
    docname = env.config.root_doc if env.config.root_doc in tree else None
    while docname and len(order) <= len(tree):
        order.append(docname)
        docname = tree.get(docname, (None, None, None))[2]
    return order


def compute(env: BuildEnvironment) -> Neighbours:
    """Every page's (previous, next) page (module docstring)."""
    found: Neighbours = {}
    _chain(stream.walk(env), found, edges(env).get("walk"))
    notes = present(env)
    digests = sorted({(f.digest_number, contract.digest_docname(f.digest)) for f in notes.values()})
    _chain([d for _, d in digests if d in _internals.documents(env)], found, edges(env).get("digests"))
    _chain([d for d in toctree_order(env) if _kind(d) == "page"], found)
    return found


def neighbours(env: BuildEnvironment) -> Neighbours:
    """:func:`compute`, once per build (the pages are all read by the time it is asked)."""
    return state.once(env, compute)


Ends = dict[str, tuple[str, str]]


def digest_ends(env: BuildEnvironment) -> Ends:
    """The last note of each digest (but the oldest) that leads into the digest
    before it: ``(第 4 期到此读完, 下一篇 · 上一期：第 3 期 · 2026-12-02)``, once per build."""
    return state.once(env, _digest_ends)


def _digest_ends(env: BuildEnvironment) -> Ends:
    notes, outside = present(env), _outside(env)
    known = buildtime.facts(env)
    out: Ends = {}
    for docname, (_, after) in neighbours(env).items():
        here = notes.get(docname)
        there = (f.digest, f.digest_number) if (f := notes.get(after or "")) else ((e["digest"], e["number"]) if (e := outside.get(after or "")) else None)
        if here is None or there is None or here.digest == there[0]:
            continue
        date = buildtime.label(known, there[0])
        out[docname] = (f"第 {here.digest_number} 期到此读完", f"下一篇 · 上一期：第 {there[1]} 期 · {date}")
    return out


def _link(context: dict, env: BuildEnvironment, docname: str | None) -> dict | None:
    title = env.titles[docname].astext() if docname in env.titles else (_outside(env).get(docname or "") or {}).get("title")
    if title is None:
        return None
    # The theme inserts the title as HTML, as Sphinx renders its own titles.
    return {"link": context["pathto"](docname), "title": html.escape(title)}


def set_prev_next(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    env = app.env
    found = neighbours(env).get(pagename)
    if found is None:
        return
    for key, docname, index in (("prev", found[0], 0), ("next", found[1], 1)):
        context[key] = _link(context, env, docname)
        context[f"prnotes_{key}_label"] = LABELS[_kind(docname or "")][index]
    end = digest_ends(env).get(pagename)
    if end is not None and context["next"] is not None:
        context["prnotes_digest_end"], context["prnotes_next_label"] = end


def _title(env, docname: str) -> str | None:
    """What a button to ``docname`` shows of it: its title, as a tree (markup included)."""
    title = env.titles.get(docname)
    return title.pformat() if title is not None else None


class NeighbourPages(state.Collector):
    """The pages written again because their previous or next page changed."""

    def before(self, app: Sphinx, env, outdated: state.Outdated) -> dict[str, str | None]:
        """The titles of the pages about to be read again, as they were."""
        return {docname: _title(env, docname) for docname in outdated.added | outdated.changed}

    def after(self, app: Sphinx, env, outdated: state.Outdated, read: dict[str, str | None]) -> list[str]:
        """The pages whose previous or next page changed, and those whose
        previous or next page was read again with another title (the button
        shows it). A page read again under the same title (a list page, read
        again with most digests) leaves its neighbours alone."""
        now, ends = neighbours(env), digest_ends(env)
        old, old_ends = getattr(env, SAVED, None), getattr(env, SAVED_ENDS, None) or {}
        setattr(env, SAVED, now)
        setattr(env, SAVED_ENDS, ends)
        if old is None:
            return []
        retitled = {docname for docname, title in read.items() if _title(env, docname) != title}
        changed = [docname for docname, links in now.items() if old.get(docname) != links or any(link in retitled for link in links)]
        # The end of a digest names the date of the digest before it.
        return changed + [docname for docname in ends.keys() | old_ends.keys() if ends.get(docname) != old_ends.get(docname)]


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.stream")
    app.add_config_value(EDGES, "", "env", types=[str])
    app.connect("html-page-context", set_prev_next)
    app.add_env_collector(NeighbourPages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
