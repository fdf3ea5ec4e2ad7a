"""Tags (prnotes.tags) on every seed entry, exactly."""

from __future__ import annotations

import pytest

from tests.support.sandbox import ROOT, fixture_site
from prnotes.project import load
from prnotes.tags import secondary_subsystems, tag_index, tags_of_note

# PR number -> (secondary subsystems, every tag slug in display order).
EXPECTED = {
    43107: ((), ("nvidia", "ci", "bugfix")),
    44969: (("rocm",), ("rocm", "nvidia")),
    49515: (("rocm", "ci"), ("rocm", "ci", "bugfix")),
    49793: (("attention", "parallel"), ("perf", "attention", "parallel")),
    51368: ((), ("deepseek", "bugfix")),
    51875: ((), ()),
    52046: ((), ("nvidia", "deepseek", "perf")),
    52288: (("attention",), ("deepseek", "bugfix", "attention")),
    52326: ((), ("nvidia", "perf")),
    52327: (("moe",), ("nvidia", "perf", "moe")),
    52374: (("attention",), ("ci", "attention")),
    52400: (("ci",), ("ci", "bugfix")),
    52603: (("moe",), ("moe",)),
    52763: (("attention", "rocm"), ("rocm", "perf", "attention")),
    52810: (("rocm",), ("rocm", "bugfix")),
    52822: (("rocm",), ("rocm",)),
}


@pytest.fixture(scope="module")
def site():
    return fixture_site()


def test_every_seed_entry_has_exactly_its_tags(site):
    got = {
        n.number: (secondary_subsystems(n, site.taxonomy), tuple(t.slug for t in tags_of_note(n, site.taxonomy)))
        for n in site.notes
    }
    assert got == EXPECTED


def test_a_note_is_never_tagged_with_its_own_subsystem(site):
    for note in site.notes:
        assert note.subsystem not in {t.slug for t in tags_of_note(note, site.taxonomy)}


def test_tag_index_lists_notes_newest_first(site):
    index = tag_index(site)
    assert [n.number for n in index["deepseek"]] == [52288, 52046, 51368]
    assert list(index) == ["rocm", "nvidia", "deepseek", "ci", "perf", "bugfix", "attention", "moe", "parallel"]
