#!/usr/bin/env python3
"""Write a synthetic corpus of digest seeds, for benchmarks and scale tests.

    python -m bench.corpus --notes 1000 --out /tmp/corpus [--seed 1]

writes ``/tmp/corpus/seeds/NNN_<id>.txt`` (digest files of up to
``--per-file`` entries, in the real seed format) and
``/tmp/corpus/seeds/prs.toml``. The same arguments give the same bytes.

The notes look like the real ones: Chinese advice of varying length with code
spans and identifiers, the three verdict styles, ``#N`` references to other
generated PRs and to unknown ones, ten topics that the taxonomy files under
fourteen of its subsystems (not all of them: none under 调度与引擎核心, for
one), and two to three repositories. Some titles carry ``(#N)``, most get their number
from ``prs.toml``, and a few have none.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

REPOS = ("vllm-project/vllm", "sgl-project/sglang", "ROCm/aiter")

# Per subsystem: (title phrases, upstream tag, identifiers that code spans use)
TOPICS = {
    "ci": (["CI 门禁", "Buildkite 流水线", "ROCm CI 分片"], "[CI]", ["run_ci_command.py", "BUILDKITE_PARALLEL_JOB", "pipeline.yaml"]),
    "platform": (["CPU 平台选择", "pybind11 ABI", "XPU 平台"], "[Platform]", ["cpu_platform_plugin()", "VLLM_TARGET_DEVICE", "Dockerfile.rocm"]),
    "loading": (["权重加载", "PWAL 钩子", "dummy load"], "[Model]", ["load_weights()", "process_weights_after_loading", "vllm/model_executor/model_loader/utils.py"]),
    "kv-cache": (["前缀缓存", "KV 缓存块", "NONE_HASH 种子"], "[Core]", ["resolve_none_hash_seed", "init_none_hash", "vllm/v1/core/kv_cache_utils.py"]),
    "attention": (["注意力后端", "FlashAttention kernel", "MLA kernel"], "[Kernel]", ["_fused_norm_rope_kernel", "flash_attn_varlen_func", "vllm/attention/backends/mla.py"]),
    "moe-quant": (["fused_moe 量化", "MoE 专家路由", "FP8 量化"], "[Quantization]", ["moe_kernel_quantize_input", "ocp_mx_scheme", "vllm/model_executor/layers/fused_moe/layer.py"]),
    "spec-decode": (["投机解码 draft", "MTP 草稿 token", "DSpark 投机"], "[Spec Decode]", ["use_local_argmax_reduction", "get_top_tokens", "load_dspark_model"]),
    "model-runner": (["MRV2 模型状态", "Model Runner 初始化", "MRV2 CUDA graph"], "[MRV2]", ["init_model_state", "MambaHybridModelState", "vllm/v1/worker/gpu_model_runner.py"]),
    "parallel": (["PCP 上下文并行", "DCP 切分", "张量并行 all-reduce"], "[Distributed]", ["fused_allreduce_rms_norm", "get_pcp_group()", "NCCL_P2P_LEVEL"]),
    "debug-perf": (["GPU-CPU 同步检测", "同步检测开关", "性能剖析"], "[Perf]", ["VLLM_GPU_SYNC_CHECK", "gpu_sync_allowed()", "vllm/utils/gpu_sync_debug.py"]),
}
OPENINGS = (
    "值得精读。",
    "值得精读，尤其适合 CI/构建基础设施维护者。",
    "值得快速浏览，",
    "值得快速阅读：",
    "建议 CI 维护者阅读：",
    "若关注 {phrase} 的实现细节，本 PR 值得快速精读，",
)
SENTENCES = (
    "重点看 {code} 如何统一两条路径，避免为{phrase}单独维护一份实现。",
    "作者把 {code} 收敛为单一入口，让两个正确性耦合的调用点共用同一规则。",
    "测试设计值得学习：用假的 {code} 拦截参数，把难以复现的竞态转化为确定性单测。",
    "阅读时建议结合 {ref} 一起看，两者共同构成完整的{phrase}方案。",
    "建议关注后续是否有 {ref} 的跟进 PR，以及{phrase}在多机场景下的数值一致性测试。",
    "改动小、风险低、收益可量化：关键路径提速约 {x} 倍，适合快速合并。",
    "需要注意 {code} 是手工维护的，后续新增配置时需要同步更新，可以考虑脚本化。",
    "PR body 对“为什么不改 {code}”的解释很清晰，体现了保守选择的方法论。",
    "这类隐式语义是配置 bug 的高发点，建议为 {code} 补充回归测试。",
    "把静态分片当作技术债跟进，后续可考虑按配置时长自动均衡。",
)


# Names only vLLM uses (Model Runner V2, process_weights_after_loading,
# NONE_HASH): its digests' titles have them, another repository's do not.
VLLM_ONLY = ("MRV2", "PWAL", "NONE_HASH")


def entry(rng: random.Random, number: int, repo: str, numbers: list[int], unique: int) -> tuple[str, str, str]:
    """One note: (title, upstream title, body)."""
    slug = rng.choice(sorted(TOPICS))
    phrases, tag, idents = TOPICS[slug]
    if repo != REPOS[0]:
        phrases = [p for p in phrases if not p.startswith(VLLM_ONLY)]
    phrase = rng.choice(phrases)
    title = f"{phrase}：{rng.choice(['修复', '重构', '新增', '优化'])}{rng.choice(idents).split('/')[-1]} 相关逻辑 {unique}"
    upstream = f"{tag} {rng.choice(['Fix', 'Refactor', 'Add', 'Speed up'])} {phrase.split()[0]} path {unique}"
    opening = rng.choice(OPENINGS).format(phrase=phrase)
    parts = [opening]
    for _ in range(rng.randint(2, 12)):
        if numbers and rng.random() < 0.7:
            ref = f"#{rng.choice(numbers)}"
        else:
            ref = f"#{rng.randint(10000, 60000)}"
        if rng.random() < 0.3:
            ref = f"`{ref}`"
        parts.append(
            rng.choice(SENTENCES).format(
                code=f"`{rng.choice(idents)}`", ref=ref, phrase=phrase, x=round(rng.uniform(1.5, 5), 2)
            )
        )
    return title, upstream, "".join(parts)


def generate(notes: int, seed: int = 1, per_file: int = 50, repos: int = 3) -> dict[str, str]:
    """``{file name: text}`` of the seeds and ``prs.toml``."""
    rng = random.Random(seed)
    repos_used = REPOS[: max(2, min(repos, len(REPOS)))]
    files: dict[str, str] = {}
    prs: dict[str, list[str]] = {r: [] for r in repos_used}
    numbers: dict[str, list[int]] = {r: [] for r in repos_used}
    next_number = {r: 40000 + i * 7 for i, r in enumerate(repos_used)}
    made = 0
    index = 0
    while made < notes:
        repo = repos_used[index % len(repos_used)]
        count = min(per_file, notes - made)
        lines = [repo, ""]
        for _ in range(count):
            made += 1
            next_number[repo] += rng.randint(1, 9)
            number = next_number[repo]
            title, upstream, body = entry(rng, number, repo, numbers[repo], made)
            style = rng.random()
            if style < 0.2:
                lines += [f"{title} (#{number})", "", body, ""]
            elif style < 0.95:
                lines += [title, "", body, ""]
                key = title.replace("\\", "\\\\").replace('"', '\\"')
                prs[repo].append(f'"{key}" = {{ number = {number}, upstream_title = "{upstream}" }}')
            else:
                lines += [title, "", body, ""]
            numbers[repo].append(number)
        files[f"{index:03d}_{rng.getrandbits(64):016x}.txt"] = "\n".join(lines).rstrip("\n") + "\n"
        index += 1
    toml = ["# Synthetic corpus: PR numbers and upstream titles.", ""]
    for repo in repos_used:
        toml += [f'["{repo}"]', *prs[repo], ""]
    files["prs.toml"] = "\n".join(toml)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, required=True, help="how many entries")
    parser.add_argument("--out", type=Path, required=True, help="project folder; seeds go to OUT/seeds/")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--per-file", type=int, default=50, help="entries per digest file (default 50)")
    parser.add_argument("--repos", type=int, default=3, help="repositories, 2 or 3 (default 3)")
    args = parser.parse_args(argv)
    seeds = args.out / "seeds"
    seeds.mkdir(parents=True, exist_ok=True)
    for old in seeds.glob("*.txt"):
        old.unlink()
    for name, text in generate(args.notes, args.seed, args.per_file, args.repos).items():
        (seeds / name).write_text(text, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
