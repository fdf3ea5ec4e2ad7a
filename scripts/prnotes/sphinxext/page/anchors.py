"""Section anchors a reader can read: ``#阅读建议``, not ``#id1``.

Docutils makes a section's id from its title's ASCII letters; a Chinese title
has none, and gets a numbered id (``id1``, ``id2`` …) that says nothing and
changes when a section is added above it. Here such a section takes its
title as its id (blanks become ``-``), unless another element of the page has
that id already. It runs while the page is read, before the table of
contents is collected, so the page's own contents, its heading links and
every link to the section agree.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

_NUMBERED = re.compile(r"id\d+")
_BLANKS = re.compile(r"\s+")


class ReadableSectionIds(SphinxTransform):
    # Before the domains collect the page's targets (SphinxDomains, 850).
    default_priority = 780

    def apply(self, **kwargs) -> None:
        document = self.document
        for section in document.findall(nodes.section):
            ids = section["ids"]
            if not ids or not _NUMBERED.fullmatch(ids[0]) or not section.children or not isinstance(section[0], nodes.title):
                continue
            new = _BLANKS.sub("-", section[0].astext().strip())
            if not new or new in document.ids:
                continue
            old = ids[0]
            ids[0] = new
            document.ids[new] = section
            if document.ids.get(old) is section:
                del document.ids[old]
            for name, target in document.nameids.items():
                if target == old:
                    document.nameids[name] = new


def setup(app: Sphinx) -> dict:
    app.add_transform(ReadableSectionIds)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
