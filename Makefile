# Two commands do all set-up on a fresh machine with Python 3.11+ and make:
#   make run   - virtual environment, install, migrate the SQLite database, load the demo, serve
#   make test  - virtual environment with the dev extras, then the whole suite
# Both are safe to run twice: installs are redone only when pyproject.toml changes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 5000
# Test processes (pytest-xdist): one per core; each has its own databases, browser and servers on free ports.
# PYTEST_WORKERS=0 runs the suite in this process.
PYTEST_WORKERS ?= auto

.PHONY: run test lint bench bench-pages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/planner db upgrade
	$(BIN)/planner demo --if-empty
	$(BIN)/planner serve --host $(HOST) --port $(PORT)

# axe-core, injected into pages by the browser tests' accessibility checks (npm ci: the lock file's exact version).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

# Lint first: the style rules and the layer contracts (pyproject.toml) fail the run before the suite starts.
test: $(VENV)/.installed-dev node_modules/.installed
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/scheduler.py

# Page load on gunicorn + PostgreSQL against a minimal Flask page (needs wrk: apt-get install wrk).
bench-pages: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/pages.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache
