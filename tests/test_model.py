"""Metadata derived for every seed entry, and checks across files."""

from __future__ import annotations

import pytest

from tests.support.sandbox import TAXONOMY
from prnotes.diagnostics import InputError
from prnotes.model.site import build_site
from prnotes.parse.seeds import parse_prs, parse_seed
from prnotes.model.taxonomy import load_taxonomy

# number: (verdict, subsystem, audiences) -- the reading of each real entry.
EXPECTED = {
    43107: ("close", "debug-perf", ()),
    44969: ("close", "ci", ()),
    49515: ("skim", "platform", ("platform-owners",)),
    49793: ("close", "spec-decode", ()),
    51368: ("close", "loading", ()),
    51875: ("close", "kv-cache", ()),
    52046: ("close", "models", ()),
    52288: ("close", "spec-decode", ()),
    52326: ("optional", "ci", ("ci-maintainers",)),
    52327: ("optional", "ci", ("ci-maintainers",)),
    52374: ("close", "model-runner", ("model-runner-followers",)),
    52400: ("skim", "rocm", ()),
    52603: ("skim", "moe", ("quant-developers",)),  # moe_kernel_quantize_input is fused_moe's; [Quantization] tags it
    52763: ("close", "ci", ()),
    52810: ("close", "ci", ("ci-maintainers",)),
    52822: ("close", "ci", ()),
}


def test_every_seed_entry_is_read_as_expected(site):
    got = {n.number: (n.verdict, n.subsystem, n.audiences) for n in site.notes}
    assert got == EXPECTED


def test_seeds_convert_without_warnings(site):
    assert site.warnings == ()


def test_upstream_titles_come_from_prs_toml(site):
    note = site.note_for("vllm-project/vllm", 52810)
    assert note.upstream_title == "[CI][ROCm] Prevent Git maintenance races during shallow fetches"


def test_aliased_issue_is_not_vllms(site):
    refs = {(r.repo, r.number, r.kind) for r in site.note_for("vllm-project/vllm", 52400).mentions}
    assert refs == {("ROCm/aiter", 4770, "issues"), ("vllm-project/vllm", 49925, "pull")}


def test_backlinks_index(site):
    assert site.mentioned_by[("vllm-project/vllm", 52626)] == ("notes/vllm-project/vllm/pr-51368",)


def _site(*seeds: tuple[str, str], prs: str = ""):
    files = [parse_seed(name, text.encode()) for name, text in seeds]
    return build_site(files, parse_prs("seeds/prs.toml", prs.encode()), load_taxonomy(TAXONOMY / "taxonomy.toml"))


def _errors(*seeds, prs: str = "") -> list[str]:
    with pytest.raises(InputError) as info:
        _site(*seeds, prs=prs)
    return [str(p) for p in info.value.problems]


def test_same_title_twice_names_both_lines():
    assert _errors(("a.txt", "o/r\n\nT\n\n值得精读。\n"), ("b.txt", "o/r\n\nx\n\ny\n\nT\n\n值得精读。\n")) == [
        "b.txt:7: duplicate title 'T' in o/r (first at a.txt:3)"
    ]


def test_same_title_in_other_repository_is_fine():
    site = _site(("a.txt", "o/r\n\nT (#1)\n\n值得精读。\n"), ("b.txt", "o/s\n\nT (#1)\n\n值得精读。\n"))
    assert [n.docname for n in site.notes] == ["notes/o/r/pr-1", "notes/o/s/pr-1"]


def test_same_number_twice():
    assert _errors(("a.txt", "o/r\n\nA (#9)\n\n值得精读。\n\nB （#9）\n\n值得精读。\n")) == [
        "a.txt:7: PR #9 of o/r is claimed twice (first by a.txt:3)"
    ]


def test_same_number_from_a_title_and_from_prs_toml_names_prs_toml():
    prs = '["o/r"]\n"B" = { number = 9 }\n'
    assert _errors(("a.txt", "o/r\n\nA (#9)\n\n值得精读。\n\nB\n\n值得精读。\n"), prs=prs) == [
        "a.txt:7: PR #9 of o/r is claimed twice (first by a.txt:3); prs.toml (line 2) gives it this number"
    ]


def test_a_stale_prs_toml_entry_sharing_a_number_only_warns():
    # A title fixed in the seed, its old entry left in prs.toml with the same number.
    prs = '["o/r"]\n"Fix teh scheduler" = { number = 12 }\n"Fix the scheduler" = { number = 12 }\n'
    site = _site(("a.txt", "o/r\n\nFix the scheduler\n\n值得精读。\n"), prs=prs)
    assert [n.number for n in site.notes] == [12]
    assert [str(w) for w in site.warnings if "prs.toml" in str(w)] == [
        "seeds/prs.toml:2: prs.toml entry 'Fix teh scheduler' of o/r matches no seed entry"
    ]


def test_title_number_contradicting_prs_toml():
    prs = '["o/r"]\n"A" = { number = 5, upstream_title = "x" }\n'
    assert _errors(("a.txt", "o/r\n\nA (#6)\n\n值得精读。\n"), prs=prs) == [
        "a.txt:3: title says #6 but 'o/r' in prs.toml (line 2) says #5"
    ]


def test_unused_prs_key_and_unclassified_entry_warn():
    prs = '["o/r"]\n"Nope" = { number = 5, upstream_title = "x" }\n'
    site = _site(("a.txt", "o/r\n\n无关标题\n\n一段话。\n"), prs=prs)
    assert [str(w) for w in site.warnings] == [
        "a.txt:3: no subsystem rule matches '无关标题'; filed under 'other'",
        "a.txt:5: no reading verdict found in the advice of '无关标题'",
        "seeds/prs.toml:2: prs.toml entry 'Nope' of o/r matches no seed entry",
    ]
    assert site.notes[0].subsystem == "o/r/other"  # o/r's set is the default one


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        ("值得精读。", "close"),
        ("值得快速浏览，不必深究。", "skim"),
        ("值得快速阅读：如果你负责平台。", "skim"),
        ("值得快速浏览而不是精读：它演示了。", "skim"),
        ("建议 CI 维护者阅读：这是示例。", "optional"),
        ("若关注 CI 可靠性，本 PR 值得快速精读，重点学习。", "optional"),
        ("如果你做量化，值得精读。", "optional"),
        # The first sentence with a verdict decides, within the first three; a question holds none.
        ("这是一个小改动。值得精读。", "close"),
        ("改动集中在 `x.py`。值得精读的是 review 里的讨论。", "close"),
        ("一。二。三。值得精读。", None),
        ("这个 PR 值得精读吗？不必，扫一眼即可。", "skim"),
        ("值得精读，建议跟踪 #7 何时合入？后面还有一句。", "close"),
        ("Worth a close read? Not really; skim it.", "skim"),
        # The phrasings of issue 14, each family.
        ("必读：读懂它就能理解新后端的接入方式。", "close"),
        ("强烈推荐。改动牵涉引擎主循环。", "close"),
        ("推荐精读。插件机制的处理很完整。", "close"),
        ("值得细读。MRV2 的异步执行模型。", "close"),
        ("这是近期最值得精读的 kernel 优化之一：融合了三步。", "close"),
        ("略读即可：修复面很小。", "skim"),
        ("扫一眼即可：只改了一个阈值。", "skim"),
        ("浏览即可：删掉了兼容代码。", "skim"),
        ("了解即可：默认行为不变。", "skim"),
        ("一般读者略读即可：补上了 meta 函数。", "skim"),
        ("按需阅读：如果你在做多租户服务，值得细看。", "optional"),
        ("按需：只有做 FP8 调优的读者需要看。", "optional"),
        ("只有在调优投机步数时才需要关心：新增了指标。", "optional"),
        ("只有使用大 rank LoRA 的读者需要关心：补充了配置。", "optional"),
        ("建议正在用 ModelOpt 导出模型的同学阅读：自动切换路径。", "optional"),
        ("建议使用 Kimi K2 的部署者阅读：解析器位于 x。", "optional"),
        ("对于部署超大目标模型的团队来说，这个特性值得细读。", "optional"),
        ("若你在 TPU 上频繁重启服务，值得一读：启动更快。", "optional"),
        ("使用 Llama 3 做函数调用的读者可以看一看：解析更宽松。", "optional"),
        # Negations stay negations.
        ("不必精读，了解结论即可：带宽线性提升。", "skim"),
        ("无需精读。响应现在都带 error 字段。", "skim"),
        ("不需要深入精读，知道旧版本不再支持即可。", "skim"),
        ("该 PR 不需要深度精读。", "skim"),
        ("不建议精读，了解即可。", "skim"),
        ("不推荐阅读：只是改了注释。", "skim"),
        ("不太值得精读，速读即可。", "skim"),
        ("不值得一读。", "skim"),
        ("谈不上值得精读。", "skim"),
        ("未必值得精读。", "skim"),
        ("算不上必读。", "skim"),
        ("别精读，扫一眼即可。", "skim"),
        ("不强烈推荐。", "skim"),
        ("非常值得精读。", "close"),
        ("这个修复涉及结果拼接，原先会被覆盖。", None),
        # The earliest phrase decides: a condition after the verdict is not 按需.
        ("值得快速阅读：如果你负责平台抽象，可以学习这个模式。", "skim"),
        ("值得精读，尤其适合 CI/构建基础设施维护者。", "close"),
        # Other words for each verdict, and English ones.
        ("建议通读全部 diff。", "close"),
        ("这个 PR 值得深入研究：缓存布局变了。", "close"),
        ("速览即可，改动很小。", "skim"),
        ("跳读即可。", "skim"),
        ("无需细看，机械性改名。", "skim"),
        ("可选阅读：只影响 TPU。", "optional"),
        ("可读可不读。", "optional"),
        ("建议跳过，纯依赖升级。", "optional"),
        ("不要跳过测试部分，值得精读。", "close"),
        ("Worth a close read: the scheduler rewrite.", "close"),
        ("A must-read for scheduler folks.", "close"),
        ("Read it carefully, the cache layout changes.", "close"),
        ("Skim: a version bump.", "skim"),
        ("A quick look is enough.", "skim"),
        ("Optional: only if you work on TPU.", "optional"),
        ("Skip unless you maintain ROCm.", "optional"),
        # ... and not where they are parts of other words, code, or negated.
        ("普通读者略读即可。", "skim"),
        ("对普通读者来说了解即可。", "skim"),
        ("交通读数模块改动，略读即可。", "skim"),
        ("没有可以跳过的部分，值得精读。", "close"),
        ("将返回类型改为 `Optional[Tensor]`，值得精读。", "close"),
        ("将返回类型改为 Optional[Tensor]，值得精读。", "close"),
        ("新增 --skip-warmup 选项，值得精读。", "close"),
        ("修复 skimage 兼容问题，值得精读。", "close"),
        ("Not a must-read; skim the summary.", "skim"),
        ("No need to read carefully, skim it.", "skim"),
        ("Don't just skim it; read it carefully.", "close"),
        ("Don't skip this one: worth a close read.", "close"),
        ("Adds an optional cache layer. Worth a close read.", "close"),
        ("Changes `utils.py`. Worth a close read.", "close"),
        ("Just a refactor.", None),
        # Phrasings of digests written after the first ones.
        ("这个 PR 的设计讨论比代码本身更有价值，重点阅读 review 中的取舍。", "close"),
        ("Worth a close read：异构 TP 下的 KV 传输。", "close"),
        ("Skim：版本号升级。", "skim"),
        ("Optional 类型的处理改了，值得精读。", "close"),
        ("不必深究，知道 `Params4bit` 的 `quant_state` 现在会随 `state_dict` 一起序列化即可。", "skim"),
        ("不必深究。", "skim"),
        ("值得深究：调度顺序变了。", "close"),
        ("精读价值不大，快速浏览即可。", "skim"),
        ("精读的必要性不大。", "skim"),
        ("可略过。", "optional"),
        ("略过即可，纯格式化。", "optional"),
        ("跳过。", "optional"),
        ("粗看即可。", "skim"),
        ("Read this one carefully: the allocator changes.", "close"),
        ("Highly recommended.", "close"),
        ("Recommended reading for anyone on the scheduler.", "close"),
        ("Worth a careful look.", "close"),
        ("You can skip this one.", "optional"),
        ("Glance over it.", "skim"),
    ],
)
def test_verdict_rules(body, verdict):
    from prnotes.model.classify import verdict_of

    assert verdict_of(body) == verdict


def test_a_project_of_the_archive_named_in_a_clause_owns_its_number():
    """``vLLM #52326`` in an sglang digest is vLLM's pull request, once the archive holds vLLM notes."""
    site = _site(
        ("a.txt", "vllm-project/vllm\n\n修复调度 (#52326)\n\n值得精读。\n"),
        ("b.txt", "sgl-project/sglang\n\n路由改动 (#9102)\n\n值得精读。写法跟 vLLM #52326 类似。本仓库 #9000 也改过。\n"),
    )
    (note,) = [n for n in site.notes if n.repo == "sgl-project/sglang"]
    refs = [p for p in note.pieces if hasattr(p, "number")]
    assert [(r.repo, r.number) for r in refs] == [("vllm-project/vllm", 52326), ("sgl-project/sglang", 9000)]


def test_two_prs_may_share_a_title_when_each_gives_its_number():
    site = _site(("a.txt", "o/r\n\nFix flaky test (#5)\n\n值得精读。\n\nFix flaky test (#6)\n\n值得精读。\n"))
    assert sorted(n.number for n in site.notes) == [5, 6]
    assert len({n.docname for n in site.notes}) == 2
    # Without a number in each title, the title names the note: still a duplicate.
    assert _errors(("a.txt", "o/r\n\nFix flaky test (#5)\n\n值得精读。\n\nFix flaky test\n\n值得精读。\n")) == [
        "a.txt:7: duplicate title 'Fix flaky test' in o/r (first at a.txt:3)"
    ]


@pytest.mark.parametrize("suffix", ["(#0)", "(#00012)", "(#1234567890)", "（# 12 ）"])
def test_a_title_number_that_is_no_pr_number_warns(suffix):
    site = _site(("a.txt", f"o/r\n\n修复 CI {suffix}\n\n值得精读。\n"))
    assert site.notes[0].number is None
    assert [str(w) for w in site.warnings if "PR number" in str(w)] == [
        f"a.txt:3: title ends in {suffix!r}, which is not a PR number (1 to 999999999, no leading zero); "
        "the note gets no PR number or link"
    ]


def test_full_width_digits_are_a_pr_number():
    site = _site(("a.txt", "o/r\n\n修复 CI（＃１２）\n\n值得精读。\n"))
    assert (site.notes[0].title, site.notes[0].number) == ("修复 CI", 12)


def test_a_paragraph_read_as_a_title_warns():
    """Three paragraphs of advice: the second reads as the next entry's title, and says so."""
    text = "o/r\n\nT (#5)\n\n值得精读。第一段。\n\n另外，第二段讲实现细节。\n\n最后一段讲测试。\n\nU (#6)\n\n值得精读。\n"
    site = _site(("a.txt", text))
    assert [str(w) for w in site.warnings if "sentence" in str(w)] == [
        "a.txt:7: title '另外，第二段讲实现细节。' ends like a sentence: if it is a paragraph of the advice above, "
        "join it to that paragraph (a blank line starts the next entry)"
    ]


# Every phrase of the verdict rules, with the verdict a reader gives it. A
# phrase moved to another family, or a new one with no line here, fails.
VERDICT_PHRASES = {
    "close": ["必读", "强烈推荐", "精读", "细读", "细看", "深读", "研读", "通读", "仔细阅读", "认真读", "逐行看",
              "逐段阅读", "深入研究", "反复琢磨", "值得一读", "值得阅读", "推荐阅读", "重点阅读", "重点研读", "深究", "细究"],
    "skim": ["快速浏览", "简单阅读", "粗略看看", "大致过一遍", "大概了解", "略读", "粗读", "速读", "泛读", "扫一眼", "扫一遍",
             "瞄一眼", "看一眼", "过一眼", "浏览即可", "浏览一下", "浏览一遍", "了解改动即可", "知道有这个开关即可",
             "有个印象", "看个大概", "值得一看", "速览", "跳读", "扫读", "粗看", "略看", "大致看", "简单看", "瞄一下", "扫一下"],
    "optional": ["按需", "视需要", "酌情", "选读", "可选阅读", "可读可不读", "可以跳过", "建议略过", "跳过即可"],
}  # fmt: skip


@pytest.mark.parametrize(
    ("phrase", "verdict"), [(p, v) for v, phrases in VERDICT_PHRASES.items() for p in phrases], ids=lambda x: x
)
def test_every_verdict_phrase_reads_as_its_verdict(phrase, verdict):
    from prnotes.model.classify import verdict_of

    assert verdict_of(f"这个改动{phrase}。后面是细节。") == verdict


def test_every_literal_phrase_of_the_rules_has_a_reading_above():
    import re

    from prnotes.model import classify

    def alternatives(pattern: str) -> list[str]:
        out, depth, current = [], 0, ""
        for ch in pattern:
            depth += ch in "([" and 1 or ch in ")]" and -1 or 0
            if ch == "|" and depth == 0:
                out.append(current)
                current = ""
            else:
                current += ch
        return [*out, current]

    listed = {p for phrases in VERDICT_PHRASES.values() for p in phrases}
    for name in ("_CLOSE", "_SKIM", "_OPTIONAL"):
        literal = [a for a in alternatives(getattr(classify, name)) if re.fullmatch(r"[\u4e00-\u9fff]+", a)]
        assert set(literal) <= listed, f"{name} has phrases no test reads: {sorted(set(literal) - listed)}"


def test_a_note_only_its_body_s_words_file_goes_where_the_note_it_shares_code_names_with_goes():
    """In a repository with a set: a note with no prefix, no code and no title
    word of any subsystem, whose body's words would file it under the API
    server, goes with the tracing note whose code names it mentions."""
    seed = (
        "vllm-project/vllm\n\n"
        "trace 上下文传给 worker 进程 (#1)\n\n"
        "值得精读。`vllm/tracing/otel.py` 的 `propagate_trace_to_env()` 把 `OTLPSpanExporter` 的配置写进环境变量。\n\n"
        "worker 初始化时读取 trace 上下文 (#2)\n\n"
        "值得快速浏览。`maybe_init_worker_tracer()` 在 worker 里重建 exporter。\n\n"
        "gRPC 导出时遵循加密连接配置 (#3)\n\n"
        "值得快速浏览。OTLP exporter 改为按用户配置决定是否加密，服务端的流式接口与聊天模板的用户升级时留意。\n"
    )
    site = _site(("a.txt", seed))
    filed = {n.number: n.subsystem for n in site.notes}
    assert filed[1] == filed[2] == filed[3] == "debug-perf"
