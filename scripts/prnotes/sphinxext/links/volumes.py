"""Links to pages another build holds: the archive built in volumes (docs/volumes.md).

A build of some of the site's pages (a closed volume, or the hub without the
closed volumes) reads the link map that ``prnotes volumes`` writes
(:func:`prnotes.build.volumes.link_map`: every page of the site and every
label with its page), named by ``prnotes_link_map`` (a path from the source
folder; empty, the default, for the one build of the whole site, which
changes nothing). A reference that this build cannot resolve itself then
goes to the page that holds its target, at the URL that page has in the
site, as if one build held both:

- a PR reference to a note of another volume (:func:`elsewhere`, asked by
  :mod:`.prlinks`);
- a Markdown link to a page of another volume or of the hub (MyST leaves it
  unresolved when the file is not in this build's source folder);
- a ``{ref}`` or an ``{any}`` (the badges' ``bdg-ref`` roles make these) to a
  label another page defines.

A feed line links 全部订阅源 when another build holds that page, and the
header lists the archive's repositories (the map's), not the build's. Anything
the map does not hold is left to Sphinx and MyST, which warn.
"""

from __future__ import annotations

import json
import posixpath
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.directives.other import TocTree as _TocTree
from sphinx.errors import ConfigError
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import make_refnode, split_explicit_title

from .. import _internals
from ..facts import state
from ...parse import regular

CONFIG = "prnotes_link_map"
MAX_MAP_BYTES = 256 << 20  # two lines per page of the archive


def link_map(app: Sphinx) -> dict[str, Any]:
    """The map ``prnotes_link_map`` names, read once per build: ``{"pages": {docname: volume},
    "labels": {label: docname}, "repositories": [owner/repo, …], "similar": {"lists": …,
    "notes": …}}`` (the archive's 相似笔记: :mod:`.similar`)."""
    return map_of(app.env)


def map_of(env) -> dict[str, Any]:
    name = env.config[CONFIG]
    if not name:
        return {"pages": {}, "labels": {}, "repositories": [], "similar": {}}
    return state.once(env, _read_map, Path(env.srcdir) / name, name)


def _read_map(env, path: Path, name: str) -> dict[str, Any]:
    try:
        data = json.loads(regular.read_regular(path, MAX_MAP_BYTES).decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{CONFIG} = {name!r}: {path} is not a link map ({exc}); `prnotes volumes` writes it") from None
    return {**{key: dict(data.get(key) or {}) for key in ("pages", "labels", "similar")}, "repositories": list(data.get("repositories") or [])}


def elsewhere(app: Sphinx, docname: str) -> bool:
    """Whether another build of the site holds the page ``docname``."""
    return docname not in _internals.documents(app.env) and docname in link_map(app)["pages"]


def _target(node: addnodes.pending_xref) -> tuple[str, str] | None:
    """The page and anchor a reference this build left unresolved points at, from the map's
    point of view: ``(docname, anchor)``, or None when it is none of ours."""
    refdoc, reftype, domain = node.get("refdoc", ""), node.get("reftype"), node.get("refdomain")
    if reftype == "myst" and domain == "doc":
        return node["reftarget"], node.get("reftargetid") or ""
    if reftype == "myst" and not domain:
        path, _, anchor = node["reftarget"].partition("#")
        if not path.endswith(".md") or "://" in path:
            return None
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(refdoc), path))
        return joined.removesuffix(".md"), anchor
    if (reftype == "ref" and domain == "std") or reftype == "any":  # {ref}; {any}, which the badges make
        return "", node["reftarget"]
    return None


def across_volumes(app: Sphinx) -> type[SphinxPostTransform]:
    """The post-transform that resolves, from the link map, the references whose
    targets another build holds (for ``app``: a transform has no documented way to
    its application's builder)."""

    class ResolveAcrossVolumes(SphinxPostTransform):
        default_priority = _internals.REFERENCES_RESOLVER_PRIORITY - 3  # before MyST's (9) and Sphinx's (10)

        def run(self, **kwargs) -> None:
            mapped = link_map(app)
            if not mapped["pages"]:
                return
            labels = self.env.domains.standard_domain.labels
            for node in list(self.document.findall(addnodes.pending_xref)):
                found = _target(node)
                if found is None:
                    continue
                docname, anchor = found
                if not docname:  # a label: ours when this build does not define it
                    if anchor in labels or anchor not in mapped["labels"]:
                        continue
                    docname = str(mapped["labels"][anchor])
                elif docname not in mapped["pages"] or (docname in _internals.documents(self.env) and node.get("refdomain")):
                    # MyST resolves a link to a page of this build, but one it read as a path:
                    # the page was not in the build then (a closed volume's stubs, added since).
                    continue
                content = node[0].deepcopy() if node.children else nodes.inline(node["reftarget"], node["reftarget"])
                node.replace_self(make_refnode(app.builder, node["refdoc"], docname, anchor or None, content))

    return ResolveAcrossVolumes


class TocTree(_TocTree):
    """The toctree, without the entries another build holds: the hub's lists
    name the closed volumes' pages, which it links to but does not build."""

    def run(self) -> list[nodes.Node]:
        if held := map_of(self.env)["pages"]:
            sources = _internals.sources(self.env)
            here = posixpath.dirname(self.env.docname)
            kept = StringList()
            for line, (source, offset) in zip(self.content, self.content.items, strict=True):
                entry = line.strip()
                target = split_explicit_title(entry)[2].removesuffix(".md")
                docname = posixpath.normpath(target.lstrip("/") if target.startswith("/") else posixpath.join(here, target))
                if not entry or docname in sources or docname not in held:
                    kept.append(line, source, offset)
            self.content = kept
        return super().run()


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.state")
    app.add_config_value(CONFIG, "", "env", types=[str])
    app.add_post_transform(across_volumes(app))
    app.add_directive("toctree", TocTree, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
