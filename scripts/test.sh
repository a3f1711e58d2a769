#!/usr/bin/env bash
# Install what the tests need on a fresh machine (the package with its `test` extra, and
# Debian's chromium for the browser tests), lint, then run every test.
#   bash scripts/test.sh --quick   the quick subset (about a minute): the rules engine, the web app
#                                  through Flask's test client, the store and the look-alike names;
#                                  no browser, no server process (markers in tests/conftest.py)
# Other arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--quick" ]; then
  shift
  python -m pip install -q -e '.[test]'
  python -m ruff check .
  exec python -m pytest -q -m "not browser and not server" \
    tests/rules tests/web tests/robustness/test_lookalike_names.py tests/test_hypothesis_profile.py "$@"
fi

if [ ! -x /usr/bin/chromium ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  $SUDO apt-get install -y chromium
fi
python -m pip install -q -e '.[test]'
python -m ruff check .
python -m ruff format --check .
python -m pytest -q "$@"
