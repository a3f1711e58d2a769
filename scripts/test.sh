#!/usr/bin/env bash
# Install what the tests need on a fresh machine (the package with its `test` extra, Debian's
# chromium for the browser tests and postgresql for the PostgreSQL store), lint, then run every test.
#   bash scripts/test.sh --quick   the quick subset (under a minute): the rules engine, the web app
#                                  through Flask's test client, the store (tests/store) and the
#                                  look-alike names; no browser, no server process, no slow playouts
#                                  (markers in tests/conftest.py)
# Other arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# the package with its test extra, installed editable from this checkout; `pip install -e` takes
# ten seconds even when nothing changes, so it is skipped when scripts/installed.py finds this
# checkout installed with every requirement met
install() {
  python scripts/installed.py || python -m pip install -q -e '.[test]'
}

# Python keeps the compiled modules and pytest its rewritten test modules (in __pycache__, ignored
# by git), also where PYTHONDONTWRITEBYTECODE is set: compiling them all again takes 7 s a run
unset PYTHONDONTWRITEBYTECODE
# The tests' throw-away files (a database per test, the PostgreSQL cluster) go to memory where
# /dev/shm has room (not Docker's 64 MB): creating an SQLite store there takes 6 ms, not 40 (disk syncs)
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 2000000 ]; then
  export TMPDIR=/dev/shm
fi

if [ "${1:-}" = "--quick" ]; then
  shift
  install
  python -m ruff check .
  # on every core (pytest-xdist): each test has its own files, so they may run side by side
  exec python -m pytest -q -n auto -m "not browser and not server and not slow" \
    tests/rules tests/web tests/store tests/robustness/test_lookalike_names.py tests/test_hypothesis_profile.py "$@"
fi

# Debian's packages the tests use: chromium (browser tests) and postgresql (the PostgreSQL store's
# tests start a throw-away cluster of their own; the package's own cluster is not used)
PACKAGES=""
[ -x /usr/bin/chromium ] || PACKAGES="$PACKAGES chromium"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || PACKAGES="$PACKAGES postgresql"
if [ -n "$PACKAGES" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  # shellcheck disable=SC2086
  $SUDO apt-get install -y $PACKAGES
fi
install
python -m ruff check .
python -m ruff format --check .
python -m pytest -q "$@"
