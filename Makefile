# toolwire — two commands do everything on a fresh machine:
#   make generate   (creates .venv, installs, regenerates generated/ from spec/ + templates/)
#   make test       (installs test dependencies, checks generated/ is current, runs the tests)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: generate check test test-fast bench clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[generate,test]'
	touch $(STAMP)

venv: $(STAMP)

generate: $(STAMP)
	$(PY) -m generator derive
	$(PY) -m generator generate

# with a fixed hash seed: tests/test_generator.py checks again with another one
check: $(STAMP)
	PYTHONHASHSEED=0 $(PY) -m generator check

# on every core (pytest-xdist; an idle worker takes tests queued for the other, so no file's tail
# runs alone: 441 s against 462 s with files kept whole, on the 2-core machine)
test: check
	$(PY) -m pytest -n auto --dist worksteal

# The inner loop while editing one provider's spec: regenerate (without re-deriving the wire
# schemas), then the tests of that provider (P=name), without the corpus and hypothesis suites.
test-fast: $(STAMP)
	$(PY) -m generator generate
	$(PY) -m pytest -q -x --ignore=tests/test_realworld.py --ignore=tests/test_fuzz.py --ignore=tests/test_properties.py $(if $(P),-k $(P))

bench: $(STAMP)
	$(PY) bench/bench.py $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .cache
