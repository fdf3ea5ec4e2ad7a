"""A repository without a subsystem set is filed by its own layout (prnotes.model.grouping).

The fixture tests/roots/layout is a digest of example-org/tensorkit, which no
set names: its notes cite csrc/attention/, python/tensorkit/serving/ and docs/.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prnotes.model.filing import labels_of
from prnotes.model.grouping import SMALL, area_of, cited, group_notes, linked, repo_words
from prnotes.project import load
from tests.support.sandbox import ROOTS, convert, copy_project, sphinx_build

LAYOUT = ROOTS / "layout" / "seeds"
REPO = "example-org/tensorkit"
KEY = "example-org/tensorkit"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("layout") / "p", LAYOUT)


def test_an_unknown_repository_is_grouped_by_the_code_its_notes_cite(project):
    site = load(project)
    assert {n.number: n.subsystem for n in site.notes} == {
        101: f"{KEY}/attention",  # csrc/attention/
        102: f"{KEY}/attention",
        103: f"{KEY}/serving",  # python/tensorkit/serving/
        104: f"{KEY}/serving",
        105: f"{KEY}/serving",  # no path: StreamWriter, which the serving notes cite
        106: f"{KEY}/docs",  # docs/: the default set's 文档与示例, in its words
        107: f"{KEY}/docs",
        108: f"{KEY}/ci",  # no code at all: the default set's words
    }
    pages = {s.slug: (s.title, s.intro) for s in site.subsystems_of(REPO)}
    assert pages["attention"] == ("attention", "按代码归组：笔记引用的 csrc/attention/、tests/attention/ 下的改动。")
    assert pages["serving"] == ("服务与 API", site.taxonomy.default.subsystem("serving").intro)
    assert pages["docs"][0] == "文档与示例"
    # No note of the digest is left for 其他, and none is warned about.
    assert not [n for n in site.notes if n.subsystem_slug == "other"]
    assert not [w for w in site.warnings if "no subsystem rule" in w.message]


def test_a_group_page_says_where_it_comes_from(project):
    assert convert(project) == 0
    page = (project / "notes/subsystem/example-org/tensorkit/attention.md").read_text(encoding="utf-8")
    assert page.startswith("% prnotes: generated from seeds/ (the code its notes cite)")
    assert "# attention" in page and "按代码归组" in page


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("include/cutlass/gemm/kernel/sm90.hpp", "gemm"),  # include/ holds others; cutlass is the repository
        ("test/unit/gemm/device/x.cu", "gemm"),  # tests of gemm are gemm's
        ("candle-metal-kernels/src/metal/x.rs", "metal"),  # the repository's words and role words go
        ("candle-core/src/metal_backend/device.rs", "metal"),
        ("python/CuTeDSL/cutlass/base_dsl/dsl.py", "cutedsl"),  # one word, as written
        ("tools/profiler.cu", "profiler"),  # no folder names anything: the file does
        ("src/lib.rs", None),
        ("x/mlxrunner/cache.go", "mlxrunner"),  # a single letter names nothing (Go's x/)
        ("api/v1/openai/chat.ts", "openai"),  # nor does a version
        ("src/lib/components/chat/ChatWindow.svelte", "chat"),  # components/ holds the app's parts
        ("candle-nn/Cargo.toml", "nn"),  # the folder names it
        ("candle-examples/setup.py", None),  # where only the file could, a manifest names no part of the code
        ("package.json", None),
        ("tokenizers/Cargo.toml", None),
        ("tokenizers/src/pre_tokenizers/split.rs", "pre-tokenizers"),  # the repository's name only leads a name
        ("bindings/python/src/tokenizer.rs", "bindings"),
        ("mistralrs-quant/src/afq/mod.rs", "quant"),  # the repository's name written as one word
        ("mistralrs-core/src/paged_attention/scheduler.rs", "paged-attention"),
        ("flash_attn/cute/tile_scheduler.py", "cute"),  # attn: a word of the repository's name, shortened
        ("hopper/flash_api.cpp", "hopper"),
        # Below a container, a folder of the repository's name alone names its area when nothing after it does.
        ("csrc/flash_attn/flash_api.cpp", "flash-attn"),
        ("flash_attn/utils/x.py", "utils"),  # not the top folder, the whole package: the folder that holds x.py
        ("csrc/kernels.cu", "csrc"),  # only holders and a file that names nothing: the folder that holds it
        ("csrc/flash_attn/setup.py", None),  # nor a manifest's
        # The package named after the end of the owner's name and the repository's (pytorch/ao).
        ("torchao/float8/float8_utils.py", "float8"),
        ("torchao/prototype/mx_formats/mx_tensor.py", "mx-formats"),  # prototype/ holds features
        ("lmcache/experimental/storage_backend/local_cpu_backend.py", "storage"),  # so does experimental/
    ],
)
def test_a_path_s_area_is_its_first_folder_that_names_something(path, key):
    repo = "nvidia/cutlass" if "cutlass" in path or "gemm" in path or "profiler" in path else "huggingface/candle"
    repo = "huggingface/tokenizers" if "token" in path else repo
    repo = "EricLBuehler/mistral.rs" if "mistralrs" in path else repo
    repo = "Dao-AILab/flash-attention" if "flash" in path else repo
    repo = {"torchao": "pytorch/ao", "lmcache": "LMCache/LMCache"}.get(path.split("/")[0], repo)
    area = area_of(path.lower(), path, repo_words(repo))
    assert (area.key if area else None) == key


def test_a_route_or_a_file_of_the_machine_is_no_path_of_the_repository():
    words = repo_words("o/r")
    note = cited("", "", "`/metrics` 与 `/v1/score`，`/dev/shm` 与 `~/.config/r/x`；改的是 `src/alpha/a.py`。", words)
    assert [path for path, _ in note.paths] == ["src/alpha/a.py"]


def test_a_group_needs_two_notes_and_a_lone_note_joins_by_shared_words():
    words = repo_words("o/r")
    notes = [
        cited("", "", "`src/alpha/a.py` 的 `AlphaCache`。", words),
        cited("", "", "`src/alpha/b.py`。", words),
        cited("", "", "`src/beta/c.py` 与 `BetaQueue`。", words),
        cited("", "", "`src/beta/d.py`。", words),
        cited("", "", "`src/gamma/e.py` 调用了 `AlphaCache`。", words),  # gamma alone: joins alpha by its word
        cited("", "", "没有代码。", words),
    ]
    grouping = group_notes(notes)
    assert [g.slug for g in grouping.groups] == ["alpha", "beta"]
    assert grouping.filed == {0: "alpha", 1: "alpha", 2: "beta", 3: "beta", 4: "alpha"}


def test_files_of_a_folder_that_only_holds_others_are_its_area_when_no_two_name_one():
    words = repo_words("o/pkg")
    notes = [
        cited("", "", "`pkg/store/a.py` 的 `put()`。", words),
        cited("", "", "`pkg/store/b.py`。", words),
        cited("", "", "`csrc/mem_kernels.cu` 的 `copy_pages`。", words),  # mem: one note
        cited("", "", "`csrc/mp_mem_kernels.cu` 与 `copy_pages`。", words),  # mp-mem: one note, the same folder
        cited("", "", "`pkg/engine.py` 的 `Engine`。", words),  # the package of the repository's name names nothing
        cited("", "", "`pkg/config.py` 与 `Engine`。", words),
    ]
    grouping = group_notes(notes)
    assert sorted(g.slug for g in grouping.groups) == ["csrc", "store"]
    assert {i: grouping.filed.get(i) for i in (2, 3)} == {2: "csrc", 3: "csrc"}
    assert "pkg" not in grouping.filed.values()


def test_files_of_a_folder_that_names_nothing_else_join_the_folder_s_area():
    # bitsandbytes: csrc/kernels.cu names no area but its folder; csrc/gemm_4bit.cu, alone, joins it.
    words = repo_words("bitsandbytes-foundation/bitsandbytes")
    notes = [
        cited("", "", "`csrc/kernels.cu` 里 `kDequantizeBlockwise` 的查表。", words),
        cited("", "", "`kDequantizeBlockwise` 的 64 位下标。", words),
        cited("", "", "`csrc/gemm_4bit.cu` 的 `gemm_4bit` 新内核。", words),
        cited("", "", "`bitsandbytes/nn/modules.py` 的 `Int8Params`。", words),
        cited("", "", "`bitsandbytes/nn/modules.py` 与 `Params4bit`。", words),
    ]
    grouping = group_notes(notes)
    assert sorted(g.slug for g in grouping.groups) == ["csrc", "nn"]
    assert grouping.filed == {0: "csrc", 1: "csrc", 2: "csrc", 3: "nn", 4: "nn"}


def test_a_label_that_names_no_code_makes_no_two_notes_alike():
    words = repo_words("o/r")
    notes = [
        cited("", "[Bugfix] x", "`src/alpha/a.py` 的 `AlphaCache`。", words),
        cited("", "[Bugfix] x", "`src/alpha/b.py`。", words),
        cited("", "[Feature] x", "`src/beta/c.py`。", words),
        cited("", "[Feature] x", "`src/beta/d.py`。", words),
        cited("", "[Bugfix] x", "没有代码，只有标签。", words),  # shares only [Bugfix] with the alpha notes
        cited("", "[beta] x", "没有代码。", words),  # a label some note cites as code: beta
    ]
    assert group_notes(notes).filed == {0: "alpha", 1: "alpha", 2: "beta", 3: "beta", 5: "beta"}


def test_notes_without_a_path_join_the_area_of_the_notes_they_share_code_with():
    words = repo_words("o/r")
    notes = [
        cited("", "", "`src/alpha/a.py` 的 `AlphaCache`。", words),
        cited("", "", "`src/alpha/b.py`。", words),
        cited("", "", "`x/runner/cache.go` 的 `SnapshotCache.Capture()`。", words),  # runner: one note by a path
        cited("", "", "`SnapshotCache.Evict()` 与 `captureBoundary()`。", words),  # shares SnapshotCache with it
        cited("", "", "`captureBoundary()` 之后的 `flushPrefix()`。", words),  # shares only with the note above: a chain
        cited("", "", "`flushPrefix()` 外没有别的代码。", words),  # three links away: past the rounds
    ]
    grouping = group_notes(notes)
    # runner has one note by its path and two joined through their code: a group.
    assert [g.slug for g in grouping.groups] == ["runner", "alpha"]
    assert grouping.filed == {0: "alpha", 1: "alpha", 2: "runner", 3: "runner", 4: "runner", 5: "runner"}


_SMALL_DIGEST = [
    "`src/pkg/chunked_loss/grpo_loss.py` 的 `sapo_loss_fn`。",
    "`sapo_loss_fn` 改用 `torch.where`。",  # no path: joins chunked_loss by its code
    "`src/pkg/ops/cross_entropy.py` 的 `exp2`。",
    "`exp2` 的常量改成 `constexpr`。",  # no path: joins cross_entropy
    "`src/pkg/ops/fused_moe.py` 的 `row_offs` 改用 `torch.where`。",  # alone, in the folder of cross_entropy
    "`src/pkg/transformers/monkey_patch.py` 的 `torch.where`。",  # alone: shares only torch.where
]


def test_in_a_small_repository_a_pair_is_a_group_and_a_lone_area_stays_out_of_the_others():
    """A first digest holds two or three notes an area: a note by a path and
    one joined by its code are a group, and a note whose area no group holds
    is not lumped into one it shares a common word with, unless a group's
    area is read from its folder."""
    words = repo_words("o/pkg")
    grouping = group_notes([cited("", "", t, words) for t in _SMALL_DIGEST])
    assert [g.slug for g in grouping.groups] == ["cross-entropy", "chunked-loss"]  # the biggest first
    assert grouping.filed == {0: "chunked-loss", 1: "chunked-loss", 2: "cross-entropy", 3: "cross-entropy", 4: "cross-entropy"}


def test_in_a_larger_repository_a_pair_joined_by_code_is_no_group():
    words = repo_words("o/pkg")
    padding = [f"`src/pkg/area{c}/{f}.py`。" for c in "abc" for f in ("x", "y")]
    notes = [cited("", "", t, words) for t in _SMALL_DIGEST + padding]
    assert len(notes) > SMALL
    grouping = group_notes(notes)
    assert {g.slug for g in grouping.groups} == {"areaa", "areab", "areac"}
    # The notes of the small digest share no code with these groups: filed by words.
    assert set(grouping.filed) == set(range(6, 12))


def test_a_note_that_follows_another_s_pr_shares_a_word_with_it():
    words = repo_words("o/r")
    notes = [
        linked(cited("", "", "`src/alpha/a.py`。", words), {10}),
        linked(cited("", "", "`src/alpha/b.py`。", words), {11}),
        linked(cited("", "", "`src/beta/c.py`。", words), {12}),
        linked(cited("", "", "`src/beta/d.py`。", words), {13}),
        linked(cited("", "", "紧跟 #11 的修复，没有代码。", words), {14, 11}),
        linked(cited("", "", "没有代码。", words), {15, 99}),  # a PR no note of the repository is
    ]
    assert group_notes(notes).filed == {0: "alpha", 1: "alpha", 2: "beta", 3: "beta", 4: "alpha"}


def test_a_path_is_read_from_where_another_note_s_path_starts():
    """`layers/attention/` cited from inside the tree: the folders before it
    in another path only hold the code, so both paths name `layers`."""
    words = repo_words("o/text-generation-inference")
    notes = [
        cited("", "", "`server/text_generation_server/layers/attention/kv_cache.py` 的 `KVCache`。", words),
        cited("", "", "`layers/attention/flashinfer.py` 的 `use_decode_state`。", words),
        cited("", "", "`router/src/infer.rs` 的 `ChatTemplate`。", words),
        cited("", "", "`router/src/validation.rs`。", words),
    ]
    grouping = group_notes(notes)
    assert [g.slug for g in grouping.groups] == ["layers", "router"]
    assert grouping.filed == {0: "layers", 1: "layers", 2: "router", 3: "router"}
    assert "server/text_generation_server/layers/" in grouping.groups[0].intro
    # Alone, the long path names its first folder.
    assert [a.key for a in notes[0].areas()] == ["server"]


def test_a_note_without_code_is_read_by_the_names_its_prose_mentions():
    words = repo_words("o/r")
    notes = [
        cited("", "", "`launcher/src/main.rs` 的 `shard_manager()`。", words),
        cited("", "", "`launcher/src/env.rs`。", words),
        cited("", "", "`router/src/infer.rs` 用 `minijinja` 渲染。", words),
        cited("", "", "`router/src/server.rs`。", words),
        cited("", "", "launcher 收到终止信号后，等待时间改为可配置。", words),  # names a group
        cited("", "", "minijinja 不认识这种标签，模板加载失败。", words),  # shares a name with a router note
        cited("", "", "没有代码，也没有名字。", words),
    ]
    grouping = group_notes(notes)
    assert [g.slug for g in grouping.groups] == ["launcher", "router"]
    assert grouping.filed == {0: "launcher", 1: "launcher", 2: "router", 3: "router", 4: "launcher", 5: "router"}


def test_the_order_of_the_notes_does_not_change_where_they_join():
    words = repo_words("o/r")
    texts = [
        "`src/alpha/a.py` 的 `AlphaCache`。",
        "`src/alpha/b.py` 的 `SharedThing`。",
        "`src/beta/c.py` 的 `SharedThing`。",
        "`src/beta/d.py`。",
        "只有 `SharedThing`。",
    ]
    filed = []
    for order in (texts, texts[::-1]):
        grouping = group_notes([cited("", "", t, words) for t in order])
        filed.append({order[i]: slug for i, slug in grouping.filed.items()})
    assert filed[0] == filed[1]


_CODE = st.sampled_from(
    ["`src/alpha/a.py`", "`src/beta/b.py`", "`x/v1/gamma.go`", "`AlphaCache`", "`beta_queue()`", "`vk_buf`", "`Shared`", "文字"]
)


@given(st.lists(st.lists(_CODE, max_size=4).map(" ".join), max_size=12), st.randoms(use_true_random=False))
def test_any_notes_group_the_same_in_any_order(texts, rng):
    words = repo_words("o/r")
    grouping = group_notes([cited("", "", t, words) for t in texts])
    slugs = {g.slug for g in grouping.groups}
    assert set(grouping.filed.values()) <= slugs
    assert all(sum(1 for k in grouping.filed.values() if k == g) >= 2 for g in slugs)
    shuffled = list(range(len(texts)))
    rng.shuffle(shuffled)
    again = group_notes([cited("", "", texts[i], words) for i in shuffled])
    assert {shuffled[i]: k for i, k in again.filed.items()} == grouping.filed


def test_a_note_without_a_path_names_its_area_by_the_words_of_its_code():
    words = repo_words("o/ggml")
    notes = [
        cited("", "", "`src/ggml-cuda/mmvq.cu` 的 `mul_mat_vec_q`。", words),
        cited("", "", "`ggml_cuda_graph_update_executable()` 不再重复捕获。", words),  # names cuda, cites no path
        cited("", "", "`src/ggml-vulkan/ggml-vulkan.cpp`。", words),
        cited("", "", "`src/ggml-vulkan/vulkan-shaders/x.comp`。", words),
        cited("", "", "`ggml_vk_create_buffer()` 与 `VK_KHR_x`。", words),  # names no area whole: vk is not vulkan
    ]
    grouping = group_notes(notes)
    # cuda has one note with a path and one that names it: a group of two.
    assert [g.slug for g in grouping.groups] == ["cuda", "vulkan"]
    assert grouping.filed[1] == "cuda" and grouping.filed[0] == "cuda"
    # A note with a path is filed by it, whatever words it has.
    assert grouping.filed[2] == grouping.filed[3] == "vulkan"


def test_a_note_whose_paths_name_no_group_takes_the_group_its_code_names():
    words = repo_words("o/r")
    notes = [
        cited("", "", "`src/gemm/a.cuh` 的 `RunGemm`。", words),
        cited("", "", "`src/gemm/b.cuh`。", words),
        cited("", "", "`src/sampling/c.cuh` 的 `SharedWorkspace` 与 `TopKRenorm`。", words),
        cited("", "", "`src/sampling/d.cuh` 的 `SharedWorkspace` 与 `TopKRenorm`。", words),
        # Its file names an area of its own; its code names gemm, though it shares more words with sampling.
        cited("", "", "`csrc/fused_moe_kernel.cu` 的 `BatchedGemmRunner`、`SharedWorkspace` 与 `TopKRenorm`。", words),
    ]
    grouping = group_notes(notes)
    assert grouping.filed[4] == "gemm"


def test_a_note_without_a_path_names_its_area_by_its_title_s_label_first():
    words = repo_words("o/hub.js")
    notes = [
        cited("", "[jinja] Keep precedence", "`packages/jinja/src/format.ts` 的 `format()`。", words),
        cited("", "[jinja] Match json.dumps", "`Interpreter.applyFilter()` 与 `toJSON()`。", words),
        cited("", "jinja: loop filters", "`Interpreter.evaluateFor()` 之后的 `loop.last`。", words),
        cited("", "[gguf] Typed keys", "`packages/gguf/src/types.ts`。", words),
        cited("", "[gguf] Header", "`packages/gguf/src/gguf.ts` 的 `buildHeader()`。", words),
        # Its code names gguf, its label names jinja: the label wins.
        cited("", "[jinja] Chat templates from GGUF", "`gguf.metadata.chat_template` 读入 `Template`。", words),
        # A label that names no area says nothing; the code decides.
        cited("", "[Bugfix] Header size", "`buildHeader()` 的对齐。", words),
    ]
    grouping = group_notes(notes)
    assert [g.slug for g in grouping.groups] == ["jinja", "gguf"]
    assert grouping.filed == {0: "jinja", 1: "jinja", 2: "jinja", 3: "gguf", 4: "gguf", 5: "jinja", 6: "gguf"}


@pytest.mark.parametrize(
    "title, labels",
    [
        ("[Inference Providers] fal-ai: derive URLs", ["Inference Providers"]),
        ("[Blackwell][EVT] Add callbacks", ["Blackwell", "EVT"]),
        ("ggml-cpu : fuse RMS_NORM + MUL", ["ggml-cpu"]),
        ("model/parsers: repair arguments", ["model/parsers"]),
        ("server, sched: expire runners", ["server", "sched"]),
        ("quantized qwen3 moe: use fused kernels", []),  # words, not a label
        ("Fix the cache", []),
    ],
)
def test_a_title_s_labels_are_its_brackets_or_its_leading_area(title, labels):
    assert labels_of(title) == labels


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("改了 pkg/flowcontrol/registry.go 里的注册表。", "flowcontrol"),  # a path in the prose
        ("`FrameBuffer` 在 src/render/frame.rs 与 ui/view.tsx。", "render"),
        ("见 https://github.com/o/r/blob/main/pkg/flowcontrol/registry.go 的改动。", "flowcontrol"),  # a link to the file
        ("见 [diff](https://github.com/O/R/tree/v1.2/pkg/flowcontrol/)。", "flowcontrol"),
        ("见 https://github.com/other/r/blob/main/pkg/flowcontrol/registry.go 。", None),  # another repository's
    ],
)
def test_a_path_in_the_prose_or_a_link_to_a_file_names_its_area(text, key):
    areas = cited("", "", text, repo_words("o/r"), "o/r").areas()
    assert (areas[0].key if areas else None) == key


@pytest.mark.parametrize(
    "token",
    ["<think>...</think>", "api/models/{id}?expand[]=inferenceProviderMapping", "$HOME/.cache/x"],
)
def test_markup_a_url_template_or_a_variable_is_no_path(token):
    assert cited("", "", f"见 `{token}`。", repo_words("o/r")).areas() == ()


def test_a_set_added_later_keeps_note_urls_and_the_group_pages_lead_on(tmp_path):
    proj = copy_project(tmp_path / "p", LAYOUT)
    before = {n.number: n.docname for n in load(proj).notes}
    (proj / "taxonomy" / "example-org__tensorkit.toml").write_text(
        '[[subsystem]]\nslug = "kernels"\ntitle = "Kernels"\n\n[[subsystem]]\nslug = "server"\ntitle = "Server"\n\n'
        '[[subsystem]]\nslug = "docs"\ntitle = "文档"\n\n[[subsystem]]\nslug = "other"\ntitle = "其他"\n\n'
        '[paths]\n"csrc/" = "kernels"\n"python/tensorkit/serving/" = "server"\n"docs/" = "docs"\n',
        encoding="utf-8",
    )
    site = load(proj)
    assert {n.number: n.docname for n in site.notes} == before
    assert site.moved == {
        f"{KEY}/kernels": ("notes/subsystem/example-org/tensorkit/attention",),
        f"{KEY}/server": ("notes/subsystem/example-org/tensorkit/serving",),
    }
    assert convert(proj) == 0
    app = sphinx_build(proj)
    assert app.warning.getvalue() == ""
    old = (proj / "_build/html/notes/subsystem/example-org/tensorkit/attention.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' in old and "kernels.html" in old


def _digest(repo: str, entries: list[tuple[int, str]]) -> str:
    return f"{repo}\n\n" + "".join(f"第 {n} 条（#{n}）\n\n值得精读。{text}\n\n" for n, text in entries)


def test_a_group_of_a_small_first_digest_that_a_later_digest_dissolves_leads_on(tmp_path):
    """A pair is a group while the repository is small; when later digests make it
    larger and the pair no longer is one, its page leads to where its notes went."""
    proj = copy_project(tmp_path / "p", {"000_first.txt": _digest("o/pkg", list(enumerate(_SMALL_DIGEST, 1)))})
    first = load(proj)
    assert {s.slug for s in first.subsystems_of("o/pkg")} >= {"cross-entropy", "chunked-loss"}
    assert first.moved == {}
    later = [(7 + i, f"`src/pkg/area{c}/{f}.py`。") for i, (c, f) in enumerate((c, f) for c in "ab" for f in "xy")]
    (proj / "seeds" / "001_second.txt").write_text(_digest("o/pkg", later), encoding="utf-8")
    site = load(proj)
    slugs = {s.slug for s in site.subsystems_of("o/pkg")}
    assert {"areaa", "areab"} <= slugs and not slugs & {"cross-entropy", "chunked-loss"}
    where = {n.number: n.subsystem for n in site.notes}
    assert (where[1], where[3], where[5]) == ("o/pkg/other", "o/pkg/kernels", "o/pkg/kernels")  # the default set's words
    assert site.moved == {
        "o/pkg/other": ("notes/subsystem/o/pkg/chunked-loss",),
        "o/pkg/kernels": ("notes/subsystem/o/pkg/cross-entropy",),
    }
    assert convert(proj) == 0
    assert sphinx_build(proj).warning.getvalue() == ""
    old = (proj / "_build/html/notes/subsystem/o/pkg/chunked-loss.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' in old


def test_a_lone_note_that_no_generic_word_files_joins_the_group_it_shares_code_with(tmp_path):
    """In a small repository a note whose own folder is no group is filed by the
    default set's words; when none of them fits it, it joins the group it shares
    most code with rather than 其他."""
    entries = [
        (1, "`src/pkg/alpha/a.py` 的 `AlphaThing`。"),
        (2, "`src/pkg/alpha/b.py` 的 `AlphaThing`。"),
        (3, "`src/pkg/beta/c.py` 的 `ZorbFrob`。"),
        (4, "`src/pkg/beta/d.py` 的 `ZorbFrob`。"),
        (5, "`src/pkg/gamma/e.py` 改用 `ZorbFrob`。"),  # gamma alone: no generic word fits it
    ]
    site = load(copy_project(tmp_path / "p", {"000.txt": _digest("o/pkg", entries)}))
    assert {n.number: n.subsystem_slug for n in site.notes} == {1: "alpha", 2: "alpha", 3: "beta", 4: "beta", 5: "beta"}
