# Two commands on a fresh machine: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GNUBG := /usr/games/gnubg
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SEATS ?= human,expectimax

.PHONY: play test bench lint gnubg clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/gammon play backgammon --seats $(SEATS)

# Debian's gnubg is the outside reference the tests compare against.
gnubg:
	@test -x $(GNUBG) || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq gnubg; }

# CI=true: a missing gnubg fails its tests instead of skipping them.
test: $(STAMP) gnubg
	$(BIN)/ruff check gammon tests benchmarks
	$(BIN)/mypy
	CI=$${CI:-true} $(BIN)/pytest -q

# OpenSpiel lives in its own environment: the benchmark's anchor, not a dependency.
BENCHVENV := .benchvenv
$(BENCHVENV)/.installed: pyproject.toml benchmarks/requirements.txt
	$(PYTHON) -m venv $(BENCHVENV)
	$(BENCHVENV)/bin/pip install --quiet --upgrade pip
	$(BENCHVENV)/bin/pip install --quiet -e . -r benchmarks/requirements.txt
	touch $@

bench: $(BENCHVENV)/.installed
	$(BENCHVENV)/bin/python benchmarks/bench_openspiel.py

clean:
	rm -rf $(VENV) $(BENCHVENV) .pytest_cache .ruff_cache .hypothesis
