# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,rl,server]'
	touch $@ $(VENV)/.installed

# `exec`: no shell stays between make and the app. make itself still waits for the app, and on a
# hang-up (the terminal closed) GNU make does not pass SIGHUP on to it: the app notices by itself
# that its terminal is gone and leaves (docs/play.md, "When the terminal goes away").
run: $(VENV)/.installed
	exec $(BIN)/campfire play

test: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy --strict src
	$(BIN)/python -m pytest -q -n auto
