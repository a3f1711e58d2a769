#!/usr/bin/env bash
# Install what the tests need on a fresh machine, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi
python -m pip install -q -r requirements-dev.txt
python -m pytest -q
