"""Where the games are kept: the rows of each game's log, behind one interface (``store.py``), on
SQLite (``sqlite.py``, one file, the default) or PostgreSQL (``postgres.py``, several app servers on
one database), with the schema's steps (``schema.py``), the database's address (``dburl.py``), its
checks (``dbcheck.py``) and copies (``copydb.py``), and the players' names (``names.py``).

The log itself is read in ``assistant/log/``; the store keeps rows and a cache of timelines."""

from assistant.store.errors import (
    Damaged,
    DatabaseDamaged,
    DatabaseUnavailable,
    ImportRefused,
    NotFound,
    Refused,
    Stale,
    StoreError,
    Unreplayable,
)
from assistant.store.store import (
    AMEND,
    GO_BACK,
    REDO,
    STORE_EVENTS,
    UNDO,
    GameInfo,
    Row,
    Store,
    check_token,
    effective_events,
    new_game_id,
    normalise_event,
    tables_for,
)

__all__ = [
    "AMEND",
    "GO_BACK",
    "REDO",
    "STORE_EVENTS",
    "UNDO",
    "DatabaseDamaged",
    "DatabaseUnavailable",
    "Damaged",
    "GameInfo",
    "ImportRefused",
    "NotFound",
    "Refused",
    "Row",
    "Stale",
    "Store",
    "StoreError",
    "Unreplayable",
    "check_token",
    "effective_events",
    "new_game_id",
    "normalise_event",
    "tables_for",
]
