"""A server holds the journals of a thousand games; Python's garbage collector looks at every dict
and list it holds in each full collection.  The journal keeps its entries as tuples of plain values
(core/records.py), which the collector stops looking at, and hands them out as dicts.  The engine
appends plain dicts; whoever keeps the game packs them (the store, before caching it)."""

from __future__ import annotations

import gc

from assistant.rules import registry
from assistant.store import Store
from tests.project_games import played_game


def _played(limit: int):
    """The project's played game, and the events the engine took as entries (a late ``done`` of a
    phase that had ended by itself is taken without one)."""
    data = played_game(limit=limit)
    game = registry.get(data["game"]).create(data["players"])
    return game, [event for event in data["events"] if game.apply(event)]


def _tracked(journal) -> list[int]:
    """The places of the entries the journal keeps that the garbage collector still looks at."""
    for _ in range(4):  # each collection stops looking at one more level of nested tuples
        gc.collect()
    return [i for i, kept in enumerate(journal._tail) if gc.is_tracked(kept)]


def test_a_long_journal_once_packed_gives_the_garbage_collector_nothing_to_look_at():
    data = played_game(limit=300)
    game = registry.get(data["game"]).create(data["players"])
    taken = [event for event in data["events"][:-20] if game.apply(event)]
    assert len(game.journal._tail) == len(taken) > 200
    assert len(_tracked(game.journal)) == len(taken)  # as the engine wrote them: dicts
    game.journal.pack()
    assert _tracked(game.journal) == []
    # after more entries, packing again packs those too; every entry reads back as entered
    taken += [event for event in data["events"][-20:] if game.apply(event)]
    assert len(_tracked(game.journal)) > 0
    game.journal.pack()
    assert _tracked(game.journal) == []
    assert [entry["event"] for entry in game.journal] == taken


def test_a_game_the_store_keeps_is_packed(tmp_path):
    store = Store(str(tmp_path / "games.db"))
    data = played_game(limit=60)
    gid = store.create_game(data["players"], ruleset=data["game"])
    for seq, event in enumerate(data["events"]):
        store.append(gid, seq, event)
    kept = store.timeline(gid).game  # the store's own copy, from its cache
    assert len(kept.journal) > 50 and _tracked(kept.journal) == []
    store.close()


def test_the_entries_read_back_as_entered():
    game, events = _played(120)
    for entry, event in zip(game.journal, events, strict=True):
        assert entry["event"] == event  # the events as this test entered them
        assert isinstance(entry["text"], str) and entry["text"]
    # a copy to go on from holds the same entries, and goes on by itself
    fork = game.fork()
    assert list(fork.journal) == list(game.journal)
    assert fork.journal[-1] == game.journal[len(game.journal) - 1]


def test_the_older_entries_a_restored_game_fetches_are_kept_packed(tmp_path):
    path = str(tmp_path / "games.db")
    first = Store(path, save_every=20)  # an import saves a state every 20 rows: the next store starts from one
    gid = first.import_transcript(played_game(limit=90))
    first.close()
    store = Store(path, save_every=20)  # another worker: no cache, the game restored from its latest saved state
    game = store.timeline(gid).game
    assert game.journal.base > 0  # it holds only its latest entries
    entries = list(game.journal)  # the Log's full history: the older ones fetched (journal_at)
    assert len(entries) == len(game.journal) > 80
    heads = list(store._heads.values())  # what the store keeps of them
    assert heads and all(_tracked(journal) == [] for journal in heads)
    store.close()
