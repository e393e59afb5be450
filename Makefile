# Two commands set everything up on a fresh machine: `make play` and `make test`.
# uv is bootstrapped into .tools/ with pip; it then builds .venv/ from uv.lock.

PYTHON ?= python3
UV := .tools/bin/uv
RUN := UV_PYTHON_DOWNLOADS=never $(UV) run --frozen --python $(PYTHON)
SEED ?= $(shell date +%s)

.PHONY: play test lint typecheck unit bench battle clean

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/python -m pip install --quiet --disable-pip-version-check uv

.venv/.synced: $(UV) pyproject.toml uv.lock
	UV_PYTHON_DOWNLOADS=never $(UV) sync --frozen --python $(PYTHON)
	touch $@

# The main job. Until the browser game lands, a bot battle in the terminal.
play: .venv/.synced
	$(RUN) leviathans battle --seed $(SEED) --british greedy --french greedy

test: lint typecheck unit

lint: .venv/.synced
	$(RUN) ruff check .

typecheck: .venv/.synced
	$(RUN) mypy

unit: .venv/.synced
	$(RUN) pytest

bench: .venv/.synced
	$(RUN) python bench/bench.py

clean:
	rm -rf .venv .tools .pytest_cache .mypy_cache .ruff_cache .hypothesis
