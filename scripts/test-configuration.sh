# Sourced by every script that builds or runs what `make test` tests: the one build configuration
# (decision 0029). The suites, the process tests, the soak, TechEmpower's verifier, the docs and
# the container image all use this one build, so nothing is compiled twice:
# - release, with testable imports (the suites' `@testable import`) and without debug info
#   (the image is stripped, and a test's failure names its file and line without it);
# - the OTLP trait (the trace test, the image);
# - symbol graphs for the docs (scripts/docs.sh), written as each module compiles;
# - in .build/test, so that `make run`'s release build (.build/release) stays incremental beside it.
# Every build goes through scripts/swift.sh, which gives swift one environment; a test run
# (`scripts/swift.sh test --skip-build`) builds nothing, and keeps the environment its tests read.
tessera_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
swift_sh="$tessera_root/scripts/swift.sh"
test_scratch="$tessera_root/.build/test"
test_symbol_graphs="$test_scratch/symbol-graphs"
test_build_flags=(
  --scratch-path "$test_scratch" -c release --traits OTLP
  -Xswiftc -enable-testing -debug-info-format none
  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$test_symbol_graphs"
  -Xswiftc -emit-extension-block-symbols
)
# Where the build's executables are: storefront, tessera-bench, the test bundle.
test_bin="$test_scratch/release"
