"""Follow-ups (prnotes.model.followups) on every seed entry of the fixture project,
exactly: the clauses, their places in the advice, their labels and targets;
and the label rules on sentences written for the purpose."""

from __future__ import annotations

import pytest

from prnotes.model.followups import follow_ups_in, lead_in
from prnotes.parse.refs import Code, Ref, Text, plain_text, segment
from prnotes.parse.sentences import Clause, clauses, sentence_spans

# PR number -> the follow-ups its note holds, in text order. Every seed entry is
# listed: an entry with () has none, so a sentence taken from it fails the test.
EXPECTED = {
    43107: (),
    44969: ("mamba 个人 fork 引用需要长期跟踪，建议在官方 v2.3.1 验证通过后替换为正式 tag",),
    49515: ("同时注意后续维护 cpu_platform_plugin() 时保持其不会在 VLLM_TARGET_DEVICE=cpu 下返回 None 的不变量",),
    49793: (),
    51368: (),
    51875: (),
    52046: ("也建议关注后续是否有 dense MHA 路径 PCP 支持的跟进 PR，以及 PCP+DCP 组合下的数值一致性测试",),
    52288: (
        "合入后跟踪 mgoin 提到的“draft 与 target attention 不同”的模型是否出现回归",
        "推动为 load_dspark_model 补充“显式继承/显式覆盖”的配置语义与回归测试，避免再次依赖 None 的隐式含义",
    ),
    52326: ("但注意三份 shard 文件是手工维护的，后续新增或删除配置时需同步重平衡，可以考虑后续脚本化自动生成",),
    52327: (
        "由于分区是静态的，后续新增模型或评估口径变化时需要主动更新 4 个分片文件",
        "建议把静态分片当作技术债跟进，后续可考虑按配置时长自动均衡分片",
    ),
    52374: (),
    52400: (
        "aiter 侧 include 优先级缺陷（issue #4770）何时在 JIT 工具链中修复",
        "#49925 是否会把 pybind11 纳入统一管理",
    ),
    52603: (),
    52763: ("后续维护需关注标记与模块行为演化的漂移",),
    52810: (),
    52822: ("建议关注后续是否有将触发条件从手工命令列表改为读取脚本常量的重构机会，以消除重复维护",),
}


# PR number -> the label of each follow-up and the targets it names.
LABELS = {
    44969: (("mamba 个人 fork 引用", ()),),
    49515: (("cpu_platform_plugin() 不会在 VLLM_TARGET_DEVICE=cpu 下返回 None 的不变量", ()),),
    52046: (("dense MHA 路径 PCP 支持的跟进 PR，以及 PCP+DCP 组合下的数值一致性测试", ()),),
    52288: (
        ("mgoin 提到的“draft 与 target attention 不同”的模型是否出现回归", ()),
        ("为 load_dspark_model 补充“显式继承/显式覆盖”的配置语义与回归测试", ()),
    ),
    52326: (("三份 shard 文件是手工维护的，后续新增或删除配置时需同步重平衡", ()),),
    52327: (("新增模型或评估口径变化时需要主动更新 4 个分片文件", ()), ("静态分片（技术债）", ())),
    52400: (
        ("aiter 侧 include 优先级缺陷（issue #4770）何时在 JIT 工具链中修复", ("ROCm/aiter#4770:issues",)),
        ("#49925 是否会把 pybind11 纳入统一管理", ("vllm-project/vllm#49925:pull",)),
    ),
    52763: (("标记与模块行为演化的漂移", ()),),
    52822: (("将触发条件从手工命令列表改为读取脚本常量的重构机会", ()),),
}


def test_every_seed_entry_yields_exactly_its_follow_ups(site):
    got = {n.number: tuple(f.text for f in n.follow_ups) for n in site.notes}
    assert got == EXPECTED


def test_every_follow_up_has_its_label_and_targets(site):
    got = {
        n.number: tuple((plain_text(f.label), tuple(f"{r.target}:{r.kind}" for r in f.targets)) for f in n.follow_ups)
        for n in site.notes
        if n.follow_ups
    }
    assert got == LABELS


def test_follow_ups_know_where_they_stand_in_the_advice(site):
    for note in site.notes:
        advice = plain_text(note.pieces)
        for item in note.follow_ups:
            assert advice[item.start : item.end] == item.text, note.number


def test_follow_ups_keep_code_spans_and_references(site):
    items = site.note_for("vllm-project/vllm", 52400).follow_ups
    assert items[0].pieces == (
        Text("aiter 侧 include 优先级缺陷（issue "),
        Ref("#4770", "ROCm/aiter", 4770, kind="issues"),
        Text("）何时在 JIT 工具链中修复"),
    )
    assert items[1].pieces[0] == Ref("#49925", "vllm-project/vllm", 49925)
    code = [p for p in site.note_for("vllm-project/vllm", 49515).follow_ups[0].pieces if isinstance(p, Code)]
    assert code == [Code("cpu_platform_plugin()"), Code("VLLM_TARGET_DEVICE=cpu"), Code("None")]


def _texts(advice: str) -> list[str]:
    return [f.text for f in follow_ups_in(segment(advice, "o/r"))]


@pytest.mark.parametrize(
    ("advice", "expected"),
    [
        # rule 1: follow-up words
        ("值得精读。建议后续补上文档。", ["建议后续补上文档"]),
        ("值得精读。这个 hack 需要长期跟踪。", ["这个 hack 需要长期跟踪"]),
        ("值得精读。把它当作技术债。", ["把它当作技术债"]),
        ("值得精读。若你正在跟踪 MRV2，建议阅读 `x`。", []),  # 正在跟踪 describes the reader
        ("值得精读。如果你正在做后续开发，请留意入口。", []),  # 后续 alone is not enough
        ("值得精读。可以与后续 PR 对照阅读。", []),
        # rule 2: a watch question
        ("值得快速浏览。关注 #7 何时合入。", ["关注 #7 何时合入"]),
        ("值得精读。重点关注 `f` 是否有副作用。", []),  # 重点关注 = reading focus
        # rule 3: items of a watch lead-in, each on its own, enumerators dropped
        ("关注两点：一是 A 何时修复；二是 B 的去留。", ["A 何时修复", "B 的去留"]),
        ("重点留意两点：① 引用需要长期跟踪；② 与旧 PR 对照阅读。", ["引用需要长期跟踪"]),
        ("重点看两点：一是设计；二是测试。", []),
        # clauses split at ；, sentences at 。 and line ends
        ("改动小；后续维护需关注漂移。下一句无关", ["后续维护需关注漂移"]),
        ("第一行跟进 #3\n第二行无关", ["第一行跟进 #3"]),
    ],
)
def test_rules(advice, expected):
    assert _texts(advice) == expected


def test_sentences_and_clauses_do_not_cut_code_spans():
    pieces = segment("看 `a。b；c` 的用法；然后跟进。下一句。", "o/r")
    parts = [s for _, s in sentence_spans(pieces)]
    assert len(parts) == 2
    assert clauses(parts[0]) == [
        Clause((Text("看 "), Code("a。b；c"), Text(" 的用法"))),
        Clause((Text("然后跟进"),)),
    ]


def test_enumerated_items_carry_their_lead_in():
    (sentence,) = [s for _, s in sentence_spans(segment("建议关注两点：一是 A；二是 B。", "o/r"))]
    assert clauses(sentence) == [Clause((Text("A"),), "建议关注两点"), Clause((Text("B"),), "建议关注两点")]


def _labels(advice: str) -> list[tuple[str, tuple[str, ...]]]:
    return [(plain_text(f.label), tuple(f"{r.target}:{r.kind}" for r in f.targets)) for f in follow_ups_in(segment(advice, "o/r"))]


@pytest.mark.parametrize(
    ("advice", "expected"),
    [
        # rule 3: the lead-in goes, however many words it has
        ("值得精读。建议持续跟踪 `kv_cache_dtype=fp8` 在 Hopper 上的精度回归。", ["kv_cache_dtype=fp8 在 Hopper 上的精度回归"]),
        ("值得精读。也建议关注 vLLM 侧是否会同步升级 `xgrammar`，以免再次出现 ABI 不一致。", ["vLLM 侧是否会同步升级 xgrammar"]),
        # ... but not the first characters of a word: 注意力, 可观测性
        ("值得精读。注意力后端的选择逻辑需要跟进 FlashAttention 3 的适配。", ["注意力后端的选择逻辑需要跟进 FlashAttention 3 的适配"]),
        ("值得快速浏览。可观测性指标的命名后续可能调整，建议跟进。", ["可观测性指标的命名后续可能调整"]),
        # 后续 PR is a thing, not a time
        ("按需阅读。关注后续 PR 何时把 `--enable-chunked-prefill` 设为默认。", ["后续 PR 何时把 --enable-chunked-prefill 设为默认"]),
        # rule 4: the watch predicate at the end; 把/将 X 当作/作为 Y
        ("值得精读。`FlashInferBackend` 的 workspace 复用逻辑仍需长期跟踪。", ["FlashInferBackend 的 workspace 复用逻辑"]),
        ("值得精读。建议把 `cuda_graph_sizes` 的硬编码列表作为已知问题跟踪。", ["cuda_graph_sizes 的硬编码列表（已知问题）"]),
        ("值得精读。同时注意后续维护 `x_y()` 时保持其幂等。", ["x_y() 幂等"]),
        # rule 1: context before the watch word stays out; rule 2: a purpose after it too
        ("值得精读。由于阈值是拍脑袋定的，后续需要跟踪线上命中率。", ["线上命中率"]),
        # rule 2: a further part that is not advice stays
        ("值得快速浏览。这套 hack 属于技术债，等上游 Triton 3.4 发布后应移除。", ["这套 hack 属于技术债，等上游 Triton 3.4 发布后应移除"]),
        # rule 2: a long label keeps its first parts only
        (
            "值得精读。建议跟进 `a_b` 的默认值调整，以及 `c_d` 在 ROCm 上的 dtype 回退，以及 torch 2.9 升级后 Inductor 生成代码的变化，以及编译缓存的失效条件。",
            ["a_b 的默认值调整，以及 c_d 在 ROCm 上的 dtype 回退"],
        ),
        # rule 5: a part that is only a watch word takes the part before; a pronoun brings it in
        ("值得精读。`VLLM_USE_DEEP_GEMM` 的默认值，需要持续跟踪。", ["VLLM_USE_DEEP_GEMM 的默认值"]),
        ("值得精读。`MoEConfig` 的默认值偏保守，后续需要跟踪其在 B200 上的表现。", ["MoEConfig 的默认值偏保守，其在 B200 上的表现"]),
        # enumerated items: each its own label
        (
            "值得精读。关注三点：一是 `init_device()` 的调用顺序；二是 NCCL 超时何时可配置；三是跟进 #50001 的 CPU 回退。",
            ["init_device() 的调用顺序", "NCCL 超时何时可配置", "#50001 的 CPU 回退"],
        ),
    ],
)
def test_label_rules(advice, expected):
    assert [label for label, _ in _labels(advice)] == expected


def test_targets_are_the_references_of_the_label():
    assert _labels("值得快速浏览。关注 issue #4012 何时关闭。") == [("issue #4012 何时关闭", ("o/r#4012:issues",))]
    assert _labels("值得快速浏览。另外留意 #51234 何时合入，合入后 #51000 的 workaround 可以删除。") == [
        ("#51234 何时合入，合入后 #51000 的 workaround 可以删除", ("o/r#51234:pull", "o/r#51000:pull"))
    ]
    # A reference in a dropped part is not what the follow-up watches.
    assert _labels("值得精读。建议跟进 `f` 的重构，可参考 #7 的做法。") == [("f 的重构", ())]


@pytest.mark.parametrize(
    ("text", "length"),
    [("也建议关注后续是否有 X", len("也建议关注后续是否有 ")), ("后续维护需关注漂移", len("后续维护需关注")),
     ("可观测性", 0), ("并发度需要跟踪", 0), ("需要主动更新", len("需要")), ("合入后跟踪回归", len("合入后跟踪"))],
)
def test_a_lead_in_ends_with_a_word_that_can_end_it(text, length):
    assert lead_in(text) == length


def test_sentences_know_where_they_start():
    pieces = segment("第一句。 `x` 第二句；续\n第三行", "o/r")
    full = plain_text(pieces)
    spans = sentence_spans(pieces)
    assert [full[start : start + len(plain_text(s))] for start, s in spans] == ["第一句。", " x 第二句；续", "第三行"]
    # A clause's start counts the space trimmed before it.
    assert [(c.text, c.start) for c in clauses(spans[1][1])] == [("x 第二句", 1), ("续", 7)]
