#!/usr/bin/env bash
# Install what the tests need on a fresh machine (the package with its `test` extra, and
# Debian's chromium for the browser tests), lint, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi
python -m pip install -q -e '.[test]'
python -m ruff check .
python -m ruff format --check .
python -m pytest -q
