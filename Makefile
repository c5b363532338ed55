# Rampart: `make run` serves on http://127.0.0.1:8000, `make test` checks everything.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
NODES ?= 2
BASE_PORT ?= 8001
PYTEST_ARGS ?=

.PHONY: run cluster test lint lint-js typecheck unit sysdeps bench clean compiled docs

$(VENV)/.installed: pyproject.toml clients/python/pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -e clients/python
	touch $@

run: $(VENV)/.installed compiled
	$(PY) -m app --host $(HOST) --port $(PORT)

# NODES server processes on BASE_PORT, BASE_PORT+1, ... sharing a throwaway Redis and
# DATABASE_URL, without Docker (scripts/cluster.sh); Ctrl-C stops them all.
cluster: $(VENV)/.installed compiled
	NODES=$(NODES) BASE_PORT=$(BASE_PORT) HOST=$(HOST) PY=$(PY) bash scripts/cluster.sh

# The mypyc build of the hot modules into build/compiled/ (scripts/build_compiled.py): nothing
# to do when it matches the sources; RAMPART_PURE_PYTHON=1 skips it and ignores any build.
compiled: $(VENV)/.installed
	$(PY) scripts/build_compiled.py

# Debian packages the tests drive (Chromium, PostgreSQL, Redis, nginx); installed only when missing.
sysdeps:
	bash scripts/sysdeps.sh

lint: $(VENV)/.installed lint-js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# The browser client's linter: Biome, the version pinned in package-lock.json (npm ci into
# node_modules/); its rules are in biome.jsonc.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint-js: node_modules/.installed
	node_modules/.bin/biome lint --error-on-warnings

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy engines app bench
	$(VENV)/bin/mypy --strict clients/python/rampart_client

# The docs site (mkdocs-material) from docs/, with the REST reference generated from the
# server's own OpenAPI document; strict: any warning (a broken link, say) fails the build.
docs: $(VENV)/.installed
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(VENV)/bin/mkdocs build --strict --quiet

# pytest runs beside a throwaway PostgreSQL cluster (RAMPART_TEST_PG_URL) for the postgres tests.
# RAMPART_REQUIRE_COMPILED: a test fails unless the build just made is what the tests import.
unit: $(VENV)/.installed compiled
	RAMPART_REQUIRE_COMPILED=$(if $(RAMPART_PURE_PYTHON),,1) bash scripts/with-postgres.sh $(PY) -m pytest -q $(PYTEST_ARGS)

test: $(VENV)/.installed sysdeps lint typecheck docs unit

bench: $(VENV)/.installed compiled
	$(PY) bench/engine_playouts.py

clean:
	rm -rf $(VENV) build site node_modules .pytest_cache .mypy_cache .ruff_cache *.egg-info
