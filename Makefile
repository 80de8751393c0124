# The two commands: `make run` and `make test`. Each installs what is missing first.
# Every build goes through scripts/swift.sh, which runs swift in one environment: SwiftPM plans a
# build anew, and recompiles every module with templates, when an environment variable differs
# from the last build's. SWIFT names another swift.
export SWIFT ?= swift
unexport MAKEFLAGS MFLAGS MAKEOVERRIDES

.PHONY: run run-postgres dev fuzz dev-loop page-weight example-test dev-reload-test test test-build test-repeat browser-test mail-test trace-test cache-test techempower-test container-test scale-out-test stall-test image soak build bench docs deps clean

deps:
	@scripts/install-deps.sh build

## Build, seed the demo shop (its photos are drawn once, by `storefront seed`), and start the
## storefront on http://localhost:8080 (PORT, HOST, DATA_DIR … override). A release build without
## the OTLP trace exporter (`--traits OTLP` adds it; make test and the image have it).
run: deps
	scripts/swift.sh build -c release --product storefront
	.build/release/storefront seed
	.build/release/storefront

## The storefront for working on it: every saved change under Sources/, Views/ or Public/ is
## rebuilt (debug, incremental) and the server restarted on the same data (.build/dev/data), and
## every open page reloads itself; a failed build shows over the page. See scripts/dev.py.
dev: deps
	scripts/dev.py --seed

## The storefront on a throwaway PostgreSQL cluster (scripts/with-postgres.sh) instead of SQLite,
## as instances that share one database run; Ctrl-C stops the server, then the cluster is deleted.
run-postgres: deps
	scripts/swift.sh build -c release --product storefront
	scripts/with-postgres.sh sh -c 'export DATABASE_URL="$$TESSERA_POSTGRES_URL" SESSION_SECRET="$${SESSION_SECRET:-$$(od -An -N32 -tx1 /dev/urandom | tr -d " \n")}" && .build/release/storefront seed && exec .build/release/storefront'

## Build once and run every test on that build (scripts/test.sh, decision 0029): the Swift suites
## (the stores' conformance suites on SQLite and on a throwaway PostgreSQL cluster), the
## documentation (a broken symbol link fails it), the Getting Started app (its own package, built
## and tested) and `make dev`'s reload in Chromium on it, the order e-mail (a real SMTP server on
## loopback), the trace test (an OTLP receiver on loopback), TechEmpower's own verifier on the
## bench app (NOT RUN, loudly, without a snapshot of their repository), the real-browser test, the
## container test (the image, run by podman), the scale-out test (three instances on PostgreSQL
## behind nginx, a rolling deploy under load), the stall test (the database stops for 3 s under
## load), then the soak (1,000 connections for 30 s). Steps run in lanes side by side; each says
## how long it took, and the end gives every step's time and the total (.build/test-steps.log).
test: deps
	scripts/test.sh

## make test's one build (scripts/test-build.sh): release with testable imports, the OTLP trait and
## the docs' symbol graphs, in .build/test. The targets below run their check on it.
test-build: deps
	scripts/test-build.sh

## The Swift suites N times in a row (20 unless N is given), to find a flaky test before CI does;
## LOADED=1 keeps one core busy with another process meanwhile, as on a shared CI host (LOADED=2: two). Each
## run's output is in .build/test-repeat/ (.build/test-repeat-loaded/ when loaded).
test-repeat: deps
	scripts/test-repeat.sh $(N)

## libFuzzer on the hand-written parsers (Fuzz/targets: CBOR, cookies, the session record and
## base64url, the request-head rules, multipart) and the JSON writer against Foundation's encoder, FUZZ_SECONDS each
## (60 unless given); make test runs each for 25 s. A crash's input is
## kept in .build/fuzz/crashes/ (scripts/fuzz.sh).
fuzz:
	scripts/fuzz.sh $(FUZZ_SECONDS)

## The real-browser test alone (headless Chromium through Selenium); screenshots in .build/.
browser-test: test-build
	scripts/browser-test.sh

## The Getting Started guide's app (Examples/GettingStarted): made again by `tessera new` and
## `tessera generate resource` (make test's build) and compared, the generators' refusals, the
## guide's code checked against it, then built and tested as its own package on Tessera by path.
example-test: test-build
	scripts/example-test.sh

## `make dev`'s reload in headless Chromium, on the Getting Started app (after example-test).
dev-reload-test: example-test
	scripts/dev-reload-test.sh

## The order e-mail: a real SMTP server on loopback (aiosmtpd), kill -9 between the order and its
## mail, a server that refuses for 10 s, two instances sharing one outbox on PostgreSQL.
mail-test: test-build
	scripts/mail-test.sh

## One product page's trace, exported over OTLP/HTTP to a receiver on loopback (opentelemetry-proto).
trace-test: test-build
	scripts/trace-test.sh

## What shared caches may keep of the storefront's pages, as REDbot reads them (Tests/Caches).
cache-test: test-build
	scripts/cache-test.sh

## TechEmpower's own verifier (from a snapshot of their repository, never committed) on the bench
## app's /json, /plaintext, /db, /queries, /updates, /cached-queries and /fortunes, on a throwaway
## PostgreSQL; see scripts/techempower-test.sh (SERVER_COMMAND runs it on another server).
techempower-test: test-build
	scripts/techempower-test.sh

## Three storefront instances on a throwaway PostgreSQL behind nginx (deploy/nginx.conf): a journey
## across instances, racing checkouts, sign-out everywhere, an instance killed under load.
scale-out-test: test-build
	scripts/scale-out-test.sh

## The storefront under load while its database stalls: PostgreSQL's processes stopped (SIGSTOP)
## for 3 s, and SQLite's file write-locked by another process for 3 s.
stall-test: test-build
	scripts/stall-test.sh

## The storefront's container image, tagged tessera-storefront (podman: localhost/tessera-storefront),
## from make test's binary and the Swift runtime libraries it links.
image: test-build
	scripts/build-image.sh

## The container test alone: builds the image, runs it on a volume, buys, stops, runs it again.
container-test: test-build
	scripts/container-test.sh

## 1,000 keep-alive connections for 30 s on three storefront pages; see RELIABILITY.md.
soak: test-build
	@scripts/install-deps.sh bench
	Benchmarks/soak.py

## The framework's DocC documentation: one archive per module in .build/docs/<Module>.doccarchive
## (open its index.html through a web server, or `docc preview`), from the symbol graphs make
## test's build writes. Warnings are errors, so a broken symbol link fails (scripts/docs.sh).
docs: test-build
	scripts/docs.sh

build: deps
	scripts/swift.sh build

## Release builds, each measured against a reference in the same run; see BENCHMARKS.md.
bench:
	@scripts/install-deps.sh bench
	Benchmarks/run-http.py
	Benchmarks/context-switches.sh /plaintext /json /memory-fortunes /db
	BUSY=1 Benchmarks/context-switches.sh /plaintext /json /memory-fortunes /db
	scripts/swift.sh run --package-path Benchmarks -c release ViewsBenchmark
	$(MAKE) dev-loop
	$(MAKE) page-weight

## The product page's weight on a 390 px phone (HTML, CSS, JS and the photos it loads), in headless Chromium.
page-weight: test-build
	$$(scripts/browser-venv.sh) Benchmarks/page-weight.py

## The edit loop under `make dev`, timed in headless Chromium: save to changed page.
dev-loop: deps
	$$(scripts/browser-venv.sh) Benchmarks/dev-loop.py

clean:
	rm -rf .build .build-deps Benchmarks/c-reference/reference
