# toolwire — two commands do everything on a fresh machine:
#   make generate   (creates .venv, installs, regenerates generated/ from spec/ + templates/)
#   make test       (installs test dependencies, checks generated/ is current, runs the tests)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: generate check test bench clean venv

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[generate,test]'
	touch $(STAMP)

venv: $(STAMP)

generate: $(STAMP)
	$(PY) -m generator derive
	$(PY) -m generator generate

check: $(STAMP)
	$(PY) -m generator check

test: check
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) bench/bench.py $(ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
