# Guildhall: `make run` serves the demo league, `make test` runs the whole suite on PostgreSQL,
# `make test-fast` the domain and service tests (measured 2026-12-02, test databases cloned
# from the migrated template: 1,899 tests in two processes: 86 s of CPU, 56 s on a quiet 2-core machine).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 8000
CHROMIUM := /usr/bin/chromium

# Python writes its compiled modules (__pycache__/, git-ignored) as it imports them. The machine's
# environment sets PYTHONDONTWRITEBYTECODE, and uv installs without compiling, so every process the
# suite starts compiled about 1,200 modules from source again: `manage.py check` took 2.4 s of CPU
# against 1.3 s with them written (measured 2026-12-03), and `make test` starts some hundred such
# processes (servers, manage.py commands, workers). Compiling at install instead (uv's
# --compile-bytecode) cost 9 s per install for modules most runs never import.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast lint format install assets bench-tools browser audit audit-test clean messages catalogues

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes. uv installs the requirements: the same
# packages pip would, in 4 s where pip took 48-65 s on a 2-core machine (measured on a fresh
# venv, 2026-11-28), which every fresh clone pays twice in `make test` (its own install and
# the `make run` test's). uv itself comes from PyPI through the venv's pip, pinned here.
UV_VERSION := 0.13.9
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet uv==$(UV_VERSION)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

# Development server on an embedded PostgreSQL (data in .pgdata/) unless DATABASE_URL is set:
# migrates, loads the demo once, starts the job worker, serves on 127.0.0.1:$(PORT); Ctrl-C
# stops it all. See config/devserver.py.
run: install assets catalogues
	exec env DEBUG=1 $(PY) -m config.devserver --port $(PORT)

# The TO's phone pairs a round without the server (issue 34): Pyodide from the npm registry
# (pinned in package.json and package-lock.json; `npm ci` again only when the lock changes)
# and the pure tournament code (tournaments/domain, zipped again when a file of it changes)
# go into a static folder git ignores. Only the files the phone loads are copied: not
# node_modules, its Node-only files or source maps.
PYODIDE_STATIC := tournaments/static/tournaments/pyodide
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json
NPM_STAMP := node_modules/.package-lock.json
DOMAIN_SOURCES := tournaments/__init__.py $(wildcard tournaments/domain/*.py)

$(NPM_STAMP): package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(NPM_STAMP)

$(PYODIDE_STATIC)/.copied: $(NPM_STAMP)
	mkdir -p $(PYODIDE_STATIC)
	cp $(addprefix node_modules/pyodide/,$(PYODIDE_FILES)) $(PYODIDE_STATIC)/
	touch $@

$(PYODIDE_STATIC)/domain.zip: $(DOMAIN_SOURCES) | $(PYODIDE_STATIC)/.copied
	$(PYTHON) -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED); [z.write(f) for f in sys.argv[2:]]; z.close()' $@ $(DOMAIN_SOURCES)

# axe-core, the accessibility checker the browser tests run inside each page, from the same
# install, served as a static file (core/static/vendor/, git-ignored; never a CDN).
AXE := core/static/vendor/axe.min.js
$(AXE): $(NPM_STAMP)
	mkdir -p $(@D)
	cp node_modules/axe-core/axe.min.js $@

# The mana symbols (mana-font: CSS MIT, font OFL-1.1) and the set symbols (keyrune: CSS GPL-3.0,
# font OFL-1.1) beside the commanders and cards, from the same install into the same git-ignored
# folder: each one's minified CSS and the font files that CSS names (collectstatic's manifest
# refuses a CSS whose url() names a missing file), not their sources, docs or SVG icons.
MANA_FILES := css/mana.min.css css/mana.min.css.map $(foreach f,mana mplantin,$(addprefix fonts/$(f).,eot woff ttf svg))
KEYRUNE_FILES := css/keyrune.min.css $(addprefix fonts/keyrune.,eot woff2 woff ttf svg)
SYMBOLS := core/static/vendor/.symbols-copied
$(SYMBOLS): $(NPM_STAMP)
	mkdir -p core/static/vendor/mana/css core/static/vendor/mana/fonts \
	  core/static/vendor/keyrune/css core/static/vendor/keyrune/fonts
	for f in $(MANA_FILES); do cp node_modules/mana-font/$$f core/static/vendor/mana/$$f || exit 1; done
	for f in $(KEYRUNE_FILES); do cp node_modules/keyrune/$$f core/static/vendor/keyrune/$$f || exit 1; done
	touch $@

# The translations (issue 45, docs/translation.md): each language's catalogues, locale/<lang>/
# LC_MESSAGES/django.po (Python and templates) and djangojs.po (the scripts), compiled into the
# .mo files Django reads (git-ignored), again only when a .po changes. msgfmt is GNU gettext's,
# from Debian; --check refuses a translation whose placeholders differ from its English.
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)
MSGFMT := /usr/bin/msgfmt

$(MSGFMT):
	@test -x $@ || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

%.mo: %.po | $(MSGFMT)
	$(MSGFMT) --check -o $@ $<

catalogues: $(MO_FILES)

# The strings marked in the code, extracted again into every language's catalogues (a new
# string arrives untranslated; a changed one is kept as a fuzzy draft to check): Python,
# Django and Jinja2 templates, text mails, then the scripts. A correction to a translation is
# a change to its .po file.
MESSAGE_LANGUAGES := de fr es it pt_BR ja pl
MESSAGE_IGNORE := --ignore='.venv/*' --ignore='node_modules/*' --ignore='bench/*' --ignore='tests/*' \
  --ignore='staticfiles/*' --ignore='*/static/*/pyodide/*' --ignore='core/static/vendor/*' --ignore='docs/*'
messages: install | $(MSGFMT)
	DEBUG=1 $(PY) manage.py makemessages $(addprefix -l ,$(MESSAGE_LANGUAGES)) $(MESSAGE_IGNORE) \
	  --extension html,txt,jinja,py --no-obsolete --add-location file
	DEBUG=1 $(PY) manage.py makemessages -d djangojs $(addprefix -l ,$(MESSAGE_LANGUAGES)) \
	  $(MESSAGE_IGNORE) --extension js --no-obsolete --add-location file

# Front-end files from the npm registry (package.json, package-lock.json): Pyodide and the
# pairing code for the TO's phone, axe-core for the tests, the mana and set symbols.
assets: $(PYODIDE_STATIC)/.copied $(PYODIDE_STATIC)/domain.zip $(AXE) $(SYMBOLS)

# What only the benches run, from the npm registry too: Lighthouse (bench/npm/package.json and
# its lock; about 180 MB and 200 packages in bench/npm/node_modules/). `make test` installs it
# for the Lighthouse bench's quick run; `make run` does not wait for it.
BENCH_NPM_STAMP := bench/npm/node_modules/.package-lock.json

$(BENCH_NPM_STAMP): bench/npm/package.json bench/npm/package-lock.json
	npm ci --prefix bench/npm --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $(BENCH_NPM_STAMP)

bench-tools: $(BENCH_NPM_STAMP)

# Browser tests drive Debian's chromium (Playwright cannot download its own browser here),
# with the Noto CJK fonts: the crawl lays out Japanese pages, which a phone draws in its own
# CJK font; without one Chromium draws empty boxes of another width.
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core fonts-noto-cjk >/dev/null; }
	@test -x $(CHROMIUM) || { echo "chromium is missing: apt-get install chromium" >&2; exit 1; }
	@fc-list | grep -q "Noto Sans CJK" || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null; }

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Known vulnerabilities in every package installed in .venv: requirements.txt and everything it
# pulled in, at the versions installed (pip-audit asks PyPI's advisory data about each release;
# reading the venv takes seconds where resolving requirements.txt again in a throwaway venv took
# about 45 s). --strict: a package that could not be checked fails the audit; without it
# pip-audit says "No known vulnerabilities found" even when the service answered for none.
AUDIT := $(VENV)/bin/pip-audit --progress-spinner off --desc on --strict
AUDIT_ARGS ?=

audit: install
	$(AUDIT) $(AUDIT_ARGS)

# As run by `make test`: a known vulnerability fails it; an advisory service that cannot be
# reached is reported as "NOT AUDITED" and the tests go on, unless AUDIT_REQUIRED=1.
audit-test: install
	@out=$$($(AUDIT) $(AUDIT_ARGS) 2>&1); status=$$?; echo "$$out"; \
	if [ $$status -eq 0 ]; then exit 0; fi; \
	if echo "$$out" | grep -qE "Found [0-9]+ known vulnerabilit"; then exit 1; fi; \
	echo "pip-audit: NOT AUDITED: the advisory service gave no answer for some packages (above)." >&2; \
	test "$(AUDIT_REQUIRED)" != 1

# The database: TEST_DATABASE_URL if set, else PostgreSQL on 127.0.0.1:5432 (Debian's cluster
# is started if it is installed and down), else the embedded server in .pgdata/ (left running).
# The suite runs in $(WORKERS) processes (pytest-xdist; a process that is done takes tests from
# another's queue), each on a test database of its own (test_<name>_gw0, _gw1..., each a copy
# of one template that the migrations built once, tests/dbtemplate.py): twice the
# cores, because a browser, README or bench test spends much of its time waiting on a
# subprocess, Chromium or a poll, with its core free. Measured on a 2-core machine, the same
# tree from a fresh clone: 2 processes 20:15 (with another test run beside it), 4 processes
# 14:50 with the cores at 99-100 % busy (2026-11-27). The fast lane is pure computation and
# the database: one process per core ($(FAST_WORKERS)).
CORES := $(shell nproc 2>/dev/null || echo 2)
WORKERS ?= $(shell echo $$(( $(CORES) * 2 )))
FAST_WORKERS ?= $(CORES)
PYTEST := $(VENV)/bin/pytest -q

test: install assets catalogues bench-tools browser lint audit-test
	@url=$$($(PY) -m config.devserver --test-url) || exit 1; echo "database: $$url"; \
	  DEBUG=1 DATABASE_URL=$$url $(PYTEST) -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)

# The fast lane, while working: the domain and service tests of the `unit` and `db` lanes
# (marked `fast`; no browser, no README or bench runs, no test marked slow), on the same database as `make test`, property tests at
# 10 examples (HYPOTHESIS_PROFILE=fast, tests/conftest.py), in $(FAST_WORKERS) processes.
# `make test` still runs everything. The lanes are markers each test is given by its folder
# and the fixtures it uses (tests/conftest.py's LANES; pyproject.toml lists them), so a new
# test file is in one without a list of paths here: `pytest -m browser` runs that lane alone.
# Each process's test database is a copy of one migrated template (tests/dbtemplate.py), kept
# between runs (--reuse-db) while the migration files are the same; a changed or new
# migration makes a new template, and `make test-fast PYTEST_ARGS=--create-db` builds it again.
FAST_LANE := (unit or db) and fast and not slow

test-fast: install catalogues
	@url=$$($(PY) -m config.devserver --test-url) || exit 1; echo "database: $$url"; \
	  DEBUG=1 DATABASE_URL=$$url HYPOTHESIS_PROFILE=fast $(PYTEST) -n $(FAST_WORKERS) --dist worksteal --reuse-db \
	  -m "$(FAST_LANE)" tests $(PYTEST_ARGS)

clean:
	@test ! -x $(PY) || $(PY) -m config.devserver --stop
	rm -rf $(VENV) .pgdata staticfiles .pytest_cache .ruff_cache tests/browser/screenshots \
	  node_modules bench/npm/node_modules $(PYODIDE_STATIC) core/static/vendor
