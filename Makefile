# The few commands a person types. Tools run from .venv/bin: no activation needed.
VENV := .venv
PY := $(VENV)/bin/python
CHROMIUM := /usr/bin/chromium
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
DEV := DEBUG=1
# The web server's port (8000 is often taken: `PORT=8080 make run`).
PORT ?= 8000
# `serve` runs the production settings over plain HTTP on this machine only, its cache the
# local Redis when one answers (several web workers need a shared cache for their rate
# limits: gunicorn.conf.py refuses them without); else one web worker.
SERVE := SECRET_KEY="$${SECRET_KEY:-castle-local-serve-only}" \
	DAILY_SECRET="$${DAILY_SECRET:-castle-local-serve-only}" \
	ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost}" \
	SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-0}"

.PHONY: setup run test lint fmt bench bench-solver loadtest serve clean

setup: $(VENV)/.stamp-setup

# The site and its task worker (solver jobs, dailies ahead, niced: the web comes first);
# Ctrl+C stops both.
run: setup
	$(DEV) $(PY) manage.py migrate
	$(DEV) nice -n 10 $(PY) manage.py worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT; \
	$(DEV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: $(VENV)/.stamp-test $(CHROMIUM)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

lint: $(VENV)/.stamp-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

fmt: $(VENV)/.stamp-test
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(VENV)/.stamp-test $(CHROMIUM)
	$(PY) -m tools.bench

bench-solver: setup
	$(PY) -m tools.bench_solver

# Two gunicorn servers on a fresh PostgreSQL database, 50 players, a worker killed midway.
# More: make loadtest LOADTEST_ARGS="--seconds 60 --players 100"
loadtest: setup
	$(PY) -m tools.loadtest $(LOADTEST_ARGS)

serve: setup
	$(SERVE) $(PY) manage.py migrate --noinput
	$(SERVE) $(PY) manage.py collectstatic --noinput
	if [ -z "$$CACHE_URL" ]; then \
		if $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 6379), 0.5)" 2>/dev/null; then \
			export CACHE_URL=redis://127.0.0.1:6379/0; echo "Cache: the Redis on 127.0.0.1:6379"; \
		else \
			export WEB_CONCURRENCY=$${WEB_CONCURRENCY:-1}; \
			echo "No Redis on 127.0.0.1:6379 (CACHE_URL): $$WEB_CONCURRENCY web worker"; \
		fi; \
	fi; \
	$(SERVE) nice -n 10 $(PY) manage.py worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT; \
	$(SERVE) $(VENV)/bin/gunicorn castle_site.wsgi --bind 127.0.0.1:$(PORT) --no-control-socket

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache .mypy_cache .hypothesis test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# The first Python >= 3.12: python3 (pyenv reads .python-version), then PATH, then pyenv.
$(PY):
	@for py in python3 python3.13 python3.12 \
		$$HOME/.pyenv/versions/3.13*/bin/python $$HOME/.pyenv/versions/3.12*/bin/python; do \
	    if "$$py" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	        echo "Creating $(VENV) with $$py ($$("$$py" --version))"; \
	        "$$py" -m venv $(VENV); exit $$?; \
	    fi; \
	done; \
	echo "Castle needs Python >= 3.12 (Django 6): none found as python3, python3.13," \
		"python3.12 or under ~/.pyenv/versions. Install one and re-run make." >&2; \
	exit 1

$(VENV)/.stamp-setup: pyproject.toml requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	touch $@

$(VENV)/.stamp-test: pyproject.toml requirements.txt requirements-test.txt | $(PY)
	$(PY) -m pip install -q -r requirements-test.txt
	touch $@

$(CHROMIUM):
	$(SUDO) apt-get install -y chromium || \
		{ $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; }
