#!/usr/bin/env python3
"""Python's unittest as `make test` runs it (the browser, container, mail, trace, stall,
scale-out and dev-reload steps): the same arguments as `python3 -m unittest`, and two rules more.

- No test ran (a pattern that matched nothing, a module without tests): a failure, not a pass.
- Each skipped test is printed on a "SKIPPED: test: reason" line, which make test's summary
  lists apart from the passes.

    python3 scripts/python-tests.py -v Tests/Stall/test_database_stall.py
"""
import os
import sys
import unittest

# As `python3 -m unittest`: modules are found from the working directory.
sys.path.insert(0, os.getcwd())
program = unittest.main(module=None, argv=["unittest", *sys.argv[1:]], exit=False)
result = program.result
for test, reason in result.skipped:
    print(f"SKIPPED: {test.id()}: {reason}", flush=True)
if result.testsRun == 0:
    print("FAILED: no test ran", file=sys.stderr)
    sys.exit(1)
sys.exit(0 if result.wasSuccessful() else 1)
