# Guildhall: `make run` serves the demo league, `make test` runs the whole suite on PostgreSQL.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/guildhall
CHROMIUM := /usr/bin/chromium

.PHONY: run test lint format install services browser clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt changes.
$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

install: $(STAMP)

# Development server on SQLite (unless DATABASE_URL is set), demo data loaded once.
run: install
	DEBUG=1 $(PY) manage.py migrate --no-input
	DEBUG=1 $(PY) manage.py seed_demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

# PostgreSQL must answer on 127.0.0.1:5432; start the local cluster if it does not.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && exit 0; sleep 1; done; \
	  echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1

# Browser tests drive Debian's chromium (Playwright cannot download its own browser here).
browser:
	@test -x $(CHROMIUM) || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }
	@test -x $(CHROMIUM) || { echo "chromium is missing: apt-get install chromium" >&2; exit 1; }

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: install services browser lint
	DEBUG=1 DATABASE_URL=$(TEST_DATABASE_URL) $(VENV)/bin/pytest -q $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache tests/browser/screenshots
