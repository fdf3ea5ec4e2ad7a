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
