"""``check-db``'s look at the saved states (assistant/store/statecheck.py, issue 38 §4): the servers'
key from their shared secret, where two snapshots differ in words, and each game's latest saved
state compared with a replay of its log: a state whose signature does not hold is a warning, one
whose signature holds and that differs is a fault, a state that cannot be loaded or a log that no
longer replays is said.  Real SQLite files; the states planted the way tests/store/test_signed_states.py
plants them."""

from __future__ import annotations

import sqlite3

import pytest

from assistant.log import saved, transcript
from assistant.store import Store, statecheck
from assistant.store.statecheck import differences
from tests.project_games import bidding_war

SECRET = "the table's secret"
KEY = saved.key_from_secret(SECRET)
PLAYERS = ["Amy", "Brian"]
EVERY = 20
UNTRUSTED = (
    "its signature does not hold: it was not written by a server with this database's secret key for this game and row"
)


@pytest.fixture
def no_secret(monkeypatch, tmp_path):
    monkeypatch.delenv("RSS_SECRET_KEY", raising=False)
    monkeypatch.setenv("RSS_INSTANCE", str(tmp_path / "instance"))
    return tmp_path / "instance"


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("RSS_SECRET_KEY", SECRET)


def test_the_servers_key_comes_from_their_secret(no_secret, monkeypatch):
    assert statecheck.server_key() is None  # no secret anywhere
    no_secret.mkdir()
    assert statecheck.server_key() is None
    (no_secret / "secret_key").write_text("  \n", encoding="ascii")
    assert statecheck.server_key() is None  # an empty one
    (no_secret / "secret_key").write_text(" from the file \n", encoding="ascii")
    assert statecheck.server_key() == saved.key_from_secret("from the file")
    monkeypatch.setenv("RSS_SECRET_KEY", SECRET)  # the environment first
    assert statecheck.server_key() == KEY


def test_where_two_snapshots_differ_one_line_each():
    assert differences({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) == []
    assert differences({"players": {"Amy": {"cash": 10}}}, {"players": {"Amy": {"cash": 60}}}) == [
        "players.Amy.cash: 10 in the replay, 60 in the state"  # the module's own example
    ]
    assert differences({"a": 1, "b": 2}, {"c": 3, "a": 1}) == [
        "b: 2 in the replay, None in the state",
        "c: None in the replay, 3 in the state",
    ]
    assert differences({"x": [1, 2, {"y": "p"}]}, {"x": [1, 3, {"y": "q"}]}) == [
        "x[1]: 2 in the replay, 3 in the state",
        "x[2].y: 'p' in the replay, 'q' in the state",
    ]
    assert differences([1, 2], [0, 2]) == ["[0]: 1 in the replay, 0 in the state"]
    assert differences({"x": [1]}, {"x": [1, 2]}) == ["x: [1] in the replay, [1, 2] in the state"]  # lengths
    assert differences({"x": [1]}, {"x": {"0": 1}}) == ["x: [1] in the replay, {'0': 1} in the state"]
    assert differences(1, 2) == ["the game: 1 in the replay, 2 in the state"]
    assert differences("same", "same") == []


def _game(path: str, entries: int = 100) -> str:
    store = Store(path, save_every=EVERY, key=KEY)
    pos, events = bidding_war(entries, cash=10_000, players=PLAYERS)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "t", position=pos))
    store.close()
    return gid


def _state(path, gid, seq) -> bytes:
    store = Store(path, save_every=EVERY, key=KEY)
    try:
        found = store.backend.saved_state(gid, saved.version(), seq, 10**9)
        assert found[0] == seq
        return found[1]
    finally:
        store.close()


def _plant(path, gid, seq, data) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE saved_states SET data = ? WHERE game_id = ? AND seq = ?", [data, gid, seq])
    conn.close()


def _edited(data: bytes, seq: int, cash: int, sign_with: bytes | None, gid: str, brian: int | None = None) -> bytes:
    state = saved.loads(seq, saved.unsigned(data))
    state.game.players["Amy"].cash = cash
    if brian is not None:
        state.game.players["Brian"].cash = brian
    pickled = saved.dumps(state.game, state.walk)
    return saved.sign(sign_with, gid, seq, pickled) if sign_with else data[: saved.MAC_BYTES] + pickled


def test_states_that_are_the_replays_are_not_said(tmp_path, secret):
    path = str(tmp_path / "good.sqlite3")
    _game(path)
    _game(path, 45)
    assert statecheck.check(path) == ([], [])


def test_without_the_secret_no_state_is_trusted(tmp_path, no_secret):
    path = str(tmp_path / "nokey.sqlite3")
    gid = _game(path, 45)
    warnings, differ = statecheck.check(path)
    assert warnings == [
        "no secret key found ($RSS_SECRET_KEY, the instance folder): no state can be trusted",
        f"game {gid}: the state saved at row 20 is not used ({UNTRUSTED}): it is treated as absent",
        f"game {gid}: the state saved at row 40 is not used ({UNTRUSTED}): it is treated as absent",
    ]
    assert differ == []  # the latest, untrusted, is the replay's


def test_a_database_without_saved_states_has_none_to_say(tmp_path, secret):
    path = str(tmp_path / "old.sqlite3")
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id TEXT PRIMARY KEY)")
    conn.close()
    assert statecheck.check(path) == ([], [])
    conn = sqlite3.connect(path)  # nothing written: not even the schema's steps
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["games"]
    conn.close()


def test_a_signed_state_that_differs_is_a_fault_an_unsigned_one_a_warning(tmp_path, secret):
    path = str(tmp_path / "edited.sqlite3")
    signed, unsigned, older = _game(path), _game(path), _game(path)
    _plant(path, signed, 100, _edited(_state(path, signed, 100), 100, 60, KEY, signed))
    _plant(path, unsigned, 100, _edited(_state(path, unsigned, 100), 100, 70, None, unsigned, brian=71))
    _plant(path, older, 80, _edited(_state(path, older, 80), 80, 80, KEY, older))  # not the latest: not compared
    warnings, differ = statecheck.check(path)
    assert differ == [
        f"game {signed}, the state saved at row 100: players.Amy.cash: 10000 in the replay, 60 in the state"
    ]
    assert warnings == [
        f"game {unsigned}: the state saved at row 100 is not used ({UNTRUSTED}): it is treated as absent",
        f"game {unsigned}: the state saved at row 100 differs from a replay of its log: "
        "players.Amy.cash: 10000 in the replay, 70 in the state; players.Brian.cash: 10000 in the replay, 71 in the state",
    ]


def test_a_state_of_another_row_differs_in_the_game_and_the_entries_in_effect(tmp_path, secret):
    path = str(tmp_path / "shifted.sqlite3")
    gid = _game(path)
    _plant(path, gid, 100, saved.sign(KEY, gid, 100, saved.unsigned(_state(path, gid, 80))))
    # the bids go up by one from 1: the 100th is 100, the 80th 80
    assert statecheck.check(path) == (
        [],
        [
            f"game {gid}, the state saved at row 100: auction.high_bid: 100 in the replay, 80 in the state",
            f"game {gid}, the state saved at row 100: the entries in effect: 100 in the replay, 80 in the state",
        ],
    )


def test_the_entries_in_effect_are_said_when_they_differ_in_count_alike(tmp_path, secret):
    path = str(tmp_path / "walk.sqlite3")
    gid = _game(path)
    state = saved.loads(100, saved.unsigned(_state(path, gid, 100)))
    state.walk.out[-1] = {"type": "pass", "player": "Amy"}  # as many entries, the last another
    _plant(path, gid, 100, saved.sign(KEY, gid, 100, saved.dumps(state.game, state.walk)))
    assert statecheck.check(path) == (
        [],
        [f"game {gid}, the state saved at row 100: the entries in effect: 100 in the replay, 100 in the state"],
    )


def _other_players_state(path, gid, walk_of=None) -> bytes:
    """The state at row 100 of the same bidding war between Cleo and Dan, signed for ``gid``'s row 100
    (with the walk of the stored state ``walk_of`` if given)."""
    store = Store(path, save_every=EVERY, key=KEY)
    pos, events = bidding_war(100, cash=10_000, players=["Cleo", "Dan"])
    other = store.import_transcript(transcript.build(["Cleo", "Dan"], [], None, events, "t", position=pos))
    store.close()
    state = saved.loads(100, saved.unsigned(_state(path, other, 100)))
    walk = state.walk if walk_of is None else saved.loads(100, saved.unsigned(walk_of)).walk
    return saved.sign(KEY, gid, 100, saved.dumps(state.game, walk))


def test_ten_differences_at_most_are_said_a_state(tmp_path, secret):
    # another pair of players: whose turn it is, the player order (2), the four players (each there in
    # one snapshot only), the high bidder (Brian's 100th bid; Dan's), the bidders (2): ten; and the entries
    path = str(tmp_path / "many.sqlite3")
    gid = _game(path)
    own = _state(path, gid, 100)
    _plant(path, gid, 100, _other_players_state(path, gid))
    _warnings, differ = statecheck.check(path)
    prefix = f"game {gid}, the state saved at row 100: "
    assert len(differ) == 11
    assert all(line.startswith(prefix) for line in differ)
    lines = [line[len(prefix) :] for line in differ]
    assert "player_order[0]: 'Amy' in the replay, 'Cleo' in the state" in lines
    assert "auction.high_bidder: 'Brian' in the replay, 'Dan' in the state" in lines
    assert lines[-1] == "... and 1 more"
    # the same game with the replay's entries: ten, all said
    _plant(path, gid, 100, _other_players_state(path, gid, walk_of=own))
    _warnings, differ = statecheck.check(path)
    assert len(differ) == 10
    assert not any("more" in line for line in differ)


def test_a_state_that_cannot_be_loaded_or_a_log_that_no_longer_replays_is_said(tmp_path, secret):
    path = str(tmp_path / "broken.sqlite3")
    garbage, unplayable = _game(path, 45), _game(path, 45)
    _plant(path, garbage, 40, saved.sign(KEY, garbage, 40, b"not a pickle"))
    conn = sqlite3.connect(path)
    with conn:
        conn.execute(
            "UPDATE events SET event = ? WHERE game_id = ? AND seq = 2",
            ['{"type": "pass", "player": "Nobody"}', unplayable],
        )
    conn.close()
    warnings, differ = statecheck.check(path)
    assert warnings == []
    assert len(differ) == 2
    said = {line.split(",")[0]: line for line in differ}
    assert said[f"game {garbage}"].startswith(f"game {garbage}, the state saved at row 40: it cannot be loaded (")
    assert said[f"game {unplayable}"].startswith(
        f"game {unplayable}, the state saved at row 40: its log no longer replays ("
    )
