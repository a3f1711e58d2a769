"""Saved states (issue 18, long logs): a long game's state kept in the database every few rows, so
that a worker meeting it does not replay it from its start.  A saved state is only a cache: every
answer of a store that starts from saved states (here saved every 4 rows, so that every path runs)
is the answer of a replay of the whole log, through random play with undos, redos and
corrections, on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import random

import pytest

from assistant.log import saved as saved_states
from assistant.log import transcript
from assistant.log.walk import TooShort, Walk
from assistant.rules import RuleError, events_of, registry
from assistant.store import Store
from tests.project_games import bidding_war

PLAYERS = ["Amy", "Brian", "Crystal"]
EVERY = 4


def _replayed(store: Store, gid: str):
    """The game after its log, replayed from its start by the engine alone (the reference)."""
    rows = store.rows(gid)
    walk = Walk.of(rows)
    game = store.get_game(gid).start()
    for event in walk.out:
        game.apply(event)
    return game, walk


def _texts(game) -> list[str]:
    return [entry["text"] for entry in game.journal]


def _check(target: str, gid: str, rng: random.Random) -> None:
    """A fresh worker (its own cache: nothing but the database) answers as the replay does."""
    fresh = Store(target, save_every=EVERY)
    try:
        game, walk = _replayed(fresh, gid)
        seq, known = fresh.state(gid)
        assert seq == fresh.seq(gid)
        assert known.snapshot() == game.snapshot()
        assert len(known.journal) == len(game.journal)
        assert known.journal[-3:] == game.journal[-3:]
        assert fresh.undone(gid) == walk.undone
        assert fresh.undos_in_a_row(gid) == walk.undos_at_end
        earlier = rng.randint(0, seq)
        reference = Store(target, save_every=10**9)  # never starts from a saved state
        try:
            assert fresh.changes_since(gid, earlier) == reference.changes_since(gid, earlier)
        finally:
            reference.close()
        if rng.random() < 0.2:  # the older entries, fetched on need, and the export made of them
            assert _texts(known) == _texts(game)
            assert fresh.export(gid)["events"] == game.transcript_events()
    finally:
        fresh.close()


CHANGED = [0]  # corrections to another entry than the one in place, in all


def _another(effective: list[dict], index: int) -> dict:
    """An entry other than ``effective[index]`` that the rules accept in its place (the first of
    the menu there), or that entry itself where nothing else fits."""
    game = registry.STARS.create(PLAYERS)
    for event in effective[:index]:
        game.apply(event)
    for item in game.legal_actions():
        event = events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])
        if event != effective[index] and item["type"] != "player_done":
            try:
                game.preview(event)
            except RuleError:
                continue
            return event
    return effective[index]


def _play(store: Store, gid: str, rng: random.Random) -> None:
    """One random step of a table: mostly a legal entry, sometimes an undo, a redo, a correction or
    a going back."""
    seq, game = store.state(gid)
    roll = rng.random()
    if roll < 0.15 and len(game.journal):
        store.append(gid, seq, {"type": "undo"}, token=None)
        return
    if roll < 0.25 and store.undone(gid):
        store.append(gid, seq, {"type": "redo"})
        return
    if roll < 0.28 and len(game.journal) > 2:
        # correct an old entry to another legal choice at that point (itself where there is none):
        # the saved states after it no longer hold the game
        effective = store.events(gid)
        index = rng.randrange(len(effective))
        event = _another(effective, index)
        try:
            store.amend(gid, seq, index, event)
        except Exception as err:  # noqa: BLE001
            pytest.fail(f"correcting entry {index} to {event} was refused: {err}")
        CHANGED[0] += event != effective[index]
        return
    if roll < 0.31 and seq > 1:  # go back to any earlier row (issue 27)
        store.append(gid, seq, {"type": "go_back", "to": rng.randrange(1, seq)})
        return
    if game.game_over:
        return
    menu = [m for m in game.legal_actions() if m["type"] != "player_done"]
    item = rng.choice(menu)
    event = events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0]))
    store.append(gid, seq, event)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_store_starting_from_saved_states_answers_as_the_replay(store_target, seed):
    rng = random.Random(seed)
    store = Store(store_target, save_every=EVERY)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    changed = CHANGED[0]
    for _ in range(160):
        _play(store, gid, rng)
        _check(store_target, gid, rng)
    assert CHANGED[0] > changed, "no correction changed the game: the test did not test them"
    saved = store.backend.saved_state(gid, saved_states.version(), 10**9, 10**9)
    assert saved is not None, "no state was saved: the test did not test them"
    store.close()


def _long_game(entries: int) -> dict:
    pos, events = bidding_war(entries, cash=10_000, players=PLAYERS[:2])
    return transcript.build(PLAYERS[:2], [], None, events, "test", position=pos)


def test_an_imported_long_game_is_restored_without_its_older_entries(tmp_path):
    path = str(tmp_path / "long.sqlite3")
    store = Store(path, save_every=EVERY)
    gid = store.import_transcript(_long_game(120))
    fresh = Store(path, save_every=EVERY)
    _seq, game = fresh.state(gid)
    reference, _walk = _replayed(fresh, gid)
    assert 0 < game.journal.base < len(game.journal), "the restored game should hold only its latest entries"
    assert not game.journal.fetched
    assert game.snapshot() == reference.snapshot()
    assert list(game.journal[-30:]) == list(reference.journal[-30:])
    assert not game.journal.fetched, "the latest entries must not fetch the older ones"
    # undo back past several saved states, and further back than a saved state holds: each state is the replay's
    for _ in range(saved_states.KEEP + 2 * EVERY):
        seq = fresh.seq(gid)
        fresh.append(gid, seq, {"type": "undo"}, token=None)
        assert fresh.state(gid)[1].snapshot() == _replayed(fresh, gid)[0].snapshot()
    assert fresh.export(gid)["events"] == _replayed(fresh, gid)[0].transcript_events()


def test_a_damaged_or_foreign_saved_state_is_replayed_instead(tmp_path):
    path = str(tmp_path / "long.sqlite3")
    store = Store(path, save_every=EVERY)
    gid = store.import_transcript(_long_game(60))
    conn = store.backend._db().conn
    assert conn.execute("SELECT count(*) FROM saved_states").fetchone()[0] > 0
    conn.execute("UPDATE saved_states SET data = ?", [b"not a saved state"])
    fresh = Store(path, save_every=EVERY)
    assert fresh.state(gid)[1].snapshot() == _replayed(fresh, gid)[0].snapshot()
    conn.execute("DELETE FROM saved_states")  # a cache: without it, the same game
    assert Store(path, save_every=EVERY).state(gid)[1].snapshot() == _replayed(fresh, gid)[0].snapshot()
    # a state saved by another version of the program (here: a wrong one) is not used, and goes
    conn.execute("DELETE FROM saved_states")
    seq = store.seq(gid)
    early = Store(path, save_every=10**9)
    wrong, walk = _replayed(early, gid)
    wrong.apply({"type": "bid", "player": wrong.next["player"], "company": wrong.auction.company, "price": 10**4})
    data = saved_states.sign(saved_states.process_key(), gid, seq, saved_states.dumps(wrong, walk))
    reference = _replayed(fresh, gid)[0].snapshot()

    def saved_wrong(version):
        conn.execute("DELETE FROM saved_states")
        conn.execute(
            "INSERT INTO saved_states (game_id, version, seq, events, data, created) VALUES (?, ?, ?, ?, ?, '')",
            [gid, version, seq, walk.count, data],
        )

    saved_wrong(saved_states.version())  # the check can fail: this version's saved state is believed
    assert Store(path, save_every=EVERY).state(gid)[1].snapshot() != reference
    saved_wrong("another version")
    assert Store(path, save_every=EVERY).state(gid)[1].snapshot() == reference
    versions = {v for (v,) in conn.execute("SELECT DISTINCT version FROM saved_states")}
    assert versions == {saved_states.version()}, "the states this version saves replace the others'"


def test_a_saved_walk_refuses_to_reach_further_back_than_it_holds():
    events = [{"type": "bid", "n": n} for n in range(10)]
    whole = Walk.of_events(events)
    saved = whole.trimmed(3)
    assert (saved.base, saved.count, saved.taken_count) == (7, 10, 10)
    walk = saved.restart()
    for _ in range(3):
        walk.step({"type": "undo"})
    assert walk.low == 7 and walk.out == [] and walk.undone == events[7:]
    with pytest.raises(TooShort):
        walk.step({"type": "undo"})
    with pytest.raises(TooShort):
        saved.restart().step({"type": "amend", "index": 6, "event": events[6], "kept": 3, "set_aside": []})
    amended = saved.restart()
    amended.step({"type": "amend", "index": 8, "event": {"type": "bid", "n": 80}, "kept": 1, "set_aside": []})
    assert amended.low == 8 and amended.out[-2:] == [{"type": "bid", "n": 80}, events[9]]


@pytest.mark.parametrize(
    ("setting", "every"), [("", saved_states.EVERY), ("50", 50), ("0", 10**9), ("lots", saved_states.EVERY)]
)
def test_the_server_saves_states_as_often_as_its_setting_says(tmp_path, monkeypatch, setting, every):
    from assistant.web import create_app, get_store

    monkeypatch.setenv("RSS_SAVE_EVERY", setting)
    app = create_app({"DATABASE": str(tmp_path / "a.sqlite3"), "SECRET_KEY": "t", "INSTANCE_PATH": str(tmp_path)})
    with app.app_context():
        assert get_store().save_every == every


class _OpensAFile:
    """A pickle that, loaded by a plain unpickler, creates the file ``path``."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


class _RunsACommand:
    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        import os

        return (os.system, (f"touch {self.path}",))


@pytest.mark.parametrize("gadget", [_OpensAFile, _RunsACommand])
def test_a_planted_state_whose_loading_would_create_a_file_is_never_loaded(store_target, tmp_path, capsys, gadget):
    """A row with the right version digest, planted in the database: the server, check-db and
    copy-db treat it as absent (with a warning), and the file is never created."""
    import pickle

    from assistant.cli import checkdb
    from assistant.store import copydb

    marker = tmp_path / "created-by-a-saved-state"
    store = Store(store_target, save_every=10**9)  # no state of its own saved
    gid = store.import_transcript(_long_game(40))
    seq, walk = store.seq(gid), Walk.of(store.rows(gid))
    data = pickle.dumps({"game": gadget(marker), "walk": walk.trimmed(saved_states.KEEP)})
    store.backend.save_states(gid, saved_states.version(), [(seq, walk.count, data)], "")
    assert store.backend.saved_state(gid, saved_states.version(), 10**9, 10**9) == (seq, data)
    reference = _replayed(store, gid)[0].snapshot()
    capsys.readouterr()
    assert checkdb.main(["--db", store_target]) == 0
    said = capsys.readouterr().out
    assert f"WARNING: game {gid}: the state saved at row {seq} is not used" in said and "OK:" in said
    fresh = Store(store_target, save_every=EVERY)  # would start from the planted state
    try:
        assert fresh.state(gid)[1].snapshot() == reference
    finally:
        fresh.close()
    assert not marker.exists()
    store.backend.save_states(gid, saved_states.version(), [(seq, walk.count, data)], "")  # planted again
    target = Store(str(tmp_path / "copy.sqlite3"))
    try:
        out = io.StringIO()
        assert copydb.copy(store, target, out)[2] == []
        assert f"warning: game {gid}: the state saved at row {seq} is not used" in out.getvalue()
        assert target.state(gid)[1].snapshot() == reference
    finally:
        target.close()
        store.close()
    assert not marker.exists()


class _MakesAStore:
    """A pickle that, loaded by a plain unpickler, builds the project's own ``Store`` on ``path``
    (a class of the project, but outside the rules engine): opening it creates the database file."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (Store, (self.path,))


def test_the_loader_builds_no_class_of_the_project_outside_the_rules_engine(tmp_path):
    """``saved.loads`` itself (a signed state is refused before it runs, so the loader is tried
    here directly): a pickle naming ``assistant.store.store.Store`` is refused, nothing built, no
    database file created; the same walk pickled alone loads."""
    import pickle

    walk = Walk.of_events([{"type": "bid", "n": 1}])
    marker = tmp_path / "built-by-a-saved-state.sqlite3"
    data = pickle.dumps({"game": _MakesAStore(marker), "walk": walk})
    assert b"assistant.store.store" in data and b"Store" in data
    with pytest.raises(saved_states.Untrusted, match="assistant.store.store.Store"):
        saved_states.loads(1, data)
    assert not marker.exists() and list(tmp_path.iterdir()) == []
    # the loader itself works: the walk alone (the engine's own class) is built
    assert saved_states.loads(1, pickle.dumps({"game": None, "walk": walk})).walk.out == [{"type": "bid", "n": 1}]


def test_the_version_digest_covers_the_walk_and_the_timeline(tmp_path, monkeypatch):
    """A saved state depends on the log's code wherever it lives: changing one of its files changes the digest."""
    import shutil

    package = tmp_path / "assistant"
    shutil.copytree(saved_states._PACKAGE / "rules", package / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(saved_states._PACKAGE / "log", package / "log", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(saved_states, "_PACKAGE", package)
    digest = saved_states.version.__wrapped__
    first = digest()
    assert first == digest()
    for changed in ("log/walk.py", "log/timeline.py", "log/saved.py", "rules/core/game.py"):
        path = package / changed
        text = path.read_text()
        path.write_text(text + "\n# changed\n")
        assert digest() != first, changed
        path.write_text(text)
        assert digest() == first
