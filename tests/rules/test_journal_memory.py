"""A server holds the journals of a thousand games; Python's garbage collector looks at every dict
and list it holds in each full collection.  The journal keeps its entries as tuples of plain values
(core/records.py), which the collector stops looking at, and hands them out as dicts."""

from __future__ import annotations

import gc

from assistant.rules import registry
from tests.project_games import played_game


def _played(limit: int):
    """The project's played game, and the events the engine took as entries (a late ``done`` of a
    phase that had ended by itself is taken without one)."""
    data = played_game(limit=limit)
    game = registry.get(data["game"]).create(data["players"])
    return game, [event for event in data["events"] if game.apply(event)]


def test_a_long_journal_gives_the_garbage_collector_nothing_to_look_at():
    game, events = _played(300)
    for _ in range(4):  # each collection stops looking at one more level of nested tuples
        gc.collect()
    held = game.journal._tail  # what the journal keeps (its entries are handed out as dicts)
    assert len(held) == len(events) > 200
    assert [i for i, packed in enumerate(held) if gc.is_tracked(packed)] == []


def test_the_entries_read_back_as_entered():
    game, events = _played(120)
    for entry, event in zip(game.journal, events, strict=True):
        assert entry["event"] == event  # the events as this test entered them
        assert isinstance(entry["text"], str) and entry["text"]
    # a copy to go on from holds the same entries, and goes on by itself
    fork = game.fork()
    assert list(fork.journal) == list(game.journal)
    assert fork.journal[-1] == game.journal[len(game.journal) - 1]
