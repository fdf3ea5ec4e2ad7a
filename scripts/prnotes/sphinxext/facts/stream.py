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

**本周** (:func:`weeks`) is every note of the digests dated in the newest ISO
week (Monday to Sunday, by the digests' dates: a digest's date is the day of
its commit in the author's time zone), in the same order; digests not
committed yet join it, as they are 今日 (with none committed at all, 本周 is
the week of the build). The weeks before it go back
:data:`WEEKS_BACK` calendar weeks, a week without digests included (its page
says so); older digests are in the archive. Without any dated or uncommitted
digest (no git) there is no week.

The walk (:func:`walk`) goes from the newest digest to the oldest, each in
reading order, so that a reader who missed a day goes on into the day before.
Everything comes from the notes' facts (:mod:`..facts.notes`), computed once per
build (:mod:`.state`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

from ... import contract
from ...model.classify import verdict_rank
from . import buildtime, state
from .notes import NoteFacts, present


# As many notes as a page of a list holds (render/paging.py's NOTE_PAGE).
TODAY_SHOWN = 150
TODAY_DIGESTS_NAMED = 10
# 本周 and this many weeks before it have pages (contract.week_docname).
WEEKS_BACK = contract.WEEKS_BACK


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
    notes = present(env)
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
    return state.once(env, _newest_day)


@dataclass(frozen=True)
class Week:
    """An ISO week of the archive (Monday to Sunday) and the digests dated in it."""

    monday: date
    digests: tuple[tuple[int, str], ...]  # (number, seed path), oldest first
    notes: tuple[str, ...]  # docnames, in reading order

    @property
    def label(self) -> str:
        """``2026-W49``, the ISO year and week."""
        year, week, _ = self.monday.isocalendar()
        return f"{year}-W{week:02d}"

    @property
    def span(self) -> str:
        """``2026-11-30 至 2026-12-06``."""
        return f"{self.monday.isoformat()} 至 {(self.monday + timedelta(days=6)).isoformat()}"


def _monday(label: str) -> date | None:
    """The Monday of the week of a date label (``YYYY-MM-DD``); None for 未提交 and 日期未知."""
    try:
        day = date.fromisoformat(label)
    except ValueError:
        return None
    return day - timedelta(days=day.weekday())


def _weeks(env: BuildEnvironment) -> tuple[Week, ...]:
    notes = present(env)
    numbers = {f.digest: f.digest_number for f in notes.values()}
    known = buildtime.facts(env)
    mondays = {seed: _monday(buildtime.label(known, seed)) for seed in numbers}
    dated = [m for m in mondays.values() if m is not None]
    fresh = {seed for seed in numbers if buildtime.label(known, seed) == buildtime.UNCOMMITTED}
    if not dated and not fresh:
        return ()
    # Nothing committed yet (a new site's preview): the week of the build.
    newest = max(dated) if dated else _monday(date.today().isoformat())
    out = []
    for back in range(WEEKS_BACK + 1):
        monday = newest - timedelta(weeks=back)
        seeds = {seed for seed, m in mondays.items() if m == monday} | (fresh if back == 0 else set())
        members = sorted((reading_key(f), d) for d, f in notes.items() if f.digest in seeds)
        out.append(Week(monday, tuple(sorted((numbers[s], s) for s in seeds)), tuple(d for _, d in members)))
    return tuple(out)


def weeks(env: BuildEnvironment) -> tuple[Week, ...]:
    """本周 and the :data:`WEEKS_BACK` weeks before it, newest first (module
    docstring); empty for an archive without dates."""
    return state.once(env, _weeks)


def walk(env: BuildEnvironment) -> tuple[str, ...]:
    """Every note of the site in walking order (:func:`walk_key`), computed once per build."""
    return state.once(env, _walk)


def _walk(env: BuildEnvironment) -> tuple[str, ...]:
    notes = present(env)
    return tuple(d for _, d in sorted((walk_key(f), d) for d, f in notes.items()))


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.facts.notes")
    app.setup_extension("prnotes.sphinxext.facts.buildtime")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
