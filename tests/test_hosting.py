"""Read the Docs and GitHub Pages configs: they use only documented keys, name
real things, hide no failure, and run current actions.

Neither service runs here, so this checks what can be checked: the files are
valid YAML; the Read the Docs config uses only the keys and values its v2
schema documents (SCHEMA below, from
https://docs.readthedocs.io/en/stable/config-file/v2.html and
build-customization.html); every path and command they use exists in the
repository; the unshallow job is run, as Read the Docs runs it, on fixture
clones; the Pages workflow uses the actions' Node 24 majors, each pinned to
the commit of a release, builds the book and deploys it with the site, and
keeps no credentials (what zizmor checks).
"""

from __future__ import annotations

import re
import shlex
import subprocess
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from tests.support import gitrepo
from tests.support.sandbox import ROOT, convert, copy_project, sphinx_build

ATOM = "{http://www.w3.org/2005/Atom}"
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
    "actions/upload-artifact": 7,
    "actions/download-artifact": 8,
}
# The release each action is pinned to and the commit its tag points at, read
# from the action's repository (git ls-remote --tags, the peeled tag): a pin is
# a commit, and the comment beside it names the release it is.
PINS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "actions/configure-pages": ("45bfe0192ca1faeb007ade9deae92b16b8254a0d", "v6.0.0"),
    "actions/cache": ("27d5ce7f107fe9357f9df03efb73ab90386fccae", "v5.0.5"),
    "actions/upload-pages-artifact": ("fc324d3547104276b827a68afc52ff2a11cc49c9", "v5.0.0"),
    "actions/deploy-pages": ("cd2ce8fcbc39b97be8ca5fce6e763baed58fa128", "v5.0.0"),
    "actions/upload-artifact": ("bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", "v7.0.0"),
    "actions/download-artifact": ("3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", "v8.0.1"),
}
# `uses: owner/repo@<commit> # vX.Y.Z`, as zizmor's unpinned-uses audit asks and Dependabot keeps.
PINNED = re.compile(r"^\s*(?:- )?uses: ([\w.-]+/[\w.-]+)(?:/[\w.-]+)*@([0-9a-f]{40}) # (v(\d+)\.\d+\.\d+)$")
WORKFLOWS = sorted((ROOT / ".github/workflows").glob("*.y*ml"))


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
    """The Python requirements/ is pinned with (pip-compile's header says), which the hosts use."""
    header = (ROOT / "requirements/site.txt").read_text(encoding="utf-8")
    return re.search(r"autogenerated by pip-compile with Python (\d+\.\d+)", header).group(1)


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
    latex = re.search(r'latex_documents = \[\("notes/book", "(\w+)\.tex"', (ROOT / "scripts/prnotes/sphinxext/defaults.py").read_text(encoding="utf-8"))
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
    assert {u.split("@")[0] for u in used} == set(ACTIONS) - {"actions/upload-artifact", "actions/download-artifact"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_action_is_pinned_to_the_commit_of_a_current_release(workflow):
    """zizmor's unpinned-uses: a tag can be moved to other code, a commit cannot. Each `uses:` line
    is `owner/repo@<40 hex> # vX.Y.Z`, the commit that release's tag points at, of the current major."""
    lines = [line for line in workflow.read_text(encoding="utf-8").splitlines() if re.match(r"^\s*(?:- )?uses:", line)]
    assert lines
    for line in lines:
        pinned = PINNED.match(line)
        assert pinned, f"not pinned to a commit with its release beside it: {line.strip()}"
        action, commit, release, major = pinned.groups()
        assert int(major) == ACTIONS[action], line.strip()
        assert (commit, release) == PINS[action], line.strip()


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_no_checkout_keeps_its_credentials_and_no_job_holds_more_than_it_asks(workflow):
    """zizmor's artipacked and excessive-permissions: the token is not left in .git/config
    (nothing pushes), and the workflow grants nothing by default, each job its own."""
    flow = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    assert flow["permissions"] == {}
    for name, job in flow["jobs"].items():
        assert "permissions" in job, name
        for step in job["steps"]:
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False, name


def test_pages_workflow_builds_like_make_publish_and_caches():
    flow = load(".github/workflows/pages.yml")
    steps = steps_of(flow, "build")
    assert uses(steps, "actions/checkout")["with"]["fetch-depth"] == 0  # digest dates need the whole history
    python = uses(steps, "actions/setup-python")["with"]
    assert python["python-version"] == project_python()
    assert python["cache"] == "pip" and (ROOT / python["cache-dependency-path"]).is_file()
    runs = [s for s in steps if "run" in s]
    build = next(s for s in runs if s["run"] == "make publish")
    # conf.py reads the published address from PRNOTES_BASEURL; make publish sets PRNOTES_PUBLISH,
    # which makes its absence a warning, and builds the whole book beside the site.
    assert build["env"]["PRNOTES_BASEURL"] == "${{ steps.pages.outputs.base_url }}"
    recipe = make_recipe("publish")
    assert recipe[:5] == ["PRNOTES_PUBLISH=1", "prnotes", "build", "--notes", "--pdf"]
    assert 'os.environ.get("PRNOTES_BASEURL")' in (ROOT / "scripts/prnotes/sphinxext/site/address.py").read_text(encoding="utf-8")
    assert {"publish", "audit"} <= make_targets()
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
    assert names.index(cache["uses"]) < names.index(restore["run"]) < names.index("make publish")
    assert uses(steps, "actions/upload-pages-artifact")["with"]["path"] == "_build/html"
    assert "BUILDDIR    ?= _build" in (ROOT / "Makefile").read_text(encoding="utf-8")


def test_pages_workflow_builds_the_book_and_deploys_it_with_the_site():
    """The runner has no TeX: the bootstrap's pdf group is installed as root (the Makefile's
    apt-pdf then finds it there) before make publish typesets the book; the book is copied into
    the site (book/pdflinks.py), and the upload waits for a check that the site holds it and the
    landing page links it."""
    from prnotes.sphinxext.book import pdflinks

    flow = load(".github/workflows/pages.yml")
    steps = steps_of(flow, "build")
    runs = [s["run"] for s in steps if "run" in s]
    assert "sudo scripts/bootstrap.sh apt pdf" in runs
    assert runs.index("sudo scripts/bootstrap.sh apt pdf") < runs.index("make publish")
    assert re.search(r"^publish: .*\bapt-pdf\b", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert "APT_pdf=" in (ROOT / "scripts/bootstrap.sh").read_text(encoding="utf-8")
    book = f"{pdflinks.OUTPUT_DIR}/prnotes.pdf"
    check = next(s for s in runs if book in s)
    assert check == f"test -s _build/html/{book} && grep -q 'href=\"{book}\"' _build/html/index.html"
    names = [s.get("uses", s.get("run", "")).split("@")[0] for s in steps]
    assert names.index("make publish") < names.index(check) < names.index("actions/upload-pages-artifact")
    assert "if" not in next(s for s in steps if s.get("run") == check)  # pull requests check the book too


def test_pages_workflow_builds_pull_requests_without_deploying_them():
    flow = load(".github/workflows/pages.yml")
    triggers = flow[True]  # YAML reads the bare key `on` as True
    assert triggers["push"]["branches"] == ["main"]
    assert "pull_request" in triggers
    not_a_pr = "github.event_name != 'pull_request'"
    steps = steps_of(flow, "build")
    # The build and the audit run for a pull request; the upload and the deploy do not.
    for step in steps:
        if step.get("run") in ("make publish", "make audit"):
            assert "if" not in step
    assert uses(steps, "actions/upload-pages-artifact")["if"] == not_a_pr
    assert flow["jobs"]["deploy"]["if"] == not_a_pr
    # Only the deploy job may write to Pages.
    assert flow["permissions"] == {}
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
    assert app.config.html_baseurl == ""
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
    # A preview (no PRNOTES_PUBLISH): no address, and no warning.
    monkeypatch.delenv("PRNOTES_PUBLISH")
    monkeypatch.delenv("PRNOTES_BASEURL")
    app = sphinx_build(small_project, freshenv=True)
    assert app.config.html_baseurl == ""
    assert app.warning.getvalue() == ""
    assert "notes.example.com" not in (small_project / "_build/html/feed.xml").read_text(encoding="utf-8")


# The old placeholder address, which a build without an address wrote into every page.
PLACEHOLDER = b"prnotes.example.org"
# The hosts a page may name without knowing the site's address: GitHub (pull requests, sources,
# repositories), and the namespaces and generator of the feeds.
KNOWN_HOSTS = {"github.com", "www.w3.org", "lkiesow.github.io"}
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def absolute_hosts(out: Path) -> dict[str, set[str]]:
    """Host -> the files of the site (not the theme's static files) whose markup names it in a URL."""
    found: dict[str, set[str]] = {}
    for path in out.rglob("*"):
        rel = path.relative_to(out).as_posix()
        if path.suffix in (".html", ".xml", ".txt") and not rel.startswith(("_static/", "_sources/")):
            for host in re.findall(r"https?://([^/\"'\s<>)]+)", path.read_text(encoding="utf-8")):
                found.setdefault(host, set()).add(rel)
    return found


@pytest.fixture
def dated_project(tmp_path):
    """The follow fixture: four digests of two repositories, committed on three days."""
    from tests.support.followsite import follow_project

    return follow_project(tmp_path / "p")


def test_a_build_without_an_address_names_no_host_it_cannot_know(dated_project, monkeypatch):
    """A preview: relative links only, no placeholder host anywhere in the output, and none of what
    needs the address (sitemap, robots.txt, canonical and Open Graph URLs); the feeds link relatively
    and the 404 page links from the site's root."""
    from tests.support.followsite import build

    for name in ("PRNOTES_BASEURL", "READTHEDOCS_CANONICAL_URL", "PRNOTES_PUBLISH"):
        monkeypatch.delenv(name, raising=False)
    # A build with an address first: what it wrote that names its host must go.
    monkeypatch.setenv("PRNOTES_BASEURL", "https://notes.example.com/site/")
    build(dated_project)
    out = dated_project / "_build/html"
    assert (out / "sitemap.xml").is_file() and (out / "robots.txt").is_file()
    monkeypatch.delenv("PRNOTES_BASEURL")
    app = build(dated_project)
    assert app.config.html_baseurl == ""
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) > 50
    assert [p for p in files if PLACEHOLDER in p.read_bytes()] == []
    assert set(absolute_hosts(out)) <= KNOWN_HOSTS, absolute_hosts(out)
    assert not (out / "sitemap.xml").exists() and not (out / "robots.txt").exists()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        # (A redirect file of an old address names its new page relatively.)
        assert re.search(r'rel="canonical" href="\w+://', text) is None and 'property="og:url"' not in text, page
    for feed in [out / "feed.xml", *(out / "feeds").rglob("*.xml")]:
        hrefs = [link.get("href") for link in ET.parse(feed).getroot().iter(f"{ATOM}link")]
        assert hrefs and all("://" not in h for h in hrefs), (feed, hrefs)
    # Every link of the feed resolves to a file of the site.
    for feed in [out / "feed.xml", out / "feeds/subsystem/kv-cache.xml"]:
        for link in ET.parse(feed).getroot().iter(f"{ATOM}link"):
            assert (feed.parent / link.get("href")).resolve().exists(), (feed, link.get("href"))
    notfound = (out / "404.html").read_text(encoding="utf-8")
    assert 'href="index.html"' in notfound and 'href="notes/pr-index.html"' in notfound
    assert re.search(r'(?:href|src)="/(?!/)', notfound) is None  # no absolute path on a guessed root


def test_a_build_with_an_address_has_robots_txt_and_a_lastmod_on_every_url(dated_project, monkeypatch):
    """robots.txt names the sitemap; the sitemap lists every page but the book's root once, each with
    the date it last changed: a note its digest's commit, a list page the newest note it lists, any
    other page the newest note; two builds write the same bytes."""
    from prnotes import contract
    from prnotes.project import load
    from tests.support.followsite import DATES, build

    monkeypatch.setenv("PRNOTES_BASEURL", "https://notes.example.com/site")
    app = build(dated_project)
    out = dated_project / "_build/html"
    base = "https://notes.example.com/site/"
    assert (out / "robots.txt").read_text(encoding="utf-8") == f"User-agent: *\nDisallow:\n\nSitemap: {base}sitemap.xml\n"
    sitemap = (out / "sitemap.xml").read_bytes()
    urls = ET.fromstring(sitemap).findall(f"{SITEMAP_NS}url")
    lastmod = {u.findtext(f"{SITEMAP_NS}loc").removeprefix(base).removesuffix(".html"): u.findtext(f"{SITEMAP_NS}lastmod") for u in urls}
    assert list(lastmod) == sorted(d for d in app.env.all_docs if d != contract.BOOK_ROOT)
    assert all(lastmod.values()), [d for d, w in lastmod.items() if not w]
    model = load(dated_project)
    date_of = {digest.docname: DATES[digest.number - 1] for digest in model.digests}
    note_date = {d: date_of[digest.docname] for digest in model.digests for d in digest.notes}
    for docname, when in note_date.items():
        assert lastmod[docname] == when, docname
    for docname, when in date_of.items():
        assert lastmod[docname] == when, docname  # a digest page: its notes' date
    newest = max(DATES, key=datetime.fromisoformat)
    assert lastmod["index"] == lastmod[contract.SYMBOLS] == newest
    # A subsystem page: the newest of its notes.
    kv = [n.docname for n in model.notes if n.subsystem == "kv-cache"]
    assert lastmod[contract.subsystem_docname("kv-cache")] == max((note_date[d] for d in kv), key=datetime.fromisoformat)
    assert len(set(lastmod.values())) > 2
    app = sphinx_build(dated_project, freshenv=True)
    assert (out / "sitemap.xml").read_bytes() == sitemap


def test_a_language_other_than_chinese_is_a_warning(tmp_path):
    # Read the Docs passes -D language=<dashboard language>.
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n"})
    assert convert(proj) == 0
    app = sphinx_build(proj, freshenv=True, confoverrides={"language": "en"})
    assert "language is 'en', but the notes are Chinese" in app.warning.getvalue()
    assert "Simplified Chinese (zh_CN)" in app.warning.getvalue()


def test_the_volumes_workflow_builds_a_job_per_volume_and_joins_them_to_the_hub():
    """docs/volumes.md: the matrix is what ``prnotes volumes --matrix`` prints; each job
    builds its volume alone and hands on its folder with its record; the hub's job
    takes them all, builds the hub (a damaged folder is found by its hashes and built
    there) and deploys it; only the hub's job saves the volumes to the cache."""
    flow = load(".github/workflows/volumes.yml")
    jobs = flow["jobs"]
    assert "--matrix" in next(s["run"] for s in jobs["plan"]["steps"] if s.get("id") == "plan")
    assert jobs["volume"]["strategy"]["matrix"]["volume"] == "${{ fromJSON(needs.plan.outputs.volumes) }}"
    build = next(s for s in jobs["volume"]["steps"] if "run" in s and "volumes --build" in s["run"])
    assert shlex.split(build["run"])[1:] == ["volumes", "--build", "--only", "$VOLUME"] and build["env"]["VOLUME"] == "${{ matrix.volume }}"
    upload = next(s for s in jobs["volume"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "${{ matrix.volume }}"
    assert all(f"_build/volumes/${{{{ matrix.volume }}}}/{name}" in upload["with"]["path"] for name in ("html", "facts.pickle", "record.json"))
    hub = jobs["hub"]["steps"]
    download = next(s for s in hub if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["path"] == "_build/volumes"
    assert any(shlex.split(s.get("run", ""))[1:] == ["volumes", "--build", "--hub"] for s in hub)
    assert next(s for s in hub if "upload-pages-artifact" in s.get("uses", ""))["with"]["path"] == "_build/html"
    caches = {job: [s["uses"].split("@")[0] for s in jobs[job]["steps"] if s.get("uses", "").startswith("actions/cache")] for job in jobs}
    assert caches == {"plan": ["actions/cache/restore"], "volume": ["actions/cache/restore"], "hub": ["actions/cache"], "deploy": []}
    assert jobs["deploy"]["needs"] == "hub"
