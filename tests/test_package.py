"""The package looks like one: a license, its metadata, ``python -m prnotes``,
and ``VENV=`` honoured by the Makefile and the bootstrap together."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.support.sandbox import ROOT, copy_project


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_is_apache_2_and_the_metadata_says_so():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    project = pyproject()["project"]
    assert project["license"] == "Apache-2.0"  # an SPDX expression (PEP 639)
    assert project["license-files"] == ["LICENSE"]
    # PEP 639: with a license expression, no license classifier.
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]
    requires = pyproject()["build-system"]["requires"]
    assert requires == ["setuptools>=77"]  # the first setuptools that reads a license expression


def test_the_metadata_describes_the_package():
    project = pyproject()["project"]
    assert "PR" in project["description"] and len(project["description"]) > 40
    assert project["authors"] and all(a.get("name") for a in project["authors"])
    python = project["requires-python"].removeprefix(">=")
    classifiers = set(project["classifiers"])
    assert f"Programming Language :: Python :: {python}" in classifiers
    assert {"Framework :: Sphinx :: Extension", "Natural Language :: Chinese (Simplified)"} <= classifiers
    assert project["urls"] and all(url.startswith("https://") for url in project["urls"].values())
    assert project["scripts"]["prnotes"] == "prnotes.commands.cli:entry"


def test_python_m_prnotes_is_the_prnotes_command():
    by_module = subprocess.run([sys.executable, "-m", "prnotes", "--help"], capture_output=True, text=True)
    command = Path(sys.executable).with_name("prnotes")
    by_script = subprocess.run([str(command), "--help"], capture_output=True, text=True)
    assert by_module.returncode == by_script.returncode == 0, by_module.stderr
    assert by_module.stdout == by_script.stdout
    assert by_module.stdout.startswith("usage: prnotes ")
    # A subcommand runs as well: its usage error is the command's own.
    bad = subprocess.run([sys.executable, "-m", "prnotes", "no-such-command"], capture_output=True, text=True)
    assert bad.returncode == 2 and "prnotes: error: argument COMMAND: invalid choice" in bad.stderr


STUB_PYTHON = """#!/bin/sh
# A stand-in for Python: it says what it was asked to do, and makes venvs of itself.
echo "$0 $*" >> "$STUB_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python"
fi
exit 0
"""


def test_the_bootstrap_installs_into_the_venv_it_is_given(tmp_path):
    proj = copy_project(tmp_path / "p", {})
    stub = tmp_path / "python3.12"
    stub.write_text(STUB_PYTHON, encoding="utf-8")
    stub.chmod(0o755)
    venv, log = tmp_path / "elsewhere" / "venv", tmp_path / "log"
    env = dict(os.environ, PYTHON=str(stub), VENV=str(venv), STUB_LOG=str(log))
    proc = subprocess.run(["scripts/bootstrap.sh", "venv", "site"], cwd=proj, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    assert f"{stub} -m venv {venv}" in calls
    pip = f"{venv}/bin/python -m pip install --quiet --disable-pip-version-check"
    assert f"{pip} -r requirements/site.txt" in calls and f"{pip} --no-deps -e ." in calls
    assert (venv / ".installed-site").is_file()
    assert not (proj / ".venv").exists()
    # Without VENV, the project's own .venv.
    env.pop("VENV")
    assert subprocess.run(["scripts/bootstrap.sh", "venv", "site"], cwd=proj, env=env, capture_output=True).returncode == 0
    assert (proj / ".venv/.installed-site").is_file()


def test_the_makefile_sets_up_and_runs_the_same_venv(tmp_path):
    venv = tmp_path / "other-venv"  # make targets cannot hold spaces
    plan = subprocess.run(["make", "-n", "-C", str(ROOT), "html", f"VENV={venv}"], capture_output=True, text=True)
    assert plan.returncode == 0, plan.stderr
    lines = plan.stdout.splitlines()
    setup = next(line for line in lines if "bootstrap.sh venv site" in line)
    assert setup.startswith(f"VENV='{venv}' ")
    assert any(line.startswith(f"{venv}/bin/prnotes build --notes") for line in lines)
    assert ".venv" not in plan.stdout


def test_a_wheel_installed_elsewhere_starts_and_builds_a_site_of_its_own(tmp_path):
    """As a team that follows another repository would: a wheel of the
    package, in a fresh virtual environment outside the checkout (its
    dependencies from this one's, the checkout nowhere on the path), then
    init, two digests of two repositories, build with -W, and the book."""
    import json
    import sysconfig

    import feedparser

    import shutil

    # What a wheel is made of, copied: building in the checkout leaves build/ there.
    source = tmp_path / "source"
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "scripts" / "prnotes", source / "scripts" / "prnotes", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp_path / "dist"
    made = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check", "-w", str(wheels), str(source)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    wheel = next(wheels.glob("prnotes-*.whl"))
    import zipfile

    packaged = {Path(n).name for n in zipfile.ZipFile(wheel).namelist() if "/model/definitions/" in n}
    assert packaged == {p.name for p in (ROOT / "scripts/prnotes/model/definitions").glob("*.txt")}, packaged
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check", str(wheel)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    # The dependencies (Sphinx, the theme …) from this environment, by a plain
    # path entry: the .pth files there, the checkout's editable install among
    # them, are not read.
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())  # fmt: skip
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    work = tmp_path / "elsewhere"
    work.mkdir()

    def prnotes(*args: str, cwd: Path = work) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "prnotes"), *args], cwd=cwd, env=env, capture_output=True, text=True)

    where = subprocess.run([str(python), "-c", "import prnotes, json; print(json.dumps(prnotes.__file__))"],
                           cwd=work, env=env, capture_output=True, text=True, check=True)  # fmt: skip
    assert not json.loads(where.stdout).startswith(str(ROOT)), where.stdout
    version = prnotes("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"prnotes {pyproject()['project']['version']}"
    assert prnotes("init", "site").returncode == 0
    refused = prnotes("init", "site")
    assert refused.returncode == 2 and "not empty" in refused.stderr
    site_dir = work / "site"
    assert (site_dir / "conf.py").read_text(encoding="utf-8") == (ROOT / "conf.py").read_text(encoding="utf-8")
    (site_dir / "seeds" / "000_vllm.txt").write_bytes((ROOT / "tests/roots/vllm16/seeds/000_50c46ef36472ac24.txt").read_bytes())
    (site_dir / "seeds" / "001_tensorkit.txt").write_bytes((ROOT / "tests/roots/layout/seeds/000_tensorkit.txt").read_bytes())
    built = prnotes("build", cwd=site_dir)
    assert built.returncode == 0, built.stdout + built.stderr
    html = site_dir / "_build" / "html"
    notes = [p for repo in ("vllm-project/vllm", "example-org/tensorkit") for p in (html / "notes" / repo).glob("*.html")]
    assert len(notes) == 16, notes  # 8 notes in each digest
    assert (html / "searchindex.js").is_file() and any((html / "_search").iterdir())
    feed = feedparser.parse((html / "feed.xml").read_bytes())
    assert not feed.bozo and len(feed.entries) == 16
    book = prnotes("pdf", cwd=site_dir)
    assert book.returncode == 0, book.stdout + book.stderr
    assert (site_dir / "_build" / "latex" / "prnotes.pdf").stat().st_size > 10_000
