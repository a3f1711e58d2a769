"""The game turn by turn: each player's wealth and each corporation's share price.

``history(game)`` replays the game's accepted events on a fresh game of its ruleset and records,
at the start, at the end of every turn (after its last phase) and for the current state (``now``, or ``end`` once the
game is over), each player's total value as the rulebook scores it at the game end (money +
face values of their companies + each share at its share price, ``Game.scores()``) and each
corporation's share price (``None`` while it does not exist: not founded yet, or gone).
"""

from __future__ import annotations


def _figures(game) -> dict:
    return {"players": game.scores(), "prices": {name: corp.price for name, corp in game.corps.items()}}


def history(game) -> dict:
    """``{"labels": [...], "turns": [...], "players": {name: [wealth, ...]},
    "corporations": {name: [price or None, ...]}}``: one value per point, in the order of
    ``labels`` (``"start"``, ``"1"``, ``"2"``, …, then ``"now"`` or ``"end"``).  Players in their
    initial order, corporations in the order they were founded.  ``game`` (of any ruleset) is
    not touched."""
    replay = game.fresh()
    points = [{"label": "start", "turn": 0, **_figures(replay)}]
    # the figures after the latest phase that ended, per turn: after a turn's last phase they
    # are the figures at the end of that turn (whatever number of phases the ruleset has)
    phase_ends: dict[int, dict] = {}
    replay.on_phase_end = lambda g: phase_ends.__setitem__(g.turn, _figures(g))
    for event in game.events:
        replay.apply(event)
    for turn in sorted(t for t in phase_ends if t < replay.turn):
        points.append({"label": str(turn), "turn": turn, **phase_ends[turn]})
    now = _figures(replay)
    if replay.game_over:
        points.append({"label": "end", "turn": replay.turn, **now})
    elif (now["players"], now["prices"]) != (points[-1]["players"], points[-1]["prices"]):
        points.append({"label": "now", "turn": replay.turn, **now})

    corporations: list[str] = []
    for point in points:
        corporations += [name for name in point["prices"] if name not in corporations]
    return {
        "labels": [p["label"] for p in points],
        "turns": [p["turn"] for p in points],
        "players": {name: [p["players"][name] for p in points] for name in game.players},
        "corporations": {name: [p["prices"].get(name) for p in points] for name in corporations},
    }
