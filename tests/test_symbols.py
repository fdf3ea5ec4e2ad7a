"""Code symbols (prnotes.symbols) on every seed entry, exactly."""

from __future__ import annotations

import pytest

from prnotes.symbols import Symbol, symbol_index, symbol_of

P, E, I = "path", "env", "identifier"
# PR number -> (kind, name) of every symbol its note mentions, in index order.
EXPECTED = {
    43107: (
        (P, "vllm/utils/gpu_sync_debug.py"),
        (E, "VLLM_GPU_SYNC_CHECK"),  # bare, in the title
        (I, "async_tensor_h2d"),
        (I, "gpu_sync_allowed()"),
        (I, ".item()"),
        (I, "keep_on_cpu"),
        (I, ".tolist()"),
        (I, "torch.tensor(..., device=...)"),
        (I, "torch.Tensor.cpu()"),
    ),
    44969: ((I, "source_file_dependencies"),),
    49515: ((E, "VLLM_TARGET_DEVICE"), (I, "cpu_platform_plugin()"), (I, "None")),
    49793: ((I, "fused_allreduce_rms_norm"), (I, "get_top_tokens"), (I, "use_local_argmax_reduction")),
    51368: ((I, "copy_()"), (I, "load_weights()")),  # `#52626` is a PR reference, not a symbol
    51875: ((I, "init_none_hash"), (I, "NONE_HASH"), (I, "resolve_none_hash_seed")),
    52046: ((I, "_fused_norm_rope_kernel"), (I, "_sparse_indexer_and_attn")),
    52288: ((I, "load_dspark_model"), (I, "None"), (I, "replace")),
    52326: ((E, "BUILDKITE_PARALLEL_JOB"),),
    52327: ((E, "BUILDKITE_PARALLEL_JOB"),),
    52374: ((I, "envs.disable_envs_cache()"), (I, "init_model_state"), (I, "MambaHybridModelState"), (I, "shutdown")),
    52400: (),
    52603: ((I, "fused_moe"), (I, "quantization_emulation")),
    52763: ((I, "skip_global_cleanup"),),
    52810: ((I, "git_fetch_with_timeout"),),
    52822: ((P, "run_ci_command.py"), (I, "blocks_new_run"), (I, "is_comment_triggered_build")),
}


def test_every_seed_entry_yields_exactly_its_symbols(site):
    got = {n.number: tuple((s.kind, s.name) for s in n.symbols) for n in site.notes}
    assert got == EXPECTED


def test_index_groups_notes_per_symbol(site):
    index = symbol_index(site)
    assert index[Symbol(I, "None")] == ("notes/vllm-project/vllm/pr-49515", "notes/vllm-project/vllm/pr-52288")
    assert index[Symbol(E, "BUILDKITE_PARALLEL_JOB")] == (
        "notes/vllm-project/vllm/pr-52326",
        "notes/vllm-project/vllm/pr-52327",
    )
    kinds = [s.kind for s in index]
    assert kinds == sorted(kinds, key=[P, E, I].index)


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("docker/Dockerfile.rocm", Symbol(P, "docker/Dockerfile.rocm")),
        ("setup.py", Symbol(P, "setup.py")),
        ("Dockerfile.rocm", Symbol(P, "Dockerfile.rocm")),
        ("CUDA_VISIBLE_DEVICES=0,1", Symbol(E, "CUDA_VISIBLE_DEVICES")),
        ("NONE_HASH", Symbol(I, "NONE_HASH")),  # a constant: no value, no known prefix
        (" foo.bar() ", Symbol(I, "foo.bar()")),
        (".item()", Symbol(I, ".item()")),
        ("torch.tensor(..., device=...)", Symbol(I, "torch.tensor(..., device=...)")),
    ],
)
def test_kind_rules(span, expected):
    assert symbol_of(span) == expected
