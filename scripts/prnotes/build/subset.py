"""Which notes a PDF book holds: all of them, some verdicts and subsystems, or a volume.

A :class:`Selection` is parsed from what a reader types (``精读`` or ``close``,
``ci``), or names a volume of the archive (:func:`volume_selection`);
:func:`select` returns the site reduced to the chosen notes, with the
back-link index rebuilt, so that a note left out is linked to GitHub, never to
a page the book does not contain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..model.classify import VERDICT_BY_SLUG, VERDICTS
from ..model.site import Note, Site, Volume
from ..model.taxonomy import Taxonomy

BOOK_NAME = "prnotes"
VOLUME_BOOK = re.compile(rf"^{BOOK_NAME}-v\d+$")  # the name of a volume's book


@dataclass(frozen=True)
class Selection:
    """Verdict and subsystem slugs, and a volume, to keep; empty keeps all."""

    verdicts: tuple[str, ...] = ()
    subsystems: tuple[str, ...] = ()
    volume: Volume | None = None

    def includes(self, note: Note, volume: int) -> bool:
        """Whether ``note``, which is in volume number ``volume``, belongs in the book."""
        return (
            (not self.verdicts or note.verdict in self.verdicts)
            and (not self.subsystems or note.subsystem in self.subsystems)
            and (self.volume is None or volume == self.volume.number)
        )

    @property
    def everything(self) -> bool:
        return not self.verdicts and not self.subsystems and self.volume is None

    @property
    def name(self) -> str:
        """ASCII file name of the book, e.g. ``prnotes-ci-close`` or ``prnotes-v2``."""
        volume = (f"v{self.volume.number}",) if self.volume else ()
        subsystems = (s.replace("/", "-") for s in self.subsystems)
        return "-".join((BOOK_NAME, *volume, *subsystems, *self.verdicts))

    def describe(self, taxonomy: Taxonomy, count: int) -> str:
        """What the edition holds, in words, for the title page."""
        parts = []
        if self.volume:
            parts.append(self.volume.title)
        if self.subsystems:
            parts.append("子系统：" + "、".join(taxonomy.subsystem_of_key(s).title for s in self.subsystems))
        if self.verdicts:
            parts.append("阅读结论：" + "、".join(VERDICT_BY_SLUG[v].title for v in self.verdicts))
        scope = "；".join(parts) if parts else "全部笔记"
        return f"{scope}（{count} 篇）"


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.replace("，", ",").split(",") if v.strip()]


def parse_selection(verdicts: str, subsystems: str, taxonomy: Taxonomy) -> Selection:
    """Read comma-separated verdicts (title or slug) and subsystem slugs.

    Raises :class:`ValueError` naming the valid choices.
    """
    by_name = {v.title: v.slug for v in VERDICTS} | {v.slug: v.slug for v in VERDICTS}
    chosen_verdicts = []
    for value in _split(verdicts):
        if value not in by_name:
            choices = ", ".join(f"{v.title} ({v.slug})" for v in VERDICTS)
            raise ValueError(f"unknown verdict {value!r}; choose from {choices}")
        chosen_verdicts.append(by_name[value])
    flat = next((s for s in taxonomy.sets if s.flat_pages), None)
    choices = [s.slug for s in flat.subsystems] if flat else []
    chosen_subsystems = []
    for value in _split(subsystems):
        if taxonomy.subsystem_of_key(value) is None:
            hint = f"{', '.join(choices)}, or <owner>/<repo>/<slug> for another repository's" if choices else "<owner>/<repo>/<slug>"
            raise ValueError(f"unknown subsystem {value!r}; choose from {hint}")
        chosen_subsystems.append(value)
    # Sorted, without repeats: the same choice always names the same book.
    return Selection(
        verdicts=tuple(v.slug for v in VERDICTS if v.slug in chosen_verdicts),
        subsystems=tuple(sorted(set(chosen_subsystems), key=lambda k: (k.count("/"), choices.index(k) if k in choices else 0, k))),
    )


def select(site: Site, selection: Selection) -> Site:
    """The site with only the selected notes and the mentions among them; the
    notes left out that mention one of them are named (``mentioned_outside``)."""
    notes = tuple(n for n in site.notes if selection.includes(n, site.volume_of(n)))
    kept = {n.docname for n in notes}
    mentioned, outside = {}, {}
    for key, docnames in site.mentioned_by.items():
        left = tuple(d for d in docnames if d in kept)
        if left:
            mentioned[key] = left
        others = [site.by_docname[d] for d in docnames if d not in kept]
        if others:
            outside[key] = tuple((n.repo, n.number, n.title_pieces, site.digest_of(n).number) for n in others)
    return replace(site, notes=notes, mentioned_by=mentioned, mentioned_outside=outside)


def volume_selection(volume: Volume) -> Selection:
    """The book of one volume of the archive (:class:`prnotes.model.site.Volume`)."""
    return Selection(volume=volume)
