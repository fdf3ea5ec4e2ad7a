"""Every folder of the four repositories' trees is claimed by their sets (issue 41).

``tests/layouts/<owner>__<repo>.txt`` lists a repository's source folders two
levels deep (and the modules at the top of its source root), as one release
of it has them; its header names the release and the commit
(docs/classification.md, "The repository's layout"). Each entry must be
claimed by the set's ``[paths]`` the way a cited path is
(:meth:`prnotes.model.filing.Layout.claim`):

- by a key deeper than the source root: a catch-all for the whole root
  (``python/sglang/``) does not count, so a new folder has to be placed
  (it does for the modules at the top of the root);
- by a subsystem other than the fallback, unless the fallback is the
  entry's own key (a folder that mixes areas, filed by its notes' words),
  or, for a module, its folder's key.
"""

from __future__ import annotations

import pytest

from prnotes.model.filing import DEFINITIONS, Layout, definitions
from prnotes.model.taxonomy import load_taxonomy
from tests.support.sandbox import ROOT

LAYOUTS = ROOT / "tests" / "layouts"
REPOS = ("vllm-project/vllm", "sgl-project/sglang", "pytorch/pytorch", "huggingface/transformers")


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy(ROOT)


def read_layout(repo: str) -> tuple[dict[str, str], list[str]]:
    """The header fields (``repo``, ``release``, ``commit``, ``source-root``) and the entries."""
    path = LAYOUTS / (repo.replace("/", "__") + ".txt")
    header, entries = {}, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and key.strip() in ("repo", "release", "commit", "source-root"):
                header[key.strip()] = value.strip()
        elif line.strip():
            entries.append(line.strip())
    return header, entries


def unplaced(entries: list[str], paths: tuple[tuple[str, str], ...], fallback: str, source_root: str) -> list[str]:
    """The entries the layout does not place (see the module docstring)."""
    layout = Layout.of(paths)
    keys = {key.lower() for key, _ in paths}
    root_depth = source_root.rstrip("/").count("/") + 1
    out = []
    for entry in entries:
        lower = entry.lower()
        own = lower if lower.endswith("/") else lower.rpartition("/")[0] + "/"
        hit = layout.claim(lower)
        if hit is None or (own.startswith(source_root.lower()) and own != source_root.lower() and hit[1] <= root_depth):
            out.append(entry)
        elif hit[0] == fallback and lower not in keys and own not in keys:
            out.append(entry)
    return out


@pytest.mark.parametrize("repo", REPOS)
def test_the_layout_list_names_its_release_and_is_a_real_tree(repo):
    header, entries = read_layout(repo)
    assert header.get("repo") == repo
    assert header.get("release") and header.get("commit") and header.get("source-root")
    assert len(entries) > 150, repo
    assert len(set(entries)) == len(entries) == len(set(e.lower() for e in entries))
    assert entries == sorted(entries)
    # Two levels under a root at most, folders end in "/", modules are .py files.
    assert all(e.endswith("/") or e.endswith(".py") for e in entries)
    assert any(e.startswith(header["source-root"]) for e in entries)


@pytest.mark.parametrize("repo", REPOS)
def test_every_folder_of_the_tree_is_claimed_by_a_subsystem(taxonomy, repo):
    header, entries = read_layout(repo)
    chosen = taxonomy.set_for(repo)
    assert chosen.repo == repo
    missing = unplaced(entries, chosen.paths, taxonomy.fallback, header["source-root"])
    assert not missing, f"{repo}: claim these in taxonomy/{repo.replace('/', '__')}.toml [paths]: {missing}"


@pytest.mark.parametrize(
    ("repo", "key"),
    [
        ("vllm-project/vllm", "vllm/entrypoints/"),
        ("sgl-project/sglang", "python/sglang/srt/managers/"),
        ("pytorch/pytorch", "torch/_inductor/"),
        ("huggingface/transformers", "src/transformers/generation/"),
    ],
)
def test_a_folder_left_unclaimed_is_found(taxonomy, repo, key):
    header, entries = read_layout(repo)
    paths = taxonomy.set_for(repo).paths
    assert any(k == key for k, _ in paths)
    fewer = tuple((k, v) for k, v in paths if not k.startswith(key))
    missing = unplaced(entries, fewer, taxonomy.fallback, header["source-root"])
    assert key in missing
    # A catch-all for the whole source root does not hide it.
    wider = (*fewer, (header["source-root"], taxonomy.set_for(repo).subsystems[0].slug))
    assert key in unplaced(entries, wider, taxonomy.fallback, header["source-root"])


# --- where each repository defines its names (model/definitions/) -----------

DEFINED = ("vllm-project/vllm", "sgl-project/sglang", "pytorch/pytorch", "huggingface/transformers")


def read_definitions(repo: str) -> tuple[dict[str, str], list[tuple[str, list[str]]]]:
    """The header fields and the ``(module, names)`` lines of a definitions list."""
    path = DEFINITIONS / (repo.replace("/", "__") + ".txt")
    header, lines = {}, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep:
                header[key.strip()] = value.strip()
        elif line:
            module, *names = line.split(" ")
            lines.append((module, names))
    return header, lines


@pytest.mark.parametrize("repo", DEFINED)
def test_the_definitions_list_names_its_release_and_places_every_module(taxonomy, repo):
    header, lines = read_definitions(repo)
    assert header.get("repo") == repo and header.get("release") and header.get("commit")
    names = [n for _, ns in lines for n in ns]
    assert len(names) > 5000, repo
    assert len(set(names)) == len(names), "a name is defined by one module only"
    assert [m for m, _ in lines] == sorted({m for m, _ in lines})
    layout = Layout.of(taxonomy.set_for(repo).paths)
    unclaimed = [m for m, _ in lines if not m.endswith(".py") or layout.claim(m.lower()) is None]
    assert not unclaimed, unclaimed[:10]
    # What filing reads is this list.
    assert definitions(repo) == {n: m.lower() for m, ns in lines for n in ns}


def test_a_definitions_list_leaves_out_shared_names_folders_and_variables(tmp_path):
    import tarfile

    from tests.layouts.definitions import definitions as write_definitions

    sources = {
        "pkg/a/engine.py": "class EngineCore: ...\ndef fused_moe(): ...\ndef shared_name(): ...\n",
        "pkg/b/other.py": "def shared_name(): ...\ndef run(tp_size_x=1): ...\ndef start_engine(): ...\n",
        "pkg/fused_moe/__init__.py": "",
        "pkg/c/use.py": "def tp_size_x(): ...\nclass Aliased: ...\n",
        "pkg/d/alias.py": "Aliased = int\n",
    }
    archive = tmp_path / "pkg-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in sources.items():
            (tmp_path / "f").write_text(text, encoding="utf-8")
            tar.add(tmp_path / "f", arcname=f"pkg-1.0/{name}")
    expected = {"python/pkg/a/engine.py": ["EngineCore"], "python/pkg/b/other.py": ["start_engine"]}
    assert write_definitions(str(archive), "pkg/", "python/") == expected
    # A wheel holds the same files at its root (PyTorch publishes no sdist).
    import zipfile

    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, text in sources.items():
            zf.writestr(name, text)
    assert write_definitions(str(wheel), "pkg/", "python/") == expected
