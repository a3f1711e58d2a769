"""``python -m assistant check-db [--db FILE]``: the database's check by hand, read-only (the checks
themselves are the backend's: ``store/dbcheck.py``; the saved states' comparison with a replay of
their log: ``store/statecheck.py``)."""

from __future__ import annotations

import argparse
import os

from assistant.store import backends
from assistant.store.dbcheck import Report


def default_path(db: str | None = None) -> str:
    """The file ``serve`` would use: ``--db``, else $RSS_DB, else rss.sqlite3 in the data folder (places.py)."""
    if db:
        return db
    if os.environ.get("RSS_DB"):
        return os.environ["RSS_DB"]
    from assistant.store import places

    return places.choose().database


def main(argv: list[str] | None = None) -> int:
    """``python -m assistant check-db [--db FILE]``: 0 if the file is whole, 1 if damaged, 2 if missing."""
    parser = argparse.ArgumentParser(prog="python -m assistant check-db")
    parser.add_argument("--db", default=None, help="SQLite file (default: the one serve uses)")
    args = parser.parse_args(argv)
    path = default_path(args.db)
    backend = backends.backend(path)
    report = backend.inspect(path)
    if not report.exists:
        print(f"No database file at {path}.")
        return 2
    if report.problems:
        print(f"DAMAGED: {report.path}")
        for problem in report.problems:
            print(f"  {problem}")
        if backend.restore_advice(path):
            print(backend.restore_advice(path))
        return 1
    if report.empty:
        print(f"EMPTY: {path} is 0 bytes: it holds no games. If it should, restore a backup.")
        print(backend.restore_advice(path))
        return 1
    from assistant.store import statecheck  # (the rules engine: only where saved states are checked)

    report.warnings, differ = statecheck.check(path)
    _warn(report)
    if differ:
        print(f"SAVED STATES DIFFER: {report.path}")
        for line in differ:
            print(f"  {line}")
        print("  Those states would be used, signed with this database's key: report it (a fault of this program).")
        return 1
    print(f"OK: {report.summary()}")
    return 0


def _warn(report: Report) -> None:
    for warning in report.warnings:
        print(f"WARNING: {warning} (the log is replayed instead)")
