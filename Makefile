# Every target here is run by CI (make test runs the others' checks). `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: help setup serve test record bench build lint clean gpu

help: ## List the targets
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(STAMP): requirements.txt pyproject.toml scripts/setup.sh
	bash scripts/setup.sh
	@touch $@

setup: $(STAMP) ## Install Graphviz and the Python environment (.venv)

serve: setup ## Set up, then serve the site at http://127.0.0.1:8000
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

test: setup ## Set up, then run the whole test suite, site build included (what CI runs)
	$(PY) -m pytest -n auto

record: setup ## Re-record snippet outputs: all, or SNIPPETS="autograd/backward.py ..."
	$(PY) -m docsys record $(SNIPPETS)

bench: setup ## Re-measure benchmarks (outputs + benchmarks/<machine>/ results): all, or BENCH="slug/bench_x.py"
	$(PY) -m docsys bench $(BENCH)

# A GPU machine has Python, torch, pytest and numpy, but maybe no .venv, MkDocs or internet: no setup.
GPU_PY ?= $(if $(wildcard $(PY)),$(PY),python3)

gpu: ## On a CUDA machine (no setup needed): record cuda snippets + GPU benchmarks with provenance; CHECK=1 fails on changes
	$(GPU_PY) -m docsys gpu $(if $(CHECK),--check) $(SNIPPETS)

build: setup ## Build the site into site/ (strict)
	$(VENV)/bin/mkdocs build --strict

lint: setup ## Lint all Python with ruff
	$(VENV)/bin/ruff check .

clean: ## Remove build output and caches (keeps .venv)
	rm -rf site .cache .pytest_cache .ruff_cache
