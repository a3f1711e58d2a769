"""Saved states a server did not write are never used (issue 38 §4): each is signed over the game,
the row and the bytes with a key from the secret the servers share; an edited state, one copied from
another game or one signed with another secret is replayed from the log instead, before and after an
undo and a redo.  ``check-db`` says where the latest state of each game differs from a replay of its
log; ``copy-db`` warns and signs the target's states again.  The loading is bounded."""

from __future__ import annotations

import time
import tracemalloc

import pytest

from assistant.cli import checkdb
from assistant.log import saved
from assistant.store import Store, copydb
from tests.store.test_saved_states import _long_game

SECRET = "the table's secret"
KEY = saved.key_from_secret(SECRET)
EVERY = 20
CASH = 10_000  # each player's cash in the bidding war (no auction ends in it: nobody pays)


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("RSS_SECRET_KEY", SECRET)  # what check-db and copy-db read, as the servers do


def _latest(store: Store, gid: str) -> tuple[int, bytes]:
    return store.backend.saved_state(gid, saved.version(), 10**9, 10**9)


def _plant(store: Store, gid: str, seq: int, data: bytes) -> None:
    store.backend.save_states(
        gid, saved.version(), [(seq, saved.loads(seq, saved.unsigned(data)).walk.count, data)], ""
    )


def _edited(data: bytes, seq: int, cash: int, sign_with: bytes | None = None, gid: str = "") -> bytes:
    """The state with Amy's cash set to ``cash``, with the loader's own classes: its signature kept
    (someone with write access to the database only), or signed with ``sign_with``."""
    state = saved.loads(seq, saved.unsigned(data))
    state.game.players["Amy"].cash = cash
    pickled = saved.dumps(state.game, state.walk)
    return saved.sign(sign_with, gid, seq, pickled) if sign_with else data[:32] + pickled


def _served_cash(target: str, gid: str) -> int:
    fresh = Store(target, save_every=EVERY, key=KEY)  # a new worker: nothing but the database
    try:
        return fresh.state(gid)[1].players["Amy"].cash
    finally:
        fresh.close()


def test_an_edited_state_is_never_used_and_check_db_says_where_it_differs(store_target, secret, capsys):
    store = Store(store_target, save_every=EVERY, key=KEY)
    gid = store.import_transcript(_long_game(100))
    seq, data = _latest(store, gid)
    assert seq == 100 and saved.loads(seq, saved.opened(KEY, gid, seq, data)).game.players["Amy"].cash == CASH
    _plant(store, gid, seq, _edited(data, seq, CASH + 50))
    capsys.readouterr()
    assert checkdb.main(["--db", store_target]) == 0  # not used: a warning, not damage
    said = capsys.readouterr().out
    assert f"WARNING: game {gid}: the state saved at row 100 is not used (its signature does not hold" in said
    assert f"game {gid}: the state saved at row 100 differs from a replay of its log: " in said
    assert f"players.Amy.cash: {CASH} in the replay, {CASH + 50} in the state" in said
    _plant(store, gid, seq, _edited(data, seq, CASH + 50))  # (check-db wrote nothing; planted again all the same)
    assert _served_cash(store_target, gid) == CASH
    fresh = Store(store_target, save_every=EVERY, key=KEY)
    try:
        fresh.append(gid, fresh.seq(gid), {"type": "undo"})
        fresh.append(gid, fresh.seq(gid), {"type": "redo"})
        assert fresh.state(gid)[1].players["Amy"].cash == CASH
    finally:
        fresh.close()
    _plant(store, gid, seq, _edited(data, seq, CASH + 50))
    assert _served_cash(store_target, gid) == CASH, "after an undo and a redo, the edited state is still not used"
    store.close()


def test_a_state_from_another_game_or_another_secret_is_never_used(tmp_path):
    path = str(tmp_path / "two.sqlite3")
    store = Store(path, save_every=EVERY, key=KEY)
    gid = store.import_transcript(_long_game(100))
    other = store.import_transcript(_long_game(140))  # at row 100 its players have the same cash...
    seq, theirs = _latest(store, other)
    seq, theirs = store.backend.saved_state(other, saved.version(), 100, 10**9)
    assert seq == 100
    rich = _edited(theirs, seq, CASH + 70, sign_with=KEY, gid=other)  # ...so: a richer Amy, rightly signed there
    assert saved.opened(KEY, other, seq, rich)
    _plant(store, gid, seq, rich)
    assert _served_cash(path, gid) == CASH, "a state signed for another game is not this game's"
    _plant(store, gid, seq, _edited(theirs, seq, CASH + 70, sign_with=saved.key_from_secret("another"), gid=gid))
    assert _served_cash(path, gid) == CASH, "a state signed with another secret is not used"
    store.close()


def test_check_db_fails_on_a_signed_state_that_differs_from_its_log(tmp_path, secret, capsys):
    """A state signed with the servers' key that is not its log's replay would be used: a fault, said."""
    path = str(tmp_path / "wrong.sqlite3")
    store = Store(path, save_every=EVERY, key=KEY)
    gid = store.import_transcript(_long_game(100))
    seq, data = _latest(store, gid)
    _plant(store, gid, seq, _edited(data, seq, CASH - 1, sign_with=KEY, gid=gid))
    capsys.readouterr()
    assert checkdb.main(["--db", path]) == 1
    said = capsys.readouterr().out
    assert "SAVED STATES DIFFER" in said
    assert (
        f"game {gid}, the state saved at row 100: players.Amy.cash: {CASH} in the replay, {CASH - 1} in the state"
        in said
    )
    store.close()


def test_copy_db_warns_and_signs_the_copy_with_its_key(tmp_path, secret, capsys):
    path, copy = str(tmp_path / "from.sqlite3"), str(tmp_path / "to.sqlite3")
    store = Store(path, save_every=EVERY, key=KEY)
    gid = store.import_transcript(_long_game(420))  # the copy saves states every 200 rows
    seq, data = _latest(store, gid)
    _plant(store, gid, seq, _edited(data, seq, CASH + 50))
    store.close()
    capsys.readouterr()
    assert copydb.main(["--from", path, "--to", copy]) == 0
    said = capsys.readouterr().out
    assert f"warning: game {gid}: the state saved at row 420 is not used (its signature does not hold" in said
    target = Store(copy, save_every=EVERY, key=KEY)
    states = target.backend.saved_states_of(saved.version())
    assert states, "the copy replays its games, and saves their states"
    for tgid, tseq, tdata in states:
        saved.opened(KEY, tgid, tseq, tdata)  # signed with the target servers' key
    assert target.state(gid)[1].players["Amy"].cash == CASH
    target.close()


# -- the loading is bounded -------------------------------------------------------------------------
def _bounded(data: bytes) -> tuple[str, int, float]:
    tracemalloc.start()
    started = time.perf_counter()
    try:
        saved.loads(1, data)
        said = "loaded"
    except saved.Untrusted as err:
        said = str(err)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return said, peak, time.perf_counter() - started


def test_a_tiny_state_that_would_build_a_huge_one_is_refused_before_it_is_made():
    # list(bytes(100_000_000)) in 43 bytes of protocol 4 (issue 38: 784 MB and 0.47 s before it was refused)
    bomb = b"\x80\x04cbuiltins\nlist\ncbuiltins\nbytes\nJ\x00\xe1\xf5\x05\x85R\x85R."
    said, peak, seconds = _bounded(bomb)
    assert "does not build" in said
    assert peak < 2 << 20 and seconds < 0.1


def test_copies_made_again_and_again_from_one_reference_are_refused():
    """collections.deque(the same 20,000-item list) 2,000 times: 40 million items from 72 KB."""
    import pickle

    items = pickle.dumps(list(range(20_000)), protocol=4)[2:-1]  # the list, without PROTO and STOP
    head = b"\x80\x04" + items + b"q\x00" + b"ccollections\ndeque\nq\x01" + b"0("  # memo 0: the list, 1: deque
    call = b"h\x01h\x00\x85R"  # deque(list)
    bomb = head + call * 2000 + b"l."
    said, peak, _ = _bounded(bomb)
    assert len(bomb) < 80_000
    assert "far more than it holds" in said
    assert peak < 64 << 20, "refused before millions of items were made"


def test_a_state_larger_than_a_state_may_be_is_refused_unread():
    said, _, seconds = _bounded(b"\x80\x04" + b"N" * (saved.MAX_BYTES + 1))
    assert "larger than" in said and seconds < 0.5
