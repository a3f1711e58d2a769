"""Every game the assistant plays, for tests that run over all of them: each ruleset listed in
``assistant.rules.registry.RULESETS`` and the example fourth game of docs/rulesets.md
(tests/rules/example_game), registered beside them the way that page says (added to ``RULESETS``).

The ``every_ruleset`` fixture (tests/conftest.py) is parametrised over ``KEYS``, read from the
registry when the tests are collected: a game added to ``RULESETS`` is tested with no test edit.
"""

from __future__ import annotations

import random

from assistant.rules import events_of, registry
from tests.rules.example_game.ruleset import SPRINT

EXAMPLE = SPRINT
# the registered games, then the example (unless it has been registered for real)
KEYS = [*registry.RULESETS, *([] if EXAMPLE.key in registry.RULESETS else [EXAMPLE.key])]
# the live events: a transcript writes an announced purchase and its answer as the announcer's
# acquire, and a phase's last "I'm done" as its done (FORMAT.md)
LIVE = {"announce", "no_intervention", "player_done"}
NAMES = ("Amy", "Brian", "Crystal", "Dirk", "Emma", "Finn")


def register_example(monkeypatch) -> None:
    """List the example game in the registry, as docs/rulesets.md "Adding a fourth game" does (for
    this test only: ``monkeypatch`` takes it back)."""
    if EXAMPLE.key not in registry.RULESETS:
        monkeypatch.setattr(registry, "RULESETS", registry.frozen({**registry.RULESETS, EXAMPLE.key: EXAMPLE}))


def players_for(ruleset, wanted: int = 3) -> list[str]:
    """``wanted`` player names, or as many as the ruleset's nearest allowed count."""
    low, high = ruleset.players
    return list(NAMES[: min(max(wanted, low), high)])


def table_menu(game) -> list[dict]:
    """The game's menu without the live events (``LIVE``)."""
    return [item for item in game.legal_actions() if item["type"] not in LIVE]


def playout(ruleset, players, count: int, seed: int = 1) -> list[dict]:
    """The first ``count`` events of a seeded random game of ``ruleset``, each one picked from the
    menu (``legal_actions``) of a game of its own, with the smallest amount most of the time:
    events a table enters one by one (each accepted, each a log row of its own), and the table's
    own, none of the live ones that a transcript writes otherwise (``LIVE``), so that an export
    holds exactly these events."""
    rng = random.Random(seed)
    game = ruleset.create(list(players))
    events: list[dict] = []

    def pick(*args):
        if len(args) == 2:
            return args[0] if rng.random() < 0.7 else rng.randint(*args)
        return rng.choice(args[0])

    while len(events) < count and not game.game_over:
        menu = table_menu(game)
        if not menu:
            break
        event = events_of(rng.choice(menu), pick)
        if game.apply(dict(event)):
            events.append(event)
    return events


def written_back(exported: list[dict], sent: list[dict]) -> list[dict]:
    """The events of an export that were not sent: ``sent`` must be the export in order, the rest
    being only the ``done`` of a phase that ended by itself, which a transcript writes (FORMAT.md:
    an any-order phase stays open until its done)."""
    extra, matched = [], 0
    for event in exported:
        if matched < len(sent) and event == sent[matched]:
            matched += 1
        else:
            extra.append(event)
    assert matched == len(sent), f"the export lost or changed the event {sent[matched]}"
    assert all(e.keys() == {"type", "phase"} and e["type"] == "done" for e in extra), extra
    return extra
