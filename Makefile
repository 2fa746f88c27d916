# The two commands a newcomer needs: `make demo` and `make test`.
# The .venv's Python: Debian's own 3.11 when it can make a venv (the python3.11-venv
# package), else the first python3 on the PATH. Debian's build, linked statically,
# runs Python code about a fifth faster than a build from source that loads libpython
# as a shared library (pyenv's, on this machine): `make test` 122 -> 115 s
# (docs/benchmarks.md, "The suite at two minutes").
SYSTEM_PYTHON := /usr/bin/python3.11
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c "import ensurepip" >/dev/null 2>&1 \
	&& echo $(SYSTEM_PYTHON) || echo python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PYTEST_ARGS ?=
# `make test` runs the suite in this many processes (pytest-xdist), each on a test
# database of its own; PYTEST_ARGS="-n 0 tests/..." runs a few tests in this one.
TEST_WORKERS ?= 4
# `make demo PORT=8080` serves the demo on another port.
PORT ?= 8000

.PHONY: venue venue-login install demo test lint format clean

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

install: $(INSTALLED)

# The demo always runs on the embedded default: an SQLite file and eager Celery.
demo: install
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py migrate --noinput
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_director
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_event \
		--players 32 --rounds 3 --seed 7 --live --if-missing --table-entry players \
		--slug kingston-open --name "Kingston Kalooki Open (demo)"
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_event \
		--players 0 --rounds 0 --planned 3 --if-missing \
		--slug montego-bay-open --name "Montego Bay Open (demo, taking entries)" \
		--venue "Montego Bay, Jamaica"
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_event \
		--players 24 --rounds 2 --seed 11 --live --seated --if-missing \
		--slug ocho-rios-open --name "Ocho Rios Open (demo, round 2 just seated)" \
		--venue "Ocho Rios, Jamaica"
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_screens \
		kingston-open ocho-rios-open
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py demo_series --if-missing
	env -u DATABASE_URL -u CELERY_BROKER_URL DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The day at the venue: the embedded default (an SQLite file, venue.sqlite3, no
# broker) served to the hall's own network over plain HTTP, with the publisher beside
# it (README, "Running the day at the venue"). Its secret key is made once and kept in
# .venue-secret; make an organiser's login once with `make venue-login`.
VENUE_BIND ?= 0.0.0.0:8000
VENUE_ENV = env -u CELERY_BROKER_URL -u CACHE_URL DATABASE_URL=sqlite:///$(CURDIR)/venue.sqlite3 \
	SECRET_KEY="$$(cat .venue-secret)" ALLOWED_HOSTS='*' SECURE_SSL_REDIRECT=0 \
	SESSION_COOKIE_SECURE=0 CSRF_COOKIE_SECURE=0 SECURE_HSTS_SECONDS=0
.venue-secret: | install
	$(BIN)/python -c "import secrets; print(secrets.token_urlsafe(50))" > $@

venue: install .venue-secret
	$(VENUE_ENV) $(BIN)/python manage.py migrate --noinput
	$(VENUE_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(VENUE_ENV) $(BIN)/python manage.py run_processes --bind $(VENUE_BIND) \
		--web-workers 1 --threads 8 --only web,standby,publisher

venue-login: install .venue-secret
	$(VENUE_ENV) $(BIN)/python manage.py migrate --noinput
	$(VENUE_ENV) $(BIN)/python manage.py createsuperuser

# The whole suite on the database DATABASE_URL names (SQLite when unset), in parallel.
# Every worker imports every test module, so Python's own bytecode cache matters: an
# environment with PYTHONDONTWRITEBYTECODE set would have each worker compile the
# project and rewrite the tests' asserts again on every run (about 3 s of CPU a worker).
# The cache goes where Python puts it (__pycache__, ignored by git).
test: install
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) staticfiles db.sqlite3
