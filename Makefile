# The two README commands. Each does its own set-up on a fresh machine.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the compiled engine (policylang/_native.py): rebuilt when one of its sources changes
NATIVE := policylang/_native.json
NATIVE_SOURCES := $(shell $(PY) -c "import ast,sys; t=ast.parse(open('policylang/_native.py').read()); m=[n for n in ast.walk(t) if isinstance(n, ast.AnnAssign) and getattr(n.target, 'id', '') == 'MODULES'][0]; print(' '.join(e.value.replace('.', '/') + '.py' for e in m.value.elts))" 2>/dev/null)

.PHONY: demo test check bench fuzz clean native

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,fuzz,mcp,docs]'
	# WHY: an editable install compiles no bytecode, and where PYTHONDONTWRITEBYTECODE is
	# set (many container images) every hook call would compile the sources again (~100 ms)
	$(BIN)/python -m compileall -q policylang
	touch $(STAMP)

$(NATIVE): $(STAMP) policylang/_native.py scripts/build_native.py $(NATIVE_SOURCES)
	$(BIN)/python scripts/build_native.py

## native: compile the engine's hot modules with mypyc (the source stays the reference)
native: $(NATIVE)

## demo: evaluate sample commands against the shipped default ruleset
demo: $(NATIVE)
	$(BIN)/policylang demo

## test: the whole suite — lint, types, tests (what CI runs)
test: $(NATIVE)
	bash scripts/system-deps.sh
	bash scripts/bash53.sh || echo "warning: bash 5.3 could not be built: its tests judge the engine without running it" >&2
	bash scripts/real-tools.sh || echo "warning: the npm-family programs could not be installed: their tests judge the engine without running them" >&2
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(NATIVE)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

## fuzz: the long campaign on demand: 10 min of invariants, then the dynamic read-only oracle
fuzz: $(STAMP)
	bash scripts/system-deps.sh
	$(BIN)/policylang fuzz policylang/rulesets/default.policy --budget 10m --dynamic --dynamic-budget 10m --dynamic-known fuzz/known-findings.txt

clean:
	-$(BIN)/python scripts/build_native.py --clean
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
