# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run play test chromium pg-client catalogs

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
HOST =
PORT =
run: $(VENV)/.installed-server
	exec $(BIN)/python -m campfire.server.web$(if $(HOST), --host '$(HOST)')$(if $(PORT), --port '$(PORT)')

# `make play`: the terminal app. `exec`: no shell stays between make and the app. make itself
# still waits for the app, and on a hang-up (the terminal closed) GNU make does not pass SIGHUP
# on to it: the app notices by itself that its terminal is gone and leaves (docs/play.md, "When
# the terminal goes away").
play: $(VENV)/.installed
	exec $(BIN)/campfire play

# The browser tests (tests/web) drive the machine's Chromium (the Debian package `chromium`)
# through Playwright (or the one CAMPFIRE_CHROMIUM names); install it when it is missing and say so.
# When another package install holds dpkg's lock, apt-get waits for it up to APT_LOCK_WAIT seconds
# (DPkg::Lock::Timeout) instead of failing at once.
APT_LOCK_WAIT = 600
APT_GET = apt-get -o DPkg::Lock::Timeout=$(APT_LOCK_WAIT)
APT_WAITS = make: (if another package install is running, apt-get waits up to $(APT_LOCK_WAIT) s for it)
chromium:
	@if [ -x "$${CAMPFIRE_CHROMIUM:-/usr/bin/chromium}" ] || command -v chromium >/dev/null 2>&1 \
	  || command -v chromium-browser >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make: Chromium is missing; installing the chromium package with apt-get (browser tests)"; \
	  echo "$(APT_WAITS)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq chromium \
	  && echo "make: installed $$(command -v chromium)"; \
	elif sudo -n true 2>/dev/null && command -v apt-get >/dev/null; then \
	  echo "make: Chromium is missing; installing the chromium package with sudo apt-get (browser tests)"; \
	  echo "$(APT_WAITS)"; \
	  sudo -n $(APT_GET) update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq chromium \
	  && echo "make: installed $$(command -v chromium)"; \
	else \
	  echo "make: the browser tests need Chromium and it cannot be installed here (no root, no sudo, no apt-get): install the chromium package, or set CAMPFIRE_CHROMIUM to a Chromium executable" >&2; \
	  exit 1; \
	fi

# The PostgreSQL backup test (tests/server/test_backup_restore.py) runs pg_dump and pg_restore (the
# Debian package `postgresql-client`); install it when it is missing and say so, as for Chromium.
pg-client:
	@if command -v pg_dump >/dev/null 2>&1 && command -v pg_restore >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "make: pg_dump is missing; installing the postgresql-client package with apt-get (backup tests)"; \
	  echo "$(APT_WAITS)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq postgresql-client \
	  && echo "make: installed $$(command -v pg_dump)"; \
	elif sudo -n true 2>/dev/null && command -v apt-get >/dev/null; then \
	  echo "make: pg_dump is missing; installing the postgresql-client package with sudo apt-get (backup tests)"; \
	  echo "$(APT_WAITS)"; \
	  sudo -n $(APT_GET) update -qq && sudo -n env DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq postgresql-client \
	  && echo "make: installed $$(command -v pg_dump)"; \
	else \
	  echo "make: the backup tests need pg_dump and pg_restore and they cannot be installed here (no root, no sudo, no apt-get): install the postgresql-client package" >&2; \
	  exit 1; \
	fi

# `make catalogs`: after a user-facing string changed, rewrite the template from the code and merge it
# into the Hungarian and Czech catalogs (new entries come in empty for the translators); `make test`
# fails while the template is out of date or an entry is untranslated (docs/i18n.md).
catalogs: $(VENV)/.installed
	$(BIN)/python -m campfire.i18n extract
	$(BIN)/python -m campfire.i18n update

test: $(VENV)/.installed-dev chromium pg-client
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy --strict src tests benchmarks
	$(BIN)/python -m pytest -q -n auto
