# PR 精读笔记. `make html` builds the site, `make test` runs every test.
# Both set up everything first: the .venv from requirements.txt, and (for the
# tests and the PDF) the Debian packages, through scripts/bootstrap.sh.

VENV   := .venv
PY     := $(VENV)/bin/python
SPHINX := $(PY) -m sphinx -W --keep-going -j auto
BUILD  := _build
PORT   ?= 8000

.PHONY: html notes check-notes test pdf serve bench clean apt-browser apt-pdf

$(VENV)/.installed: requirements.txt scripts/bootstrap.sh
	scripts/bootstrap.sh venv

notes: $(VENV)/.installed
	$(PY) scripts/build_notes.py

check-notes: $(VENV)/.installed
	$(PY) scripts/build_notes.py --check

html: notes
	$(SPHINX) -q -b html . $(BUILD)/html
	@echo "site: $(BUILD)/html/index.html"

apt-browser:
	scripts/bootstrap.sh apt browser

apt-pdf:
	scripts/bootstrap.sh apt pdf

test: $(VENV)/.installed apt-browser apt-pdf
	$(PY) -m pytest

serve: notes
	$(PY) -m sphinx_autobuild --watch seeds --watch taxonomy.toml --watch scripts \
	  --re-ignore '(\.venv|\.git|_build|__pycache__|\.pytest_cache|\.hypothesis)/' \
	  --pre-build "$(PY) scripts/build_notes.py -q" --port $(PORT) . $(BUILD)/html

# Scale benchmark: minutes, not seconds. Writes the Scale table of BENCHMARKS.md.
bench: $(VENV)/.installed
	$(PY) scripts/bench.py --write BENCHMARKS.md

clean:
	rm -rf $(BUILD)
