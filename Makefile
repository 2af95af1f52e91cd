# gauged: set-up, build and test entry points. GNU make.
#
#   make run    install what is missing, build release, start the server
#   make run-cluster   the same, three gauged on one NATS JetStream cluster
#   make test   install what is missing, then every check CI runs
#
# Variables: BUILD_DIR (SwiftPM scratch path, default .build), LISTEN (default
# 127.0.0.1:50051), ARGS (extra gauged flags), PYTEST_ARGS (extra pytest flags),
# QUICK=1 (make bench in about a minute), SCENARIO (make profile), BENCH_ARGS
# (extra scripts/bench flags), SANITIZE_DIR (scratch path of the
# AddressSanitizer build, default BUILD_DIR-asan), FUZZ_SECONDS (per fuzz
# target, default 60), FUZZ_DIR (scratch path of the fuzzer build, default
# BUILD_DIR-fuzz).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.NOTPARALLEL:

# The toolchain lives in /opt/swift on our machines; use it when it is not on PATH.
ifeq ($(shell command -v swift 2>/dev/null),)
  ifneq ($(wildcard /opt/swift/usr/bin/swift),)
    export PATH := $(PATH):/opt/swift/usr/bin
  endif
endif

SWIFT ?= swift
PYTHON ?= python3
BUILD_DIR ?= .build
LISTEN ?= 127.0.0.1:50051
ARGS ?=
PYTEST_ARGS ?=
QUICK ?=
SCENARIO ?= unary
BENCH_ARGS ?=
SANITIZE_DIR ?= $(BUILD_DIR)-asan
FUZZ_SECONDS ?= 60
FUZZ_DIR ?= $(BUILD_DIR)-fuzz

VENV := .venv
VENV_PY := $(VENV)/bin/python
VENV_STAMP := $(VENV)/.gauged-stamp
E2E_REQUIREMENTS := Tests/e2e/requirements.txt

SWIFT_BUILD := $(SWIFT) build --scratch-path $(BUILD_DIR)
FORMAT_PATHS := Sources Tests Package.swift Examples

.PHONY: help deps venv build release run run-cluster host-metrics protos check-protos web-assets check-web-assets web-unit screenshots bench-dashboard format lint unit e2e sanitize fuzz fuzz-check test bench profile clean-venv

help:
	@echo "make run           deps + release build, then start gauged on $(LISTEN) (ARGS=... for more flags)"
	@echo "make run-cluster   deps + release build, then three nats-server nodes and three gauged on"
	@echo "                   127.0.0.1:50051-50053 sharing one bucket (ARGS=... for more gauged flags)"
	@echo "make test          deps + venv + check-protos + check-web-assets + lint + build + unit + web-unit + e2e"
	@echo "                   + sanitize + fuzz-check (what CI runs)"
	@echo "make deps          install missing Debian packages"
	@echo "make venv          Python virtualenv for the e2e tests ($(VENV))"
	@echo "make build|release debug | release swift build (BUILD_DIR=$(BUILD_DIR))"
	@echo "make host-metrics  run Examples/host-metrics against \$$GAUGED_SERVER (ARGS=--server ADDRESS)"
	@echo "make protos        regenerate Sources/GaugeProtos from proto/"
	@echo "make check-protos  fail when Sources/GaugeProtos is stale"
	@echo "make web-assets    re-embed web/ into Sources/GaugeWebAssets (check-web-assets: fail when stale)"
	@echo "make web-unit      node --test on the dashboard's modules (Tests/web)"
	@echo "make screenshots   docs/screenshots from headless Chromium (every style and family, light and dark)"
	@echo "make format|lint   swift format in place | lint --strict"
	@echo "make unit|e2e      swift test | pytest Tests/e2e against $(BUILD_DIR)/debug/gauged"
	@echo "make sanitize      unit and e2e tests again under AddressSanitizer, leaks checked ($(SANITIZE_DIR))"
	@echo "make fuzz          libFuzzer on each harness for FUZZ_SECONDS (default 60), under AddressSanitizer"
	@echo "make fuzz-check    the fuzzer build, each corpus input once (no fuzzing)"
	@echo "make bench         release build, every benchmark scenario, bench/results.md (QUICK=1: ~1 min),"
	@echo "                   then bench-dashboard: 1,000 widgets in headless Chromium, bench/dashboard.md"
	@echo "make profile       one scenario (SCENARIO=unary|publish|fanout|connections|store) under perf"

deps:
	@scripts/install-deps

$(VENV_STAMP): $(E2E_REQUIREMENTS)
	@scripts/make-venv "$(VENV)" "$(E2E_REQUIREMENTS)" "$(PYTHON)"
	@touch $@

venv: $(VENV_STAMP)

clean-venv:
	rm -rf $(VENV)

build:
	$(SWIFT_BUILD)

release:
	$(SWIFT_BUILD) -c release

run: deps release
	exec $(BUILD_DIR)/release/gauged --listen $(LISTEN) $(ARGS)

# Three nats-server nodes (JetStream, routed on loopback, data in a temporary
# directory) and three gauged on ports 50051-50053 on one bucket, replicas 3.
run-cluster: deps release
	GAUGED=$(BUILD_DIR)/release/gauged ARGS="$(ARGS)" exec scripts/run-cluster

# The client library's example: this host's metrics as gauges, every second,
# to --server (default $GAUGED_SERVER, then 127.0.0.1:50051).
host-metrics: build
	exec $(BUILD_DIR)/debug/host-metrics $(ARGS)

protos:
	scripts/generate-protos

check-protos:
	scripts/generate-protos --check

web-assets:
	scripts/generate-web-assets

check-web-assets:
	scripts/generate-web-assets --check

# The drawing and model modules need no browser: Node's own test runner.
web-unit:
	node --test Tests/web/

screenshots: venv build
	$(VENV_PY) scripts/screenshots --gauged "$(abspath $(BUILD_DIR))/debug/gauged"

format:
	$(SWIFT) format format --in-place --recursive $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

unit:
	$(SWIFT) test --scratch-path $(BUILD_DIR)

e2e: venv build
	GAUGED_BIN="$(abspath $(BUILD_DIR))/debug/gauged" $(VENV_PY) -m pytest Tests/e2e $(PYTEST_ARGS)

sanitize: venv
	SWIFT="$(SWIFT)" scripts/sanitize "$(SANITIZE_DIR)" "$(abspath $(VENV_PY))" $(PYTEST_ARGS)

fuzz:
	SWIFT="$(SWIFT)" scripts/fuzz "$(FUZZ_DIR)" "$(FUZZ_SECONDS)"

# The fuzzer build, each corpus input run once: no fuzzing, so no chance.
fuzz-check:
	SWIFT="$(SWIFT)" scripts/fuzz "$(FUZZ_DIR)" 0

# Order matters; .NOTPARALLEL keeps it even under -j.
test: deps venv check-protos check-web-assets lint build unit web-unit e2e sanitize fuzz-check

bench: deps venv
	$(PYTHON) scripts/bench --build-dir $(BUILD_DIR) $(if $(QUICK),--quick) $(BENCH_ARGS)
	$(MAKE) bench-dashboard

# The page, not the server, is what this measures; it runs the release build
# `make bench` made (or the debug one when there is none).
bench-dashboard: venv
	$(VENV_PY) scripts/bench-dashboard $(if $(QUICK),--seconds 3) \
	  --gauged "$(abspath $(BUILD_DIR))/$(if $(wildcard $(BUILD_DIR)/release/gauged),release,debug)/gauged"

profile: deps
	$(PYTHON) scripts/bench --build-dir $(BUILD_DIR) $(if $(QUICK),--quick) --profile $(SCENARIO) $(BENCH_ARGS)
