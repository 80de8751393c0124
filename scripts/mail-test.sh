#!/usr/bin/env bash
# The order e-mail test (Tests/Mail): a real SMTP server on loopback (aiosmtpd, from PyPI, in
# .build/mail-venv), the storefront on SQLite, and two instances on a throwaway PostgreSQL.
# STOREFRONT_BINARY picks the storefront (default: the debug build `make test` made).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh postgres >&2
venv=.build/mail-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import aiosmtpd" 2>/dev/null || "$venv/bin/pip" install --quiet "aiosmtpd>=1.4,<2"
STOREFRONT_BINARY="${STOREFRONT_BINARY:-$(swift build --show-bin-path)/storefront}" \
  scripts/with-postgres.sh "$venv/bin/python" -m unittest -v Tests/Mail/test_order_mail.py
