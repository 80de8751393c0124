# The two commands: `make run` and `make test`. Each installs what is missing first.
SWIFT ?= swift
# Every recipe gets the same environment: SwiftPM recompiles whatever a build tool plugin made
# when any variable differs from the last build's. So make test calls scripts, not sub-makes
# (MAKELEVEL would differ), and no step adds a variable of its own before it builds.
export SWIFT
unexport MAKEFLAGS MFLAGS MAKEOVERRIDES
# libmicrohttpd comes from scripts/build-libmicrohttpd.sh (Debian's source with Tessera's patches), not the system.
export PKG_CONFIG_PATH := $(CURDIR)/.build-deps/libmicrohttpd/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

.PHONY: run run-postgres dev dev-loop page-weight example-test test test-repeat browser-test mail-test trace-test techempower-test container-test scale-out-test stall-test image soak build bench docs deps clean

deps:
	@scripts/install-deps.sh build

## Build, seed the demo shop (its photos are drawn once, by `storefront seed`), and start the
## storefront on http://localhost:8080 (PORT, HOST, DATA_DIR … override).
run: deps
	$(SWIFT) build -c release --product storefront
	.build/release/storefront seed
	.build/release/storefront

## The storefront for working on it: every saved change under Sources/, Views/ or Public/ is
## rebuilt (debug, incremental) and the server restarted on the same data (.build/dev/data), and
## every open page reloads itself; a failed build shows over the page. See scripts/dev.py.
dev: deps
	scripts/dev.py

## The storefront on a throwaway PostgreSQL cluster (scripts/with-postgres.sh) instead of SQLite,
## as instances that share one database run; Ctrl-C stops the server, then the cluster is deleted.
run-postgres: deps
	$(SWIFT) build -c release --product storefront
	scripts/with-postgres.sh sh -c 'export DATABASE_URL="$$TESSERA_POSTGRES_URL" SESSION_SECRET="$${SESSION_SECRET:-$$(od -An -N32 -tx1 /dev/urandom | tr -d " \n")}" && .build/release/storefront seed && exec .build/release/storefront'

## Build everything and run every test: the Swift suites (the stores' conformance suites on
## SQLite and on a throwaway PostgreSQL cluster; scripts/swift-test.sh prints any failure again at
## the end), the documentation build (a broken symbol link fails it), the Getting Started app
## (Examples/GettingStarted, its own package, built and tested), the order e-mail test (a real
## SMTP server on loopback), the trace test (an OTLP receiver on loopback), TechEmpower's own
## verifier on the bench app's seven TechEmpower routes (query counts through pg_stat_statements;
## it says NOT RUN, loudly, without a snapshot of their repository), the real-browser test, the
## container test (the image, run by podman), the scale-out test (three instances on PostgreSQL
## behind nginx: shared limits, a rolling deploy under load), the stall test (the database stops
## for 3 s under load), then the soak (1,000 connections for 30 s: no errors, memory back near
## idle). Each step says how long it took (scripts/timed.sh, .build/test-steps.log).
test: deps
	@rm -f .build/test-steps.log
	scripts/timed.sh $(SWIFT) build --build-tests
	scripts/timed.sh scripts/swift-test.sh
	scripts/timed.sh scripts/docs.sh
	scripts/timed.sh scripts/example-test.sh
	scripts/timed.sh scripts/mail-test.sh
	scripts/timed.sh scripts/trace-test.sh
	scripts/timed.sh scripts/techempower-test.sh
	scripts/timed.sh scripts/browser-test.sh
	scripts/timed.sh scripts/container-test.sh
	scripts/timed.sh scripts/scale-out-test.sh
	scripts/timed.sh scripts/stall-test.sh
	@scripts/install-deps.sh bench
	scripts/timed.sh Benchmarks/soak.py
	@cat .build/test-steps.log

## The Swift suites N times in a row (20 unless N is given), to find a flaky test before CI does;
## LOADED=1 keeps one core busy with another process meanwhile, as on a shared CI host. Each
## run's output is in .build/test-repeat/ (.build/test-repeat-loaded/ when loaded).
test-repeat: deps
	scripts/test-repeat.sh $(N)

## The real-browser test alone (headless Chromium through Selenium); screenshots in .build/.
browser-test: deps
	$(SWIFT) build --product storefront
	scripts/browser-test.sh

## The Getting Started guide's app (Examples/GettingStarted): the guide's code checked against
## it, then built and tested as its own package that depends on Tessera by path.
example-test: deps
	scripts/example-test.sh

## The order e-mail: a real SMTP server on loopback (aiosmtpd), kill -9 between the order and its
## mail, a server that refuses for 10 s, two instances sharing one outbox on PostgreSQL.
mail-test: deps
	$(SWIFT) build --product storefront
	scripts/mail-test.sh

## One product page's trace, exported over OTLP/HTTP to a receiver on loopback (opentelemetry-proto).
trace-test: deps
	$(SWIFT) build --product storefront
	scripts/trace-test.sh

## TechEmpower's own verifier (from a snapshot of their repository, never committed) on the bench
## app's /json, /plaintext, /db, /queries, /updates, /cached-queries and /fortunes, on a throwaway
## PostgreSQL; see scripts/techempower-test.sh (SERVER_COMMAND runs it on another server).
techempower-test: deps
	$(SWIFT) build --product tessera-bench
	scripts/techempower-test.sh

## Three storefront instances on a throwaway PostgreSQL behind nginx (deploy/nginx.conf): a journey
## across instances, racing checkouts, sign-out everywhere, an instance killed under load.
scale-out-test: deps
	$(SWIFT) build --product storefront
	scripts/scale-out-test.sh

## The storefront under load while its database stalls: PostgreSQL's processes stopped (SIGSTOP)
## for 3 s, and SQLite's file write-locked by another process for 3 s.
stall-test: deps
	$(SWIFT) build --product storefront
	scripts/stall-test.sh

## The storefront's container image, tagged tessera-storefront (podman: localhost/tessera-storefront).
image: deps
	scripts/build-image.sh

## The container test alone: builds the image, runs it on a volume, buys, stops, runs it again.
container-test: deps
	scripts/container-test.sh

## 1,000 keep-alive connections for 30 s on three storefront pages; see RELIABILITY.md.
soak:
	@scripts/install-deps.sh bench
	Benchmarks/soak.py

## The framework's DocC documentation: one archive per module in .build/docs/<Module>.doccarchive
## (open its index.html through a web server, or `docc preview`). Warnings are errors, so a broken
## symbol link fails; a crash of SwiftPM itself is retried once (scripts/docs.sh).
docs: deps
	scripts/docs.sh

build: deps
	$(SWIFT) build

## Release builds, each measured against a reference in the same run; see BENCHMARKS.md.
bench:
	@scripts/install-deps.sh bench
	Benchmarks/run-http.py
	cd Benchmarks && $(SWIFT) run -c release ViewsBenchmark
	$(MAKE) dev-loop
	$(MAKE) page-weight

## The product page's weight on a 390 px phone (HTML, CSS, JS and the photos it loads), in headless Chromium.
page-weight: deps
	$(SWIFT) build --product storefront
	$$(scripts/browser-venv.sh) Benchmarks/page-weight.py

## The edit loop under `make dev`, timed in headless Chromium: save to changed page.
dev-loop: deps
	$$(scripts/browser-venv.sh) Benchmarks/dev-loop.py

clean:
	rm -rf .build .build-deps Benchmarks/c-reference/reference
