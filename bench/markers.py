"""Benchmark output in BENCHMARKS.md: text between a pair of markers, the prose around it kept."""

from __future__ import annotations

import re
from pathlib import Path


def replace_between(path: Path, begin: str, end: str, text: str, section: str | None = None) -> None:
    """Put ``text`` between the ``begin`` and ``end`` markers of ``path``.

    Without the markers, the block is appended under a new ``## section``
    heading, or, with no ``section``, the run stops and says where they go.
    """
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = f"{begin}\n\n{text.strip()}\n\n{end}"
    markers = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if markers.search(old):
        new = markers.sub(lambda _: block, old, count=1)
    elif section is not None:
        new = old.rstrip() + f"\n\n## {section}\n\n{block}\n"
    else:
        raise SystemExit(f"{path} has no {begin} … {end} markers; add them where the table goes")
    path.write_text(new, encoding="utf-8", newline="\n")
