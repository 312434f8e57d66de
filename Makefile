# pipcam: build, run and test. `make help` lists the targets.
SWIFT ?= swift
comma := ,
ARGS ?=
# Extra flags for `swift test`, e.g. TEST_FLAGS='--filter HarnessTests'.
TEST_FLAGS ?=

.PHONY: help bootstrap build release run test test-main test-asan test-tsan test-sanitizers test-desktops test-vm test-package fuzz install deb dist clean bench bench-kernels
.DEFAULT_GOAL := build

help:
	@echo "make build     debug build"
	@echo "make release   release build (.build/release/pipcam)"
	@echo "make run       release build, then .build/release/pipcam \$$(ARGS), e.g. make run ARGS='--pip'"
	@echo "make test      install test tools if missing, build, run every test tier (then test-sanitizers)"
	@echo "make test-sanitizers  the pure and fake-device tiers under AddressSanitizer and ThreadSanitizer"
	@echo "make fuzz      libFuzzer targets of Fuzz/ (every parser of outside data), FUZZ_SECONDS each (default 60)"
	@echo "make install   install under PREFIX (default /usr/local): binary, man page, desktop entry, icons, completions"
	@echo "make deb       dist/pipcam_VERSION_ARCH.deb: installs without a Swift toolchain (apt install ./dist/pipcam_*.deb)"
	@echo "make dist      dist/pipcam-VERSION-linux-MACHINE.tar.gz: the same files with install.sh, for other distributions"
	@echo "make test-package  builds the .deb, lints it, installs it into a clean Debian 12 root (debootstrap) and runs it there"
	@echo "make test-desktops  the release binary under the desktops' window managers and XWayland; prints the matrix (DESKTOPS='kwin_x11 muffin')"
	@echo "make test-vm   real-driver tier: release build against vivid in a QEMU VM (VM_SCENARIOS='disconnect ...')"
	@echo "make bench     pipcam vs mpv, GStreamer and ffplay side by side under Xvfb, and switch times; writes BENCHMARKS.md (~30 min)"
	@echo "make bench-kernels  conversion kernels in ns/pixel (Benchmarks/ConvertBench)"
	@echo "make clean     remove build products"

bootstrap:
	scripts/bootstrap all

build:
	scripts/bootstrap build
	$(SWIFT) build

# What users run (and what make deb packages): the Swift runtime linked in, so the binary needs no
# toolchain, no $$ORIGIN library path (it has no libraries of its own), relocations read-only once loaded.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
release:
	scripts/bootstrap build
	$(SWIFT) build $(RELEASE_FLAGS)

run: release
	.build/release/pipcam $(ARGS)

# Tests run in parallel: each X test has its own Xvfb, so running them side by side is faster
# and no flakier than one at a time (docs/TESTING.md, "Running one test").
test: test-main
	$(if $(TEST_FLAGS),,$(MAKE) test-sanitizers)

# Tiers 1-3 (pure logic, fake device, real X) on the debug build.
test-main: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build $(TEST_FLAGS)

# The pure and fake-device tiers again under AddressSanitizer (the decoders and converters read
# and write through unsafe pointers) and the camera side under ThreadSanitizer (the capture
# thread, the two-thread JPEG decode). Own build directories, each building only what it tests
# (PIPCAM_BUILD_SCOPE, Package.swift); how long it takes: docs/TESTING.md.
# Leak checking is off: XCTest's runner and test fixtures keep memory to the end on purpose.
test-sanitizers: test-asan test-tsan

test-asan: bootstrap
	PIPCAM_BUILD_SCOPE=units $(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	PIPCAM_BUILD_SCOPE=units ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan \
		--filter 'PipCoreTests\.|MJPEGTests\.|PipConvertTests\.|CameraSourceTests\.|PipWindowTests\.|PipWaylandTests\.|PipControlTests\.|PipcamAppTests\.'

test-tsan: bootstrap
	PIPCAM_BUILD_SCOPE=camera $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	PIPCAM_BUILD_SCOPE=camera TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan \
		--filter 'PipCoreTests\.|MJPEGTests\.|CameraSourceTests\.'

# Coverage-guided fuzzing of the parsers (docs/TESTING.md, "Fuzzing"): the targets in Fuzz/ (a
# package of its own, so `swift build` here is untouched), built with AddressSanitizer, each run
# FUZZ_SECONDS (default 60) from Fuzz/Corpus; fails on any crash, leak, hang or OOM.
# scripts/fuzz TARGET... runs some only.
fuzz: bootstrap
	scripts/fuzz

# Installs what the packages hold (scripts/stage-tree: binary, man page, desktop entry, icons,
# AppStream data, completions, copyright) under $(PREFIX) (default /usr/local);
# BIN=path/to/pipcam installs an existing build instead of building a release one.
PREFIX ?= /usr/local
DESTDIR ?=
BIN ?=
install: $(if $(BIN),,release)
	scripts/stage-tree $(or $(BIN),.build/release/pipcam) $(DESTDIR)$(PREFIX)

# Packages for users without a Swift toolchain (docs/PACKAGING.md): a .deb whose Depends
# dpkg-shlibdeps computes, and a tarball with install.sh. BIN= packages an existing release build.
deb: $(if $(BIN),,release)
	scripts/bootstrap package
	scripts/package deb

dist: $(if $(BIN),,release)
	scripts/bootstrap package
	scripts/package dist

# The package tier (docs/TESTING.md, "The package tier"): lintian, appstreamcli and
# desktop-file-validate on the .deb, its file list, then apt-get install into a clean Debian 12 root
# (debootstrap, no Swift) and pipcam run there under Xvfb; the tarball installed there too. Root only.
test-package: deb dist
	scripts/test-package
# The desktop tier (docs/TESTING.md, "The desktop tier"): the release binary, as users run it, under
# xfwm4, mutter, kwin, marco, metacity, muffin, openbox, fluxbox and XWayland (mutter, kwin_wayland),
# each check held / not applicable / failed, then the matrix of docs/WINDOW-MANAGERS.md from the
# results. DESKTOPS='kwin_x11 muffin' runs those only. Fails if any check failed.
DESKTOPS ?=
test-desktops: release
	scripts/bootstrap desktops
	$(SWIFT) build --build-tests
	rm -rf .build/desktops
	PIPCAM_DESKTOPS=1 PIPCAM_DESKTOPS_ONLY='$(subst $(eval) ,$(comma),$(strip $(DESKTOPS)))' PIPCAM_BINARY=$(CURDIR)/.build/release/pipcam \
		$(SWIFT) test --skip-build --filter 'DesktopTierTests' || { scripts/desktop-matrix; exit 1; }
	scripts/desktop-matrix

# The real-driver tier: one QEMU boot (software emulation) with the kernel's vivid webcam, every
# scenario of VMScenarioTests (Tests/IntegrationTests/VM/) against .build/release/pipcam. Installs what it needs.
VM_SCENARIOS ?=
test-vm:
	scripts/vm-test $(VM_SCENARIOS)

clean:
	$(SWIFT) package clean
	rm -rf .build-asan .build-tsan .build-fuzz

# Kernel timings first (their table goes into BENCHMARKS.md too), then the players side by side.
bench: release bench-kernels
	scripts/bench-switch
	scripts/bench

# The kernels' MJPEG input, as `make bench` makes its own: 30 frames of a noisy test picture,
# 4:2:2 at q 4 ($(1): size; $(2): more encoder options); the restart-marker input is the same
# pictures with markers added losslessly (scripts/add-restart-markers).
KERNEL_MJPEG = ffmpeg -v error -y -f lavfi -i testsrc2=size=$(1):rate=30 -vf noise=alls=8:allf=t \
	-frames:v 30 -pix_fmt yuvj422p -c:v mjpeg -q:v 4 $(2) -f mjpeg

bench-kernels:
	scripts/bootstrap bench
	# SwiftPM can miss a file added to the package it takes by path (`cannot find 'X' in scope`):
	# then once more from a clean build directory.
	cd Benchmarks/ConvertBench && ($(SWIFT) build -c release || (rm -rf .build && $(SWIFT) build -c release))
	mkdir -p $${BENCH_DIR:-/tmp/pipcam-bench}
	jpeg=$${BENCH_DIR:-/tmp/pipcam-bench}/kernels-1920x1080-30.mjpeg; \
	[ -s $$jpeg ] || $(call KERNEL_MJPEG,1920x1080,) $$jpeg; \
	dri=$${BENCH_DIR:-/tmp/pipcam-bench}/kernels-dri-1920x1080-30.mjpeg; \
	[ -s $$dri ] || scripts/add-restart-markers $$jpeg $$dri; \
	uhd=$${BENCH_DIR:-/tmp/pipcam-bench}/kernels-3840x2160-30.mjpeg; \
	[ -s $$uhd ] || $(call KERNEL_MJPEG,3840x2160,) $$uhd; \
	Benchmarks/ConvertBench/.build/release/bench --markdown --mjpeg $$jpeg --mjpeg $$dri --mjpeg $$uhd | tee $${BENCH_DIR:-/tmp/pipcam-bench}/kernels.md
