# gongzhu-service — `make run` serves the API on :8080; `make test` runs every test.
# Both bootstrap .venv on first use; a stamp file makes later runs skip the install
# until pyproject.toml, setup.py or the engine's source changes (the install compiles the
# engine with mypyc, in place: a changed rules module must be compiled again).

PYTHON ?= python3
# Python's bytecode caches (__pycache__, git-ignored) are written even where the environment turns them off
# (PYTHONDONTWRITEBYTECODE): without them every test process, live server and subprocess compiled the
# same modules again, and pytest rewrote every test module's asserts again (its collection: 10 s of CPU a
# process without the caches, 6 s with them).
unexport PYTHONDONTWRITEBYTECODE
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 8080
PYTEST_ARGS ?=
# Test processes for pytest-xdist: one more than the cores, so a process waiting on a live server,
# a browser or a subprocess leaves no core idle (make test on 2 cores: 4 min 6 s with 3, 4 min 49 s with 2).
TEST_JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# Independent prerequisites side by side: npm's install, the venv's packages and the engine's compilation.
MAKEFLAGS += --jobs=3

.PHONY: run test test-pure test-fast lint lint-contract sdk schemathesis venv clean help bench-engine bench-http soak faults properties arena

help:
	@echo "make run    serve the API (nginx in front of gunicorn) on :$(PORT) (PORT, WEB_CONCURRENCY override)"
	@echo "make test   install test extras and run every test (pytest)"
	@echo "make test-pure   the rules, bot and API tests on the pure build (make test runs them last)"
	@echo "make test-fast   the inner loop: no live server, drill, deployment check or long property run"
	@echo "make lint   ruff over service/, tests/, bench/, sdk/, mk/ and mypy over service/ (settings in pyproject.toml)"
	@echo "make sdk    build the Python and TypeScript SDKs from the contract into build/sdk (sdk/README.md)"
	@echo "make dist   every release artefact into dist/: sdist, compiled and pure wheels, SDKs, chart (mk/dist.mk)"

$(BIN)/python:
	@echo "make: creating $(VENV), the project's own virtualenv"
	$(PYTHON) -m venv $(VENV)

# The engine's source: the install compiles it, and the bot's search (setup.py; GONGZHU_PURE=1 make … for the
# pure build).
ENGINE_SOURCES := setup.py $(wildcard service/gongzhu/*.py service/gongzhu/rules/*.py service/gongzhu/solve/*.py service/gongzhu/bot/*.py service/gongzhu/api/*.py service/gongzhu/server/*.py)
# The pure build for make test's second run: the same source without the compiled modules.
PURE_ROOT := build/pure

# The install in three steps, the last two side by side (MAKEFLAGS --jobs): the build requirements
# (setuptools, the pinned mypy); then the extras' packages, and the package itself built in place
# (its engine compiled by mypyc, setup.py) without build isolation, with those requirements:
# neither waits for the other. Each step has its stamp, so a changed engine module compiles again
# without reinstalling the packages.
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# The installer of the packages (mk/requirements.py --install; pip where it cannot run): about 5 s for
# the test extras where pip took a minute of both cores.
UV := uv==0.13.9
INSTALL := $(BIN)/python mk/requirements.py --install
$(VENV)/.stamp-build: pyproject.toml | $(BIN)/python
	@echo "make: installing the installer and the build requirements into $(VENV)"
	$(PIP) $(UV) || echo "uv not installed: pip installs the packages"
	$(INSTALL) build
	touch $@

$(VENV)/.stamp-engine: pyproject.toml $(ENGINE_SOURCES) $(VENV)/.stamp-build
	@echo "make: building the package, its engine compiled by mypyc (a minute or two of the cores; GONGZHU_PURE=1 skips it)"
	$(PIP) --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.stamp-server-packages: pyproject.toml $(VENV)/.stamp-build
	@echo "make: installing the server's packages (Flask, gunicorn, ...)"
	$(INSTALL) server
	touch $@

$(VENV)/.stamp-test-packages: pyproject.toml $(VENV)/.stamp-build
	@echo "make: installing the server's and the tests' packages"
	$(INSTALL) server test
	touch $@ $(VENV)/.stamp-server-packages

# The runtime install (the engine and the server extra); the test install below also satisfies it.
$(VENV)/.stamp-run: $(VENV)/.stamp-engine $(VENV)/.stamp-server-packages
	touch $@

$(VENV)/.stamp-test: $(VENV)/.stamp-engine $(VENV)/.stamp-test-packages
	touch $@ $(VENV)/.stamp-run

# The contract's linters and the TypeScript client toolchain (npm packages, pinned by the lock file).
NODE_TOOLS := tests/contract/node
$(NODE_TOOLS)/node_modules/.stamp: $(NODE_TOOLS)/package-lock.json
	cd $(NODE_TOOLS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

venv: $(VENV)/.stamp-test

# gongzhu-service serve: nginx on PORT in front of gunicorn (gongzhu.server.front), nginx installed first.
run: $(VENV)/.stamp-run
	sh mk/nginx.sh
	PORT=$(PORT) exec $(BIN)/gongzhu-service serve

# The suite in two runs. First every test but the drills, on TEST_JOBS processes (a file's tests stay in
# one process, so its fixtures are built once; installers of tools and Debian packages take a lock).
# Then, alone, the drills: they time probes while they attack and kill servers, so no other test may
# load the machine ahead of them. Beside both, at the lowest CPU priority (nice 19: it runs on what the
# two runs leave idle, the drills' waits above all, and yields a core within a scheduler tick), the rules,
# bot and API tests (no live server, no clock in a seeded result) once more on the pure build: the same
# source, its compiled modules left out (bench/_builds.py). Its report follows the drills' ($(PURE_LOG)), and
# the last lines say which part passed (mk/summary.py).
SERIAL := faults
# Where the drills are (tests/conftest.py refuses one elsewhere): collecting only them saves collecting the suite again.
DRILLS := tests/faults
PURE_TESTS := tests/rules tests/solve tests/bot tests/api tests/ops/test_version.py::test_the_engine_build_is_read_from_where_each_engine_module_loads
PURE_LOG := build/pure-pass.log
test: $(VENV)/.stamp-test $(NODE_TOOLS)/node_modules/.stamp
	sh mk/nginx.sh
	$(if $(PYTEST_ARGS),,mkdir -p $(dir $(PURE_LOG)); nice -n 19 $(MAKE) --no-print-directory test-pure \
		> $(PURE_LOG) 2>&1 & pure=$$!;) \
	GONGZHU_EXPECT_ENGINE=$(EXPECT_ENGINE) $(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder \
		-m "not ($(SERIAL))" $(PYTEST_ARGS); main=$$?; \
	if [ $$main -eq 0 ] || [ $$main -eq 5 ]; then $(BIN)/python -m pytest -m "$(SERIAL)" $(or $(PYTEST_ARGS),$(DRILLS)); \
		drills=$$?; else drills=skipped; fi; \
	$(if $(PYTEST_ARGS),,wait $$pure; pure=$$?; echo "--- the pure pass ($(PURE_LOG))"; cat $(PURE_LOG);) \
	$(BIN)/python mk/summary.py "main run=$$main" "drills=$$drills" $(if $(PYTEST_ARGS),,"pure pass=$$pure")

# The pure pass waits on nothing (no server, no browser): one process a core.
PURE_JOBS ?= auto
# The engine build make test expects: pure with GONGZHU_PURE=1 at install time or no C compiler, else compiled.
EXPECT_ENGINE := $(if $(filter-out 0,$(GONGZHU_PURE)),pure,$(if $(shell command -v $${CC:-cc}),compiled,pure))
test-pure: $(VENV)/.stamp-test
	$(BIN)/python bench/_builds.py $(PURE_ROOT)
	GONGZHU_EXPECT_ENGINE=pure PYTHONPATH=$(CURDIR)/$(PURE_ROOT) $(BIN)/python -m pytest -n $(PURE_JOBS) \
		--dist loadfile --no-loadscope-reorder -m "not (live or faults or deploy or slow)" $(PURE_TESTS)

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check service tests bench sdk mk setup.py
	$(BIN)/mypy
	$(BIN)/actionlint .github/workflows/*.yml

# The inner loop: no server, no drill, no long property run.
test-fast: $(VENV)/.stamp-test $(NODE_TOOLS)/node_modules/.stamp
	$(BIN)/python -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder -m "not live and not faults and not deploy and not slow" $(PYTEST_ARGS)

# The Python and TypeScript SDKs, generated from openapi.yaml into build/sdk (tests/sdk checks them).
sdk: $(VENV)/.stamp-test $(NODE_TOOLS)/node_modules/.stamp
	$(BIN)/python sdk/build.py

# Spectral and Redocly on openapi.yaml, zero errors and zero warnings (also run by make test).
lint-contract: $(NODE_TOOLS)/node_modules/.stamp
	cd $(NODE_TOOLS) && npm run --silent lint

# Benchmarks and fault drills (print figures; see docs/performance.md).
bench-engine: $(VENV)/.stamp-test
	$(BIN)/python bench/perf/engine.py

bench-http: $(VENV)/.stamp-test
	$(BIN)/python bench/perf/http.py

soak: $(VENV)/.stamp-test
	$(BIN)/python bench/drills/soak.py --minutes $(or $(MINUTES),5)

faults: $(VENV)/.stamp-test
	$(BIN)/python bench/drills/faults.py

properties: $(VENV)/.stamp-test
	$(BIN)/python bench/drills/properties.py --deals $(or $(DEALS),100000) --jobs 2

arena: $(VENV)/.stamp-test
	$(BIN)/python -m bench.bot.arena --deals $(or $(DEALS),2000) --opponent $(or $(OPPONENT),heuristic) --budget-ms 20 $(ARENA_ARGS)

# (and the compiled engine an editable install builds in place, setup.py)
clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info $(NODE_TOOLS)/node_modules $(NODE_TOOLS)/build
	find service -name '*.so' -delete

# Deployment targets (Dockerfile, Helm) live in mk/*.mk.
-include mk/*.mk
