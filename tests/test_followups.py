"""Follow-up extraction (prnotes.followups) on every seed entry, exactly."""

from __future__ import annotations

import pytest

from prnotes.followups import follow_ups_in
from prnotes.refs import Code, Ref, Text, segment
from prnotes.sentences import Clause, clauses, sentences

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


def test_every_seed_entry_yields_exactly_its_follow_ups(site):
    got = {n.number: tuple(f.text for f in n.follow_ups) for n in site.notes}
    assert got == EXPECTED


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
    parts = sentences(pieces)
    assert len(parts) == 2
    assert clauses(parts[0]) == [
        Clause((Text("看 "), Code("a。b；c"), Text(" 的用法"))),
        Clause((Text("然后跟进"),)),
    ]


def test_enumerated_items_carry_their_lead_in():
    (sentence,) = sentences(segment("建议关注两点：一是 A；二是 B。", "o/r"))
    assert clauses(sentence) == [Clause((Text("A"),), "建议关注两点"), Clause((Text("B"),), "建议关注两点")]
