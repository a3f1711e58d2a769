"""Where the games are kept: the rows of each game's log, behind one interface (``store.py``), on
SQLite (``sqlite.py``, one file, the default) or PostgreSQL (``postgres.py``, several app servers on
one database), with the schema's steps (``schema.py``), the database's address (``dburl.py``) and
backend (``backends.py``), its checks (``dbcheck.py``) and copies (``copydb.py``), and the players'
names (``names.py``). ``Store`` is the facade the web uses; its games' timelines (cache, replay,
saved states) are in ``timelines.py``, import and export in ``transcripts.py``, what may be entered
in ``entries.py``.

The log itself is read in ``assistant/log/``; the store keeps rows and a cache of timelines."""

import importlib

# The names the package offers, and the module each lives in.  Imported on first use (PEP 562), so
# that a light module of the package (dburl, dbcheck: the supervisor's) does not load the store and
# the rules engine with it.
_WHERE = {
    **dict.fromkeys(
        (
            "DatabaseDamaged",
            "DatabaseUnavailable",
            "Damaged",
            "Full",
            "ImportRefused",
            "NotFound",
            "Refused",
            "Stale",
            "StoreError",
            "Unreplayable",
        ),
        "assistant.store.errors",
    ),
    **dict.fromkeys(("AMEND", "GO_BACK", "REDO", "STORE_EVENTS", "UNDO"), "assistant.rules.core.events"),
    **dict.fromkeys(
        (
            "GameInfo",
            "Row",
            "Store",
            "check_token",
            "effective_events",
            "new_game_id",
            "normalise_event",
            "backend_for",
        ),
        "assistant.store.store",
    ),
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'assistant.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value
