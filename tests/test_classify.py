"""Classification on notes the rules were not written from.

``tests/classify_eval.tsv`` holds notes in the seeds' style from every area of
vLLM, each labelled with its subsystem and verdict by a reader; the rows go
through the real converter (parse -> model). The targets are those of issue 14.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.support.classifyeval import load_rows, run, scores
from tests.support.sandbox import ROOT
from prnotes.filing import _signals, code_subsystem, file_note, prefixes_of
from prnotes.diagnostics import InputError
from prnotes.taxonomy import load_taxonomy

EVAL = ROOT / "tests/classify_eval.tsv"
VLLM = "vllm-project/vllm"


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy(ROOT / "taxonomy.toml")


@pytest.fixture(scope="module")
def outcomes(taxonomy):
    return run(load_rows(EVAL), taxonomy)


def test_the_set_is_big_and_varied_enough(taxonomy):
    rows = load_rows(EVAL)
    slugs = {s.slug for s in taxonomy.subsystems}
    assert len(rows) >= 100
    assert len({r.area for r in rows}) >= 15
    assert {r.subsystem for r in rows} <= slugs
    assert {r.verdict for r in rows} <= {"精读", "速读", "按需", "未注明"}
    assert {r.signal for r in rows} <= {"prefix", "code", "title", "body"}
    assert all(set(r.borrows.split()) <= slugs for r in rows)
    # Notes whose titles borrow another area's words, and the kinds the issue names.
    borrowing = [r for r in rows if r.borrows]
    assert len(borrowing) >= 20
    assert any(r.subsystem == "docs" and "quantization" in r.borrows for r in rows)
    assert any(r.subsystem == "ci" and "rocm" in r.borrows for r in rows)


def test_held_out_set_is_well_formed(taxonomy):
    # Scored by bench/classify.py only: it must stay free of tuning.
    rows = load_rows(ROOT / "tests/classify_holdout.tsv")
    slugs = {s.slug for s in taxonomy.subsystems}
    assert rows and {r.subsystem for r in rows} <= slugs
    assert all(set(r.borrows.split()) <= slugs for r in rows)
    assert not {r.title for r in rows} & {r.title for r in load_rows(EVAL)}


def test_subsystem_accuracy(outcomes):
    s = scores(outcomes)
    misses = [(o.row.title, o.row.subsystem, o.subsystem) for o in outcomes if not o.subsystem_ok]
    assert s.subsystem_accuracy >= 0.95, misses


def test_verdict_accuracy(outcomes):
    s = scores(outcomes)
    misses = [(o.row.advice[:30], o.row.verdict, o.verdict) for o in outcomes if not o.verdict_ok]
    assert s.verdict_accuracy >= 0.97, misses


def test_few_notes_in_other(outcomes):
    assert scores(outcomes).other_share <= 0.03


def test_every_area_keeps_its_notes_together(outcomes):
    # The symptom: an area's notes spread over several subsystems.
    spread = {}
    for o in outcomes:
        spread.setdefault(o.row.subsystem, Counter())[o.subsystem] += 1
    for expected, filed in spread.items():
        assert filed.most_common(1)[0][0] == expected, (expected, filed)


@pytest.mark.parametrize(
    ("title", "prefixes"),
    [
        ("[Bugfix][Spec Decode] DSpark: inherit", ["bugfix", "specdecode"]),
        ("[ROCm]: Drop pybind11", ["rocm"]),
        ("[CI/Build] Bump", ["ci/build", "ci", "build"]),
        ("[Hardware][Intel-Gaudi] Adapt", ["hardware", "intelgaudi"]),
        ("【Doc】 补充说明", ["doc"]),
        ("Fix [CI] later in the title", []),
    ],
)
def test_prefixes_are_the_leading_brackets(title, prefixes):
    assert prefixes_of(title) == prefixes


@pytest.mark.parametrize(
    ("token", "subsystem"),
    [
        # The outer directory decides, as mergify's ^docs/ does ...
        ("docs/features/quantization/fp8.md", "docs"),
        ("examples/offline_inference/spec_decode.py", "docs"),
        # ... and a longer pattern at the same place is more specific.
        ("vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py", "kv-cache"),
        ("vllm/distributed/parallel_state.py", "parallel"),
        ("vllm/entrypoints/openai/tool_parsers/hermes_tool_parser.py", "structured-output"),
        ("vllm/entrypoints/openai/serving_chat.py", "frontend"),
        ("vllm/v1/sample/rejection_sampler.py", "spec-decode"),
        ("vllm/v1/sample/sampler.py", "sampling"),
        ("tests/v1/structured_output/test_backend.py", "structured-output"),
        ("vllm/lora/layers.py", "lora"),
        # Names: a pattern starts where a name segment starts.
        ("LoRARequest", "lora"),
        ("cpu_platform_plugin()", "platform"),
        ("DeepSeekR1ReasoningParser", "structured-output"),
        ("moe_kernel_quantize_input", "moe"),
        ("async_tensor_h2d", None),  # "sync" inside "async" is not a segment
        ("flora", None),
    ],
)
def test_code_tokens_map_like_mergify_paths(taxonomy, token, subsystem):
    hit = code_subsystem(token, _signals(taxonomy, VLLM))
    assert (hit[0] if hit else None) == subsystem


def test_disagreeing_signals_go_to_the_strongest_and_the_rest_become_tags(taxonomy):
    # A docs PR about quantization: the [Doc] prefix outweighs the topic.
    filing = file_note("量化文档新增 FP8 选择指南", "[Doc] Guide for FP8", "值得快速浏览。", taxonomy, VLLM)
    assert filing.subsystem == "docs"
    assert "quantization" in filing.runners_up(taxonomy)
    # A CI PR about ROCm.
    filing = file_note("AMD CI 的模型测试按大小分片", "[ROCm][CI] Shard model tests", "值得精读。", taxonomy, VLLM)
    assert filing.subsystem == "ci"
    assert filing.runners_up(taxonomy) == ("rocm",)


def test_routing_requests_is_not_routing_tokens_to_experts(taxonomy):
    # "路由"/router/routing alone: a request router, a gateway, a load balancer as often as MoE.
    body = "Worth a close read: a cache-aware routing policy for the router, with a per-worker radix tree."
    for repo in (VLLM, "sgl-project/sglang", "o/r"):
        assert file_note("Router 支持按 prefix 亲和性路由到 DP rank", "", body, taxonomy, repo).subsystem != "moe", repo
    assert file_note("Router 支持按 prefix 亲和性路由到 DP rank", "", body, taxonomy, "sgl-project/sglang").subsystem == "frontend"
    # Nor does a [Router] prefix (vLLM's PR titles have no MoE router of that name).
    assert file_note("Router 支持按 prefix 亲和性路由", "[Router] Prefix-affinity routing to DP ranks", body, taxonomy, VLLM).subsystem != "moe"
    # Expert routing still is MoE: named as such, or by its code.
    assert file_note("修复专家路由的负载统计", "", "值得精读。", taxonomy, VLLM).subsystem == "moe"
    assert file_note("路由 kernel 提速", "", "值得精读。重点看 `fused_topk` 与 `router_logits`。", taxonomy, VLLM).subsystem == "moe"


def test_generic_prefixes_say_nothing(taxonomy):
    for prefix in ("[Bugfix]", "[Misc]", "[Perf]", "[Feature]"):
        assert not file_note("标题", f"{prefix} Something", "正文。", taxonomy, VLLM).matched


def test_another_repository_gets_shared_words_but_not_vllms_rules(taxonomy):
    # The shared words of a subsystem hold for every repository ...
    assert file_note("修复 LoRA 适配器加载", "", "正文。", taxonomy, "sgl-project/sglang").subsystem == "lora"
    # ... but vLLM's prefixes and paths are vLLM's: elsewhere "[Frontend]" is
    # only a word of the title, and a vLLM path says nothing.
    other = file_note("标题", "[Frontend] Something", "看 `vllm/lora/x.py`。", taxonomy, "o/r")
    assert [(e.subsystem, e.prefix, e.code) for e in other.evidence if e.prefix or e.code] == []
    vllm = file_note("标题", "[Frontend] Something", "看 `vllm/lora/x.py`。", taxonomy, VLLM)
    assert [(e.subsystem, e.prefix, e.code) for e in vllm.evidence] == [("frontend", 10, 0), ("lora", 0, 5)]


def test_a_repository_section_adds_rules_without_touching_vllms(tmp_path):
    text = (ROOT / "taxonomy.toml").read_text(encoding="utf-8") + (
        '\n[[repo]]\nname = "example-org/engine"\n\n'
        '[[repo.rule]]\nsubsystem = "lora"\nprefixes = ["LoRA"]\ncode = ["src/engine/lora/"]\n'
    )
    (tmp_path / "taxonomy.toml").write_text(text, encoding="utf-8")
    both = load_taxonomy(tmp_path / "taxonomy.toml")
    filing = file_note("标题", "[LoRA] x", "看 `src/engine/lora/mem.py`。", both, "example-org/engine")
    assert (filing.subsystem, filing.evidence[0].prefix > 0, filing.evidence[0].code > 0) == ("lora", True, True)
    original = load_taxonomy(ROOT / "taxonomy.toml")
    for row in load_rows(EVAL)[:20]:
        a = file_note(row.title, row.upstream, row.advice, original, VLLM)
        b = file_note(row.title, row.upstream, row.advice, both, VLLM)
        assert a == b


def test_the_every_repository_section_holds_for_a_repository_without_rules(taxonomy):
    """A model's name files a note of any repository under 模型支持, weakly."""
    filing = file_note("新增 Gemma 3 文本模型（#36511）", "", "在 modeling 里新增了实现。值得快速浏览。", taxonomy, "huggingface/transformers")
    assert filing.subsystem == "models"
    # Weakly: a stronger signal of another subsystem still wins.
    assert file_note("Qwen3 的 LoRA 适配器热加载", "", "正文。", taxonomy, "huggingface/transformers").subsystem == "lora"


def test_sglang_rules_read_its_prefixes_and_paths(taxonomy):
    router = file_note("router 的 cache-aware 负载均衡改用近似前缀树", "[router] approximate tree", "看 `sgl-router/src/policies/cache_aware.rs`。", taxonomy, "sgl-project/sglang")
    assert router.subsystem == "frontend"
    radix = file_note("前缀复用修正", "", "改动在 `python/sglang/srt/mem_cache/radix_cache.py`。", taxonomy, "sgl-project/sglang")
    assert radix.subsystem == "kv-cache"
    # In vLLM a router is the MoE's.
    assert file_note("修复 router 的 top-k", "[MoE] Fix router top-k", "正文。", taxonomy, VLLM).subsystem == "moe"


def test_an_every_repository_section_is_accepted_but_not_a_bad_name(tmp_path):
    text = (ROOT / "taxonomy.toml").read_text(encoding="utf-8") + '\n[[repo]]\nname = "**"\n'
    (tmp_path / "taxonomy.toml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_taxonomy(tmp_path / "taxonomy.toml")
    assert "'name' must be an owner/repo string, or \"*\" for every repository" in str(info.value.problems[0])
