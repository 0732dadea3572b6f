# Flipbook — the commands people run. `make demo` and `make test` are the README's first commands.
SWIFT      ?= swift
# Debian packages the build needs (C headers for libpng and zlib; libdeflate and ISA-L for
# PNG image data; libjpeg-turbo's TurboJPEG for JPEG images; FreeType, HarfBuzz, fontconfig and
# ICU for text; pkg-config to find them).
APT_PKGS   := libpng-dev zlib1g-dev libdeflate-dev libisal-dev libturbojpeg0-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev libicu-dev pkg-config
# Debian packages only the tests need: Chromium, in which the review page of `flipbook compare
# --report` is tested headless (Tests/FlipbookCLITests/ReviewPageBrowserTests.swift).
TEST_APT_PKGS := chromium
RELEASE    := $(SWIFT) build -c release
FLIPBOOK   := .build/release/flipbook
# The benchmark suite is a package of its own (Benchmarks/Package.swift), never part of the products.
BENCH      := $(SWIFT) run -c release --package-path Benchmarks flipbook-benchmarks

.PHONY: setup setup-test build release test test-asan test-tsan demo bench bench-png clean fuzz fuzz-plain

## setup: install the system packages that are missing (apt; uses sudo when not root)
setup:
	@missing=""; for p in $(SETUP_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

SETUP_PKGS = $(APT_PKGS)

## setup-test: setup, plus the packages the tests need (chromium)
setup-test: SETUP_PKGS = $(APT_PKGS) $(TEST_APT_PKGS)
setup-test: setup

build: setup
	$(SWIFT) build

release: setup
	$(RELEASE) --product flipbook

## fuzz: the coverage-guided fuzz targets (libFuzzer + ASan + UBSan: scene png jpeg lottie font compositor), FUZZ_SECONDS each (default 60), FUZZ_TARGETS to pick, FUZZ_JOBS at once; findings go to Tests/Fixtures/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= scene png jpeg lottie font compositor
FUZZ_JOBS    ?= 1
fuzz: setup
	JOBS=$(FUZZ_JOBS) bash Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## fuzz-plain: the plain mutation driver (no coverage feedback, no sanitizers) for toolchains without libFuzzer (Xcode's on macOS)
fuzz-plain: setup
	bash Fuzz/run-plain.sh $(FUZZ_SECONDS)

## test: the whole test suite (debug build, parallel Swift Testing + XCTest)
test: setup-test
	@# A smoke run of the benchmark suite first (the Benchmarks package, debug build: two frames
	@# of W2, so the suite cannot rot; it never fails on timing); then the test suite, whose
	@# summary is the closing line.
	$(SWIFT) run --package-path Benchmarks flipbook-benchmarks --workload w2 --frames 2 --warmups 0
	@# A short, fixed-seed pass of each fuzz target (Fuzz/, docs/fuzzing.md) with the plain
	@# driver — deterministic, so a failure here is a regression, not luck; the coverage-guided
	@# libFuzzer runs (`make fuzz`) need a sanitizer build of their own and run outside CI.
	$(SWIFT) build --package-path Fuzz
	@F=$$($(SWIFT) build --package-path Fuzz --show-bin-path)/flipbook-fuzz; \
	$$F scene --runs 300 --seed 1 --corpus samples/scenes --out /tmp/flipbook-fuzz-ci && \
	$$F png --runs 1500 --seed 1 --corpus Tests/FlipbookPNGTests/Fixtures --out /tmp/flipbook-fuzz-ci && \
	$$F jpeg --runs 1500 --seed 1 --corpus Tests/FlipbookJPEGTests/Fixtures --out /tmp/flipbook-fuzz-ci && \
	$$F compositor --runs 1500 --seed 1 --corpus samples/scenes --out /tmp/flipbook-fuzz-ci && \
	$$F lottie --runs 60 --seed 1 --corpus Tests/Fixtures/lottie/fixtures --corpus Tests/Fixtures/lottie/fuzz-seeds --out /tmp/flipbook-fuzz-ci && \
	$$F font --runs 300 --seed 1 --corpus Fuzz/seeds/font --out /tmp/flipbook-fuzz-ci
	$(SWIFT) test --parallel

# The test suite under sanitizers (docs/sanitizers.md). Each builds into its own scratch folder
# (.build-asan, .build-tsan) so the everyday .build stays valid.
#
# Kernels: the C kernels pick AVX-512 at run time where the CPU has it, and the raster tests
# already compare every native kernel (AVX2 and AVX-512, called directly) with its portable
# Swift twin in one process. The whole suite runs once with the defaults; then the suites that
# reach the kernels through the dispatch (raster, pixels, graphics, compositor and recorder)
# run again with FLIPBOOK_AVX512=off (the AVX2 kernels behind every dispatch) and with
# FLIPBOOK_SIMD=portable (the Swift kernels behind every compositor path).
SAN_KERNEL_SUITES := FlipbookRasterTests|FlipbookPixelsTests|FlipbookGraphicsTests|FlipbookRenderTests
# Options are spelled out: stop at the first report (halt_on_error); leaks checked at every
# process exit, with the commented entries of Tests/sanitizers/lsan.supp: XCTest's and the
# Swift runtime's noise and, for now, the test runner's own exit report (Foundation leaks and
# enum-tagged pointers LeakSanitizer cannot follow; docs/sanitizers.md) — every program the
# tests start (`flipbook`, the samples) is fully checked.
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/sanitizers/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# swiftc has no -sanitize=undefined on Linux: Swift code gets AddressSanitizer (and Swift's
# own overflow and bounds traps); the C targets (CFlipbookKernels, CFlipbookPNG, CFlipbookText,
# CFlipbookSystem) get AddressSanitizer and UndefinedBehaviorSanitizer, which aborts on the
# first finding (the ASan runtime carries UBSan's).
ASAN_FLAGS := --scratch-path .build-asan --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined

## test-asan: the whole suite under AddressSanitizer (+ UBSan for the C targets), then the kernel suites with FLIPBOOK_AVX512=off and FLIPBOOK_SIMD=portable
test-asan: setup-test
	$(SWIFT) build --build-tests $(ASAN_FLAGS)
	$(ASAN_ENV) $(SWIFT) test --skip-build $(ASAN_FLAGS) --parallel
	$(ASAN_ENV) FLIPBOOK_AVX512=off $(SWIFT) test --skip-build $(ASAN_FLAGS) --parallel --filter '$(SAN_KERNEL_SUITES)'
	$(ASAN_ENV) FLIPBOOK_SIMD=portable $(SWIFT) test --skip-build $(ASAN_FLAGS) --parallel --filter '$(SAN_KERNEL_SUITES)'

TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/Tests/sanitizers/tsan.supp
# SwiftPM compiles the C targets with -fsanitize=thread too (swift build -v shows it).
TSAN_FLAGS := --scratch-path .build-tsan --sanitize=thread

## test-tsan: the whole suite under ThreadSanitizer (Swift and C), then the kernel suites with FLIPBOOK_AVX512=off and FLIPBOOK_SIMD=portable
test-tsan: setup-test
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	$(TSAN_ENV) $(SWIFT) test --skip-build $(TSAN_FLAGS) --parallel
	$(TSAN_ENV) FLIPBOOK_AVX512=off $(SWIFT) test --skip-build $(TSAN_FLAGS) --parallel --filter '$(SAN_KERNEL_SUITES)'
	$(TSAN_ENV) FLIPBOOK_SIMD=portable $(SWIFT) test --skip-build $(TSAN_FLAGS) --parallel --filter '$(SAN_KERNEL_SUITES)'

## demo: render the default demo (text layers, layers, a transition, shadows, shape and gradient layers, a replicator; 3 s at 30 fps, 720p) to PNG frames (+ MP4 with ffmpeg), and the Lottie sample
demo: release
	@rm -rf demo-out/frames && mkdir -p demo-out/frames
	$(FLIPBOOK) render samples/scenes/demo.json -o demo-out/frames
	@if command -v ffmpeg >/dev/null 2>&1; then \
	  $(FLIPBOOK) render samples/scenes/demo.json --format mp4 -o demo-out/demo.mp4 --quiet && \
	  echo "demo: MP4 in demo-out/demo.mp4" && \
	  $(FLIPBOOK) render samples/lottie/LottieLogo1.json -o demo-out/lottie-logo.mp4 --quiet && \
	  echo "demo: a Lottie file (samples/lottie/LottieLogo1.json) in demo-out/lottie-logo.mp4"; \
	else \
	  echo "demo: ffmpeg not on PATH, no MP4 (install ffmpeg for one)"; \
	  $(FLIPBOOK) render samples/lottie/LottieLogo1.json --still 100 -o demo-out/lottie-logo.png --quiet && \
	  echo "demo: a Lottie file's frame 100 (samples/lottie/LottieLogo1.json) in demo-out/lottie-logo.png"; \
	fi
	@echo "demo: PNG frames in demo-out/frames/ (frame_00000.png … frame_00089.png)"

## bench: the benchmark suite (Benchmarks/: W1 W2 W3 W4 W6a W6b W7, end to end, the rasterizer alone, scaling sweeps), release build, < ~12 min
bench: setup
	$(BENCH) --workload all

## bench-png: PNG encode throughput of the peers' W1 frame with each preset and raw knobs (release build)
bench-png: setup
	$(BENCH) png

## soak: record the soak scene (every layer class, text, shadows, transitions, an emitter; 1080p) for SOAK_SECONDS (default 120) to a ring of PNG files and an MP4, sampling RSS and time per frame every 100 frames; fails on memory growth or time drift (docs/soak.md). CSV and SVG plot in SOAK_OUT
SOAK_SECONDS ?= 120
SOAK_THREADS ?= 1
SOAK_OUT     ?= soak-out
.PHONY: soak
soak: setup
	@# Release build of the benchmark package, then one recording: PNG ring (300 files) + MP4 in
	@# one pass. The plot is drawn whether or not the run passed; the exit status is the run's.
	$(SWIFT) build -c release --package-path Benchmarks --product flipbook-benchmarks
	@B=$$($(SWIFT) build -c release --package-path Benchmarks --show-bin-path)/flipbook-benchmarks; \
	$$B soak --seconds $(SOAK_SECONDS) --threads $(SOAK_THREADS) --out $(SOAK_OUT); status=$$?; \
	python3 scripts/soak-plot.py $(SOAK_OUT)/soak.csv $(SOAK_OUT)/soak.svg && echo "soak: plot in $(SOAK_OUT)/soak.svg"; \
	exit $$status

clean:
	rm -rf .build .build-asan .build-tsan .build-libfuzzer Benchmarks/.build demo-out soak-out
