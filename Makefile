# Marquee: `make run` sets everything up and serves the sample; `make test` runs the whole suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
MARQUEE := $(BIN)/marquee
export PATH := $(PATH):/usr/sbin:/sbin

.DEFAULT_GOAL := help

help: ## Show this menu
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

deps: ## Install nginx (with its Lua module), redis-server, wrk and libzstd from Debian packages when missing
	@missing=""; \
	command -v nginx >/dev/null || missing="$$missing nginx"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v wrk >/dev/null || missing="$$missing wrk"; \
	test -e /usr/lib/nginx/modules/ngx_http_lua_module.so || missing="$$missing libnginx-mod-http-lua"; \
	test -e /usr/share/lua/5.1/resty/core.lua || missing="$$missing lua-resty-core"; \
	ldconfig -p 2>/dev/null | grep -q 'libzstd\.so\.1 ' || missing="$$missing libzstd1"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "Marquee needs these Debian packages:$$missing"; \
	       echo "Install them as root: apt-get install -y$$missing   (then run make again)"; exit 1; fi; \
	  echo "installing$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	  for service in nginx redis-server; do $$SUDO service $$service stop >/dev/null 2>&1 || true; done; \
	fi

browser: ## Install Debian's headless Chromium for the docs page's browser test, when missing and root can
	@command -v chromium-headless-shell >/dev/null || command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; \
	  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; \
	  else echo "no Chromium: the docs page's browser test will skip (apt-get install chromium-headless-shell)"; exit 0; fi; \
	  echo "installing chromium-headless-shell"; \
	  { $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends \
	      chromium-headless-shell >/dev/null; } || echo "chromium-headless-shell could not be installed: the browser test will skip"; }

# uv installs the ~90 packages in 13 s where pip takes ~40 s here (docs/benchmarks.md), compiled to
# bytecode as pip does (without it every process compiles what it imports: 3x slower to start). pip
# stays in the venv, and installs them itself if uv cannot be had.
$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install -q uv && $(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[test,bench]' \
		|| $(BIN)/pip install -q -e '.[test,bench]'
	@touch $@

venv: $(VENV)/.installed ## Create .venv and install Marquee with its Python dependencies

sample: deps venv ## Generate the bundled sample catalogue, build it and publish it
	$(MARQUEE) generate
	$(MARQUEE) build

build: venv ## Render a new release from the catalogue (MARQUEE_CATALOGUE_DIR, or DATASET=folder) and publish it
	$(MARQUEE) build $(if $(DATASET),--dataset $(DATASET))

rollback: venv ## Serve the previously published release again
	$(MARQUEE) rollback

run: sample ## Install, build the sample and serve it on loopback (Ctrl-C stops)
	$(MARQUEE) serve

# The suite's workers (pytest-xdist): one per core by default; TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= auto
# The plugins the suite uses, named: pytest's autoload marks every package of every installed plugin
# for assertion rewriting (schemathesis, hypothesis, anyio: ~350 modules, ~2 s a process here).
TEST_PLUGINS = xdist.plugin,pytest_timeout,schemathesis.pytest.plugin,_hypothesis_pytestplugin

test: deps browser venv lint ## Lint, then run the whole test suite (starts real redis-server and nginx on free ports)
	PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 PYTEST_PLUGINS=$(TEST_PLUGINS) \
		$(BIN)/python -m pytest -q --durations=15 -n $(TEST_WORKERS) --dist loadgroup

lint: venv ## ruff: the lint rules and the format of pyproject.toml (ruff format . rewrites what fails)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: deps venv ## First image requests, append and composite costs, then the hot path against bare nginx and a Zipf mix (BENCH_MOVIES, BENCH_RELEASE)
	$(BIN)/python -m bench.images
	$(BIN)/python -m bench.append_cost
	$(BIN)/python -m bench.hot_path --zipf $(if $(BENCH_MOVIES),--movies $(BENCH_MOVIES)) $(if $(BENCH_RELEASE),--release $(BENCH_RELEASE))

bench-build: venv ## Build cached generated catalogues (2,000 and 10,000 movies, or BENCH_BUILD_SCALES=1000000): time, GB, memory, rebuild
	$(BIN)/python -m bench.build_scale $(BENCH_BUILD_SCALES) $(BENCH_BUILD_FLAGS)

bench-search: deps venv ## Search and find at 100k movies (BENCH_SEARCH_MOVIES): p99 and throughput against details
	$(BIN)/python -m bench.search --movies $(or $(BENCH_SEARCH_MOVIES),100000)

bench-discover: deps venv ## Discover at 100k movies (BENCH_DISCOVER_MOVIES): p99 and throughput against details
	$(BIN)/python -m bench.discover --movies $(or $(BENCH_DISCOVER_MOVIES),100000)

bench-imports: venv ## Import throughput (rows/s) and memory of each importer at 50k and 500k titles; 10M projected
	$(BIN)/python -m bench.imports

load: venv ## Load-test a running `make run` with its own keys; report in var/load (LOAD_USERS=50 LOAD_RATE=10 LOAD_TIME=1m LOAD_HOST)
	$(BIN)/python -m loadtests.run $(if $(LOAD_USERS),--users $(LOAD_USERS)) $(if $(LOAD_RATE),--rate $(LOAD_RATE)) \
	  $(if $(LOAD_TIME),--time $(LOAD_TIME)) $(if $(LOAD_HOST),--host $(LOAD_HOST))

clean: ## Remove the state folder (releases, registry, logs) and the venv
	rm -rf var $(VENV)

.PHONY: help deps browser venv sample build rollback run test bench bench-build bench-search bench-discover bench-imports load clean
