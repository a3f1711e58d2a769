"""Undo = replay of all but the last n events (docs/engine-api.md).

At many points of a game, ``STARS.replay(players, options, events[:-n])`` must give exactly
the snapshot that was current before those n events, and the game must go on from there
as it did.  Checked on the shared transcripts (skipped without ../shared) and on a seeded
menu-driven game that is always available.
"""

from __future__ import annotations

import json
import random

import pytest

from assistant.rules import RuleError, events_of
from assistant.rules.registry import STARS

from .conftest import CONFORMANCE

GAMES = sorted((CONFORMANCE / "games").glob("*.json")) if (CONFORMANCE / "games").is_dir() else []
UNDO_DEPTHS = (1, 2, 3, 7)


def record(players, options, events, deck=None):
    """Apply events one by one; return (accepted events, snapshot after each: snaps[i] after i events)."""
    g = STARS.create(players, options, deck=deck)
    snaps = [g.snapshot()]
    for ev in events:
        g.apply(ev)
        snaps.append(g.snapshot())
    assert g.events == list(events)
    return snaps


def check_undo_points(players, options, events, points, deck=None):
    snaps = record(players, options, events, deck)
    checked = 0
    for k in points:
        for n in UNDO_DEPTHS:
            if n > k:
                continue
            undone = STARS.replay(players, options, events[: k - n], deck=deck)
            assert undone.snapshot() == snaps[k - n], f"undo {n} after {k} events"
            assert undone.events == events[: k - n]
            # and the game goes on as before
            undone.apply(events[k - n])
            assert undone.snapshot() == snaps[k - n + 1]
            checked += 1
    return checked


def transcript_events(path):
    data = json.loads(path.read_text())
    g = STARS.create(data["players"], data.get("options") or [])
    for ev in data["events"]:
        if ev["type"] == "expect":
            continue
        if ev.get("reject"):
            with pytest.raises(RuleError):
                g.apply(ev)
            continue
        g.apply(ev)
    return data["players"], data.get("options") or [], list(g.events)


@pytest.mark.parametrize("transcript", GAMES or [None], ids=[p.name for p in GAMES] or ["absent"])
def test_undo_on_transcript(transcript):
    if transcript is None:
        pytest.skip(f"no transcripts at {CONFORMANCE / 'games'} (../shared is not beside the repository)")
    players, options, events = transcript_events(transcript)
    points = list(range(1, len(events) + 1, 9)) + [len(events)]
    assert check_undo_points(players, options, events, points) >= 4 * (len(points) - 1)


def seeded_game(seed, players, limit=400):
    rng = random.Random(seed)

    def pick(*args):
        return rng.randint(*args) if len(args) == 2 else rng.choice(args[0])

    g = STARS.create(players)
    while not g.game_over and len(g.events) < limit:
        g.apply(events_of(rng.choice(g.legal_actions()), pick))
    return list(g.events)


@pytest.mark.parametrize("seed, players", [(16, ["Amy", "Brian"]), (12, ["A", "B", "C", "D", "E"])])
def test_undo_on_a_seeded_game(seed, players):
    events = seeded_game(seed, players)
    assert len(events) > 50  # enough to cross several turns
    points = list(range(1, len(events) + 1, 5)) + [len(events)]
    check_undo_points(players, [], events, points)


def test_undo_everything_is_the_start():
    events = seeded_game(3, ["Amy", "Brian", "Crystal"], limit=30)
    fresh = STARS.create(["Amy", "Brian", "Crystal"])
    assert STARS.replay(["Amy", "Brian", "Crystal"], [], []).snapshot() == fresh.snapshot()
    assert STARS.replay(["Amy", "Brian", "Crystal"], [], events[:0]).legal_actions() == fresh.legal_actions()
