"""Resolve a linking badge as the label reference it is.

sphinx-design's ``{bdg-ref-*}`` roles (a note's subsystem, a tag) make an
``any`` cross-reference: Sphinx offers its target to every domain, and the
C++ and C domains parse each one as a declaration, about a millisecond a
badge, in the HTML build and in the book alike. The converter points these
badges only at labels (:func:`prnotes.contract.subsystem_label`,
:func:`~prnotes.contract.tag_label`), so a badge whose target is a label is
resolved by the standard domain's ``ref`` role before Sphinx asks the
others: the same link, the same text. A target that is no label is left to
``any``, and its warning.
"""

from __future__ import annotations

from typing import Any

from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

from .. import _internals


class BadgeRefs(SphinxPostTransform):
    # Before Sphinx's ReferencesResolver (10).
    default_priority = 5

    def run(self, **kwargs: Any) -> None:
        labels = self.env.domains.standard_domain.labels
        for node in self.document.findall(addnodes.pending_xref):
            if (
                node.get("reftype") == "any"
                and not node.get("refdomain")
                and _internals.DESIGN_BADGE in node.get("classes", ())
                and node.get("reftarget", "").lower() in labels
            ):
                node["refdomain"], node["reftype"] = "std", "ref"


def setup(app: Sphinx) -> dict:
    app.add_post_transform(BadgeRefs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
