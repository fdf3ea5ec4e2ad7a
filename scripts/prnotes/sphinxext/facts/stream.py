"""The archive as a stream of digests: the order a reader goes through it.

A digest's notes are read in one order wherever they are listed or walked
(:func:`reading_key`): 精读 first, then 速读, then 按需, then notes whose
advice names no verdict; within each, the order of the seed file. The digest
pages, the landing page's 今日 and the 上一篇/下一篇 links of the notes
(:mod:`.prevnext`) all follow it.

**今日** (:func:`newest_day`) is every note of every digest of the newest
date, in that order, across digests. The dates are this build's
(:mod:`.buildtime`):

- digests not committed yet (未提交) are the newest arrivals: they alone are
  今日 until they are committed, when they get their date and join the other
  digests of that day;
- otherwise 今日 is the digests of the newest known date; a digest whose date
  is unknown in a dated archive (a build warning) is left out;
- with no date at all (a copy without git: 日期未知 everywhere) 今日 is the
  newest digest file alone, as dates cannot say which others share its day.

An archive's first day holds every digest committed with it, so 今日
shows at most :data:`TODAY_SHOWN` notes (the first in reading order; the
rest are a line that points to the day's digest pages) and names at most
:data:`TODAY_DIGESTS_NAMED` digests (else the day's first and last): the
landing page stays as small as any page of a list.

The walk (:func:`walk`) goes from the newest digest to the oldest, each in
reading order, so that a reader who missed a day goes on into the day before.
Everything comes from the notes' facts (:mod:`..facts.notes`), computed once per
build (:mod:`.state`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ...model.classify import verdict_rank
from . import buildtime, state
from .notes import FACTS, NoteFacts


# As many notes as a page of a list holds (render/paging.py's NOTE_PAGE).
TODAY_SHOWN = 150
TODAY_DIGESTS_NAMED = 10


def reading_key(facts: NoteFacts) -> tuple[int, int, int]:
    """A note's place among the notes of its digests: verdict, then digest, then seed order."""
    return (verdict_rank(facts.verdict or None), facts.digest_number, facts.position)


def walk_key(facts: NoteFacts) -> tuple[int, int, int]:
    """A note's place in the walk: newest digest first, each in reading order."""
    return (-facts.digest_number, verdict_rank(facts.verdict or None), facts.position)


@dataclass(frozen=True)
class Day:
    """The newest day of the archive and what arrived on it."""

    label: str  # YYYY-MM-DD, 未提交 or 日期未知, as the pages show a date
    digests: tuple[tuple[int, str], ...]  # (number, seed path), oldest first
    notes: tuple[str, ...]  # docnames, in reading order


def notes_of_site(env: BuildEnvironment) -> dict[str, NoteFacts]:
    """Every note's facts, of the documents the site holds, by docname."""
    return {d: f for d, f in sorted(FACTS.of(env).items()) if d in env.all_docs}


def choose_day(labels: dict[str, str], numbers: dict[str, int]) -> tuple[str, list[str]]:
    """The newest day's label and its digests' seed paths, from each digest's
    date label (:func:`.buildtime.label`) and number (module docstring)."""
    if not labels:
        return "", []
    uncommitted = [seed for seed, label in labels.items() if label == buildtime.UNCOMMITTED]
    if uncommitted:
        return buildtime.UNCOMMITTED, uncommitted
    dated = {seed: label for seed, label in labels.items() if label != buildtime.UNKNOWN}
    if dated:
        newest = max(dated.values())
        return newest, [seed for seed, label in dated.items() if label == newest]
    return buildtime.UNKNOWN, [max(labels, key=lambda seed: numbers[seed])]


def _newest_day(env: BuildEnvironment) -> Day | None:
    notes = notes_of_site(env)
    numbers = {f.digest: f.digest_number for f in notes.values()}
    known = buildtime.facts(env)
    label, seeds = choose_day({seed: buildtime.label(known, seed) for seed in numbers}, numbers)
    if not seeds:
        return None
    chosen = set(seeds)
    members = sorted((reading_key(f), d) for d, f in notes.items() if f.digest in chosen)
    return Day(label, tuple(sorted((numbers[s], s) for s in chosen)), tuple(d for _, d in members))


def newest_day(env: BuildEnvironment) -> Day | None:
    """今日 of this build (module docstring); None for a site without notes."""
    return state.of(env).once("stream.newest-day", lambda: _newest_day(env))


def walk(env: BuildEnvironment) -> tuple[str, ...]:
    """Every note of the site in walking order (:func:`walk_key`), computed once per build."""

    def make() -> tuple[str, ...]:
        notes = notes_of_site(env)
        return tuple(d for _, d in sorted((walk_key(f), d) for d, f in notes.items()))

    return state.of(env).once("stream.walk", make)


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
