# Marginalia: the whole set-up is `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# tantivy for bench_core's comparison only: its own venv, never the app's
TANTIVY_VENV  := .venv-tantivy
TANTIVY_STAMP := $(TANTIVY_VENV)/.installed
# a packaged embedding model, measured by bench_related_quality only: its own venv, never the app's
WORDLLAMA_VENV  := .venv-wordllama
WORDLLAMA_STAMP := $(WORDLLAMA_VENV)/.installed
export QT_QPA_PLATFORM ?= offscreen

.PHONY: run test test-fast bench soak lint package translations clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,package]'
	touch $(STAMP)

$(TANTIVY_STAMP):
	test -x $(TANTIVY_VENV)/bin/python || $(PYTHON) -m venv $(TANTIVY_VENV)
	$(TANTIVY_VENV)/bin/python -m pip install --quiet tantivy==0.27.0
	touch $(TANTIVY_STAMP)

$(WORDLLAMA_STAMP):
	test -x $(WORDLLAMA_VENV)/bin/python || $(PYTHON) -m venv $(WORDLLAMA_VENV)
	$(WORDLLAMA_VENV)/bin/python -m pip install --quiet wordllama==0.4.0.post1
	touch $(WORDLLAMA_STAMP)

run: $(STAMP)
	env -u QT_QPA_PLATFORM $(VENV)/bin/marginalia

test: $(STAMP)
	$(PY) -m ruff check $(wildcard desktop_app tests benchmarks migrations packaging)
	$(PY) -m ruff format --check --quiet $(wildcard desktop_app tests benchmarks migrations packaging)
	$(PY) -m mypy
	$(PY) -m pytest

test-fast: $(STAMP)
	$(PY) -m pytest -m "not packaging" -x -q

bench: $(STAMP) $(TANTIVY_STAMP) $(WORDLLAMA_STAMP)
	$(PY) benchmarks/bench_core.py --size 10000
	$(PY) benchmarks/bench_core.py --size 100000 --cached --bib-size 0
	$(PY) benchmarks/bench_cli.py --sizes 10000 100000
	$(PY) benchmarks/bench_index.py --size 10000
	$(PY) benchmarks/bench_index.py --size 100000 --runs 1 --procs 2
	$(PY) benchmarks/bench_writes.py 5000
	$(PY) benchmarks/bench_gui.py
	$(PY) benchmarks/bench_triage.py
	$(PY) benchmarks/bench_tag_suggest.py
	$(PY) benchmarks/bench_screening.py
	$(PY) benchmarks/bench_related_quality.py
	$(PY) benchmarks/bench_queue.py --sizes 2000 5000 100000
	$(PY) benchmarks/bench_postgres.py --size $${PG_BENCH_SIZE:-100000}

# the long fault-injection variants (the suite runs short ones)
soak: $(STAMP)
	MARGINALIA_NOTE_ROUNDS=50 MARGINALIA_FAULT_TRIALS=200 $(PY) -m pytest -q -p no:cacheprovider \
		tests/core/test_concurrent_writers.py tests/e2e/test_fault_injection.py

# ruff's check and its formatter's check, then mypy (its files and settings are pyproject.toml's [tool.mypy]; cache in .mypy_cache)
lint: $(STAMP)
	$(PY) -m ruff check $(wildcard desktop_app tests benchmarks migrations packaging)
	$(PY) -m ruff format --check $(wildcard desktop_app tests benchmarks migrations packaging)
	$(PY) -m mypy

# the window's catalogues: new strings from desktop_app/gui into the .ts sources (translate the
# "unfinished" ones, e.g. with pyside6-linguist), then the .qm the app loads (both committed;
# tests/gui/test_i18n.py fails while either is behind)
I18N := resources/i18n
translations: $(STAMP)
	$(VENV)/bin/pyside6-lupdate desktop_app/gui/*.py -ts $(I18N)/marginalia_zh_CN.ts -no-obsolete -locations none
	$(VENV)/bin/pyside6-lupdate desktop_app/gui/*.py -ts $(I18N)/marginalia_en.ts -pluralonly -no-obsolete -locations none
	$(VENV)/bin/pyside6-lrelease $(I18N)/marginalia_zh_CN.ts $(I18N)/marginalia_en.ts

package: $(STAMP)
	bash packaging/build_linux.sh

clean:
	rm -rf build dist $(VENV) $(TANTIVY_VENV) $(WORDLLAMA_VENV) .pytest_cache
