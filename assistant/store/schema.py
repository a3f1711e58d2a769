"""The store's schema: named steps applied in order, each written once, here, for every backend.

A step is a list of operations (a table made, a column added, an index, a column filled where it
is empty), data rather than SQL; each backend turns them into its own (``SQLiteBackend.migrate``:
sqlite-utils ``Migrations``, recorded in ``_sqlite_migrations``; ``PostgresBackend.migrate``:
``CREATE TABLE IF NOT EXISTS`` and ``ADD COLUMN IF NOT EXISTS``, recorded in ``rss_migrations``).
A database made by any earlier version opens: those versions grew the schema without recording
it, so every operation checks what is already there (a table, a column) before it adds it.

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

from dataclasses import dataclass

TEXT, INTEGER, BLOB = "text", "integer", "blob"
RULESETS_BEFORE_RULESETS = "rolling-stock-stars"  # the only game there was


@dataclass(frozen=True)
class Column:
    name: str
    type: str  # TEXT, INTEGER or BLOB
    not_null: bool = False


@dataclass(frozen=True)
class CreateTable:
    table: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]  # the primary key's columns
    references: tuple[tuple[str, str, str], ...] = ()  # (column, table, its column)


@dataclass(frozen=True)
class AddColumn:
    table: str
    column: Column


@dataclass(frozen=True)
class CreateIndex:
    name: str
    table: str
    columns: tuple[str, ...]
    unique: bool = False
    where: str | None = None  # a partial index's condition, in SQL both backends read alike


@dataclass(frozen=True)
class Fill:
    """``UPDATE table SET column = value WHERE column IS NULL``: the rows made before the column."""

    table: str
    column: str
    value: object


@dataclass(frozen=True)
class Step:
    name: str
    operations: tuple


def _c(name: str, kind: str = TEXT, not_null: bool = False) -> Column:
    return Column(name, kind, not_null)


STEPS: tuple[Step, ...] = (
    Step(
        "games_and_events",
        (
            CreateTable(
                "games",
                (_c("id"), _c("players", not_null=True), _c("options", not_null=True), _c("deck"),
                 _c("created", not_null=True)),
                key=("id",),
            ),
            CreateTable(
                "events",
                (_c("game_id"), _c("seq", INTEGER), _c("event", not_null=True), _c("token"),
                 _c("created", not_null=True)),
                key=("game_id", "seq"),
                references=(("game_id", "games", "id"),),
            ),
            CreateIndex("events_token", "events", ("game_id", "token"), unique=True, where="token IS NOT NULL"),
        ),
    ),
    Step("two_handed_persons", (AddColumn("games", _c("persons")),)),
    Step(
        "games_name_their_ruleset",
        (AddColumn("games", _c("game")), Fill("games", "game", RULESETS_BEFORE_RULESETS)),
    ),
    Step("seats", (CreateTable("seats", (_c("game_id"), _c("phone"), _c("player")), key=("game_id", "phone")),)),
    Step("games_resume_from_a_position", (AddColumn("games", _c("position")),)),
    Step(
        "rate_limits",
        (
            CreateTable(
                "rate_limits",
                (_c("client"), _c("action"), _c("window", INTEGER), _c("count", INTEGER)),
                key=("client", "action", "window"),
            ),
        ),
    ),
    Step(
        "saved_states",
        (
            CreateTable(
                "saved_states",
                (_c("game_id"), _c("version"), _c("seq", INTEGER), _c("events", INTEGER, True), _c("data", BLOB, True),
                 _c("created", not_null=True)),
                key=("game_id", "version", "seq"),
            ),
        ),
    ),
    Step(
        "games_keep_their_rules_edition",
        (AddColumn("games", _c("edition", INTEGER)), Fill("games", "edition", 1)),
    ),
)  # fmt: skip

MIGRATION_NAMES = tuple(step.name for step in STEPS)
