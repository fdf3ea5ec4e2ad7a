"""Tags (prnotes.model.tags): the rules on small made-up taxonomies and entries, and
every entry of the fixture project, exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_seed
from prnotes.model.tags import tag_index, tags_of_note
from prnotes.model.taxonomy import load_taxonomy

# PR number -> (secondary subsystems, every tag slug in display order).
EXPECTED = {
    43107: ((), ("nvidia", "ci", "bugfix")),
    44969: (("rocm",), ("rocm", "nvidia")),
    49515: (("rocm", "ci"), ("rocm", "ci", "bugfix")),
    49793: (("attention", "parallel"), ("perf", "attention", "parallel")),
    51368: ((), ("deepseek", "bugfix")),
    51875: ((), ()),
    52046: (("parallel",), ("nvidia", "deepseek", "perf", "parallel")),  # PCP: filed by its path, tagged by its words
    52288: (("attention",), ("deepseek", "bugfix", "attention")),
    52326: ((), ("nvidia", "perf")),
    52327: (("moe",), ("nvidia", "perf", "moe")),
    52374: (("attention", "config"), ("ci", "attention", "config")),
    52400: (("ci",), ("ci", "bugfix")),
    52603: (("quantization",), ("quantization",)),  # filed by fused_moe's function, tagged by [Quantization]
    52763: (("attention", "rocm"), ("rocm", "perf", "attention")),
    52810: (("rocm",), ("rocm", "bugfix")),
    52822: (("rocm",), ("rocm",)),
}


def test_every_seed_entry_has_exactly_its_tags(site):
    got = {
        n.number: (n.secondary, tuple(t.slug for t in tags_of_note(n, site.taxonomy)))
        for n in site.notes
    }
    assert got == EXPECTED


def test_a_note_is_never_tagged_with_its_own_subsystem(site):
    for note in site.notes:
        assert note.subsystem not in {t.slug for t in tags_of_note(note, site.taxonomy)}


def test_tag_index_lists_notes_newest_first(site):
    index = tag_index(site)
    assert [n.number for n in index["deepseek"]] == [52288, 52046, 51368]
    assert list(index) == ["rocm", "nvidia", "deepseek", "ci", "perf", "bugfix", "attention", "quantization", "moe", "parallel", "config"]


# The rules on made-up input. The shared file: the weights and tags rocm, perf and ci (the same slug as a
# subsystem).
SHARED = """
[weights]
prefix = 10
code = 5
code_cap = 3
title = 4
title_cap = 2
body = 0.5
body_cap = 4
tag = 4.5

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
# The set of the repository o/r (flat pages, so keys are slugs): subsystems
# ci, platform, kv-cache and other; [ROCm] under platform and [CI] under ci;
# title words for ci, platform and kv-cache.
O_R = """
flat_pages = true

[[subsystem]]
slug = "ci"
title = "CI"
title_words = ["流水线"]
[[subsystem]]
slug = "platform"
title = "平台"
title_words = ["平台选择"]
[[subsystem]]
slug = "kv-cache"
title = "KV 缓存"
title_words = ["前缀缓存", "缓存命中"]
[[subsystem]]
slug = "other"
title = "其他"

[[rule]]
subsystem = "platform"
prefixes = ["ROCm"]
[[rule]]
subsystem = "ci"
prefixes = ["CI"]
"""


@pytest.fixture(scope="module")
def made_up(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("taxonomy")
    (root / "taxonomy.toml").write_text(SHARED, encoding="utf-8")
    (root / "taxonomy").mkdir()
    (root / "taxonomy" / "o__r.toml").write_text(O_R, encoding="utf-8")
    (root / "taxonomy" / "default.toml").write_text('[[subsystem]]\nslug = "other"\ntitle = "其他"\n', encoding="utf-8")
    return root


def tags_of(made_up: Path, title: str, body: str = "值得精读。") -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(subsystem, secondary subsystems, tag slugs) of one entry ``title`` with ``body``."""
    taxonomy = load_taxonomy(made_up)
    seed = parse_seed("seeds/a.txt", f"o/r\n\n{title} (#1)\n\n{body}\n".encode())
    site = build_site([seed], {}, taxonomy)
    (note,) = site.notes
    return note.subsystem, note.secondary, tuple(t.slug for t in tags_of_note(note, taxonomy))


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
        # but the body alone never makes a secondary subsystem.
        ("[ROCm] 平台选择", "值得精读，CI 流水线也受益。", ("platform", (), ("rocm", "ci"))),
        # A subsystem that lost with enough evidence from the titles is a
        # secondary subsystem and a tag; one title word (4) is not enough (4.5).
        ("[CI] 前缀缓存命中率测试", "值得精读。", ("ci", ("kv-cache",), ("kv-cache",))),
        ("[CI] 前缀缓存测试", "值得精读。", ("ci", (), ())),
        # Prefixes that tie go to the earlier subsystem in the taxonomy; the
        # other is a secondary subsystem and a tag.
        ("[ROCm][CI] 提速", "值得精读。", ("ci", ("platform",), ("rocm", "perf", "platform"))),
        # With a [[tag]] of the same slug it is that tag, listed once.
        ("[ROCm][CI] 平台选择", "值得精读。", ("platform", ("ci",), ("rocm", "ci"))),
        # Order: the [[tag]] list, then the other secondary subsystems in taxonomy order.
        ("[ROCm][CI] 前缀缓存命中提速", "值得精读。", ("ci", ("platform", "kv-cache"), ("rocm", "perf", "platform", "kv-cache"))),
    ],
    ids=[
        "title", "body", "whole-words", "substring", "own-subsystem", "body-ci-elsewhere",
        "secondary-subsystem", "weak-runner-up", "tie", "secondary-is-tag", "order",
    ],
)
def test_tag_rules(made_up, title, body, expected):
    assert tags_of(made_up, title, body) == expected


def test_tag_index_holds_the_tags_that_notes_have(made_up):
    taxonomy = load_taxonomy(made_up)
    seed = parse_seed("seeds/a.txt", "o/r\n\n无关标题 (#1)\n\n值得精读。\n\n[ROCm][CI] 平台选择 (#2)\n\n值得精读。\n".encode())
    site = build_site([seed], {}, taxonomy)
    unfiled, filed = sorted(site.notes, key=lambda n: n.number)
    assert unfiled.subsystem == "other" and tags_of_note(unfiled, taxonomy) == ()
    # Filed under platform by its prefix and title word; ci is the secondary subsystem.
    assert filed.subsystem == "platform"
    assert filed.secondary == ("ci",)
    index = tag_index(site)
    assert {slug: [n.number for n in notes] for slug, notes in index.items()} == {"rocm": [2], "ci": [2]}
