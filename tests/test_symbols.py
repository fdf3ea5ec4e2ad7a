"""Code symbols (prnotes.model.symbols) on every seed entry of the fixture project,
exactly; the kind rules; and the generic names left out."""

from __future__ import annotations

import builtins
import keyword
import tomllib

import pytest

from prnotes.model.symbols import GENERIC_NAMES, KINDS, Symbol, generic_names, is_generic, symbol_index, symbol_of, symbols_in
from prnotes.parse.refs import segment

P, E, C, F, O = "path", "env", "config", "function", "other"
# PR number -> (kind, name) of every symbol its note mentions, in index order.
# Generic names are gone: None, replace, shutdown, copy_(), .item(), .tolist(),
# torch.tensor(..., device=...), torch.Tensor.cpu().
EXPECTED = {
    43107: (
        (P, "vllm/utils/gpu_sync_debug.py"),
        (E, "VLLM_GPU_SYNC_CHECK"),  # bare, in the title
        (F, "async_tensor_h2d"),
        (F, "gpu_sync_allowed()"),
        (F, "keep_on_cpu"),
    ),
    44969: ((F, "source_file_dependencies"),),
    49515: ((E, "VLLM_TARGET_DEVICE"), (F, "cpu_platform_plugin()")),
    49793: ((F, "fused_allreduce_rms_norm"), (F, "get_top_tokens"), (F, "use_local_argmax_reduction")),
    51368: ((F, "load_weights()"),),  # `#52626` is a PR reference, not a symbol
    51875: ((C, "NONE_HASH"), (F, "init_none_hash"), (F, "resolve_none_hash_seed")),
    52046: ((F, "_fused_norm_rope_kernel"), (F, "_sparse_indexer_and_attn")),
    52288: ((F, "load_dspark_model"),),
    52326: ((E, "BUILDKITE_PARALLEL_JOB"),),
    52327: ((E, "BUILDKITE_PARALLEL_JOB"),),
    52374: ((C, "MambaHybridModelState"), (F, "envs.disable_envs_cache()"), (F, "init_model_state")),
    52400: (),
    52603: ((F, "fused_moe"), (F, "quantization_emulation")),
    52763: ((F, "skip_global_cleanup"),),
    52810: ((F, "git_fetch_with_timeout"),),
    52822: ((P, "run_ci_command.py"), (F, "blocks_new_run"), (F, "is_comment_triggered_build")),
}


def test_every_seed_entry_yields_exactly_its_symbols(site):
    got = {n.number: tuple((s.kind, s.name) for s in n.symbols) for n in site.notes}
    assert got == EXPECTED


def test_index_groups_notes_per_symbol(site):
    index = symbol_index(site.notes)
    assert index[Symbol(E, "BUILDKITE_PARALLEL_JOB")] == (
        "notes/vllm-project/vllm/pr-52326",
        "notes/vllm-project/vllm/pr-52327",
    )
    kinds = [s.kind for s in index]
    assert kinds == sorted(kinds, key=[k.slug for k in KINDS].index)
    assert [k.slug for k in KINDS] == [P, E, C, F, O]


@pytest.mark.parametrize(
    ("span", "expected"),
    [
        ("docker/Dockerfile.rocm", Symbol(P, "docker/Dockerfile.rocm")),
        ("setup.py", Symbol(P, "setup.py")),
        ("__init__.py", Symbol(P, "__init__.py")),
        ("Dockerfile.rocm", Symbol(P, "Dockerfile.rocm")),
        # Hidden folders and files are paths too.
        (".github/workflows/pr-test.yml", Symbol(P, ".github/workflows/pr-test.yml")),
        (".buildkite/test-pipeline.yaml", Symbol(P, ".buildkite/test-pipeline.yaml")),
        (".pre-commit-config.yaml", Symbol(P, ".pre-commit-config.yaml")),
        ("CUDA_VISIBLE_DEVICES=0,1", Symbol(E, "CUDA_VISIBLE_DEVICES")),
        ("envs.VLLM_USE_V1", Symbol(E, "VLLM_USE_V1")),
        ("NONE_HASH", Symbol(C, "NONE_HASH")),  # a constant: no value, no known prefix
        ("MambaHybridModelState", Symbol(C, "MambaHybridModelState")),
        ("vllm.config.ParallelConfig", Symbol(C, "vllm.config.ParallelConfig")),
        ("--max-model-len", Symbol(C, "--max-model-len")),
        ("--tensor-parallel-size 8", Symbol(C, "--tensor-parallel-size")),
        ("enforce_eager=True", Symbol(C, "enforce_eager")),
        (" foo.bar() ", Symbol(F, "foo.bar()")),
        (".item()", Symbol(F, ".item()")),
        ("torch.tensor(..., device=...)", Symbol(F, "torch.tensor(..., device=...)")),
        ("resolve_none_hash_seed", Symbol(F, "resolve_none_hash_seed")),
        ("scheduler.max_num_seqs", Symbol(F, "scheduler.max_num_seqs")),
        ("%N", Symbol(O, "%N")),
        ("v2.3.1", Symbol(O, "v2.3.1")),
        ("a + b", Symbol(O, "a + b")),
    ],
)
def test_kind_rules(span, expected):
    assert symbol_of(span) == expected


@pytest.mark.parametrize(
    "span",
    ["None", "True", "self", "replace", "shutdown", "copy_()", ".item()", ".tolist()", ".cpu()", "torch.Tensor.cpu()",
     "torch.tensor(..., device=...)", "torch.empty(n).cuda()", ".zero_()", "self.shutdown()", "nn.Module",
     "F.softmax(x)", "__init__", "__call__()", "isinstance", "items", "lru_cache", "no_grad"],
)
def test_generic_names_are_left_out(span):
    symbol = symbol_of(span)
    assert is_generic(symbol), symbol
    assert symbols_in(segment(f"看 `{span}` 的用法。", "o/r")) == set()


@pytest.mark.parametrize(
    "span",
    # Project names, and generic words in a namespace of their own: `envs.shutdown()` is vLLM's.
    ["load_weights()", "envs.shutdown()", "model_runner.execute_model()", "forward_context", "shutdown_timeout",
     "_private_", "torch.ops.vllm.item", "itemize()", "NONE_HASH", "VLLM_USE_V1", "copy.py", "run/setup.sh"],
)
def test_project_names_stay(span):
    symbol = symbol_of(span)
    assert not is_generic(symbol), symbol
    assert symbols_in(segment(f"看 `{span}` 的用法。", "o/r")) == {symbol}


def test_the_generic_list_covers_the_language():
    """The list holds classes of names, not a few examples: every keyword, the
    constants, and the built-in functions and exceptions people write."""
    names = generic_names().names
    assert set(keyword.kwlist) - {"None", "True", "False"} <= names
    assert {"None", "True", "False"} <= names
    everyday = {n for n in dir(builtins) if not n.startswith("_") and n[0].islower()} - {
        # rare in prose about code, or words a project may well use for itself
        "aiter", "anext", "ascii", "bin", "breakpoint", "bytearray", "chr", "compile", "complex", "copyright", "credits",
        "delattr", "divmod", "eval", "exec", "exit", "globals", "help", "hex", "input", "license", "locals",
        "memoryview", "oct", "ord", "pow", "quit",
    }
    assert everyday <= names, sorted(everyday - names)
    # Every table of the file is a list of strings, sorted so that a change reads as one line.
    data = tomllib.loads(GENERIC_NAMES.read_text(encoding="utf-8"))
    assert data["namespaces"] == sorted(data["namespaces"])
    for group, table in data.items():
        if group != "namespaces":
            for key, values in table.items():
                assert values == sorted(values), (group, key)
