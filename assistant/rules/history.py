"""The game turn by turn: each player's wealth and each corporation's share price.

``history(game)`` replays the game's accepted events on a fresh game and records, at the start,
at the end of every turn (after phase 9) and for the current state (``now``, or ``end`` once the
game is over), each player's total value as the rulebook scores it at the game end (money +
face values of their companies + each share at its share price, ``Game.scores()``) and each
corporation's share price (``None`` while it does not exist: not founded yet, or gone).
"""

from __future__ import annotations

from assistant.rules.game import Game


def _record(game: Game, points: list[dict], label: str, turn: int) -> None:
    points.append(
        {
            "label": label,
            "turn": turn,
            "players": game.scores(),
            "prices": {name: corp.price for name, corp in game.corps.items()},
        }
    )


def history(game: Game) -> dict:
    """``{"labels": [...], "turns": [...], "players": {name: [wealth, ...]},
    "corporations": {name: [price or None, ...]}}``: one value per point, in the order of
    ``labels`` (``"start"``, ``"1"``, ``"2"``, …, then ``"now"`` or ``"end"``).  Players in their
    initial order, corporations in the order they were founded.  ``game`` is not touched."""
    replay = Game(
        list(game.players),
        game.options,
        deck=sorted(game.open_deck) if game.open_deck is not None else None,
        persons=game.persons,
    )
    points: list[dict] = []
    _record(replay, points, "start", 0)

    def turn_ended(g: Game) -> None:
        if g.phase == 9:
            _record(g, points, str(g.turn), g.turn)

    replay.on_phase_end = turn_ended
    for event in game.events:
        replay.apply(event)
    last = points[-1]
    current = {"players": replay.scores(), "prices": {n: c.price for n, c in replay.corps.items()}}
    if replay.game_over:
        _record(replay, points, "end", replay.turn)
    elif (current["players"], current["prices"]) != (last["players"], last["prices"]):
        _record(replay, points, "now", replay.turn)

    corporations: list[str] = []
    for point in points:
        corporations += [name for name in point["prices"] if name not in corporations]
    return {
        "labels": [p["label"] for p in points],
        "turns": [p["turn"] for p in points],
        "players": {name: [p["players"][name] for p in points] for name in game.players},
        "corporations": {name: [p["prices"].get(name) for p in points] for name in corporations},
    }
