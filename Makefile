# pipcam: build, run and test. `make help` lists the targets.
SWIFT ?= swift
ARGS ?=
# Extra flags for `swift test`, e.g. TEST_FLAGS='--filter HarnessTests'.
TEST_FLAGS ?=

.PHONY: help bootstrap build release run test clean bench bench-kernels
.DEFAULT_GOAL := build

help:
	@echo "make build     debug build"
	@echo "make release   release build (.build/release/pipcam)"
	@echo "make run       release build, then .build/release/pipcam \$$(ARGS), e.g. make run ARGS='--pip'"
	@echo "make test      install test tools if missing, build, run every test tier"
	@echo "make bench     pipcam vs mpv (and ffplay) side by side under Xvfb; writes BENCHMARKS.md (~10 min)"
	@echo "make bench-kernels  conversion kernels in ns/pixel (Benchmarks/ConvertBench)"
	@echo "make clean     remove build products"

bootstrap:
	scripts/bootstrap all

build:
	scripts/bootstrap build
	$(SWIFT) build

release:
	scripts/bootstrap build
	$(SWIFT) build -c release

run: release
	.build/release/pipcam $(ARGS)

# Tests run in parallel: each X test has its own Xvfb. Measured on 2 busy cores, the X
# harness tests took 4-6 s in parallel and 8-10 s with --no-parallel, with no flakes either way.
test: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(TEST_FLAGS)

clean:
	$(SWIFT) package clean

# Kernel timings first (their table goes into BENCHMARKS.md too), then the players side by side.
bench: release bench-kernels
	scripts/bench

bench-kernels:
	cd Benchmarks/ConvertBench && $(SWIFT) build -c release
	mkdir -p $${BENCH_DIR:-/tmp/pipcam-bench}
	Benchmarks/ConvertBench/.build/release/bench --markdown | tee $${BENCH_DIR:-/tmp/pipcam-bench}/kernels.md
