# tickerd — build, test, demo and install.
#
#   make demo      build release, start a private bus and show the ticker moving in this terminal
#   make test      install what the tests need (apt), build, run every test
#   make bench     build release and run the daemon-level benchmarks (tickerd-bench: the real
#                  tickerd on a private bus) and the in-process ones (Benchmarks/); takes minutes
#   make bench-smoke
#                  the daemon-level harness with tiny sizes against the debug build (seconds)
#   make soak      the long load run of issue 10, release build: 200 subscribers at 30 fps for 60 s
#                  plus a Post every 10 ms (tickerd-bench --soak; SOAK_FLAGS changes the sizes)
#   make fuzz      build the libFuzzer targets (Fuzz/) and fuzz each parser for FUZZ_SECONDS
#                  (default 300); new corpus entries and crashers go to .build-fuzz/work
#   make fuzz-smoke
#                  the same for FUZZ_SMOKE_SECONDS (default 10) each, from the seed corpora only
#   make sanitize  the Swift test suite under AddressSanitizer (+LeakSanitizer) and under
#                  ThreadSanitizer, each in its own scratch path (.build-asan, .build-tsan)
#   make install   build release and install binaries, units, bus policy, activation files,
#                  interface XML, man pages, completions and an example config (PREFIX, DESTDIR)
#   make install-user
#                  install for one desktop user under ~/.local: binaries, the user unit and the
#                  session bus activation file (starts nothing)
#   make deb       build the Debian package (debian/) into .build-deb/ and run lintian on it
#   make test-deb  the package on a clean Debian 12 root (debootstrap, chroot): install, run,
#                  upgrade, purge; part of `make test` when debian/ or the install rules changed

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

# Debian packages the build and the tests need. toml++ (libtomlplusplus-dev, header-only) reads TOML.
# tickerd-sources fetches feeds and calendars with libcurl (libcurl4-openssl-dev, Sources/CCurl);
# it reads XML feeds with libxml2 (libxml2-dev, Sources/CLibXML2).
# Tests: systemd (systemd-analyze, systemd-sysusers), man-db + groff-base (systemd-analyze verify
# looks up Documentation=man: pages; man page lint), dbus-system-bus-common (dbus.socket for verify),
# passwd (useradd) and util-linux (setpriv) for the policy tests' accounts, python3-gi for the
# stand-in bus owner, strace for the syscall filter test, libxml2 for FoundationXML, python3 for
# the width-table generator check and the journal collector. The sources tests: mpv with Debian's
# mpv-mpris plugin (real MPRIS players), libnotify-bin (notify-send), xdg-utils (tickerctl activate),
# libical-dev for the calendar source, python3-venv for the test virtualenv (PYTHON_TEST_PACKAGES)
# and libcurl4 for fetching (feeds and calendar URLs); libmosquitto-dev for the MQTT
# source, and for its fleet tests the real broker (mosquitto), its clients (mosquitto-clients:
# mosquitto_pub, mosquitto_sub, mosquitto_passwd is in mosquitto) and openssl for test certificates.
DEB_PACKAGES := pkg-config libdbus-1-dev libsystemd-dev dbus-daemon dbus-bin libglib2.0-bin \
                systemd unicode-data tzdata procps util-linux \
                dbus-system-bus-common man-db groff-base passwd python3-gi gir1.2-glib-2.0 \
                strace libxml2 python3 \
                mpv mpv-mpris libnotify-bin xdg-utils \
                libical-dev python3-venv libcurl4 libcurl4-openssl-dev libxml2-dev \
                libmosquitto-dev mosquitto mosquitto-clients openssl libtomlplusplus-dev

# What building needs (the system libraries' development files: libcurl's for fetching, libxml2's
# for reading feeds, toml++'s headers for reading TOML) and what `make demo` runs (dbus-daemon, busctl from systemd).
BUILD_DEB_PACKAGES := pkg-config libdbus-1-dev libsystemd-dev libical-dev libmosquitto-dev \
                      libcurl4-openssl-dev libxml2-dev libtomlplusplus-dev dbus-daemon systemd

# PyPI packages of the tests, in a virtualenv under .build-pyenv (make python-test-deps): the
# independent implementations the calendar and feed parsers are compared with (feedparser has no
# JSON Feed support in any release, so JSON Feed is compared with jsonfeed-util), and jsonschema,
# which checks docs/fleet-message.schema.json against the MQTT source's own payload reader.
PYTHON_TEST_PACKAGES := recurring-ical-events==3.8.2 icalendar==7.3.2 feedparser==6.0.14 jsonfeed-util==1.2.0 \
                        jsonschema==4.26.0
PYTHON_TEST_VENV := .build-pyenv

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# Extra Debian packages of `make test-panels` (a real polybar under Xvfb, gjs for the GNOME extension,
# a headless gnome-shell with numpy and GdkPixbuf to read its screenshots; a real waybar under a
# headless sway with grim for screenshots, and the fonts of wide text; i3blocks in swaybar, its
# clicks heard with dbus-monitor and their links opened with xdg-open).
PANEL_DEB_PACKAGES := gjs xvfb polybar imagemagick fonts-dejavu-core gnome-shell python3-numpy gir1.2-gdkpixbuf-2.0 \
                      sway waybar grim fonts-noto-cjk fonts-noto-color-emoji i3blocks dbus-bin xdg-utils

# Extra Debian packages of the Plasma widget's test: plasmoidviewer (plasma-sdk) needs the desktop
# containment (plasma-desktop) and the executable data engine (plasma-workspace); xdotool clicks,
# dbus-monitor (dbus-bin) watches the bus,
# python3-pil and python3-numpy read the screenshots; the CJK and emoji fonts draw the wide text;
# python3-pyqt5.qtquick shows the settings page in a window of its own (plasma-config.py).
PLASMA_DEB_PACKAGES := plasma-sdk plasma-desktop plasma-workspace xvfb xdotool imagemagick dbus-bin \
                       fonts-dejavu-core python3-pil python3-numpy fonts-noto-cjk fonts-noto-color-emoji \
                       python3-pyqt5.qtquick

# The Plasma widget (contrib/plasma): one package per Plasma major version, assembled from its own
# files, the shared QML/JS (contrib/plasma/common) and the shared Timeline rules (contrib/js).
PLASMOID_ID    := io.github.tickerd.ticker
PLASMOID_BUILD := .build/plasmoid
TIMELINE_JS    := contrib/js/timeline.js
PLASMA_MAJOR   ?= 5

.PHONY: plasmoid install-plasmoid test-plasma
.PHONY: deb test-deb test-deb-if-changed all deps build-deps build release bench bench-smoke soak test test-swift test-panels fuzz fuzz-smoke python-test-deps \
        sanitize sanitize-address sanitize-thread gnome-extension install-gnome-extension demo install install-completions install-user clean

all: build

## deps: install the Debian packages the build and tests need (quiet when already there)
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  $(SUDO) apt-get -o DPkg::Lock::Timeout=900 update -qq; \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

## build-deps: only what building the binaries and `make demo` need (development files, the bus
# daemon, busctl): `make demo`, `make install` and `make install-user` on a desktop install no
# test tools (no mosquitto broker, no mpv); `make test` installs DEB_PACKAGES.
build-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(BUILD_DEB_PACKAGES)"

build: build-deps
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

# Release binaries carry the Swift runtime (--static-swift-stdlib), so an installed tickerd needs
# only Debian's libdbus-1 and libsystemd, not the toolchain.
release: build-deps
	$(SWIFT) build -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)

## bench: the daemon's figures and the in-process ones, release build (docs/benchmarks.md explains them)
# BENCH_FLAGS passes options to tickerd-bench (see tickerd-bench --help), e.g. BENCH_FLAGS="--window 10".
BENCH_FLAGS ?=
bench: deps
	$(SWIFT) build -c release --static-swift-stdlib --product tickerd $(SWIFT_BUILD_FLAGS)
	$(SWIFT) build -c release --static-swift-stdlib --product tickerd-bench $(SWIFT_BUILD_FLAGS)
	"$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/tickerd-bench" $(BENCH_FLAGS)
	cd Benchmarks && $(SWIFT) package benchmark

## bench-smoke: the daemon-level harness with tiny sizes and 2 s windows, debug build
bench-smoke: deps
	$(SWIFT) build --product tickerd $(SWIFT_BUILD_FLAGS)
	$(SWIFT) build --product tickerd-bench $(SWIFT_BUILD_FLAGS)
	"$$($(SWIFT) build --show-bin-path)/tickerd-bench" --smoke

## soak: the long load run (issue 10), release build; exits non-zero when a verdict is missed.
# SOAK_FLAGS passes options to tickerd-bench --soak, e.g. SOAK_FLAGS="--subscribers 400 --duration 600".
SOAK_FLAGS ?=
soak: deps
	$(SWIFT) build -c release --static-swift-stdlib --product tickerd $(SWIFT_BUILD_FLAGS)
	$(SWIFT) build -c release --static-swift-stdlib --product tickerd-bench $(SWIFT_BUILD_FLAGS)
	"$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path)/tickerd-bench" --soak $(SOAK_FLAGS)

## test: everything CI runs
test: deps test-swift test-panels test-deb-if-changed fuzz-smoke
	@$(MAKE) --no-print-directory sanitize SANITIZE_LEAKS=0

test-swift: python-test-deps
	$(SWIFT) build --build-tests $(SWIFT_BUILD_FLAGS)
	$(SWIFT) test --skip-build $(SWIFT_BUILD_FLAGS)

## python-test-deps: the test virtualenv (.build-pyenv) with PYTHON_TEST_PACKAGES from PyPI
python-test-deps: $(PYTHON_TEST_VENV)/installed

$(PYTHON_TEST_VENV)/installed: Makefile
	@rm -rf $(PYTHON_TEST_VENV)
	/usr/bin/python3 -m venv $(PYTHON_TEST_VENV)
	$(PYTHON_TEST_VENV)/bin/pip install -q --disable-pip-version-check $(PYTHON_TEST_PACKAGES)
	@touch $@

## fuzz: the parsers under libFuzzer for FUZZ_SECONDS each (docs/fuzzing.md)
FUZZ_SECONDS ?= 300
FUZZ_SMOKE_SECONDS ?= 10
fuzz: deps
	@bin=$$(Fuzz/build.sh | tail -n 1); FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh "$$bin"

## fuzz-smoke: every target for FUZZ_SMOKE_SECONDS, starting from the seed corpora (part of test)
fuzz-smoke: deps
	@bin=$$(Fuzz/build.sh | tail -n 1); rm -rf .build-fuzz/smoke; \
	  FUZZ_SECONDS=$(FUZZ_SMOKE_SECONDS) FUZZ_WORK=.build-fuzz/smoke Fuzz/run.sh "$$bin"

## sanitize: the test suite under ASan and TSan; tests that start tickerd start the sanitized one
sanitize: sanitize-address sanitize-thread

# Leak reports in code that is not ours are suppressed narrowly; sanitizers/*.supp say why.
# SANITIZE_LEAKS=0 (what `make test` uses) keeps ASan's memory errors fatal but not LeakSanitizer's
# reports: in the test process itself, Foundation's and the runtime's objects at exit are reported
# in some runs and not others, and LSan does not extend a suppression to a suppressed root's
# indirect leaks (docs/fuzzing.md). `make sanitize` alone and the fuzz targets check leaks.
SANITIZE_LEAKS ?= 1
ASAN_ENV := ASAN_OPTIONS=detect_leaks=$(SANITIZE_LEAKS) LSAN_OPTIONS=suppressions=$(CURDIR)/sanitizers/lsan.supp:print_suppressions=0
TSAN_ENV := TSAN_OPTIONS=suppressions=$(CURDIR)/sanitizers/tsan.supp

sanitize-address: deps python-test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(SWIFT_BUILD_FLAGS)

sanitize-thread: deps python-test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan $(SWIFT_BUILD_FLAGS)
	$(TSAN_ENV) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(SWIFT_BUILD_FLAGS)

## test-panels: polybar under Xvfb, the shared timeline.js and the GNOME extension under gjs, the
## extension in a real headless GNOME Shell (screenshots), waybar and i3blocks in swaybar under a
## headless sway (as a non-root user it creates) and the Plasma widget under plasmoidviewer, against tickerd
test-panels: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PANEL_DEB_PACKAGES)"
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)
	@$(MAKE) --no-print-directory gnome-extension
	contrib/tests/panel-tests.sh
	contrib/tests/gnome-shell-test.sh
	$(SUDO) contrib/tests/waybar-test.sh
	$(SUDO) contrib/tests/i3blocks-test.sh
	@$(MAKE) --no-print-directory test-plasma

## test-plasma: the Plasma 5 widget under plasmoidviewer in Xvfb, against tickerd (screenshots)
test-plasma: plasmoid
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PLASMA_DEB_PACKAGES)"
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)
	contrib/tests/plasma-test.sh $(PLASMOID_BUILD)/plasma5/$(PLASMOID_ID)

## plasmoid: assemble the Plasma 5 and Plasma 6 widget packages under .build/plasmoid/
plasmoid:
	@for major in 5 6; do \
	  out=$(PLASMOID_BUILD)/plasma$$major/$(PLASMOID_ID); \
	  rm -rf "$$out" && mkdir -p "$$out/contents/ui" "$$out/contents/code" "$$out/contents/config" && \
	  cp contrib/plasma/plasma$$major/metadata.json "$$out/" && \
	  cp -R contrib/plasma/plasma$$major/contents/. "$$out/contents/" && \
	  cp contrib/plasma/common/Ticker.qml contrib/plasma/common/ChannelField.qml "$$out/contents/ui/" && \
	  cp contrib/plasma/common/main.xml "$$out/contents/config/" && \
	  cp contrib/plasma/common/frames.js $(TIMELINE_JS) "$$out/contents/code/" || exit 1; \
	done
	@echo "plasmoid: $(PLASMOID_BUILD)/plasma5/$(PLASMOID_ID) and $(PLASMOID_BUILD)/plasma6/$(PLASMOID_ID)"

## install-plasmoid: install (or upgrade) the widget for the current user; PLASMA_MAJOR=6 for Plasma 6
install-plasmoid: plasmoid
	@tool=$$(command -v kpackagetool$(PLASMA_MAJOR) || echo kpackagetool$(PLASMA_MAJOR)); \
	pkg=$(PLASMOID_BUILD)/plasma$(PLASMA_MAJOR)/$(PLASMOID_ID); \
	if $$tool --type Plasma/Applet --show $(PLASMOID_ID) >/dev/null 2>&1; then \
	  $$tool --type Plasma/Applet --upgrade "$$pkg"; else $$tool --type Plasma/Applet --install "$$pkg"; fi

## gnome-extension: assemble both forms of the GNOME Shell extension from contrib/ sources
# $(GNOME_BUILD)/legacy/<uuid>/ (GNOME Shell 43–44, `imports` modules) and $(GNOME_BUILD)/esm/<uuid>/
# (45 and later, ES modules), each also zipped as $(GNOME_BUILD)/<uuid>-<form>.zip for
# `gnome-extensions install`. Both share contrib/gnome-shell/common/ (the item, its place in the
# bar, the preferences page and the settings' schema, compiled into schemas/) and
# contrib/js/timeline.js; the ES-module form gets an `export` line appended to its copies.
GNOME_UUID  := tickerd@tickerd.github.io
GNOME_BUILD := .build-gnome
GNOME_TIMELINE_EXPORTS := Timeline, fromVariant, ease, cellWidth, clusters, EASINGS, formatNumber
gnome-extension:
	rm -rf $(GNOME_BUILD) && install -d $(GNOME_BUILD)/legacy/$(GNOME_UUID) $(GNOME_BUILD)/esm/$(GNOME_UUID)
	for form in legacy esm; do \
	  out=$(GNOME_BUILD)/$$form/$(GNOME_UUID); \
	  cp contrib/gnome-shell/$$form/extension.js contrib/gnome-shell/$$form/prefs.js contrib/gnome-shell/$$form/metadata.json \
	     contrib/gnome-shell/common/stylesheet.css contrib/gnome-shell/common/indicator.js \
	     contrib/gnome-shell/common/panelitem.js contrib/gnome-shell/common/prefspage.js \
	     contrib/gnome-shell/common/names.js \
	     contrib/js/timeline.js $$out/ && \
	  install -d $$out/schemas && cp contrib/gnome-shell/common/schemas/*.gschema.xml $$out/schemas/ && \
	  glib-compile-schemas --strict $$out/schemas || exit 1; \
	done
	printf '\nexport {$(GNOME_TIMELINE_EXPORTS)};\n' >> $(GNOME_BUILD)/esm/$(GNOME_UUID)/timeline.js
	printf '\nexport {makeIndicator};\n' >> $(GNOME_BUILD)/esm/$(GNOME_UUID)/indicator.js
	printf '\nexport {PanelItem};\n' >> $(GNOME_BUILD)/esm/$(GNOME_UUID)/panelitem.js
	printf '\nexport {TickerdNames};\n' >> $(GNOME_BUILD)/esm/$(GNOME_UUID)/names.js
	printf '\nexport {makePreferencesPage};\n' >> $(GNOME_BUILD)/esm/$(GNOME_UUID)/prefspage.js
	for form in legacy esm; do \
	  (cd $(GNOME_BUILD)/$$form/$(GNOME_UUID) && python3 -m zipfile -c ../../$(GNOME_UUID)-$$form.zip *) || exit 1; \
	done

## install-gnome-extension: install the form the running GNOME Shell loads into your home, then
## enable it with `gnome-extensions enable tickerd@tickerd.github.io` (after logging in again on Wayland)
GNOME_SHELL_MAJOR = $(shell gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')
GNOME_EXTENSIONS_DIR ?= $(USER_DATA_HOME)/gnome-shell/extensions
install-gnome-extension: gnome-extension
	@major="$(GNOME_SHELL_MAJOR)"; \
	if [ -z "$$major" ]; then echo "install-gnome-extension: gnome-shell not found" >&2; exit 1; fi; \
	form=$$([ "$$major" -ge 45 ] && echo esm || echo legacy); \
	rm -rf "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_UUID)"; \
	install -d "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_UUID)"; \
	cp -R $(GNOME_BUILD)/$$form/$(GNOME_UUID)/. "$(DESTDIR)$(GNOME_EXTENSIONS_DIR)/$(GNOME_UUID)/"; \
	echo "Installed the $$form form (GNOME Shell $$major) into $(GNOME_EXTENSIONS_DIR)/$(GNOME_UUID)."; \
	echo "Then: gnome-extensions enable $(GNOME_UUID) (on Wayland, after logging out and in)"

demo: release
	@scripts/demo.sh

## install: build release, then install everything under $(DESTDIR)$(PREFIX).
# BUILT=DIR installs binaries already built in DIR instead of building release (the install test
# passes the test bundle's own folder, since `swift build` cannot run inside `swift test`).
BUILT ?=
BUILT_DIR = $(or $(BUILT),$(shell $(SWIFT) build -c release --static-swift-stdlib --show-bin-path))

BINDIR         ?= $(PREFIX)/bin
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
USERUNITDIR    ?= $(PREFIX)/lib/systemd/user
SYSUSERSDIR    ?= $(PREFIX)/lib/sysusers.d
DATADIR        ?= $(PREFIX)/share
MANDIR         ?= $(DATADIR)/man
DOCDIR         ?= $(DATADIR)/doc/tickerd
ZSH_COMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
# dbus-daemon reads system bus policy from /usr/share/dbus-1/system.d and /etc/dbus-1/system.d
# only, so anything but PREFIX=/usr puts the policy where a local administrator's policy goes.
DBUSPOLICYDIR  ?= $(if $(filter /usr,$(PREFIX)),/usr/share/dbus-1/system.d,/etc/dbus-1/system.d)

# Rewrites the packaged /usr/bin/tickerd in units and activation files to where it is installed.
rewrite_exec = sed -e 's|/usr/bin/tickerd|$(1)|g'

install: $(if $(BUILT),,release)
	@built="$(BUILT_DIR)"; test -x "$$built/tickerd" && test -x "$$built/tickerctl" || \
	  { echo "install: no tickerd/tickerctl in $$built (run make release, or pass BUILT=DIR)" >&2; exit 1; }
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 "$(BUILT_DIR)/tickerd" $(DESTDIR)$(BINDIR)/tickerd
	install -m 0755 "$(BUILT_DIR)/tickerctl" $(DESTDIR)$(BINDIR)/tickerctl
	install -m 0755 "$(BUILT_DIR)/tickerd-sources" $(DESTDIR)$(BINDIR)/tickerd-sources
	install -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(USERUNITDIR) $(DESTDIR)$(SYSUSERSDIR)
	$(call rewrite_exec,$(BINDIR)/tickerd) systemd/tickerd-sources.service > $(DESTDIR)$(SYSTEMDUNITDIR)/tickerd-sources.service
	$(call rewrite_exec,$(BINDIR)/tickerd) systemd/user/tickerd-sources.service > $(DESTDIR)$(USERUNITDIR)/tickerd-sources.service
	$(call rewrite_exec,$(BINDIR)/tickerd) systemd/tickerd.service > $(DESTDIR)$(SYSTEMDUNITDIR)/tickerd.service
	$(call rewrite_exec,$(BINDIR)/tickerd) systemd/user/tickerd.service > $(DESTDIR)$(USERUNITDIR)/tickerd.service
	install -m 0644 systemd/sysusers.d/tickerd.conf $(DESTDIR)$(SYSUSERSDIR)/tickerd.conf
	install -d $(DESTDIR)$(DBUSPOLICYDIR) $(DESTDIR)$(DATADIR)/dbus-1/system-services \
	  $(DESTDIR)$(DATADIR)/dbus-1/services $(DESTDIR)$(DATADIR)/dbus-1/interfaces
	install -m 0644 dbus-policy/io.github.tickerd.Ticker1.conf $(DESTDIR)$(DBUSPOLICYDIR)/
	install -m 0644 dbus-policy/system-services/io.github.tickerd.Ticker1.service \
	  $(DESTDIR)$(DATADIR)/dbus-1/system-services/
	$(call rewrite_exec,$(BINDIR)/tickerd) dbus-policy/services/io.github.tickerd.Ticker1.service \
	  > $(DESTDIR)$(DATADIR)/dbus-1/services/io.github.tickerd.Ticker1.service
	install -m 0644 dbus-policy/interfaces/*.xml $(DESTDIR)$(DATADIR)/dbus-1/interfaces/
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8
	install -m 0644 man/tickerctl.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/tickerd.toml.5 $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 man/tickerd.8 man/tickerd-sources.8 $(DESTDIR)$(MANDIR)/man8/
	$(MAKE) --no-print-directory install-completions COMPLETIONDIR=$(DESTDIR)$(DATADIR) BUILT="$(BUILT_DIR)"
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 0644 examples/tickerd.toml $(DESTDIR)$(DOCDIR)/examples/tickerd.toml
	install -m 0644 examples/sources.toml $(DESTDIR)$(DOCDIR)/examples/sources.toml
	install -m 0644 systemd/tickerd-sources-network.conf $(DESTDIR)$(DOCDIR)/examples/tickerd-sources-network.conf
	install -m 0644 docs/sources.md $(DESTDIR)$(DOCDIR)/sources.md
	install -m 0644 docs/fleet.md docs/fleet-message.schema.json $(DESTDIR)$(DOCDIR)/
	@if [ -z "$(DESTDIR)" ]; then \
	  echo "Installed. As root: systemd-sysusers; systemctl daemon-reload; systemctl reload dbus"; \
	  echo "then: systemctl enable --now tickerd.service (enable also lets the first D-Bus call start it)."; \
	fi

## install-completions: bash, zsh and fish completions for tickerctl, tickerd and tickerd-sources
## under $(COMPLETIONDIR)
COMPLETED_PROGRAMS := tickerctl tickerd tickerd-sources
install-completions:
	install -d $(COMPLETIONDIR)/bash-completion/completions $(DESTDIR)$(ZSH_COMPLETIONDIR) \
	  $(COMPLETIONDIR)/fish/vendor_completions.d
	# bash sources completions; a #! line would only mislead (lintian: bash-completion-with-hashbang).
	for program in $(COMPLETED_PROGRAMS); do \
	  "$(BUILT_DIR)/$$program" --generate-completion-script bash | sed '1{/^#!/d}' \
	    > $(COMPLETIONDIR)/bash-completion/completions/$$program && \
	  "$(BUILT_DIR)/$$program" --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETIONDIR)/_$$program && \
	  "$(BUILT_DIR)/$$program" --generate-completion-script fish \
	    > $(COMPLETIONDIR)/fish/vendor_completions.d/$$program.fish || exit 1; \
	done

## install-user: tickerd for one desktop user, under ~/.local; starts nothing.
# The session bus starts tickerd (through systemd --user) on the first call to its name.
USER_BINDIR    ?= $(HOME)/.local/bin
USER_DATA_HOME ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)

install-user: $(if $(BUILT),,release)
	@built="$(BUILT_DIR)"; test -x "$$built/tickerd" && test -x "$$built/tickerctl" || \
	  { echo "install-user: no tickerd/tickerctl in $$built (run make release, or pass BUILT=DIR)" >&2; exit 1; }
	install -d $(DESTDIR)$(USER_BINDIR)
	install -m 0755 "$(BUILT_DIR)/tickerd" $(DESTDIR)$(USER_BINDIR)/tickerd
	install -m 0755 "$(BUILT_DIR)/tickerctl" $(DESTDIR)$(USER_BINDIR)/tickerctl
	install -m 0755 "$(BUILT_DIR)/tickerd-sources" $(DESTDIR)$(USER_BINDIR)/tickerd-sources
	install -d $(DESTDIR)$(USER_DATA_HOME)/systemd/user $(DESTDIR)$(USER_DATA_HOME)/dbus-1/services
	$(call rewrite_exec,$(USER_BINDIR)/tickerd) systemd/user/tickerd.service \
	  > $(DESTDIR)$(USER_DATA_HOME)/systemd/user/tickerd.service
	$(call rewrite_exec,$(USER_BINDIR)/tickerd) systemd/user/tickerd-sources.service \
	  > $(DESTDIR)$(USER_DATA_HOME)/systemd/user/tickerd-sources.service
	$(call rewrite_exec,$(USER_BINDIR)/tickerd) dbus-policy/services/io.github.tickerd.Ticker1.service \
	  > $(DESTDIR)$(USER_DATA_HOME)/dbus-1/services/io.github.tickerd.Ticker1.service
	install -d $(DESTDIR)$(USER_DATA_HOME)/man/man1 $(DESTDIR)$(USER_DATA_HOME)/man/man5 \
	  $(DESTDIR)$(USER_DATA_HOME)/man/man8
	install -m 0644 man/tickerctl.1 $(DESTDIR)$(USER_DATA_HOME)/man/man1/
	install -m 0644 man/tickerd.toml.5 $(DESTDIR)$(USER_DATA_HOME)/man/man5/
	install -m 0644 man/tickerd.8 man/tickerd-sources.8 $(DESTDIR)$(USER_DATA_HOME)/man/man8/
	$(MAKE) --no-print-directory install-completions COMPLETIONDIR=$(DESTDIR)$(USER_DATA_HOME) \
	  ZSH_COMPLETIONDIR=$(USER_DATA_HOME)/zsh/site-functions BUILT="$(BUILT_DIR)"
	@if [ -z "$(DESTDIR)" ]; then \
	  echo "Installed for $$(id -un). Then: systemctl --user daemon-reload"; \
	  echo "and either let the first D-Bus call start tickerd, or: systemctl --user enable --now tickerd.service"; \
	fi

## deb: the Debian packages (debian/, debhelper 13: tickerd, tickerd-sources) from the working tree,
# both checked by lintian: no tag at all, informational ones included, unless debian/*.lintian-overrides
# says why it stays.
# Swift is not in Debian: the build uses the toolchain on PATH and links the Swift runtime
# statically. TICKERD_BUILT=DIR packages release binaries already built there.
DEB_TOOL_PACKAGES := dpkg-dev debhelper lintian debootstrap
deb: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_TOOL_PACKAGES)"
	@deb=$$(scripts/build-deb.sh | tail -n 1); echo "built $$deb"; \
	  lintian --fail-on error,warning,info -I --info "$$deb" "$$(dirname "$$deb")/tickerd-sources_$$(dpkg-deb -f "$$deb" Version)_$$(dpkg-deb -f "$$deb" Architecture).deb"

## test-deb: install, run, upgrade and purge the package in a clean Debian 12 root (needs root).
# DEB_CACHE keeps the debootstrap tarball between runs (default .build-deb/cache).
test-deb: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_TOOL_PACKAGES)"
	Tests/Packaging/deb-chroot-test.sh

# What the package is made of: when none of it changed since the last passing run on this machine
# (a stamp per content hash under DEB_STAMPS), `make test` does not run test-deb again.
DEB_INPUTS := debian Makefile systemd dbus-policy man examples scripts/build-deb.sh Tests/Packaging \
              contrib/tests/lib.sh
DEB_STAMPS ?= /var/cache/tickerd-ci/test-deb
test-deb-if-changed:
	@hash=$$(git ls-files -z --cached --others --exclude-standard -- $(DEB_INPUTS) | sort -z \
	  | xargs -0 sha256sum | sha256sum | cut -c1-16); \
	if [ -e "$(DEB_STAMPS)/$$hash" ]; then \
	  echo "test-deb: skipped, the package's inputs passed on this machine before ($(DEB_STAMPS)/$$hash)"; \
	else \
	  $(MAKE) --no-print-directory test-deb && mkdir -p "$(DEB_STAMPS)" && touch "$(DEB_STAMPS)/$$hash"; \
	fi

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan .build-deb
