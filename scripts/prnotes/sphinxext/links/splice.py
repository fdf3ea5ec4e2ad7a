"""Replace many nodes of a doctree at once, each parent's children rebuilt once.

docutils' ``Node.replace_self`` and ``Element.replace`` find the node among
its parent's children (``list.index``) and shift the ones after it: a
paragraph of thousands of PR references, each replaced so, costs time
quadratic in their number. :func:`replace_all` does what those calls would
do, in one pass over each parent's children. :func:`joined` lays nodes out
with a separator between them (``A、B、C``).
"""

from __future__ import annotations

from collections.abc import Iterable

from docutils import nodes


def replace_all(replacements: Iterable[tuple[nodes.Node, nodes.Node | list[nodes.Node]]]) -> None:
    """Replace each ``old`` node by ``new`` (a node, or nodes spliced in its place), as
    ``old.parent.replace(old, new)`` would; time linear in the parents' children."""
    by_parent: dict[int, tuple[nodes.Element, dict[int, list[nodes.Node]]]] = {}
    for old, new in replacements:
        parent = old.parent
        _, news = by_parent.setdefault(id(parent), (parent, {}))
        news[id(old)] = [new] if isinstance(new, nodes.Node) else list(new)
    for parent, news in by_parent.values():
        children: list[nodes.Node] = []
        for child in parent.children:
            new = news.get(id(child))
            if new is None:
                children.append(child)
                continue
            for node in new:
                parent.setup_child(node)
                children.append(node)
        parent.children = children


def replace_selves(replacements: Iterable[tuple[nodes.Element, nodes.Node | list[nodes.Node]]]) -> None:
    """:func:`replace_all`, the first new node of each taking the old one's ids,
    classes and names, as ``old.replace_self(new)`` would."""
    pairs = list(replacements)
    for old, new in pairs:
        first = new if isinstance(new, nodes.Node) else (new[0] if new else None)
        if isinstance(first, nodes.Element):
            first.update_basic_atts(old)
    replace_all(pairs)


def joined(parts: Iterable[nodes.Node | list[nodes.Node]], separator: str = "、") -> list[nodes.Node]:
    """The nodes of ``parts`` with ``separator`` between one part and the next."""
    out: list[nodes.Node] = []
    for part in parts:
        if out:
            out.append(nodes.Text(separator))
        out.extend(part if isinstance(part, list) else [part])
    return out
