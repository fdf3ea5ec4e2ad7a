"""Read the Docs and GitHub Pages configs: they parse and name real things.

Neither service runs here, so this checks what can be checked: the files are
valid YAML, every path and command they use exists in the repository, and
they use the project's own Python version, requirements and Debian packages.
"""

from __future__ import annotations

import re
import shlex
import sys

import yaml

from tests.support.sandbox import ROOT


def load(path: str) -> dict:
    return yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))


def bootstrap_group(name: str) -> list[str]:
    text = (ROOT / "scripts/bootstrap.sh").read_text(encoding="utf-8")
    match = re.search(rf'^APT_{name}="([^"]*)"', text, re.M)
    return match.group(1).replace("\\\n", " ").split()


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, re.M))


def make_recipe(target: str) -> list[str]:
    """The first command of a Makefile target, its variables filled in as `make` would by default."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = re.search(rf"^{target}:.*\n\t(.+)$", text, re.M).group(1)
    values = {"PRNOTES": "prnotes", "NOTES_FLAGS": "", "STRICT": "-W --keep-going -j auto", "BUILDDIR": "_build",
              "SPHINXOPTS": "", "SOURCEDIR": "."}
    return shlex.split(re.sub(r"\$\((\w+)\)", lambda m: values[m.group(1)], line))


def project_python() -> str:
    # The venv's Python is the project's: requirements/ is pinned with it.
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def test_readthedocs_config():
    conf = load(".readthedocs.yaml")
    assert conf["version"] == 2
    assert conf["build"]["tools"]["python"] == project_python()
    assert (ROOT / conf["sphinx"]["configuration"]).is_file()
    assert conf["sphinx"]["fail_on_warning"] is True
    installs = conf["python"]["install"]
    assert [i.get("requirements") for i in installs if "requirements" in i] == ["requirements/site.txt"]
    assert {"method": "pip", "path": "."} in installs
    # The PDF is ours (`prnotes pdf`, with its glyph check), not Read the Docs' own.
    assert conf["formats"] == []
    # The HTML job is `make publish`'s command: the site, and the book beside it.
    html = conf["build"]["jobs"]["build"]["html"]
    publish = shlex.split(html[0])
    assert publish[:5] == ["prnotes", "build", "--notes", "--pdf", "--"]
    assert publish[5:] == [*make_recipe("publish")[5:-1], "$READTHEDOCS_OUTPUT/html"]
    assert any("$READTHEDOCS_OUTPUT/pdf" in c for c in html[1:])
    # The PDF needs the same Debian packages the bootstrap installs (less the
    # PDF-checking tools, which only the tests use).
    assert set(conf["build"]["apt_packages"]) == set(bootstrap_group("pdf")) - {"poppler-utils"}
    assert any("--unshallow" in c for c in conf["build"]["jobs"]["post_checkout"])
    assert set(conf["build"]["jobs"]) == {"post_checkout", "build"}


def test_pages_workflow():
    flow = load(".github/workflows/pages.yml")
    steps = flow["jobs"]["build"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # digest dates need the whole history
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == project_python()
    runs = [s for s in steps if "run" in s]
    assert runs[-1]["run"] == "make html"
    # conf.py reads the published address from PRNOTES_BASEURL.
    assert "PRNOTES_BASEURL" in runs[-1]["env"]
    # Incremental publishing: the previous build comes back from the cache,
    # keyed by what makes the pages, and files get their commit times first.
    names = [s.get("uses", s.get("run", "")) for s in steps]
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache"))
    assert set(cache["with"]["path"].split()) == {"_build", ".prnotes-cache"}
    key = cache["with"]["key"]
    for part in ("requirements/site.txt", "conf.py", "scripts/prnotes/**", "taxonomy.toml"):
        assert f"'{part}'" in key, part
    assert cache["with"]["restore-keys"].strip() in key
    restore = next(s for s in runs if "git restore-mtime" in s["run"])
    assert names.index(cache["uses"]) < names.index(restore["run"]) < names.index("make html")
    assert 'os.environ.get("PRNOTES_BASEURL")' in (ROOT / "conf.py").read_text(encoding="utf-8")
    assert "html" in make_targets()
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "_build/html"
    assert "BUILDDIR    ?= _build" in (ROOT / "Makefile").read_text(encoding="utf-8")
    # YAML reads the bare key `on` as True.
    assert flow[True]["push"]["branches"] == ["main"]


def test_a_language_other_than_chinese_is_a_warning(tmp_path):
    # Read the Docs passes -D language=<dashboard language>.
    from tests.support.sandbox import convert, copy_project, sphinx_build

    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n"})
    assert convert(proj) == 0
    app = sphinx_build(proj, freshenv=True, confoverrides={"language": "en"})
    assert "language is 'en', but the notes are Chinese" in app.warning.getvalue()
    assert "Simplified Chinese (zh_CN)" in app.warning.getvalue()
