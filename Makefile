# Two commands set everything up on a fresh machine: `make play` and `make test`.
# uv is bootstrapped into .tools/ with pip; it then builds .venv/ from uv.lock. The browser
# tests drive Debian's chromium and the storage tests start a real PostgreSQL: `make test`
# installs both from Debian's packages when they are missing (as root, or with sudo).

PYTHON ?= python3
UV := .tools/bin/uv
RUN := UV_PYTHON_DOWNLOADS=never $(UV) run --frozen --python $(PYTHON)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: play test lint typecheck unit bench battle loadtest loadtest-multi screenshots system-deps native clean

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/python -m pip install --quiet --disable-pip-version-check uv

.venv/.synced: $(UV) pyproject.toml uv.lock
	UV_PYTHON_DOWNLOADS=never $(UV) sync --frozen --python $(PYTHON)
	touch $@

# The rules core's hot modules compiled with mypyc (issue 18.1) into .venv/leviathans-native/;
# a no-op while that build matches the sources. If it cannot be built (no C compiler), the
# package runs the same modules as plain Python: the same games, slower.
native: .venv/.synced
	@$(RUN) python tools/build_native.py || echo "make: the compiled modules were not built"

# The main job: the game server on an embedded SQLite file; open the printed address.
play: .venv/.synced native
	$(RUN) leviathans serve --host $(HOST) --port $(PORT)

# A bot battle in the terminal.
battle: .venv/.synced native
	$(RUN) leviathans battle --seed $$(date +%s) --british greedy --french greedy

system-deps:
	@command -v chromium >/dev/null 2>&1 || { echo "installing Debian's chromium"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq chromium; }
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "installing PostgreSQL"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive \
	  apt-get install -y -qq postgresql; }

test: system-deps lint typecheck unit

lint: .venv/.synced
	$(RUN) ruff check .

typecheck: .venv/.synced
	$(RUN) mypy

unit: .venv/.synced system-deps native
	$(RUN) pytest

# The main views of the browser game (lobby with fleets chosen, open games, deployment, a move's
# ghosts, the gun table, a card, the end summary, a replay at a gunnery step, a phone; a
# starship move dragged, the War Fleet fleet action stacked), photographed by Debian's chromium
# into docs/screenshots/.
screenshots: .venv/.synced system-deps native
	LEVIATHANS_SCREENSHOTS=docs/screenshots $(RUN) pytest tests/browser/test_screenshots.py tests/browser/test_views_lobby.py -q

bench: .venv/.synced native
	$(RUN) python bench/bench.py

# 50 concurrent games through the API: paced like bots that take a moment to decide, then
# flat out (every client acts the moment it may: a saturation test). LOAD adds options, e.g.
# LOAD="--processes 2 --games 200": two server processes on one PostgreSQL (bench/loadtest.py).
LOAD ?=
loadtest: .venv/.synced native
	$(RUN) python bench/loadtest.py --think 0.3 --turns 6,2 $(LOAD)
	$(RUN) python bench/loadtest.py --think 0 $(LOAD)

# Issue 19: 200 concurrent games on 1, then 2 server processes sharing one PostgreSQL (a
# throw-away server, started as the tests start theirs), paced, then flat out.
loadtest-multi: .venv/.synced system-deps native
	$(RUN) python bench/loadtest.py --processes 1,2 --games 200 --think 0.3 --turns 6,2
	$(RUN) python bench/loadtest.py --processes 1,2 --games 200 --think 0

clean:
	rm -rf .venv .tools .pytest_cache .mypy_cache .ruff_cache .hypothesis artifacts
