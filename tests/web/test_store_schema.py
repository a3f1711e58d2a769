"""The store's schema and its ruleset: every earlier database still opens (migrations), a game's
ruleset is always its own (never a silent Rolling Stock Stars), and a post is written only at the
game's own seq (neither behind nor ahead of it)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from assistant.rules.registry import CLASSIC
from assistant.store import Damaged, Stale, Store
from assistant.store import schema as migrations

CLASSIC_PLAYERS = ["Amy", "Brian", "Crystal"]

# The schema as each earlier version created it (git history of assistant/store/store.py).
FIRST_VERSION = """
    CREATE TABLE games (id TEXT PRIMARY KEY, players TEXT NOT NULL, options TEXT NOT NULL, deck TEXT,
                        created TEXT NOT NULL);
    CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER, event TEXT NOT NULL,
                         token TEXT, created TEXT NOT NULL, PRIMARY KEY (game_id, seq));
    CREATE UNIQUE INDEX events_token ON events (game_id, token) WHERE token IS NOT NULL;
"""
WITH_PERSONS = FIRST_VERSION + "ALTER TABLE games ADD COLUMN persons TEXT;"
WITH_RULESETS = WITH_PERSONS + (
    "ALTER TABLE games ADD COLUMN game TEXT;"
    "CREATE TABLE seats (game_id TEXT, phone TEXT, player TEXT, PRIMARY KEY (game_id, phone));"
)
OLD_GAME = (
    "INSERT INTO games (id, players, options, deck, created) VALUES ('old', '[\"Amy\", \"Brian\"]', '[]', NULL, 'x');"
)
OLD_EVENT = 'INSERT INTO events VALUES (\'old\', 1, \'{"type": "reveal", "company": "BME"}\', NULL, \'x\');'


def _old_database(path, schema: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(schema + OLD_GAME + OLD_EVENT)
    conn.commit()
    conn.close()


@pytest.mark.parametrize("schema", [FIRST_VERSION, WITH_PERSONS, WITH_RULESETS], ids=["v1", "persons", "rulesets"])
def test_a_database_of_every_earlier_version_opens_and_its_games_are_said_to_be_stars(tmp_path, schema):
    path = tmp_path / "old.sqlite3"
    _old_database(path, schema)
    store = Store(str(path))
    try:
        assert store.get_game("old").ruleset == "rolling-stock-stars"
        assert store.state("old")[1].snapshot()["offering"]["available"] == ["BME"]
        new = store.create_game(CLASSIC_PLAYERS, ["short"], ruleset="rolling-stock")
        assert store.get_game(new).ruleset == "rolling-stock"
    finally:
        store.close()
    conn = sqlite3.connect(path)
    # written into the row by the migration, not supplied as a default when read
    assert conn.execute("SELECT game FROM games WHERE id = 'old'").fetchone() == ("rolling-stock-stars",)
    applied = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid")]
    assert applied == list(migrations.MIGRATION_NAMES)
    conn.close()


def test_opening_a_database_again_applies_nothing_twice(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    Store(path).close()
    Store(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM _sqlite_migrations").fetchone() == (len(migrations.MIGRATION_NAMES),)
    conn.close()


def test_a_game_that_names_no_ruleset_is_damage_not_a_stars_game(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    store = Store(path)
    gid = store.create_game(CLASSIC_PLAYERS, ruleset="rolling-stock")
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET game = NULL")
    conn.commit()
    conn.close()
    store = Store(path)
    try:
        with pytest.raises(Damaged, match="names no ruleset"):
            store.get_game(gid)
    finally:
        store.close()


def _classic_game(store) -> tuple[str, list[dict]]:
    """A classic short game a few events in, and the events that followed on the engine."""
    gid = store.create_game(CLASSIC_PLAYERS, ["short"], ruleset="rolling-stock")
    game = CLASSIC.create(CLASSIC_PLAYERS, ["short"])
    events = []
    while len(events) < 8:
        item = game.legal_actions()[0]
        event = {"type": "reveal", "company": item["choices"][0]} if item["type"] == "reveal" else None
        if event is None:
            event = {k: v for k, v in item.items() if k in ("type", "player")}
        game.apply(event)
        events.append(event)
    return gid, events


def test_a_stale_post_to_a_classic_game_after_an_undo_lists_what_happened_meanwhile(tmp_path):
    """The meanwhile walk replays the game's own ruleset: a classic game is not replayed as Stars."""
    store = Store(str(tmp_path / "db.sqlite3"))
    try:
        gid, events = _classic_game(store)
        for seq, event in enumerate(events[:6]):
            store.append(gid, seq, event)
        store.append(gid, 6, {"type": "undo"})
        store.append(gid, 7, events[5])
        changes = store.changes_since(gid, 4)
        assert len(changes) == 4 and changes[2].startswith("Undone: ")
        with pytest.raises(Stale):
            store.append(gid, 4, events[4])
    finally:
        store.close()


def test_the_json_door_answers_a_stale_classic_post_after_an_undo_with_the_changes(client, store):
    gid, events = _classic_game(store)
    for seq, event in enumerate(events[:6]):
        store.append(gid, seq, event)
    store.append(gid, 6, {"type": "undo"})
    resp = client.post(f"/games/{gid}/events", json={"seq": 4, "event": events[4]})
    assert resp.status_code == 409, resp.text
    assert resp.get_json()["seq"] == 7
    assert any(text.startswith("Undone: ") for text in resp.get_json()["changes"])


def test_a_post_with_a_seq_ahead_of_the_game_is_refused_as_stale(tmp_path, client, store):
    gid, events = _classic_game(store)
    store.append(gid, 0, events[0])
    with pytest.raises(Stale):
        store.append(gid, 2, events[1])  # the game is at 1
    assert store.seq(gid) == 1
    resp = client.post(f"/games/{gid}/events", json={"seq": 5, "event": events[1]})
    assert resp.status_code == 409 and resp.get_json()["seq"] == 1
    assert store.seq(gid) == 1
    assert json.dumps(store.events(gid)) == json.dumps(events[:1])
