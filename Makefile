# Flipbook — the commands people run. `make demo` and `make test` are the README's first commands.
SWIFT      ?= swift
# Debian packages the build needs (C headers for libpng and zlib, pkg-config to find them).
APT_PKGS   := libpng-dev zlib1g-dev pkg-config
RELEASE    := $(SWIFT) build -c release
FLIPBOOK   := .build/release/flipbook

.PHONY: setup build release test demo bench bench-png clean

## setup: install the system packages that are missing (apt; uses sudo when not root)
setup:
	@missing=""; for p in $(APT_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: setup
	$(SWIFT) build

release: setup
	$(RELEASE) --product flipbook

## test: the whole test suite (debug build, parallel Swift Testing + XCTest)
test: setup
	$(SWIFT) test --parallel

## demo: render the bundled sample and say where the output went
demo: release
	@mkdir -p demo-out
	$(FLIPBOOK) pattern -o demo-out/pattern.png
	$(FLIPBOOK) info demo-out/pattern.png
	@echo "demo: wrote demo-out/pattern.png"

## bench: compositor + PNG benchmark suite (W1 W2 W3 W4, end to end, scaling sweeps), release build, < ~10 min
bench: release
	$(FLIPBOOK) bench --workload all

## bench-png: PNG encode throughput of the peers' W1 frame with each preset (release build)
bench-png: release
	$(FLIPBOOK) bench-png

clean:
	rm -rf .build demo-out
