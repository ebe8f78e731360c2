# tickerd — build, test, demo and install.
#
#   make demo      build release, start a private bus and show the ticker moving in this terminal
#   make test      install what the tests need (apt), build, run every test
#   make install   install binaries and service files (PREFIX, DESTDIR)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

# Swift lives in /opt/swift on these machines; use it when it is not already on PATH.
ifneq ($(wildcard /opt/swift/usr/bin/swift),)
export PATH := /opt/swift/usr/bin:$(PATH)
endif

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
SWIFT_BUILD_FLAGS ?=
CONFIG ?= debug

# Debian packages the build and the tests need.
DEB_PACKAGES := pkg-config libdbus-1-dev libsystemd-dev dbus-daemon dbus-bin libglib2.0-bin \
                systemd unicode-data tzdata procps util-linux

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# Extra Debian packages of `make test-panels` (a real polybar under Xvfb, gjs for the GNOME extension).
PANEL_DEB_PACKAGES := gjs xvfb polybar imagemagick fonts-dejavu-core

.PHONY: all deps build release test test-swift test-panels demo install clean

all: build

## deps: install the Debian packages the build and tests need (quiet when already there)
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release: deps
	$(SWIFT) build -c release $(SWIFT_BUILD_FLAGS)

## test: everything CI runs
test: deps test-swift

test-swift:
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

## test-panels: polybar under Xvfb and the GNOME extension's timeline.js under gjs, against tickerd
test-panels: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PANEL_DEB_PACKAGES)"
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)
	contrib/tests/panel-tests.sh

demo: release
	@scripts/demo.sh

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 .build/release/tickerd $(DESTDIR)$(PREFIX)/bin/tickerd
	install -m 0755 .build/release/tickerctl $(DESTDIR)$(PREFIX)/bin/tickerctl

clean:
	rm -rf .build
