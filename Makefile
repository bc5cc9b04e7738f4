# The two README commands. Each does its own set-up on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check bench fuzz clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,fuzz,mcp,docs]'
	# WHY: an editable install compiles no bytecode, and where PYTHONDONTWRITEBYTECODE is
	# set (many container images) every hook call would compile the sources again (~100 ms)
	$(BIN)/python -m compileall -q policylang
	touch $(STAMP)

## demo: evaluate sample commands against the shipped default ruleset
demo: $(STAMP)
	$(BIN)/policylang demo

## test: the whole suite — lint, types, tests (what CI runs)
test: $(STAMP)
	bash scripts/system-deps.sh
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

## fuzz: the long campaign on demand: 10 min of invariants, then the dynamic read-only oracle
fuzz: $(STAMP)
	bash scripts/system-deps.sh
	$(BIN)/policylang fuzz policylang/rulesets/default.policy --budget 10m --dynamic --dynamic-budget 10m --dynamic-known fuzz/known-findings.txt

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
