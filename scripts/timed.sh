#!/usr/bin/env bash
# Runs one step of `make test` and says how long it took, so the slow steps of a run that must
# finish in 25 minutes show in its log, and in .build/test-steps.log.
#
#   scripts/timed.sh COMMAND [ARGUMENTS…]
started=$SECONDS
"$@"
status=$?
line="$(date +%T) $((SECONDS - started)) s, exit $status: $*"
mkdir -p .build && echo "$line" >> .build/test-steps.log
echo "==== step: $line"
exit "$status"
