# Two commands on a fresh machine: `make play` and `make test`.

# Where PYTHONDONTWRITEBYTECODE is set (as on this project's own machines), Python keeps
# no compiled modules: every process compiles each module it imports from its source,
# some two seconds of a core for the web server, a command or a bot worker, and the tests
# start hundreds of them. The project's targets keep them (in .venv and in __pycache__
# folders, which git ignores).
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PREPARED := $(VENV)/.prepared
GNUBG := /usr/games/gnubg
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Seats of `make play` (e.g. SEATS=human,human); empty: you against the variant's best bot.
SEATS ?=
PORT ?= 8000
DATABASE ?= sqlite:///gammon.db
# Server processes of `make serve` (more than one needs DATABASE=postgresql+psycopg://...).
WORKERS ?= 1
# The server's configuration file (bot levels, limits, rates; docs/security.md).
CONFIG ?=

.PHONY: play serve test check long answers bench debian gnubg networks strength fuzz soak \
	hypergammon bot-ratings learn suite-profile clean

# uv installs the environment (seconds, where pip took a minute and a half); the learn
# extra below keeps pip, which finds this machine's own build of torch. The game needs
# only the package itself: the tests' extras (Ray, OpenSpiel, Playwright, PostgreSQL's
# driver...) come with the first make test or make check, never before a first board.
TESTING := $(VENV)/.testing
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'uv>=0.5'
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e .
	touch $(STAMP)

$(TESTING): $(STAMP)
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test]'
	touch $(TESTING)

# The first game of `make play` waits only for backgammon's kernels and bot (about a
# minute); the other variants' kernels compile once, in the background of that first
# game or before the tests ($(PREPARED): every kernel, spread over the cores).
PLAYABLE := $(VENV)/.playable
$(PLAYABLE): $(STAMP)
	$(BIN)/gammon prepare backgammon
	touch $(PLAYABLE)

$(PREPARED): $(STAMP)
	$(BIN)/gammon prepare
	touch $(PREPARED)

play: $(PLAYABLE)
	@[ -e $(PREPARED) ] || { nice -n 19 $(BIN)/gammon prepare >/dev/null 2>&1 && \
		touch $(PREPARED); } &
	$(BIN)/gammon play backgammon $(if $(SEATS),--seats $(SEATS))

# The web app: tables in a SQLite file here unless DATABASE says otherwise; WORKERS=N
# processes on one PostgreSQL database (docs/deploy.md).
serve: $(STAMP)
	$(BIN)/gammon serve --port $(PORT) --database $(DATABASE) --workers $(WORKERS) \
		$(if $(CONFIG),--config $(CONFIG))

# What the tests need from Debian, installed in one go where missing: gnubg (the outside
# reference the tests compare against), Chromium (Playwright drives it; no browser
# download), PostgreSQL (the web tests run a cluster of their own in a temporary folder)
# and nginx (the deployment test runs docs/deploy.md's configuration); the packages' own
# services are not used.
DEBIAN_NEEDS := $(GNUBG):gnubg $(CHROMIUM):chromium /usr/sbin/nginx:nginx-light \
	/usr/lib/postgresql/*/bin/initdb:postgresql
debian:
	@missing=$$(for need in $(DEBIAN_NEEDS); do ls $${need%%:*} >/dev/null 2>&1 || \
		echo $${need##*:}; done); [ -z "$$missing" ] || { echo "apt-get install $$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		$(SUDO) apt-get install -y -qq $$missing >/dev/null; }

gnubg:
	@test -x $(GNUBG) || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq gnubg; }

# pytest: one worker a core (pytest-xdist); a file's tests stay on one worker, so its
# fixtures (gnubg, the web server, a Ray cluster) start once; the slowest 30 are listed
# so that a creeping suite shows in every run. CI=true: a missing gnubg fails its tests
# instead of skipping them.
PYTEST := CI=$${CI:-true} $(BIN)/pytest -q -n auto --dist loadfile --durations=30

# mypy checks the types while `gammon prepare` compiles (a fresh clone's set-up: the
# compiling processes leave a core idle at their end); both must succeed.
TYPES_WHILE_PREPARING := $(BIN)/mypy & types=$$!; $(MAKE) --no-print-directory $(PREPARED); \
	prepared=$$?; wait $$types && exit $$prepared

# The whole suite but the long checks: what CI runs (README: the time it takes).
test: $(TESTING) debian
	$(BIN)/ruff check gammon tests benchmarks examples
	@$(TYPES_WHILE_PREPARING)
	$(PYTEST) -m 'not slow'

# The edit-test loop: lint, types and the tests that need no server, browser, database or
# gnubg and play no thousands of games (README: the time it takes).
check: $(TESTING)
	$(BIN)/ruff check gammon tests benchmarks examples
	@$(TYPES_WHILE_PREPARING)
	$(PYTEST) -m 'not slow and not web and not gnubg and not heavy'

# Where make test's CPU goes, test by test and module by module (benchmarks/suite_cpu.py:
# each test's worker and every process below it).
suite-profile: $(TESTING) $(PREPARED) debian
	rm -rf .suite-cpu
	PYTHONPATH=benchmarks $(PYTEST) -p suite_cpu -m 'not slow'
	$(BIN)/python benchmarks/suite_cpu.py .suite-cpu

# The long checks that make test leaves out (the `slow` marker: thousands of games and
# position-rolls against the oracles, every variant of each kind, whole matches clicked
# through in the browser, the README's trained figures): run before a release and by
# make soak.
long: $(TESTING) $(PREPARED) debian
	$(PYTEST) -m slow

# The oracles' and gnubg's answers that make test reads (tests/answers.py), written again:
# only after the questions or an oracle were meant to change, and said in the commit.
answers: $(TESTING) $(PREPARED) debian
	GAMMON_WRITE_ANSWERS=1 $(PYTEST) -m slow -k asked_afresh

# Longer still (hours on two cores): the fuzzers on 10,000
# examples each, and the soak run of docs/soak.md (resumable: results in soak-results/).
fuzz: $(TESTING)
	GAMMON_FUZZ_EXAMPLES=10000 $(BIN)/pytest -q tests/test_fuzz.py --hypothesis-show-statistics

soak: long
	$(BIN)/python benchmarks/soak.py --jobs 2 --out soak-results --doc docs/soak.md

# Hypergammon with three checkers solved here (minutes, 6 GB of memory; the table is too
# large to ship), then the tests that read it, which make test leaves waiting for it.
hypergammon: $(TESTING)
	$(BIN)/gammon solve 3
	$(BIN)/pytest -q -m solved tests/test_agents_exact.py

# OpenSpiel lives in its own environment: the benchmark's anchor, not a dependency.
BENCHVENV := .benchvenv
$(BENCHVENV)/.installed: pyproject.toml benchmarks/requirements.txt
	$(PYTHON) -m venv $(BENCHVENV)
	$(BENCHVENV)/bin/pip install --quiet --upgrade pip
	$(BENCHVENV)/bin/pip install --quiet -e . -r benchmarks/requirements.txt
	touch $@

# Each ratio is also appended to benchmarks/speed-record.jsonl with the commit
# (benchmarks/record.py): commit that line with the change it measures.
bench: $(BENCHVENV)/.installed
	$(BENCHVENV)/bin/python benchmarks/bench_openspiel.py --json > .bench-openspiel.json
	$(BENCHVENV)/bin/python benchmarks/bench_vector.py --json | tee .bench-vector.json
	$(BENCHVENV)/bin/python benchmarks/record.py .bench-openspiel.json .bench-vector.json

# Learning with a standard library: sb3-contrib's MaskablePPO on the Gymnasium env's step
# encoding (examples/maskable_ppo.py; the learn extra brings torch, so make test leaves it
# out). Short settings (about a minute); docs/envs.md has the long run's command and figures.
LEARN := $(VENV)/.learn
$(LEARN): $(STAMP)
	$(BIN)/pip install --quiet -e '.[learn]'
	touch $@

learn: $(LEARN)
	$(BIN)/python examples/maskable_ppo.py --variant hypergammon --timesteps 20000 \
		--eval-games 100 --out runs/learn-hypergammon
	$(BIN)/python examples/maskable_ppo.py --variant backgammon --timesteps 20000 \
		--eval-games 50 --out runs/learn-backgammon

# Train (or go on training) every network that ships, resumably (hours on two cores).
networks: $(STAMP)
	$(BIN)/python benchmarks/train_networks.py

# The duels of docs/strength.md (hours on two cores; every cell and every game is kept in
# docs/strength/cells, so a stopped run goes on where it stopped), then their table.
# CELLS="short_nn_best nack_nn_best" plays only those (benchmarks/strength.py --list).
CELLS ?=
strength: $(STAMP) gnubg
	$(BIN)/python benchmarks/strength.py --out docs/strength/cells --jobs 2 \
		$(if $(CELLS),--cells $(CELLS))

# The web lobby's bot levels on the players' rating scale (duels of neighbouring levels,
# journalled: run it again to go on; about an hour on two cores).
bot-ratings: $(STAMP)
	$(BIN)/python benchmarks/bot_ratings.py --games $(or $(GAMES),100)

clean:
	rm -rf $(VENV) $(BENCHVENV) .pytest_cache .ruff_cache .hypothesis soak-results
