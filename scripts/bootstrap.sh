#!/usr/bin/env bash
# Install what the project needs on a fresh machine.
#
#   scripts/bootstrap.sh venv GROUP        create .venv (or $VENV, as the
#                                          Makefile's VENV= passes it) with a dependency group
#                                          (site, test, bench, serve): its pins
#                                          from requirements/GROUP.txt, then the
#                                          prnotes package itself, editable
#   scripts/bootstrap.sh apt browser|pdf   install the Debian packages for the
#                                          browser tests or the PDF book
#   scripts/bootstrap.sh latest            create .venv-latest with the newest
#                                          releases pyproject.toml allows
#                                          (make test-latest)
#   scripts/bootstrap.sh npm               install the npm packages the browser
#                                          tests inject into pages (axe-core),
#                                          pinned in package-lock.json, into
#                                          node_modules/ (Node.js from Debian
#                                          when npm is missing)
#
# Debian packages are installed only when missing. As root this runs
# `apt-get update` once and installs them; otherwise it prints the command.
set -euo pipefail
cd "$(dirname "$0")/.."
# The virtual environment: the Makefile's VENV (relative to the project), else .venv.
VENV=${VENV:-.venv}

# The page checks: Chromium, Java for the Nu HTML checker, epubcheck for the EPUB.
APT_browser="chromium fonts-noto-cjk default-jre-headless epubcheck"
APT_pdf="texlive-xetex texlive-lang-cjk texlive-lang-chinese texlive-latex-extra \
texlive-fonts-recommended fonts-noto-cjk fonts-freefont-otf poppler-utils"

find_python() {
  # Sphinx's Chinese search needs Sphinx >= 9.1, which needs Python >= 3.12;
  # requirements/ is pinned on 3.12, so 3.12 comes first ($1: the minor
  # versions to try, in order).
  local candidates=("${PYTHON:-}")
  for minor in ${1:-12 13 14}; do
    candidates+=("python3.$minor")
    for dir in "$HOME"/.pyenv/versions/3."$minor".*/bin; do candidates+=("$dir/python3"); done
  done
  candidates+=(python3)
  for py in "${candidates[@]}"; do
    [[ -n $py ]] || continue
    if "$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
      echo "$py"
      return
    fi
  done
  echo "bootstrap: no Python >= 3.12 found; install python3.12 (or set PYTHON=...)" >&2
  exit 1
}

venv() {
  local group=$1 py
  [[ -f requirements/$group.txt ]] || { echo "bootstrap: unknown dependency group '$group'" >&2; exit 2; }
  py=$(find_python)
  if [[ ! -x $VENV/bin/python ]]; then
    "$py" -m venv "$VENV"
  fi
  local pip=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
  "${pip[@]}" -r "requirements/$group.txt"
  # The package itself, editable: `prnotes` and `import prnotes` use this checkout.
  "${pip[@]}" --no-deps -e .
  # Its bytecode, as pip writes it for a package it installs: Python reads it
  # even where PYTHONDONTWRITEBYTECODE keeps it from writing any, and each
  # `prnotes` run would otherwise compile the modules again (about 0.1 s of
  # a day's build). A module edited afterwards is compiled in memory, as
  # without it.
  "$VENV/bin/python" -m compileall -q scripts/prnotes >/dev/null
  # Every group's lock holds the site group's pins too.
  touch "$VENV/.installed-$group" "$VENV/.installed-site"
}

# Install Debian packages as root (apt-get update once per machine); say how
# otherwise. $1 says what they are for.
apt_install() {
  local what=$1; shift
  if [[ $(id -u) -ne 0 ]]; then
    echo "bootstrap: missing Debian packages for $what. Install them with:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends $*" >&2
    exit 1
  fi
  echo "bootstrap: installing $*" >&2
  if [[ ! -f /tmp/.prnotes-apt-updated ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    touch /tmp/.prnotes-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

apt() {
  local group=$1 var="APT_$1" missing=()
  [[ -n ${!var:-} ]] || { echo "bootstrap: unknown package group '$group'" >&2; exit 2; }
  for pkg in ${!var}; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  ((${#missing[@]})) || return 0
  apt_install "'$group'" "${missing[@]}"
}

# The newest releases pyproject.toml's ranges allow, with the test group, in
# .venv-latest (make test-latest): what a plain `pip install .` gets today.
latest() {
  local py
  # The newest Python first: newer releases of Sphinx need newer Pythons.
  py=$(PYTHON="" find_python "14 13 12")
  [[ -x .venv-latest/bin/python ]] || "$py" -m venv .venv-latest
  .venv-latest/bin/python -m pip install --quiet --disable-pip-version-check --upgrade --upgrade-strategy eager -e ".[test]"
  .venv-latest/bin/python -m pip list --format=freeze --disable-pip-version-check | grep -iE '^(sphinx|myst-parser|sphinx-design|pydata-sphinx-theme|docutils)==' >&2
}

npm_packages() {
  command -v npm >/dev/null 2>&1 || apt_install "npm" nodejs npm
  # The exact versions and hashes of package-lock.json; no install scripts run.
  npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
  touch node_modules/.installed
}

case "${1:-}" in
  venv) venv "${2:?group: site, test, bench or serve}" ;;
  apt) apt "${2:?group: browser or pdf}" ;;
  latest) latest ;;
  npm) npm_packages ;;
  *) echo "usage: $0 venv site|test|bench|serve | apt browser|pdf | latest | npm" >&2; exit 2 ;;
esac
