# PR 精读笔记. `make html` builds the site, `make test` runs every test.
# Both set up everything first: the .venv from requirements.txt, and (for the
# tests and the PDF) the Debian packages, through scripts/bootstrap.sh.

VENV   ?= .venv
PY     := $(VENV)/bin/python
SPHINXOPTS ?= -q
SPHINX := $(PY) -m sphinx -W --keep-going -j auto $(SPHINXOPTS)
BUILD  := _build
PORT   ?= 8000

.PHONY: html notes check-notes test pdf serve bench clean apt-browser apt-pdf audit

$(VENV)/.installed: requirements.txt scripts/bootstrap.sh
	scripts/bootstrap.sh venv

# `make test` sets --strict: a warning of the conversion is an error there.
NOTES_FLAGS ?=

notes: $(VENV)/.installed
	$(PY) scripts/build_notes.py $(NOTES_FLAGS)
	@mkdir -p $(BUILD) && touch $(NOTES_STAMP)

# `make html` converts only when a seed, the taxonomy or the converter changed
# since the last conversion: a no-op `make html` is then Sphinx's check alone.
NOTES_STAMP  := $(BUILD)/.notes-converted
NOTES_INPUTS := $(wildcard seeds/*) taxonomy.toml $(shell find scripts/prnotes -name '*.py' 2>/dev/null)
$(NOTES_STAMP): $(NOTES_INPUTS) $(VENV)/.installed
	$(PY) scripts/build_notes.py $(NOTES_FLAGS)
	@mkdir -p $(BUILD) && touch $@

check-notes: $(VENV)/.installed
	$(PY) scripts/build_notes.py --check

html: $(NOTES_STAMP)
	$(SPHINX) -b html . $(BUILD)/html
	@echo "site: $(BUILD)/html/index.html"

apt-browser:
	scripts/bootstrap.sh apt browser

apt-pdf:
	scripts/bootstrap.sh apt pdf

test: $(VENV)/.installed apt-browser apt-pdf
	$(PY) -m pytest
	$(MAKE) html NOTES_FLAGS=--strict
	$(MAKE) pdf
	$(MAKE) audit

# Every seed entry must be in the built HTML (and in the PDF, when one exists).
audit: $(VENV)/.installed
	$(PY) scripts/audit.py

# The PDF book, or a part of it: make pdf [VERDICT=精读] [SUBSYSTEM=ci]
pdf: $(VENV)/.installed apt-pdf
	$(PY) scripts/build_pdf.py $(if $(VERDICT),--verdict '$(VERDICT)') $(if $(SUBSYSTEM),--subsystem '$(SUBSYSTEM)')

serve: notes
	$(PY) -m sphinx_autobuild --watch seeds --watch taxonomy.toml --watch scripts \
	  --re-ignore '(\.venv|\.git|_build|__pycache__|\.pytest_cache|\.hypothesis)/' \
	  --pre-build "$(PY) scripts/build_notes.py -q" --port $(PORT) . $(BUILD)/html

# Scale benchmark: minutes, not seconds. Writes the Scale table of BENCHMARKS.md.
bench: $(VENV)/.installed
	$(PY) scripts/bench.py --write BENCHMARKS.md

clean:
	rm -rf $(BUILD)
