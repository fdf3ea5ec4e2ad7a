"""Read the Docs and GitHub Pages configs: they use only documented keys, name
real things, hide no failure, and run current actions.

Neither service runs here, so this checks what can be checked: the files are
valid YAML; the Read the Docs config uses only the keys and values its v2
schema documents (SCHEMA below, from
https://docs.readthedocs.io/en/stable/config-file/v2.html and
build-customization.html); every path and command they use exists in the
repository; the unshallow job is run, as Read the Docs runs it, on fixture
clones; the Pages workflow uses the actions' Node 24 majors.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from prnotes.sphinxext import buildtime
from tests.support import gitrepo
from tests.support.sandbox import ROOT, convert, copy_project, sphinx_build

# Read the Docs' v2 configuration file, as documented: each key's documented
# sub-keys (None: a leaf) and, where the documentation lists them, its values.
SCHEMA = {
    "version": None,
    "formats": None,
    "python": {"install": None},
    "conda": {"environment": None},
    "build": {
        "os": None,
        "tools": {"python": None, "nodejs": None, "ruby": None, "rust": None, "golang": None},
        "apt_packages": None,
        "jobs": {
            **dict.fromkeys(
                ("post_checkout", "pre_system_dependencies", "post_system_dependencies", "pre_create_environment",
                 "create_environment", "post_create_environment", "pre_install", "install", "post_install",
                 "pre_build", "post_build")
            ),  # fmt: skip
            "build": {"html": None, "pdf": None, "epub": None, "htmlzip": None},
        },
        "commands": None,
    },
    "sphinx": {"builder": None, "configuration": None, "fail_on_warning": None},
    "mkdocs": {"configuration": None, "fail_on_warning": None},
    "submodules": {"include": None, "exclude": None, "recursive": None},
    "search": {"ranking": None, "ignore": None},
}
FORMATS = {"htmlzip", "pdf", "epub"}
BUILD_OS = {"ubuntu-22.04", "ubuntu-24.04", "ubuntu-26.04", "ubuntu-lts-latest"}
# The current major of each action the workflow uses: the first on the Node 24
# runtime for configure-pages, deploy-pages and cache, later ones for the rest
# (upload-pages-artifact is composite: v5 runs upload-artifact v7, on Node 24).
ACTIONS = {
    "actions/checkout": 7,
    "actions/setup-python": 7,
    "actions/configure-pages": 6,
    "actions/cache": 5,
    "actions/upload-pages-artifact": 5,
    "actions/deploy-pages": 5,
}


def load(path: str) -> dict:
    return yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))


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


def undocumented(conf: dict, schema: dict, where: str = "") -> list[str]:
    """The keys of ``conf`` that the schema does not document, as dotted paths."""
    out = []
    for key, value in conf.items():
        path = f"{where}{key}"
        if key not in schema:
            out.append(path)
        elif isinstance(schema[key], dict) and isinstance(value, dict):
            out += undocumented(value, schema[key], path + ".")
    return out


def commands(conf: dict) -> list[str]:
    jobs = conf["build"].get("jobs", {})
    found = [c for name, job in jobs.items() if name != "build" for c in job]
    return found + [c for job in jobs.get("build", {}).values() for c in job] + conf["build"].get("commands", [])


# -- Read the Docs ---------------------------------------------------------------


def test_readthedocs_config_uses_only_documented_keys_and_values():
    conf = load(".readthedocs.yaml")
    assert undocumented(conf, SCHEMA) == []
    assert conf["version"] == 2
    assert conf["build"]["os"] in BUILD_OS
    assert conf["build"]["tools"]["python"] == project_python()
    formats = conf.get("formats", [])
    assert formats == "all" or set(formats) <= FORMATS
    # "If any of the pdf, epub, or htmlzip steps are overridden, they should be
    # included in the formats list."
    overridden = set(conf["build"]["jobs"].get("build", {})) - {"html"}
    assert overridden <= (FORMATS if formats == "all" else set(formats))
    # build.commands replaces every job and cannot install apt packages.
    assert not ("commands" in conf["build"] and ("jobs" in conf["build"] or "apt_packages" in conf["build"]))
    assert (ROOT / conf["sphinx"]["configuration"]).is_file()


def test_readthedocs_config_has_no_dead_settings_and_hides_no_failure():
    conf = load(".readthedocs.yaml")
    # The html job is ours: Sphinx's fail_on_warning would apply to Read the Docs' own.
    assert "fail_on_warning" not in conf["sphinx"]
    # The image has TeX Live in full and the CJK fonts: nothing to install.
    assert "apt_packages" not in conf["build"]
    for command in commands(conf):
        assert isinstance(command, str), command  # a colon unquoted in YAML makes a mapping
        assert "|| true" not in command and "|| :" not in command, command
        # Each runs as `sh -c '<command>'`: a single quote would end it.
        assert "'" not in command, command


def test_readthedocs_builds_the_site_and_publishes_the_book_as_documented():
    conf = load(".readthedocs.yaml")
    assert conf["formats"] == ["pdf"]
    installs = conf["python"]["install"]
    assert [i.get("requirements") for i in installs if "requirements" in i] == ["requirements/site.txt"]
    assert {"method": "pip", "path": "."} in installs
    # The html job is `make publish`'s command: the site, and the book beside it.
    html = conf["build"]["jobs"]["build"]["html"]
    publish = shlex.split(html[0])
    assert publish[:5] == ["prnotes", "build", "--notes", "--pdf", "--"]
    recipe = make_recipe("publish")
    assert recipe[:2] == ["PRNOTES_PUBLISH=1", "prnotes"]  # Read the Docs gives the address itself
    assert publish[5:] == [*recipe[6:-1], "$READTHEDOCS_OUTPUT/html"]
    # The pdf job publishes that book where Read the Docs looks for it.
    pdf = conf["build"]["jobs"]["build"]["pdf"]
    assert shlex.split(pdf[0]) == ["prnotes", "pdf", "--whole"]
    assert pdf[-1] == 'cp _build/latex/prnotes.pdf "$READTHEDOCS_OUTPUT/pdf/"'
    latex = re.search(r'latex_documents = \[\("notes/book", "(\w+)\.tex"', (ROOT / "conf.py").read_text(encoding="utf-8"))
    assert latex.group(1) == "prnotes"


def origin(tmp_path: Path) -> Path:
    """A repository of three commits."""
    proj = tmp_path / "origin"
    proj.mkdir()
    gitrepo.git(proj, "init", "-q", "-b", "main")
    for n in range(3):
        (proj / f"{n}.txt").write_text(f"{n}\n", encoding="utf-8")
        gitrepo.git(proj, "add", f"{n}.txt")
        gitrepo.git(proj, "commit", "-q", "-m", str(n), date=f"2026-11-0{n + 1}T00:00:00+00:00")
    return proj


def post_checkout(repo: Path) -> subprocess.CompletedProcess:
    """The post_checkout job, run as Read the Docs runs each command."""
    (command,) = load(".readthedocs.yaml")["build"]["jobs"]["post_checkout"]
    return subprocess.run(["/bin/sh", "-c", command], cwd=repo, capture_output=True, text=True)


def is_shallow(repo: Path) -> bool:
    return gitrepo.git(repo, "rev-parse", "--is-shallow-repository").strip() == "true"


def test_readthedocs_unshallows_the_clone(tmp_path):
    src = origin(tmp_path)
    gitrepo.git(tmp_path, "clone", "-q", "--depth=1", src.as_uri(), "clone")
    assert is_shallow(tmp_path / "clone")
    proc = post_checkout(tmp_path / "clone")
    assert proc.returncode == 0, proc.stderr
    assert not is_shallow(tmp_path / "clone")
    # A complete clone: nothing to fetch (git fetch --unshallow would fail on it).
    assert post_checkout(tmp_path / "clone").returncode == 0


def test_readthedocs_fails_when_the_clone_cannot_be_unshallowed(tmp_path):
    src = origin(tmp_path)
    gitrepo.git(tmp_path, "clone", "-q", "--depth=1", src.as_uri(), "clone")
    gitrepo.git(tmp_path / "clone", "remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    proc = post_checkout(tmp_path / "clone")
    assert proc.returncode == 1
    assert "git fetch --unshallow failed, and the digest dates need the whole history" in proc.stderr
    assert "does not appear to be a git repository" in proc.stderr  # git's own reason, above


# -- GitHub Pages ----------------------------------------------------------------


def steps_of(flow: dict, job: str) -> list[dict]:
    return flow["jobs"][job]["steps"]


def uses(steps: list[dict], action: str) -> dict:
    return next(s for s in steps if s.get("uses", "").split("@")[0] == action)


def test_pages_workflow_uses_the_current_actions():
    flow = load(".github/workflows/pages.yml")
    used = {s["uses"] for job in flow["jobs"] for s in steps_of(flow, job) if "uses" in s}
    assert {u.split("@")[0] for u in used} == set(ACTIONS)
    for ref in used:
        action, _, version = ref.partition("@")
        assert version == f"v{ACTIONS[action]}", ref


def test_pages_workflow_builds_like_make_html_and_caches():
    flow = load(".github/workflows/pages.yml")
    steps = steps_of(flow, "build")
    assert uses(steps, "actions/checkout")["with"]["fetch-depth"] == 0  # digest dates need the whole history
    python = uses(steps, "actions/setup-python")["with"]
    assert python["python-version"] == project_python()
    assert python["cache"] == "pip" and (ROOT / python["cache-dependency-path"]).is_file()
    runs = [s for s in steps if "run" in s]
    build = next(s for s in runs if s["run"] == "make html")
    # conf.py reads the published address from PRNOTES_BASEURL; PRNOTES_PUBLISH makes its absence a warning.
    assert build["env"]["PRNOTES_BASEURL"] == "${{ steps.pages.outputs.base_url }}"
    assert build["env"]["PRNOTES_PUBLISH"] == "1"
    assert 'os.environ.get("PRNOTES_BASEURL")' in (ROOT / "conf.py").read_text(encoding="utf-8")
    assert {"html", "audit"} <= make_targets()
    assert runs.index(build) < runs.index(next(s for s in runs if s["run"] == "make audit"))
    # Every apt-get install comes after an apt-get update, in the same step.
    for step in runs:
        if "apt-get install" in step["run"]:
            assert step["run"].index("apt-get update") < step["run"].index("apt-get install"), step["run"]
    # Incremental publishing: the previous build comes back from the cache,
    # keyed by what makes the pages, and files get their commit times first.
    names = [s.get("uses", s.get("run", "")) for s in steps]
    cache = uses(steps, "actions/cache")
    assert set(cache["with"]["path"].split()) == {"_build", ".prnotes-cache"}
    key = cache["with"]["key"]
    for part in ("requirements/site.txt", "conf.py", "scripts/prnotes/**", "taxonomy.toml", "taxonomy/**"):
        assert f"'{part}'" in key, part
    assert cache["with"]["restore-keys"].strip() in key
    restore = next(s for s in runs if "git restore-mtime" in s["run"])
    assert names.index(cache["uses"]) < names.index(restore["run"]) < names.index("make html")
    assert uses(steps, "actions/upload-pages-artifact")["with"]["path"] == "_build/html"
    assert "BUILDDIR    ?= _build" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_pages_workflow_builds_pull_requests_without_deploying_them():
    flow = load(".github/workflows/pages.yml")
    triggers = flow[True]  # YAML reads the bare key `on` as True
    assert triggers["push"]["branches"] == ["main"]
    assert "pull_request" in triggers
    not_a_pr = "github.event_name != 'pull_request'"
    steps = steps_of(flow, "build")
    # The build and the audit run for a pull request; the upload and the deploy do not.
    for step in steps:
        if step.get("run") in ("make html", "make audit"):
            assert "if" not in step
    assert uses(steps, "actions/upload-pages-artifact")["if"] == not_a_pr
    assert flow["jobs"]["deploy"]["if"] == not_a_pr
    # Only the deploy job may write to Pages.
    assert flow["permissions"] == {"contents": "read"}
    assert flow["jobs"]["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert flow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


# -- the site's address ------------------------------------------------------------


@pytest.fixture
def small_project(tmp_path):
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n"})
    assert convert(proj) == 0
    return proj


def test_a_build_to_publish_without_an_address_warns(small_project, monkeypatch):
    for name in ("PRNOTES_BASEURL", "READTHEDOCS_CANONICAL_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PRNOTES_PUBLISH", "1")
    app = sphinx_build(small_project, freshenv=True)
    assert app.config.html_baseurl == buildtime.PLACEHOLDER_BASEURL
    assert "no host gave the site's address" in app.warning.getvalue()
    assert "Set PRNOTES_BASEURL" in app.warning.getvalue()


def test_a_build_to_publish_with_an_address_and_a_preview_do_not_warn(small_project, monkeypatch):
    monkeypatch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
    monkeypatch.setenv("PRNOTES_PUBLISH", "1")
    monkeypatch.setenv("PRNOTES_BASEURL", "https://notes.example.com/site")
    app = sphinx_build(small_project, freshenv=True)
    assert app.config.html_baseurl == "https://notes.example.com/site/"
    assert app.warning.getvalue() == ""
    assert 'href="https://notes.example.com/site/"' in (small_project / "_build/html/feed.xml").read_text(encoding="utf-8")
    # A preview (no PRNOTES_PUBLISH): the placeholder, and no warning.
    monkeypatch.delenv("PRNOTES_PUBLISH")
    monkeypatch.delenv("PRNOTES_BASEURL")
    app = sphinx_build(small_project, freshenv=True)
    assert app.config.html_baseurl == buildtime.PLACEHOLDER_BASEURL
    assert app.warning.getvalue() == ""


def test_a_language_other_than_chinese_is_a_warning(tmp_path):
    # Read the Docs passes -D language=<dashboard language>.
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n"})
    assert convert(proj) == 0
    app = sphinx_build(proj, freshenv=True, confoverrides={"language": "en"})
    assert "language is 'en', but the notes are Chinese" in app.warning.getvalue()
    assert "Simplified Chinese (zh_CN)" in app.warning.getvalue()
