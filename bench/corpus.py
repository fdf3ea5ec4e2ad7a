#!/usr/bin/env python3
"""Write a synthetic corpus of digest seeds, for benchmarks and scale tests.

    python -m bench.corpus --notes 1000 --out /tmp/corpus [--seed 1] [--dense]

writes ``/tmp/corpus/seeds/NNN_<id>.txt`` (digest files of up to
``--per-file`` entries, in the real seed format) and
``/tmp/corpus/seeds/prs.toml``. The same arguments give the same bytes.

Two kinds of archive. The **sparse** one (:func:`generate`, the default) is
the first benchmark corpus; the **dense** one (:func:`generate_dense`,
``--dense``) is an archive like a busy repository's, described in
:class:`DenseArchive`.

The sparse notes look like the real ones: Chinese advice of varying length with code
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
import tomllib
from pathlib import Path

from prnotes.model.taxonomy import set_files, shared_file

ROOT = Path(__file__).resolve().parent.parent

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


# --- the dense archive ---------------------------------------------------------

DENSE_REPOS = ("vllm-project/vllm", "sgl-project/sglang", "pytorch/pytorch")
# The archive's digests come from the repositories in this rotation: vLLM's
# twice as often as each of the others.
ROTATION = (0, 1, 0, 2)
FIRST_NUMBER = {"vllm-project/vllm": 40000, "sgl-project/sglang": 8000, "pytorch/pytorch": 150000}
CODE_ROOT = {"vllm-project/vllm": "vllm", "sgl-project/sglang": "python/sglang/srt", "pytorch/pytorch": "torch"}
ENV_PREFIX = {"vllm-project/vllm": "VLLM", "sgl-project/sglang": "SGLANG", "pytorch/pytorch": "TORCH"}
VERBS = ("修复", "重构", "新增", "优化", "简化", "拆分")
UPSTREAM_VERBS = ("Fix", "Refactor", "Add", "Speed up", "Simplify", "Split")
DENSE_SENTENCES = (
    "重点看 {code} 如何统一两条路径，避免为{phrase}单独维护一份实现。",
    "作者把 {code} 收敛为单一入口，让两个正确性耦合的调用点共用同一规则。",
    "测试设计值得学习：用假的 {code} 拦截参数，把难以复现的竞态转化为确定性单测。",
    "阅读时建议结合 {ref} 一起看，两者共同构成完整的{phrase}方案。",
    "它修正了 {ref} 引入的回归，{code} 的默认值回到原来的行为。",
    "与 {ref} 对照阅读更清楚：那边改的是调用方，这里改的是 {code} 本身。",
    "改动小、风险低、收益可量化：关键路径提速约 {x} 倍，适合快速合并。",
    "需要注意 {code} 是手工维护的，新增配置时要同步更新。",
    "PR body 对“为什么不改 {code}”的解释很清晰，体现了保守选择的方法论。",
)
FOLLOW_UP_SENTENCES = (
    "建议关注后续是否有 {ref} 的跟进 PR，以及{phrase}在多机场景下的数值一致性。",
    "后续跟进 {code} 的拆分，{ref} 已经开了头。",
    "把 {code} 的静态配置当作技术债跟进。",
)


def claimed_folders(repo: str, root: Path = ROOT) -> dict[str, str]:
    """A folder the repository's set claims for each subsystem (its ``[paths]``,
    the first in order that the subsystem's own), so that a note cites its own
    subsystem's code; nothing for a repository without a set."""
    owner, name = repo.split("/", 1)
    sets = {p.name: p for p, _ in set_files(root)}
    path = sets.get(f"{owner}__{name}.toml")
    if path is None or not path.is_file():
        return {}
    out: dict[str, str] = {}
    for key, slug in sorted(tomllib.loads(path.read_text(encoding="utf-8")).get("paths", {}).items()):
        if key.endswith("/") and not key.startswith((".", "tests/", "test/", "docs/")):
            out.setdefault(slug, key)
    return out


def subsystem_words(repo: str, root: Path = ROOT) -> list[tuple[str, list[str]]]:
    """``(slug, title words)`` of every subsystem that files ``repo``'s notes,
    read from the project's taxonomy: the repository's own set
    (``taxonomy/<owner>__<repo>.toml``) if it has one, else the subsystems of
    ``taxonomy.toml``, else the generic set (``taxonomy/default.toml``).
    Wildcard words (``schedul*``) and the catch-all ``other`` are left out."""
    owner, name = repo.split("/", 1)
    shared, _ = shared_file(root)
    sets = {p.name: p for p, _ in set_files(root)}
    for path in (sets.get(f"{owner}__{name}.toml"), shared, sets.get("default.toml")):
        if path is None or not path.is_file():
            continue
        subsystems = tomllib.loads(path.read_text(encoding="utf-8")).get("subsystem", [])
        found = [
            (sub["slug"], [w for w in sub.get("title_words", []) if "*" not in w and len(w) > 2])
            for sub in subsystems
            if sub.get("slug") != "other"
        ]
        found = [(slug, words) for slug, words in found if len(words) >= 2]
        if found:
            return found
    raise SystemExit(f"no subsystem with title words for {repo} in {root}")


class DenseArchive:
    """An archive like a busy repository's, digest by digest.

    - Three repositories (:data:`DENSE_REPOS`), each with consecutive PR numbers
      (a digest covers most of what was merged): vLLM's digests twice as often
      as SGLang's or PyTorch's.
    - Every subsystem of each repository's set, in turn (:func:`subsystem_words`):
      each title names two of the subsystem's own title words.
    - At least four distinct PR references in every advice text: mostly the
      repository's recent PRs, some older ones, some of another repository
      of the archive, some never noted; so each PR is mentioned about as
      often as a note mentions, across digests.
    - Follow-ups (about two notes in three), code symbols that recur across
      notes (files, environment variables, classes, functions: a pool per
      subsystem that grows with the archive; a file in a folder the set files
      under the note's subsystem, :func:`claimed_folders`), and about 3 % of the notes
      without a PR number.

    A note's text depends on the archive before it and on its place only, so
    :meth:`day` continues an archive as its next day would.
    """

    def __init__(self, seed: int = 1, root: Path = ROOT) -> None:
        self.rng = random.Random(f"dense-{seed}")
        self.words = {repo: subsystem_words(repo, root) for repo in DENSE_REPOS}
        self.folders = {repo: claimed_folders(repo, root) for repo in DENSE_REPOS}
        self.turn = {repo: 0 for repo in DENSE_REPOS}  # the next subsystem of each repository
        self.next_number = dict(FIRST_NUMBER)
        self.numbers: dict[str, list[int]] = {repo: [] for repo in DENSE_REPOS}
        self.prs: dict[str, list[str]] = {repo: [] for repo in DENSE_REPOS}
        self.files: dict[str, str] = {}
        self.made = 0

    def _ref(self, repo: str, own: int | None) -> str:
        rng, numbers = self.rng, self.numbers[repo]
        roll = rng.random()
        if roll < 0.08 or not numbers:
            return f"#{rng.randint(FIRST_NUMBER[repo] - 5000, FIRST_NUMBER[repo] - 1)}"  # before the archive: no note
        others = [r for r in DENSE_REPOS if r != repo and self.numbers[r]]
        if roll < 0.16 and others:
            other = rng.choice(others)
            return f"{other}#{rng.choice(self.numbers[other])}"
        if roll < 0.40:
            choice = rng.choice(numbers)
        else:
            choice = rng.choice(numbers[-300:])
        return f"#{choice}" if choice != own else f"#{numbers[0]}"

    def _symbol(self, repo: str, slug: str) -> str:
        rng = self.rng
        pool = 4 + self.made // 400
        k = rng.randint(0, pool)
        base = slug.replace("-", "_")
        kind = rng.randrange(4)
        if kind == 0:  # a file in a folder the set files under the note's subsystem
            folder = self.folders[repo].get(slug, f"{CODE_ROOT[repo]}/{base}/")
            return f"{folder}{base}_utils_{k}.py"
        if kind == 1:
            return f"{ENV_PREFIX[repo]}_{base.upper()}_FLAG_{k}"
        if kind == 2:
            return "".join(p.title() for p in base.split("_")) + f"Manager{k}"
        return f"{base}_step_{k}()"

    def _entry(self, repo: str, number: int | None) -> tuple[str, str, str]:
        rng = self.rng
        slugs = self.words[repo]
        slug, words = slugs[self.turn[repo] % len(slugs)]
        self.turn[repo] += 1
        first, second = rng.sample(words, 2)
        ascii_words = [w for w in words if w.isascii()] or [first]
        verb = rng.randrange(len(VERBS))
        title = f"{first}：{VERBS[verb]}{second}路径的边界情况 {self.made}"
        upstream = f"[{slug}] {UPSTREAM_VERBS[verb]} {rng.choice(ascii_words)} path {self.made}"
        refs: list[str] = []
        wanted = rng.randint(4, 7)
        while len(refs) < wanted:
            ref = self._ref(repo, number)
            if ref not in refs:
                refs.append(ref)
        parts = [rng.choice(OPENINGS).format(phrase=first)]
        templates = [rng.choice(DENSE_SENTENCES) for _ in range(rng.randint(2, 5))]
        if rng.random() < 0.65:
            templates.append(rng.choice(FOLLOW_UP_SENTENCES))
        for ref in refs:  # every reference gets a sentence
            template = rng.choice([t for t in DENSE_SENTENCES + FOLLOW_UP_SENTENCES if "{ref}" in t])
            templates.insert(rng.randrange(len(templates) + 1), template)
        refs_left = iter(refs)
        for template in templates:
            ref = next(refs_left, None) if "{ref}" in template else None
            if "{ref}" in template and ref is None:
                template = rng.choice([t for t in DENSE_SENTENCES if "{ref}" not in t])
            code = f"`{self._symbol(repo, slug)}`"
            parts.append(template.format(code=code, ref=ref or "", phrase=first, x=round(rng.uniform(1.5, 5), 2)))
        return title, upstream, "".join(parts)

    def digest(self, repo: str, count: int) -> None:
        """Add a digest file of ``count`` notes of ``repo``."""
        rng = self.rng
        lines = [repo, ""]
        for _ in range(count):
            self.made += 1
            self.next_number[repo] += 1 if rng.random() < 0.9 else rng.randint(2, 3)
            number = None if rng.random() < 0.03 else self.next_number[repo]
            title, upstream, body = self._entry(repo, number)
            if number is None:
                lines += [title, "", body, ""]
                continue
            if rng.random() < 0.3:
                lines += [f"{title} (#{number})", "", body, ""]
            else:
                lines += [title, "", body, ""]
                key = title.replace("\\", "\\\\").replace('"', '\\"')
                self.prs[repo].append(f'"{key}" = {{ number = {number}, upstream_title = "{upstream}" }}')
            self.numbers[repo].append(number)
        name = f"{len(self.files):05d}_{rng.getrandbits(64):016x}.txt"
        self.files[name] = "\n".join(lines).rstrip("\n") + "\n"

    def archive(self, notes: int, per_file: int = 16) -> None:
        """Digests of ``per_file`` notes (the last may be shorter) until the archive holds ``notes`` more."""
        goal = self.made + notes
        while self.made < goal:
            repo = DENSE_REPOS[ROTATION[len(self.files) % len(ROTATION)]]
            self.digest(repo, min(per_file, goal - self.made))

    def day(self, notes: int = 10) -> list[str]:
        """A day's digests: ``notes`` notes from every repository, vLLM's the most;
        returns the names of the files added."""
        before = set(self.files)
        shares = [notes - 2 * (notes // 3), notes // 3, notes // 3]
        for repo, count in zip(DENSE_REPOS, shares):
            if count:
                self.digest(repo, count)
        return sorted(set(self.files) - before)

    def seeds(self) -> dict[str, str]:
        """``{file name: text}`` of the seeds and ``prs.toml``."""
        toml = ["# Synthetic dense corpus: PR numbers and upstream titles.", ""]
        for repo in DENSE_REPOS:
            toml += [f'["{repo}"]', *self.prs[repo], ""]
        return {**self.files, "prs.toml": "\n".join(toml)}


def generate_dense(notes: int, seed: int = 1, per_file: int = 16, root: Path = ROOT) -> dict[str, str]:
    """``{file name: text}`` of a dense archive of ``notes`` notes (:class:`DenseArchive`)."""
    archive = DenseArchive(seed, root)
    archive.archive(notes, per_file)
    return archive.seeds()


def dense_day(notes: int, day_notes: int = 10, seed: int = 1, per_file: int = 16, root: Path = ROOT) -> dict[str, str]:
    """What a day adds to :func:`generate_dense` of the same arguments: its
    digest files (every repository's) and the ``prs.toml`` with their numbers."""
    archive = DenseArchive(seed, root)
    archive.archive(notes, per_file)
    added = archive.day(day_notes)
    seeds = archive.seeds()
    return {name: seeds[name] for name in [*added, "prs.toml"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, required=True, help="how many entries")
    parser.add_argument("--out", type=Path, required=True, help="project folder; seeds go to OUT/seeds/")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--per-file", type=int, default=50, help="entries per digest file (default 50)")
    parser.add_argument("--repos", type=int, default=3, help="repositories, 2 or 3 (default 3; sparse only)")
    parser.add_argument("--dense", action="store_true", help="an archive like a busy repository's (default: sparse)")
    args = parser.parse_args(argv)
    seeds = args.out / "seeds"
    seeds.mkdir(parents=True, exist_ok=True)
    for old in seeds.glob("*.txt"):
        old.unlink()
    if args.dense:
        files = generate_dense(args.notes, args.seed, args.per_file)
    else:
        files = generate(args.notes, args.seed, args.per_file, args.repos)
    for name, text in files.items():
        (seeds / name).write_text(text, encoding="utf-8", newline="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
