"""A code span and the closing punctuation after it stay on one line.

Chinese text never starts a line with closing punctuation (、，。；：！？ and
the closing brackets and quotes); the paragraphs ask for that
(``line-break: strict``). After a code span the browser may still break
there: the span ends an inline box, and a long span may break anywhere
inside it (``overflow-wrap: anywhere``), so Chromium can end a line with the
span and start the next with its 、. Here, on the HTML pages, a code span
of at most :data:`LONGEST` characters and the closing punctuation right after
it are wrapped together in ``<span class="prnotes-glue">``, which the style
sheet keeps whole (about 280 px at most, so it fits a phone's line), with a
``<wbr>`` before it, where the line may break; a longer span keeps breaking
inside itself, as it must to fit.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform

# What may not start a line (UAX #14 class CL and the full-width closing marks).
CLOSING = frozenset("，。、；：！？）】」』”’》〉")
GLUE = "prnotes-glue"
# The longest code span glued: wider than a phone's line, it has to break.
LONGEST = 32


class GlueClosingPunctuation(SphinxPostTransform):
    default_priority = 800
    builders = ("html", "dirhtml", "singlehtml")  # not the EPUB: its XHTML has no <wbr>

    def run(self, **kwargs) -> None:
        for literal in list(self.document.findall(nodes.literal)):
            parent = literal.parent
            after = literal.next_node(descend=False, siblings=True)
            text = after.astext() if isinstance(after, nodes.Text) else ""
            if not text or text[0] not in CLOSING or len(literal.astext()) > LONGEST:
                continue
            glue = nodes.inline("", "", classes=[GLUE])
            parent.replace(literal, glue)
            # A line may still break before the box: Chromium takes the box's
            # nowrap for the place where it starts.
            parent.insert(parent.index(glue), nodes.raw("", "<wbr>", format="html"))
            glue += literal
            glue += nodes.Text(text[0])
            if text[1:]:
                parent.replace(after, nodes.Text(text[1:]))
            else:
                parent.remove(after)


def setup(app: Sphinx) -> dict[str, object]:
    app.add_post_transform(GlueClosingPunctuation)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
