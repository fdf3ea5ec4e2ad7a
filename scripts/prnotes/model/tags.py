"""A note's tags: the taxonomy's ``[[tag]]`` matches plus secondary subsystems.

A note lives in exactly one subsystem, but its signals often name another one
too (``[ROCm][CI] …`` is filed under CI and also concerns ROCm). Every
subsystem that the classification weighed and that lost, with evidence beyond
the body and at least ``tag`` in ``[weights]`` of ``taxonomy.toml``
(:meth:`prnotes.model.filing.Filing.runners_up`), becomes a tag named like the
subsystem. A ``[[tag]]`` with the same slug as a subsystem is the same tag,
and a slug that two repositories' sets share (``quantization``) names one tag.

Tag order: the ``[[tag]]`` list first (hardware, models, topics), then the
secondary subsystems in the order of the sets (:attr:`prnotes.model.taxonomy.Taxonomy.sets`).
"""

from __future__ import annotations

import functools

from dataclasses import dataclass

from .site import Note, Site
from .taxonomy import Taxonomy


@dataclass(frozen=True)
class Tag:
    slug: str
    title: str
    subsystem: str | None  # the subsystem this tag stands for, if any


@functools.lru_cache(maxsize=8)
def all_tags(taxonomy: Taxonomy) -> tuple[Tag, ...]:
    """Every tag a note can have, in display order."""
    subsystem_slugs = {s.slug for s in taxonomy.all_subsystems}
    tags = [Tag(t.slug, t.title, t.slug if t.slug in subsystem_slugs else None) for t in taxonomy.tags]
    named = {t.slug for t in tags}
    tags += [Tag(s.slug, s.title, s.slug) for s in taxonomy.all_subsystems if s.slug not in named and s.slug != taxonomy.fallback]
    return tuple(tags)


def tags_of_note(note: Note, taxonomy: Taxonomy) -> tuple[Tag, ...]:
    """The note's tags, in display order (see the module docstring)."""
    slugs = set(note.tags) | set(note.secondary)
    return tuple(t for t in all_tags(taxonomy) if t.slug in slugs and t.slug != note.subsystem_slug)


def tag_index(site: Site) -> dict[str, tuple[Note, ...]]:
    """Tag slug -> its notes in page order, for every tag at least one note has."""
    index: dict[str, list[Note]] = {}
    for note in site.notes:
        for tag in tags_of_note(note, site.taxonomy):
            index.setdefault(tag.slug, []).append(note)
    order = [t.slug for t in all_tags(site.taxonomy)]
    return {slug: tuple(sorted(index[slug], key=site.note_order)) for slug in order if slug in index}
