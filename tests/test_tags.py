"""Tags (prnotes.tags) on every seed entry, exactly."""

from __future__ import annotations

import pytest

from tests.support.sandbox import ROOT, fixture_site
from prnotes.project import load
from prnotes.tags import secondary_subsystems, tag_index, tags_of_note

# PR number -> (secondary subsystems, every tag slug in display order).
EXPECTED = {
    43107: (("ci",), ("nvidia", "ci", "bugfix")),
    44969: (("platform",), ("rocm", "nvidia", "platform")),
    49515: (("ci",), ("rocm", "ci", "bugfix")),
    49793: ((), ("perf",)),
    51368: ((), ("deepseek", "bugfix")),
    51875: ((), ()),
    52046: (("attention",), ("nvidia", "deepseek", "perf", "attention")),
    52288: (("attention",), ("deepseek", "bugfix", "attention")),
    52326: ((), ("nvidia", "perf")),
    52327: (("moe-quant",), ("nvidia", "perf", "moe-quant")),
    52374: (("ci", "attention"), ("ci", "attention")),
    52400: ((), ("rocm", "bugfix")),
    52603: ((), ()),
    52763: (("platform", "attention"), ("rocm", "perf", "platform", "attention")),
    52810: (("platform",), ("rocm", "bugfix", "platform")),
    52822: (("platform",), ("rocm", "platform")),
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
    assert list(index) == ["rocm", "nvidia", "deepseek", "ci", "perf", "bugfix", "platform", "attention", "moe-quant"]
