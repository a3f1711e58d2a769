"""A game's copies (``Game.clone`` for previews, ``Game.fork`` to play on), for every game the
assistant plays: a copy shows the same state, shares only what never changes (the ruleset, its
cards and prices), and whatever is played on it leaves the game it came from as it was."""

from __future__ import annotations

import json

from tests import rulesets

SHARED = ("ruleset", "cards", "pricing")  # what a copy shares with its game: never changed


def _mutable_parts(game) -> dict:
    """The game's own changeable parts: its lists, dicts and sets and the objects it holds (players,
    corporations, the foreign investor, an auction), by attribute."""
    out = {}
    for name, value in vars(game).items():
        if name in SHARED or name in ("journal", "rewritten", "resumed_from", "on_phase_end"):
            continue
        if isinstance(value, list | dict | set) or hasattr(value, "__dict__") or hasattr(value, "__slots__"):
            out[name] = value
    return out


def _state(game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True, default=str)


def test_a_copy_shows_the_same_state_and_shares_only_what_never_changes(every_ruleset):
    players = rulesets.players_for(every_ruleset, 4)
    events = rulesets.playout(every_ruleset, players, 160, seed=3)
    assert len(events) >= 30
    looked_at = {len(events) * k // 4 - 1 for k in (1, 2, 3, 4)}  # a quarter in, ..., the end
    game = every_ruleset.create(list(players))
    for n, event in enumerate(events):
        game.apply(dict(event))
        if n not in looked_at:
            continue
        before, entries = _state(game), len(game.journal)
        clone, fork = game.clone(), game.fork()
        for copy in (clone, fork):
            assert _state(copy) == before
            for name in SHARED:
                assert getattr(copy, name) is getattr(game, name), name
            mine, theirs = _mutable_parts(game), _mutable_parts(copy)
            assert mine.keys() == theirs.keys()
            assert [name for name in mine if mine[name] is theirs[name]] == []
            assert copy.on_phase_end is None
        assert len(clone.journal) == 0 and len(fork.journal) == entries
        assert [e["event"] for e in fork.journal] == [e["event"] for e in game.journal]
        # play the rest of the game on each copy: the game itself stays as it was
        for copy in (clone, fork):
            for later in events[n + 1 :]:
                copy.apply(dict(later))
        assert _state(game) == before and len(game.journal) == entries
        assert len(fork.journal) == len(events)
