"""Summaries (prnotes.model.summary): the first sentence a reading list shows."""

from __future__ import annotations

import pytest

from tests.support.sandbox import fixture_site
from prnotes.parse.refs import segment
from tests.support.summary import first_sentence

# PR number -> summary. A bare "值得精读。" is skipped for the next sentence.
EXPECTED = {
    43107: '值得精读，尤其是 vllm/utils/gpu_sync_debug.py 的设计：线程局部检测、编译期抑制器、gpu_sync_allowed() 的语义边界。',
    44969: '这是学习 vLLM 大规模 CI 门禁设计的好样本：mirror 机制如何在保持 NVIDIA 步骤不动的前提下横向扩展硬件覆盖，以及 source_file_dependencies 如何精细化控制触发面。',
    49515: '值得快速阅读：如果你负责平台抽象或 ROCm/CPU CI，可以学习“显式环境变量目标优先于 wheel 元数据和宿主机探测”的设计模式；同时注意后续维护 cpu_platform_plugin() 时保持其不会在 VLLM_TARGET_DEVICE=cpu 下返回 None 的不变量。',
    49793: '该 PR 展示了两个可复用的设计模式：一是在层边界复用 fused_allreduce_rms_norm 把 all-reduce 归并入 norm，避免额外 kernel 发射；二是通过 use_local_argmax_reduction 协议探测 + get_top_tokens 命名的隐式约定，让 speculator 与模型之间可插拔地选择本地 argmax 快路径。',
    51368: '重点看两点：一是如何用 loader 标准的 PWAL 钩子替代“在 forward 里兜底”的惰性初始化，这是 vLLM 模型加载生命周期的正确定位；二是作者在移除 load_weights() 内 finalize 时被 verl e2e 打回、主动回滚的过程，展示了外部框架依赖与内部设计清理之间的权衡。',
    51875: '核心设计决策有三个：一是将种子解析收敛为单一入口 resolve_none_hash_seed，让两个正确性耦合的调用点共用同一规则；二是区分加密与非加密哈希的安全策略——SHA-256 的碰撞抵抗力不依赖种子保密，xxHash 则需要保持随机；三是 P2P 阶段采用惰性解析解决「tier 构建早于 init_none_hash」的初始化顺序问题。',
    52046: '重点看两处设计决策：一是 _fused_norm_rope_kernel 如何用输出指针是否为 None 统一"物化输出"与"直插 cache"两条路径，避免为 PCP 单独维护一份 kernel；二是 _sparse_indexer_and_attn 在 PCP 与 DCP 组合下如何完成 K 行汇聚、query all-gather 与 logsum 合并。',
    52288: '该 PR 是理解 vLLM 配置装配中 replace 语义和 DSpark draft/target 契约的极好案例：None 不等于“继承”，而是“重新自动选择”，这类隐式语义是配置 bug 的高发点。',
    52326: '建议 CI 维护者阅读：这是 Buildkite parallelism + BUILDKITE_PARALLEL_JOB 环境变量 + 配置列表分片的简洁示例，对长耗时、易并行化的测试步骤很有参考价值。',
    52327: '若关注 CI 可靠性和 Buildkite pipeline 写法，本 PR 值得快速精读，重点学习 %N + parallelism + BUILDKITE_PARALLEL_JOB 的组合用法。',
    52374: '虽然只有 3 个文件、9 行净变更，但它示范了两件事：一是如何把一个大型迁移 PR 拆成语义单一、可独立合入的小步（关注 #46646 的拆分策略）；二是 MambaHybridModelState 复用于 attention-free 模型的 ModelState 路由决策，以及测试中 envs.disable_envs_cache() 处理环境变量缓存的细节。',
    52400: '值得快速浏览而不是精读：它演示了从“上游一个 unpinned 依赖发布”到“运行时 ABI 崩溃”的完整因果链，对镜像依赖治理有警示价值。',
    52603: '值得快速浏览，可将其作为死代码删除类 PR 的范本：如何在不跑全量测试的前提下，用调用点穷举与路径等价性表论证“行为零变更”。',
    52763: '值得精读，作为 pytest 测试性能优化的范本：一是平台门控放函数体（逐例空转 setup/teardown）与放模块级 pytestmark（收集期一次性过滤）的成本差异；二是 skip_global_cleanup 的适用边界与保守选择方法论，PR body 对“为什么不标记 AITER/env 模块”的解释清晰。',
    52810: '值得精读，尤其适合 CI/构建基础设施维护者。',
    52822: '值得精读，尤其是 run_ci_command.py 中通过 frozenset 分集合 + 映射函数统一控制流的做法，以及为不同 CI 行为差异设计的 blocks_new_run、is_comment_triggered_build 等函数，对理解多流水线 CI 命令系统的扩展模式有参考价值。',
}


def test_every_seed_entry_has_its_summary():
    assert {n.number: first_sentence(n.pieces) for n in fixture_site().notes} == EXPECTED


@pytest.mark.parametrize(
    ("advice", "expected"),
    [
        ("值得精读。看 `a。b` 的写法。其余。", "看 a。b 的写法。"),
        ("值得精读！", "值得精读！"),  # nothing else to show
        ("第一行没有句号\n第二行。", "第一行没有句号"),
        ("他说“好。”然后走了。", "他说“好。”"),
        ("  值得快速浏览。\n 先看 #12。", "先看 #12。"),
        ("", ""),
        # English advice: a full stop before a space ends a sentence, but not
        # in a file name, after a number or in e.g.; a bare verdict is skipped.
        ("Worth a close read. The router now tracks hit rates. More.", "The router now tracks hit rates."),
        ("Changes `utils.py` and config.yaml. More.", "Changes utils.py and config.yaml."),
        ("Bumps to v0.6. Then more.", "Bumps to v0.6. Then more."),
        ("Skim it, e.g. the tests. More.", "Skim it, e.g. the tests."),
        ("重点看两点：1. 调度 2. 缓存。其他。", "重点看两点：1. 调度 2. 缓存。"),
        # Any sentence that is only a verdict, in any wording, is skipped.
        ("建议精读。调度器的改动。", "调度器的改动。"),
        ("扫一眼即可。只改了阈值。", "只改了阈值。"),
        ("不必深究，无需精读。响应带 error 字段。", "响应带 error 字段。"),
        ("可跳过。纯依赖升级。", "纯依赖升级。"),
        ("Highly recommended. The allocator changes.", "The allocator changes."),
        ("快速浏览即可，收藏备用。更多。", "快速浏览即可，收藏备用。"),
        ("值得精读，设计很好。更多。", "值得精读，设计很好。"),
        # ASCII ! and ? end a sentence only before a space, a closer or the end.
        ("值得精读。参考 https://example.com/search?q=1 的实现。更多。", "参考 https://example.com/search?q=1 的实现。"),
        ("值得精读。注释 <!-- x --> 留着。更多。", "注释 <!-- x --> 留着。"),
        ("值得精读。Really? Yes.", "Really?"),
    ],
)
def test_rules(advice, expected):
    assert first_sentence(segment(advice, "o/r")) == expected
