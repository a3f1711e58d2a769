"""Every write counts against the database's cap and each game's budget (assistant/store/budget.py,
issue 38 §5): the caps from the settings, what a game holds as counted and moved on by the rows
written, the refusals' words, and a store that refuses a row past a game's budget writing nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest

from assistant.store import Store, budget
from assistant.store.errors import Full

MB = 1024 * 1024
PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.fixture(autouse=True)
def default_caps(monkeypatch):
    monkeypatch.delenv("RSS_DB_MAX_MB", raising=False)
    monkeypatch.delenv("RSS_GAME_MAX_MB", raising=False)


@pytest.fixture
def store(tmp_path):
    store = Store(str(tmp_path / "store.sqlite3"))
    yield store
    store.close()


def _game_with_rows(store) -> str:
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    for seq in range(3):
        _, game = store.state(gid)
        store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})
    return gid


def _bytes_of(path, gid) -> int:
    """What the game's rows and saved states hold, read from the file here."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT event FROM events WHERE game_id = ?", [gid]).fetchall()
        states = conn.execute("SELECT data FROM saved_states WHERE game_id = ?", [gid]).fetchall()
    finally:
        conn.close()
    return sum(len(r[0].encode()) for r in rows) + sum(len(s[0]) for s in states)


def test_the_caps_come_from_the_settings(monkeypatch):
    assert budget.db_max_bytes() == 4096 * MB  # the default (docs/operations.md)
    monkeypatch.setenv("RSS_DB_MAX_MB", "0.5")
    assert budget.db_max_bytes() == 524288
    monkeypatch.setenv("RSS_DB_MAX_MB", "100")
    monkeypatch.setenv("RSS_GAME_MAX_MB", "1")
    assert budget.game_max_bytes() == MB  # its own, below a tenth of 100 MB
    monkeypatch.setenv("RSS_GAME_MAX_MB", "8")
    monkeypatch.setenv("RSS_DB_MAX_MB", "20")
    assert budget.game_max_bytes() == 2 * MB  # a tenth of the database's cap
    monkeypatch.setenv("RSS_DB_MAX_MB", "1")
    limit = budget.game_max_bytes()
    assert limit == 104857  # 1,048,576 // 10, a whole number of bytes
    assert isinstance(limit, int)
    monkeypatch.setenv("RSS_GAME_MAX_MB", "0.0001")
    assert budget.game_max_bytes() == 104  # int(104.8576)


def test_sizes_are_said_in_megabytes_to_a_tenth():
    assert budget._mb(0) == "0.0 MB"
    assert budget._mb(3 * MB // 2) == "1.5 MB"
    assert budget._mb(104857) == "0.1 MB"
    assert budget._mb(4096 * MB) == "4096.0 MB"


def test_what_a_game_holds_is_counted_then_moved_on_by_the_rows_written(store, tmp_path):
    gid = _game_with_rows(store)
    real = _bytes_of(tmp_path / "store.sqlite3", gid)
    assert real > 0
    held = budget.Held()
    assert held.of(store.backend, gid, 3) == real  # counted
    held.wrote(gid, 4, 100)  # the next row, of 100 bytes: moved on, not counted again
    assert held.of(store.backend, gid, 4) == real + 100
    held.wrote(gid, 6, 50)  # not the next row (another process wrote one): left as it was
    assert held.of(store.backend, gid, 4) == real + 100
    assert held.of(store.backend, gid, 6) == real  # rows it did not count: counted again
    held.wrote(gid, 7, 10)
    assert held.of(store.backend, gid, 7) == real + 10
    held.forget(gid)  # a saved state written: counted again
    assert held.of(store.backend, gid, 7) == real
    held.forget("no-such-game")  # forgetting one it does not know is nothing
    assert held.of(store.backend, "no-such-game", 0) == 0


def test_the_games_held_are_the_latest_few_counted_or_moved_on(store):
    held = budget.Held()
    held.KEPT = 2
    # no such games hold 0 bytes when counted; what the rows written add tells a remembered count
    assert held.of(store.backend, "g1", 0) == 0
    held.wrote("g1", 1, 10)
    assert held.of(store.backend, "g2", 0) == 0
    held.wrote("g1", 2, 5)  # g1 moved on last: g2 is the oldest now
    assert held.of(store.backend, "g3", 0) == 0  # a third: the oldest is forgotten
    assert held.of(store.backend, "g1", 2) == 15
    held.wrote("g3", 1, 7)
    assert held.of(store.backend, "g3", 1) == 7
    held.wrote("g2", 1, 7)  # forgotten: not moved on
    assert held.of(store.backend, "g2", 1) == 0


def test_a_write_past_the_databases_cap_is_refused_in_words(store, monkeypatch):
    gid = _game_with_rows(store)
    monkeypatch.setenv("RSS_DB_MAX_MB", "1")
    used = store.backend.used()
    assert 0 < used < MB // 10
    with pytest.raises(Full, match="log is full"):  # up to the cap: past the game's budget only (a tenth)
        budget.check_room(store.backend, gid, MB - used, held=0)
    budget.check_room(store.backend, gid, MB // 10, held=0)  # a whole game's budget is within both
    with pytest.raises(Full) as full:
        budget.check_room(store.backend, gid, MB - used + 1, held=0)
    assert full.value.message == (
        f"The table's database is full ({used / MB:.1f} MB, the cap is 1.0 MB): nothing more can be saved, in any"
        " game. Whoever runs the server can raise RSS_DB_MAX_MB or move finished games away (README: settings)."
    )
    # past both: the database's cap is said
    with pytest.raises(Full, match="database is full"):
        budget.check_room(store.backend, gid, MB, held=MB)
    with pytest.raises(Full, match="log is full"):
        budget.check_room(store.backend, gid, MB // 10 + 1, held=0)


def test_a_write_past_the_games_budget_is_refused_in_words(store, monkeypatch, tmp_path):
    gid = _game_with_rows(store)
    monkeypatch.setenv("RSS_GAME_MAX_MB", "0.15")  # 157,286 bytes, below a tenth of the 4096 MB cap
    limit = int(0.15 * MB)
    budget.check_room(store.backend, gid, limit - 1000, held=1000)  # up to the budget
    with pytest.raises(Full) as full:
        budget.check_room(store.backend, gid, limit - 1000 + 1, held=1000)
    assert full.value.message == (
        "This game's log is full (0.0 MB; each game may hold 0.1 MB): nothing more can be entered in it. Export"
        " its transcript and import it to go on: the imported game starts a fresh log with the entries in effect."
        " (Whoever runs the server can raise RSS_GAME_MAX_MB.)"
    )
    # what it holds, counted when not given
    real = _bytes_of(tmp_path / "store.sqlite3", gid)
    budget.check_room(store.backend, gid, limit - real)
    with pytest.raises(Full, match=r"log is full \(0\.0 MB"):
        budget.check_room(store.backend, gid, limit - real + 1)
    monkeypatch.setenv("RSS_GAME_MAX_MB", "2")
    with pytest.raises(Full, match=r"log is full \(1\.5 MB; each game may hold 2\.0 MB\)"):
        budget.check_room(store.backend, gid, MB // 2 + 1, held=3 * MB // 2)


def test_a_row_past_the_games_budget_writes_nothing(store, monkeypatch, tmp_path):
    gid = _game_with_rows(store)
    real = _bytes_of(tmp_path / "store.sqlite3", gid)
    row = json.dumps({"type": "pass", "player": "Amy"})
    # room for the row to the byte: written
    monkeypatch.setenv("RSS_GAME_MAX_MB", str((real + len(row)) / MB))
    assert budget.game_max_bytes() == real + len(row)
    assert store.append(gid, 3, {"type": "pass", "player": "Amy"}) == 4
    # none for the next one: refused, nothing written
    with pytest.raises(Full):
        store.append(gid, 4, {"type": "pass", "player": "Brian"})
    assert store.seq(gid) == 4
    assert _bytes_of(tmp_path / "store.sqlite3", gid) == real + len(row)
