# `make help` lists the targets. CI runs `make test` (.ci/run); `make check` is the quick edit loop.
SHELL := /bin/bash
.DEFAULT_GOAL := help
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTHON_STAMP := $(VENV)/.installed-python
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: help setup serve test test-portable check record gpu test-next build lint translation clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(PYTHON_STAMP): requirements.txt pyproject.toml scripts/setup.sh
	bash scripts/setup.sh python
	@touch $@

# Serving and building need Graphviz, the CJK fonts and the venv only; the tests also need Chromium and poppler.
$(SERVE_STAMP): $(PYTHON_STAMP)
	bash scripts/setup.sh site
	@touch $@

$(STAMP): $(SERVE_STAMP)
	bash scripts/setup.sh system
	@touch $@

setup: $(STAMP) ## Install what the tests need: Graphviz, CJK fonts, Chromium, poppler and the Python environment (.venv)

serve: $(SERVE_STAMP) ## Install what serving needs (the .venv; Graphviz and CJK fonts if missing), then serve the site at http://127.0.0.1:8000
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

test: setup ## Install what the tests need, then run the whole test suite, site build included (what CI runs)
	$(PY) -m pytest -n auto

# Three other machines, simulated on this one: one thread; four (torch caps OMP_NUM_THREADS at the core count,
# so the probe sets torch's thread count: docsys/core/probe/sitecustomize.py); AVX2 kernels only, as on GitHub's
# runners (MKL_ENABLE_INSTRUCTIONS is what moves MKL's float32 GEMMs off AVX-512). Each variant compiles into its
# own Inductor cache: torch 2.13 reuses a kernel compiled under ATEN_CPU_CAPABILITY=avx2 in a default run, which
# then crashed ("malloc_consolidate(): invalid chunk size") in the notebook's compiled stage.
PORTABLE_TESTS := docs/en tests/content/test_notebooks.py::test_the_notebook_runs_and_prints_what_its_recording_holds
PORTABLE_VARIANTS := "one-thread OMP_NUM_THREADS=1" "four-threads DOCSYS_TORCH_THREADS=4" \
	"avx2 ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2"

test-portable: setup ## Run the examples and the notebook as three other machines would (VARIANT=one-thread|four-threads|avx2: one)
	@status=0; for variant in $(PORTABLE_VARIANTS); do \
		set -- $$variant; name=$$1; shift; [ -z "$(VARIANT)" ] || [ "$(VARIANT)" = "$$name" ] || continue; \
		echo "== test-portable, $$name: $$*"; \
		env "$$@" TORCHINDUCTOR_CACHE_DIR="$(CURDIR)/.cache/inductor-$$name" $(PY) -m pytest -n auto $(PORTABLE_TESTS) \
			|| status=1; \
	done; exit $$status

check: setup ## The edit loop: lint, parity, page checks, tooling tests and a strict build (no examples, no browser)
	$(PY) -m pytest -n auto -m "not browser" tests/tooling tests/content/test_lint.py tests/content/test_parity.py \
		tests/content/test_pages.py tests/content/test_glossary.py tests/content/test_copywriting.py \
		tests/content/test_translations.py tests/content/test_paths.py tests/content/test_behaviour.py \
		tests/content/test_comparatives.py tests/content/test_site.py tests/content/test_print.py

record: $(PYTHON_STAMP) ## Re-record snippets (all, or SNIPPETS="autograd/backward.py bench_"); benchmarks need an idle machine
	$(PY) -m docsys record $(SNIPPETS)

# A GPU machine has Python, torch, pytest and numpy, but maybe no .venv, MkDocs or internet: no setup.
GPU_PY ?= $(if $(wildcard $(PY)),$(PY),python3)

gpu: ## On a CUDA machine (no setup needed): record the cuda snippets; CHECK=1 also fails on changed outputs
	$(GPU_PY) -m docsys record --gpu $(if $(CHECK),--check --force) $(SNIPPETS)

TORCH ?= latest
NEXT_VENV := .venv-next-$(TORCH)
test-next: $(PYTHON_STAMP) ## Run every CPU snippet with another torch (TORCH=2.14.1, default: the newest) into a report
	@[ -x $(NEXT_VENV)/bin/python ] || python3 -m venv $(NEXT_VENV)
	$(NEXT_VENV)/bin/pip install --disable-pip-version-check -q --upgrade \
		"$(if $(filter latest,$(TORCH)),torch,torch==$(TORCH))" \
		$$(grep -E '^(numpy|torchviz|graphviz|tensorboard|safetensors|torchao|torchdata)==' requirements.txt | cut -d' ' -f1)
	$(PY) -m docsys next --python $(NEXT_VENV)/bin/python --report test-artifacts/test-next-$(TORCH).md

build: $(SERVE_STAMP) ## Build the site into site/ (strict; needs what serving needs)
	$(VENV)/bin/mkdocs build --strict

lint: $(PYTHON_STAMP) ## Lint all Python with ruff
	$(VENV)/bin/ruff check .

# Without PAGE (after merging a branch): record every new zh page, and every pair whose changed en sections
# all have zh edits; list what still needs a person. With PAGE: record zh/PAGE.md as following en/PAGE.md
# now; each changed en section needs a zh edit or a reason (asked, or ARGS='--unchanged ANCHOR="reason"').
# CONTRIBUTING.md, "Add a translation".
translation: $(PYTHON_STAMP) ## Record which en version each zh page translates (PAGE=<slug> after updating one)
	$(if $(PAGE),$(PY) -m docsys.translations update $(PAGE) $(ARGS),$(PY) -m docsys.translations merged; \
		status=$$?; $(PY) -m docsys.translations status; exit $$status)

clean: ## Remove build output and caches (keeps .venv)
	rm -rf site .cache .pytest_cache .ruff_cache
