# Tincan's commands. `make run` and `make test` set up everything they need on a fresh Debian
# machine: system packages through apt-get (with sudo when not root), then SwiftPM resolves,
# builds and runs. Only the Swift 6.3 toolchain itself must already be installed.

SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
NCURSES_HEADER := /usr/include/ncursesw/curses.h

.PHONY: run test bench build install uninstall check-swift deps-run deps-test deps-bench apt-ncurses clean static-libstdcxx

# Installs Debian packages that are missing: $(call apt_install,package...).
define apt_install
	@missing=""; for package in $(1); do dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing with apt-get"; \
		if [ -n "$(SUDO)" ] && ! command -v sudo >/dev/null; then echo "make: need root or sudo to install$$missing" >&2; exit 1; fi; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

check-swift:
	@command -v $(SWIFT) >/dev/null || { echo "make: the Swift 6.3 toolchain is required (https://www.swift.org/install/linux/)" >&2; exit 1; }

deps-run: check-swift
	@if [ ! -f $(NCURSES_HEADER) ]; then $(MAKE) --no-print-directory apt-ncurses; fi
	@# libxml2: opened at run time for XML responses and XPath checks (TincanCore's LibXML2);
	@# libxml2-dev: its headers, which type the functions CLibXML2 opens (it is not linked).
	@# publicsuffix: the public suffix list the cookie jar reads (TincanCore's PublicSuffixList).
	$(call apt_install,libxml2 libxml2-dev publicsuffix)

apt-ncurses:
	$(call apt_install,libncursesw5-dev)

# curl: the cookie-file tests share a jar with it; nghttp2-server: nghttpd, the real HTTP/2 server
# of the HTTP-version tests; tinyproxy and microsocks: the real HTTP and
# SOCKS5 proxies the proxy tests start on loopback; openssl: encrypts a test key; httpie: runs
# the commands `tincan export --format httpie` writes, and golang-go the programs `--format go`
# writes, in the code-export fidelity tests.
deps-test: deps-run
	$(call apt_install,tmux curl tinyproxy microsocks openssl nghttp2-server httpie golang-go)

deps-bench: deps-run
	$(call apt_install,curl python3 python3-pip time openssl)
	@# Posting, the reference for the first-paint benchmark. tree-sitter 0.26 crashes the language
	@# bindings Posting's syntax highlighting pulls in, so it stays below 0.26.
	-@command -v posting >/dev/null || python3 -m pip install -q posting 'tree-sitter<0.26' 2>/dev/null \
		|| python3 -m pip install -q --break-system-packages posting 'tree-sitter<0.26'
	@# The references for replay (requests.Session) and JSON decoding (orjson, pysimdjson).
	@python3 -c 'import requests, orjson, simdjson' 2>/dev/null || python3 -m pip install -q requests orjson pysimdjson 2>/dev/null \
		|| python3 -m pip install -q --break-system-packages requests orjson pysimdjson

build: deps-run
	$(SWIFT) build --product tincan

## The main job: build and start tincan.
run: build
	$$($(SWIFT) build --show-bin-path)/tincan $(ARGS)

## Every test: unit, integration, CLI and end-to-end.
## The connection stress tests keep a core busy on purpose and load the machine for a minute, so
## they run on their own after the rest: beside them, the suites that time a drip, a deadline or
## a first paint measured the test process's load instead of Tincan.
STRESS = ConnectionStressTests
## Swift Testing starts every test at once unless told otherwise, and all of them share the
## cooperative pool's threads, one per core: a test waiting on a timer or a cancellation then
## waited behind hundreds of others, up to 15 s in a run of the whole suite, and its timing check
## failed. Three test cases per core keep both cores busy (the suite is no slower) and kept every
## wait under a second. Work that holds a pool thread for long runs `offThePool` (TestSupport).
TEST_WIDTH ?= $(shell echo $$(( $$(nproc) * 3 )))

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip $(STRESS) --experimental-maximum-parallelization-width $(TEST_WIDTH)
	$(SWIFT) test --skip-build --filter $(STRESS)
	# The lesson pack: every lesson fails as shipped, every solution passes (issue 20).
	$$($(SWIFT) build --show-bin-path)/tincan learn --check examples/lessons

## Benchmarks, in a release build, with their reference tools measured in the same run.
## A release binary carries the Swift runtime and Foundation inside it (--static-swift-stdlib):
## without two dozen shared libraries to load and relocate, tincan starts about 1.7 times sooner.
## It exports only main (Build/release-exports.map says why). It is linked by lld with packed
## relative relocations (RELR): the 147,000 pointers the loader adjusts in a position-independent
## binary take 29 KB to describe instead of 3.5 MB, which gold could only write out in full and the
## loader read at every start (a tenth of a transfer's peak memory). Both products build with the
## same flags, so neither build undoes the other.
##
## libstdc++, whose one user is the Swift runtime, is linked in from its archive when the machine
## has one (Debian's libstdc++-12-dev): loading and relocating the shared library was 0.5 ms of
## every start, a fifth of `tincan --version`. The runtime's link arguments ask for -lstdc++; the
## linker script static-libstdcxx writes, found first on the search path, answers with the archive.
STDCXX_ARCHIVE := $(shell a=$$(clang -print-file-name=libstdc++.a 2>/dev/null); [ -f "$$a" ] && echo "$$a")
STDCXX_DIR := $(CURDIR)/.build/static-libstdcxx
RELEASE = -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --version-script=$(CURDIR)/Build/release-exports.map $(if $(STDCXX_ARCHIVE),-Xlinker -L$(STDCXX_DIR))

static-libstdcxx:
	@mkdir -p $(STDCXX_DIR)
	@if [ -n "$(STDCXX_ARCHIVE)" ]; then echo "INPUT($(STDCXX_ARCHIVE))" > $(STDCXX_DIR)/libstdc++.so; \
	else rm -f $(STDCXX_DIR)/libstdc++.so; echo "make: no libstdc++.a; the release binary loads libstdc++.so"; fi

bench: deps-bench static-libstdcxx
	$(SWIFT) build $(RELEASE) --product tincan-bench
	$(SWIFT) build $(RELEASE) --product tincan
	$$($(SWIFT) build $(RELEASE) --show-bin-path)/tincan-bench $(BENCH)

## Installs the stripped release binary, its shell completions (bash, zsh, fish) and its man page
## under PREFIX (default /usr/local; DESTDIR for staging), with sudo when PREFIX is not writable.
## The completions and the man page come from swift-argument-parser, from the same help text
## `tincan --help` prints: --generate-completion-script, and its generate-manual tool.
## INSTALL_BUILD chooses the build's flags (the release build by default; empty for debug).
PREFIX ?= /usr/local
INSTALL_BUILD ?= $(RELEASE)
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_COMPLETIONS = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
INSTALLED = $(BINDIR)/tincan $(MANDIR)/tincan.1 $(BASH_COMPLETIONS)/tincan $(ZSH_COMPLETIONS)/_tincan $(FISH_COMPLETIONS)/tincan.fish
# sudo, when the nearest existing folder of PREFIX cannot be written by this user.
INSTALL_SUDO = $(shell dir="$(DESTDIR)$(PREFIX)"; while [ ! -d "$$dir" ]; do dir=$$(dirname "$$dir"); done; [ -w "$$dir" ] || echo $(SUDO))
STAGE = .build/install-stage

install: deps-run static-libstdcxx
	$(SWIFT) build $(INSTALL_BUILD) --product tincan
	$(SWIFT) build --product generate-manual
	@set -e; bin="$$($(SWIFT) build $(INSTALL_BUILD) --show-bin-path)/tincan"; \
	rm -rf $(STAGE) && mkdir -p $(STAGE)/man; \
	cp "$$bin" $(STAGE)/tincan; \
	if command -v strip >/dev/null; then strip $(STAGE)/tincan; else echo "make: strip is missing (binutils); installing tincan unstripped" >&2; fi; \
	$(STAGE)/tincan --generate-completion-script bash > $(STAGE)/tincan.bash; \
	$(STAGE)/tincan --generate-completion-script zsh > $(STAGE)/_tincan; \
	$(STAGE)/tincan --generate-completion-script fish > $(STAGE)/tincan.fish; \
	"$$($(SWIFT) build --show-bin-path)/generate-manual" $(STAGE)/tincan --output-directory $(STAGE)/man >/dev/null; \
	test -s $(STAGE)/man/tincan.1
	$(INSTALL_SUDO) install -d $(BINDIR) $(MANDIR) $(BASH_COMPLETIONS) $(ZSH_COMPLETIONS) $(FISH_COMPLETIONS)
	$(INSTALL_SUDO) install -m 0755 $(STAGE)/tincan $(BINDIR)/tincan
	$(INSTALL_SUDO) install -m 0644 $(STAGE)/man/tincan.1 $(MANDIR)/tincan.1
	$(INSTALL_SUDO) install -m 0644 $(STAGE)/tincan.bash $(BASH_COMPLETIONS)/tincan
	$(INSTALL_SUDO) install -m 0644 $(STAGE)/_tincan $(ZSH_COMPLETIONS)/_tincan
	$(INSTALL_SUDO) install -m 0644 $(STAGE)/tincan.fish $(FISH_COMPLETIONS)/tincan.fish
	@echo "make: installed $$($(BINDIR)/tincan --version | head -1) in $(BINDIR), with its man page and bash, zsh and fish completions"

uninstall:
	$(INSTALL_SUDO) rm -f $(INSTALLED)

clean:
	rm -rf .build
