# tablefmt — build, test, demo, install.
SWIFT   ?= swift
PREFIX  ?= /usr/local
JOBS    ?= 2
# On Linux the binary is one static executable (the Swift runtime, zlib and the C library linked in),
# so it runs where no toolchain is installed and starts without the dynamic linker's work (2.0 ms
# instead of 3.1 ms for a three-row table). macOS has the Swift runtime in the OS.
ifeq ($(shell uname -s),Linux)
STATIC  = -Xswiftc -static-executable
endif
RELEASE = -c release $(STATIC)
RELEASE_BIN = $(shell $(SWIFT) build $(RELEASE) --show-bin-path)/tablefmt
# A target that imports one it does not name as a dependency is an error, not a build that works
# by the order modules happen to be built in: the layers stay where Package.swift puts them.
LAYERS  = --explicit-target-dependency-import-check error

.PHONY: build test check-install examples test-sanitize fuzz demo install fixtures bench bench-startup bench-view bench-view-10m clean

## build: the release binary (a static executable on Linux)
build:
	$(SWIFT) build $(RELEASE) $(LAYERS) -j $(JOBS) --product tablefmt

## demo: build, then format a bundled example to the terminal
demo: build
	@$(RELEASE_BIN) Fixtures/examples/orders.csv

## test: every unit, conformance, property and golden CLI test (the CLI tests run the release
## binary, as users get it), the Markdown round trip through GitHub's own GFM renderer (cmark-gfm,
## from PyPI, O4), the HTML read back with Python's HTML parser and checked in headless Chromium
## (Debian's chromium and chromium-driver, selenium from PyPI, O6), an install into a temporary
## prefix checked as a user would, and Examples/; first, the unsafe code kept within its budget
## (scripts/check-unsafe.py, docs/FUZZING.md "Memory safety")
test: build
	python3 scripts/check-unsafe.py
	$(SWIFT) build $(LAYERS) -j $(JOBS) --build-tests
	TABLEFMT_BIN="$(RELEASE_BIN)" $(SWIFT) test -j $(JOBS) --skip-build
	python3 -c "import cmarkgfm" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check cmarkgfm
	python3 scripts/check-markdown-gfm.py "$(RELEASE_BIN)"
	python3 scripts/check-html-parse.py "$(RELEASE_BIN)"
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || ! command -v apt-get >/dev/null \
		|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }
	python3 -c "import selenium" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check selenium
	python3 scripts/check-html-browser.py "$(RELEASE_BIN)"
	$(MAKE) --no-print-directory check-install
	$(MAKE) --no-print-directory examples

## examples: build and run Examples/, a package that uses FormatEngine by path as a caller would
examples:
	$(SWIFT) build --package-path Examples -j $(JOBS)
	cd Examples && "$$($(SWIFT) build --package-path . --show-bin-path)/Examples" ../Fixtures/examples/orders.csv > .build/examples.out
	@grep -q 'Grace' Examples/.build/examples.out && grep -q 'Müller, Anna' Examples/.build/examples.out \
		&& grep -q 'error: /no/such/file.csv: cannot open' Examples/.build/examples.out \
		&& echo "examples: 1 passed, 0 failed" || { cat Examples/.build/examples.out; echo "examples: 0 passed, 1 failed"; exit 1; }

## check-install: install into a temporary PREFIX, then check the binary needs no Swift toolchain
## and the man page and completions are where man and the shells look
check-install: build
	bash scripts/check-install.sh

## fixtures: re-record the golden files (the run still fails, so a baseline never changes silently)
fixtures:
	TABLEFMT_RECORD=1 $(SWIFT) test -j $(JOBS) --filter Golden || true
	@echo "Recorded. Read every changed expected.* file (git diff Fixtures) before committing."

## bench: tablefmt against the installed peers on generated data (never committed), see docs/BENCHMARKS.md
bench: build
	TABLEFMT_BIN="$(RELEASE_BIN)" bash scripts/bench.sh
	TABLEFMT_BIN="$(RELEASE_BIN)" bash scripts/bench-startup.sh
	$(MAKE) --no-print-directory bench-view

## bench-view: the live view on a pseudo-terminal with the generated 1M-row CSV (first screen, all
## rows read, a sort, a key's redraw, peak memory; scripts/bench-view.py), then 1,000 edits and a save
## against cp of the file (scripts/bench-edit.py)
bench-view: build
	@test -f .bench-data/rows_1m.csv || python3 scripts/gen-bench-data.py --out .bench-data --sizes 1000000
	python3 scripts/bench-view.py "$(RELEASE_BIN)" .bench-data/rows_1m.csv 1000000
	python3 scripts/bench-edit.py "$(RELEASE_BIN)" .bench-data/rows_1m.csv 1000000

## bench-view-10m: the same on 10M rows (the 1M-row file's rows ten times, 984 MB): issue #28's
## targets, a key's frame within 50 ms while a sort or filter runs, a numeric sort in 3 s, a text
## sort in 8 s, a filter in 2 s, 64 MB + 16 B a row
bench-view-10m: build
	@test -f .bench-data/rows_1m.csv || python3 scripts/gen-bench-data.py --out .bench-data --sizes 1000000
	@test -f .bench-data/rows_10m.csv || { head -1 .bench-data/rows_1m.csv; for i in 1 2 3 4 5 6 7 8 9 10; do tail -n +2 .bench-data/rows_1m.csv; done; } > .bench-data/rows_10m.csv
	python3 scripts/bench-view.py "$(RELEASE_BIN)" .bench-data/rows_10m.csv 10000000
	python3 scripts/bench-edit.py "$(RELEASE_BIN)" .bench-data/rows_10m.csv 10000000

## bench-startup: start-up of a three-row table against column -t, medians of one run (hyperfine)
bench-startup: build
	TABLEFMT_BIN="$(RELEASE_BIN)" bash scripts/bench-startup.sh

## test-sanitize: the test suite under AddressSanitizer (with leak checks) and ThreadSanitizer,
## the view on a pseudo-terminal included: its tests start the tablefmt built beside them, the
## sanitized one (UndefinedBehaviorSanitizer is not supported by this Swift on Linux; docs/FUZZING.md)
test-sanitize:
	$(SWIFT) build --scratch-path .build-asan -j $(JOBS) --build-tests --sanitize=address
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt \
		$(SWIFT) test --scratch-path .build-asan -j $(JOBS) --skip-build --sanitize=address
	$(SWIFT) build --scratch-path .build-tsan -j $(JOBS) --build-tests --sanitize=thread
	$(SWIFT) test --scratch-path .build-tsan -j $(JOBS) --skip-build --sanitize=thread

## fuzz: the libFuzzer targets (CSV reader, JSON reader, whole pipeline, the view's open/edit/save), FUZZ_SECONDS each
FUZZ_SECONDS ?= 60
fuzz:
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

## install: the binary into $(PREFIX)/bin, the man page into share/man/man1, and completions
## where bash-completion, zsh and fish look under $(PREFIX)/share
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/tablefmt
	$(RELEASE_BIN) --generate man > $(DESTDIR)$(PREFIX)/share/man/man1/tablefmt.1
	$(RELEASE_BIN) --generate bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tablefmt
	$(RELEASE_BIN) --generate zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tablefmt
	$(RELEASE_BIN) --generate fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tablefmt.fish

clean:
	rm -rf .build
