# tablefmt — build, test, demo, install.
SWIFT   ?= swift
PREFIX  ?= /usr/local
JOBS    ?= 2
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)/tablefmt

.PHONY: build test test-sanitize fuzz demo install fixtures bench clean

## build: the release binary
build:
	$(SWIFT) build -c release -j $(JOBS) --product tablefmt

## demo: build, then format a bundled example to the terminal
demo: build
	@$(RELEASE_BIN) Fixtures/examples/orders.csv

## test: every unit, conformance, property and golden CLI test, then the Markdown round trip
## of the real-world files against Python's csv module (SPEC O4)
test:
	$(SWIFT) build -j $(JOBS) --build-tests
	$(SWIFT) test -j $(JOBS) --skip-build
	python3 scripts/check-markdown-roundtrip.py "$$($(SWIFT) build --show-bin-path)/tablefmt"

## fixtures: re-record the golden files (the run still fails, so a baseline never changes silently)
fixtures:
	TABLEFMT_RECORD=1 $(SWIFT) test -j $(JOBS) --filter Golden || true
	@echo "Recorded. Read every changed expected.* file (git diff Fixtures) before committing."

## bench: tablefmt against the installed peers on generated data (never committed), see docs/BENCHMARKS.md
bench: build
	TABLEFMT_BIN="$(RELEASE_BIN)" bash scripts/bench.sh

## test-sanitize: the test suite under AddressSanitizer (with leak checks) and ThreadSanitizer
## (UndefinedBehaviorSanitizer is not supported by this Swift on Linux; see docs/FUZZING.md)
test-sanitize:
	$(SWIFT) build --scratch-path .build-asan -j $(JOBS) --build-tests --sanitize=address
	LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt \
		$(SWIFT) test --scratch-path .build-asan -j $(JOBS) --skip-build --sanitize=address
	$(SWIFT) build --scratch-path .build-tsan -j $(JOBS) --build-tests --sanitize=thread
	$(SWIFT) test --scratch-path .build-tsan -j $(JOBS) --skip-build --sanitize=thread

## fuzz: the libFuzzer targets (CSV reader, JSON reader, whole pipeline), FUZZ_SECONDS each
FUZZ_SECONDS ?= 60
fuzz:
	bash scripts/fuzz.sh $(FUZZ_SECONDS)

## install: the release binary into $(PREFIX)/bin
install: build
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/tablefmt

clean:
	rm -rf .build
