"""The store's schema, as a list of named migrations applied in order (sqlite-utils ``Migrations``).

Each migration is applied once and recorded by its name in ``_sqlite_migrations``.  A database made
by any earlier version opens: those versions grew the schema without recording it, so every step
here checks what is already there (a table, a column) before it adds it.  Another store provides
the same steps under the same names (``MIGRATION_NAMES``).

1. ``games_and_events`` — ``games`` (id, players, options, deck, created) and the append-only
   ``events`` log with its unique (game, token) index (the first version);
2. ``two_handed_persons`` — ``games.persons``, the two persons of the two-handed variant;
3. ``games_name_their_ruleset`` — ``games.game``, the ruleset's key; games stored before rulesets
   existed were Rolling Stock Stars games, and are now said to be, explicitly;
4. ``seats`` — which phone took which seat (presentation only, not part of the log);
5. ``games_resume_from_a_position`` — ``games.position``: the table as it lay when a game that
   did not start with the assistant resumed (FORMAT-position.md); NULL for a game from its start;
6. ``rate_limits`` — how many games each client created (or imported) per time window, counted
   in the database so that every worker process and every server on it shares the count;
7. ``saved_states`` — the state of a long game at a row of its log, so that it is not replayed
   from its start (``assistant/log/saved.py``): a cache, the log alone is the game;
8. ``games_keep_their_rules_edition`` — ``games.edition``, the edition of the arbitration a game
   is played under (``Game.EDITION``): the games stored before it are edition 1, and replay and
   play on as they were entered (an intervention out of priority order, a position the stricter
   checks refuse); new games are stored with the current edition.
"""

from __future__ import annotations

import sqlite_utils
from sqlite_utils import Migrations

SET_NAME = "rss-store"
RULESETS_BEFORE_RULESETS = "rolling-stock-stars"  # the only game there was

migrations = Migrations(SET_NAME)


@migrations(name="games_and_events")
def games_and_events(db: sqlite_utils.Database) -> None:
    if "games" not in db.table_names():
        db["games"].create(
            {"id": str, "players": str, "options": str, "deck": str, "created": str},
            pk="id",
            not_null={"players", "options", "created"},
        )
    if "events" not in db.table_names():
        db["events"].create(
            {"game_id": str, "seq": int, "event": str, "token": str, "created": str},
            pk=("game_id", "seq"),
            not_null={"event", "created"},
            foreign_keys=[("game_id", "games", "id")],
        )
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_token ON events (game_id, token) WHERE token IS NOT NULL")


@migrations(name="two_handed_persons")
def two_handed_persons(db: sqlite_utils.Database) -> None:
    if "persons" not in db["games"].columns_dict:
        db["games"].add_column("persons", str)


@migrations(name="games_name_their_ruleset")
def games_name_their_ruleset(db: sqlite_utils.Database) -> None:
    if "game" not in db["games"].columns_dict:
        db["games"].add_column("game", str)
    db.execute("UPDATE games SET game = ? WHERE game IS NULL", [RULESETS_BEFORE_RULESETS])


@migrations(name="seats")
def seats(db: sqlite_utils.Database) -> None:
    if "seats" not in db.table_names():
        db["seats"].create({"game_id": str, "phone": str, "player": str}, pk=("game_id", "phone"))


@migrations(name="games_resume_from_a_position")
def games_resume_from_a_position(db: sqlite_utils.Database) -> None:
    if "position" not in db["games"].columns_dict:
        db["games"].add_column("position", str)


@migrations(name="rate_limits")
def rate_limits(db: sqlite_utils.Database) -> None:
    if "rate_limits" not in db.table_names():
        db["rate_limits"].create(
            {"client": str, "action": str, "window": int, "count": int}, pk=("client", "action", "window")
        )


@migrations(name="saved_states")
def saved_states(db: sqlite_utils.Database) -> None:
    if "saved_states" not in db.table_names():
        db["saved_states"].create(
            {"game_id": str, "version": str, "seq": int, "events": int, "data": bytes, "created": str},
            pk=("game_id", "version", "seq"),
            not_null={"events", "data", "created"},
        )


@migrations(name="games_keep_their_rules_edition")
def games_keep_their_rules_edition(db: sqlite_utils.Database) -> None:
    if "edition" not in db["games"].columns_dict:
        db["games"].add_column("edition", int)
    db.execute("UPDATE games SET edition = 1 WHERE edition IS NULL")


MIGRATION_NAMES = (
    "games_and_events",
    "two_handed_persons",
    "games_name_their_ruleset",
    "seats",
    "games_resume_from_a_position",
    "rate_limits",
    "saved_states",
    "games_keep_their_rules_edition",
)


def pending(db: sqlite_utils.Database) -> list[str]:
    return [m.name for m in migrations.pending(db)]


def apply(db: sqlite_utils.Database) -> None:
    """Apply the pending migrations, all under one write lock (BEGIN IMMEDIATE), so that worker
    processes starting together apply each exactly once; each with its record, or not at all."""
    if not migrations.pending(db):
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        migrations.apply(db)  # inside the transaction, each migration is a savepoint
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")
