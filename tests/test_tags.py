"""Tags (prnotes.tags): the rules on small made-up taxonomies and entries, and
every entry of the fixture project, exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from prnotes.model import build_site
from prnotes.parse import parse_seed
from prnotes.tags import secondary_subsystems, tag_index, tags_of_note
from prnotes.taxonomy import load_taxonomy

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


# The rules on made-up input. The taxonomy: subsystems ci, platform, kv-cache
# and other; title rules for platform, then ci, then kv-cache; tags rocm, perf
# and ci (the same slug as a subsystem).
TAXONOMY = """
[[subsystem]]
slug = "ci"
title = "CI"
[[subsystem]]
slug = "platform"
title = "平台"
[[subsystem]]
slug = "kv-cache"
title = "KV 缓存"
[[subsystem]]
slug = "other"
title = "其他"

[[rule]]
subsystem = "platform"
patterns = ["ROCm", "平台选择"]
[[rule]]
subsystem = "ci"
patterns = ["CI"]
[[rule]]
subsystem = "kv-cache"
patterns = ["前缀缓存"]

[[tag]]
slug = "rocm"
title = "ROCm/AMD"
patterns = ["ROCm", "MI300"]
[[tag]]
slug = "perf"
title = "性能"
patterns = ["提速", "speedup"]
[[tag]]
slug = "ci"
title = "CI"
patterns = ["CI", "Buildkite"]
"""


@pytest.fixture(scope="module")
def made_up(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("taxonomy") / "taxonomy.toml"
    path.write_text(TAXONOMY, encoding="utf-8")
    return path


def tags_of(made_up: Path, title: str, body: str = "值得精读。") -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(subsystem, secondary subsystems, tag slugs) of one entry ``title`` with ``body``."""
    taxonomy = load_taxonomy(made_up)
    seed = parse_seed("seeds/a.txt", f"o/r\n\n{title} (#1)\n\n{body}\n".encode())
    site = build_site([seed], {}, taxonomy)
    (note,) = site.notes
    return note.subsystem, secondary_subsystems(note, taxonomy), tuple(t.slug for t in tags_of_note(note, taxonomy))


@pytest.mark.parametrize(
    ("title", "body", "expected"),
    [
        # A [[tag]] matches the title ...
        ("[ROCm] 修复内存泄漏", "值得精读。", ("platform", (), ("rocm",))),
        # ... or the body; an ASCII pattern only as a whole word, any case.
        ("修复内存泄漏", "值得精读，在 MI300 上 SPEEDUP 明显。", ("other", (), ("rocm", "perf"))),
        ("修复内存泄漏", "值得精读，speedups 与 ROCmX 都不算。", ("other", (), ())),
        # A non-ASCII pattern matches inside longer text.
        ("内存提速方案", "值得精读。", ("other", (), ("perf",))),
        # The tag named like the note's own subsystem is left out ...
        ("[CI] 提速流水线", "值得精读。", ("ci", (), ("perf",))),
        # ... and shown when the note is filed elsewhere: the body's "CI" tags it,
        # but only title rules make a secondary subsystem.
        ("[ROCm] 平台选择", "值得精读，CI 也受益。", ("platform", (), ("rocm", "ci"))),
        # Another subsystem whose title rule matches is a secondary subsystem
        # and a tag; with a [[tag]] of the same slug it is that tag, listed once.
        ("[CI] 前缀缓存测试", "值得精读。", ("ci", ("kv-cache",), ("kv-cache",))),
        ("[ROCm][CI] 提速", "值得精读。", ("platform", ("ci",), ("rocm", "perf", "ci"))),
        # Order: the [[tag]] list, then the other secondary subsystems in taxonomy order.
        ("[ROCm][CI] 前缀缓存提速", "值得精读。", ("platform", ("ci", "kv-cache"), ("rocm", "perf", "ci", "kv-cache"))),
    ],
    ids=[
        "title", "body", "whole-words", "substring", "own-subsystem", "body-ci-elsewhere",
        "secondary-subsystem", "secondary-is-tag", "order",
    ],
)
def test_tag_rules(made_up, title, body, expected):
    assert tags_of(made_up, title, body) == expected


def test_tag_index_holds_the_tags_that_notes_have(made_up):
    taxonomy = load_taxonomy(made_up)
    seed = parse_seed("seeds/a.txt", "o/r\n\n无关标题 (#1)\n\n值得精读。\n\n平台选择与 CI (#2)\n\n值得精读。\n".encode())
    site = build_site([seed], {}, taxonomy)
    unfiled, filed = sorted(site.notes, key=lambda n: n.number)
    assert unfiled.subsystem == "other" and tags_of_note(unfiled, taxonomy) == ()
    # Filed under platform by the first matching rule; ci is the secondary subsystem.
    assert filed.subsystem == "platform"
    assert secondary_subsystems(filed, taxonomy) == ("ci",)
    index = tag_index(site)
    assert {slug: [n.number for n in notes] for slug, notes in index.items()} == {"ci": [2]}
