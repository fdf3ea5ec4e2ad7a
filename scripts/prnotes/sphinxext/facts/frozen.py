"""Docutils nodes kept in ``env`` as plain data.

``env`` is pickled whole and sent between processes; thousands of docutils
nodes make that slow. A frozen node is its text, or ``(module, class name,
attributes, children)``.
"""

from __future__ import annotations

import importlib

from docutils import nodes
from sphinx import addnodes

Frozen = str | tuple


def freeze(node: nodes.Node) -> Frozen:
    if isinstance(node, nodes.Text):
        return str(node)
    attributes = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in node.attributes.items()))
    return (type(node).__module__, type(node).__name__, attributes, tuple(freeze(c) for c in node.children))


def thaw(frozen: Frozen) -> nodes.Node:
    if isinstance(frozen, str):
        return nodes.Text(frozen)
    module, name, attributes, children = frozen
    node = getattr(importlib.import_module(module), name)()
    node.extend(thaw(c) for c in children)
    for key, value in attributes:
        node[key] = list(value) if isinstance(value, tuple) else value
    return node


def thaw_into(parent: nodes.Element, frozen: tuple[Frozen, ...], refdoc: str) -> nodes.Element:
    """Append copies of ``frozen`` to ``parent``; their cross-references resolve from ``refdoc``."""
    for item in frozen:
        copy = thaw(item)
        if isinstance(copy, nodes.Element):
            for xref in copy.findall(addnodes.pending_xref):
                xref["refdoc"] = refdoc
        parent += copy
    return parent


def plain_text(frozen: tuple[Frozen, ...]) -> str:
    return "".join(thaw(n).astext() for n in frozen)
