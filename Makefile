# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run play test chromium nginx pg-client catalogs compiled pure

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-server: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,rl,server]'
	touch $@ $(VENV)/.installed $(VENV)/.installed-server

# `make run` starts the game server (`campfire serve`, SQLite by default) and prints the lobby's
# address, opening it in the browser where there is a desktop (docs/web.md). It listens on
# 127.0.0.1:8000 (another free port when 8000 is taken, and it says so); `make run PORT=8080`
# asks for a port (an error when it is taken) and `HOST=0.0.0.0` lets other machines in. Set on
# make's command line only: an environment variable PORT or HOST is not used. The games are kept
# in the user data folder, shared by every clone; `make run CAMPFIRE_DATA_DIR=DIR` keeps them in
# DIR. Closing the terminal stops the server as Ctrl+C does (docs/web.md, "Running the server").
# First it builds the compiled engines and bots when they are missing or older than their sources
# (scripts/compile.py: 1-3 minutes after a change, nothing otherwise; pure Python with one line
# of warning when no build can be made; `make run CAMPFIRE_PURE_PYTHON=1` skips it).
HOST =
PORT =
run: $(VENV)/.installed-server
	@$(BIN)/python scripts/compile.py
	exec $(BIN)/python -m campfire.server.web$(if $(HOST), --host '$(HOST)')$(if $(PORT), --port '$(PORT)')

# `make play`: the terminal app. `exec`: no shell stays between make and the app. make itself
# still waits for the app, and on a hang-up (the terminal closed) GNU make does not pass SIGHUP
# on to it: the app notices by itself that its terminal is gone and leaves (docs/play.md, "When
# the terminal goes away").
play: $(VENV)/.installed
	exec $(BIN)/campfire play

# What `make test` needs from Debian and installs when it is missing, saying so
# (scripts/debian-package.sh): when another package install holds dpkg's lock, apt-get waits for
# it up to APT_LOCK_WAIT seconds (DPkg::Lock::Timeout) instead of failing at once.
APT_LOCK_WAIT = 600
DEBIAN_PACKAGE = APT_LOCK_WAIT=$(APT_LOCK_WAIT) /bin/sh scripts/debian-package.sh

# The browser tests (tests/web) drive the machine's Chromium (the Debian package `chromium`)
# through Playwright (or the one CAMPFIRE_CHROMIUM names).
chromium:
	@if [ -x "$${CAMPFIRE_CHROMIUM:-/usr/bin/chromium}" ] || command -v chromium >/dev/null 2>&1 \
	  || command -v chromium-browser >/dev/null 2>&1; then :; \
	else $(DEBIAN_PACKAGE) chromium Chromium chromium "the browser tests" \
	  ", or set CAMPFIRE_CHROMIUM to a Chromium executable"; fi

# The test behind a reverse proxy (tests/server/test_nginx.py) starts the machine's nginx (the
# Debian package `nginx`, or the one NGINX names) in front of the server (the test installs it
# too when run on its own).
NGINX = /usr/sbin/nginx
nginx:
	@if [ -x "$(NGINX)" ] || command -v nginx >/dev/null 2>&1; then :; \
	else $(DEBIAN_PACKAGE) nginx nginx nginx "the tests behind a reverse proxy"; fi

# The PostgreSQL backup test (tests/server/test_backup_restore.py) runs pg_dump and pg_restore (the
# Debian package `postgresql-client`).
pg-client:
	@if command -v pg_dump >/dev/null 2>&1 && command -v pg_restore >/dev/null 2>&1; then :; \
	else $(DEBIAN_PACKAGE) postgresql-client pg_dump pg_dump "the backup tests"; fi

# `make catalogs`: after a user-facing string changed, rewrite the templates from the code (the
# core's and each game's, in its package) and merge them into the Hungarian and Czech catalogs (new
# entries come in empty for the translators); `make test` fails while a template is out of date or
# an entry is untranslated (docs/i18n.md).
catalogs: $(VENV)/.installed
	$(BIN)/python -m campfire.i18n extract
	$(BIN)/python -m campfire.i18n update

# pytest runs one worker more than the machine has cores: a third of the tests' time is spent
# waiting on browsers, servers and bots, so on the 2-core machine three workers took 10.5 minutes
# where two took 14 (docs/compiled.md, end). `make test TEST_WORKERS=2` picks another number.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))

# Python's bytecode caches are written (some machines turn them off with PYTHONDONTWRITEBYTECODE,
# this one among them): without them each of the tests' hundreds of Python processes (servers,
# CLIs) compiles what it imports again, and pytest rewrites the asserts of every test module
# again in each worker. With them the suite took 642 s where it took 718-739 s
# (benchmarks/README.md, "The test suite's time").
unexport PYTHONDONTWRITEBYTECODE

test: $(VENV)/.installed-dev chromium nginx pg-client
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy --strict src tests benchmarks
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal

# `make compiled`: the optional compiled build (docs/compiled.md). The modules listed in
# pyproject.toml ([tool.campfire.compiled]) are compiled with mypyc (it comes with mypy, a dev dependency) from
# their .py files, the extensions left beside them; when mypyc or the C compiler fails, one line
# says so and the package stays pure Python. `make pure` removes the extensions again; without
# removing them, CAMPFIRE_PURE_PYTHON=1 runs the pure modules (to measure both in one run).
compiled: $(VENV)/.installed-dev
	CAMPFIRE_COMPILE=1 nice -n 10 $(BIN)/python setup.py -q build_ext --inplace

pure:
	find src -name '*.so' -delete
	rm -f src/campfire/_compiled.json
