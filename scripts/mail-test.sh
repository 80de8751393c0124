#!/usr/bin/env bash
# The order e-mail test (Tests/Mail): a real SMTP server on loopback (aiosmtpd, from PyPI, in
# .build/mail-venv), the storefront on SQLite, and two instances on a throwaway PostgreSQL.
# STOREFRONT_BINARY picks the storefront (default: make test's build, scripts/test-build.sh).
#
#   scripts/mail-test.sh [--prepare]     --prepare: only install what it needs
set -euo pipefail
source "$(dirname "$0")/test-configuration.sh"
cd "$tessera_root"
scripts/install-deps.sh postgres >&2
python=$(scripts/venv.sh mail "aiosmtpd>=1.4,<2")
[ "${1:-}" = --prepare ] && exit 0
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$test_bin/storefront}" \
  scripts/with-postgres.sh "$python" scripts/python-tests.py -v Tests/Mail/test_order_mail.py
