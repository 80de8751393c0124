# The two commands: `make run` and `make test`. Each installs what is missing first.
SWIFT ?= swift

.PHONY: run test browser-test build bench deps clean

deps:
	@scripts/install-deps.sh build

## Build and start the storefront on http://localhost:8080 (PORT, HOST, DATA_DIR … override).
run: deps
	$(SWIFT) build -c release --product storefront
	.build/release/storefront

## Build everything and run every test: the Swift suites, then the real-browser test.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/browser-test.sh

## The real-browser test alone (headless Chromium through Selenium); screenshots in .build/.
browser-test: deps
	$(SWIFT) build --product storefront
	scripts/browser-test.sh

build: deps
	$(SWIFT) build

## Release builds, each measured against a reference in the same run; see BENCHMARKS.md.
bench:
	@scripts/install-deps.sh bench
	Benchmarks/run-http.py
	cd Benchmarks && $(SWIFT) run -c release ViewsBenchmark

clean:
	rm -rf .build Benchmarks/c-reference/plaintext-reference
