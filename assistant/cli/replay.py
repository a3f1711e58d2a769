"""``python -m assistant replay FILE``: replay a table transcript (conformance/FORMAT.md).

Prints one JSON object per line: the snapshot at every checkpoint, and the verdict on every
refused (or expected-to-be-refused) event.  Diagnostics go to standard error.
"""

from __future__ import annotations

import json
import sys

from assistant.rules import RuleError, registry
from assistant.rules.core import position, position_shape

FORMAT = "rss-table-transcript"


def load_transcript(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    check_header(data)
    return data


def check_header(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'not a table transcript (no "format": "{FORMAT}")')
    if data.get("version") != 1:
        raise ValueError(f"unsupported transcript version {data.get('version')!r}")
    if not isinstance(data.get("players"), list) or not isinstance(data.get("events", []), list):
        raise ValueError("a transcript needs a list of players and a list of events")
    game = data.get("game", registry.DEFAULT)
    if not isinstance(game, str) or game not in registry.RULESETS:
        raise ValueError(f"unknown game {str(game)[:60]!r}: this assistant plays {', '.join(registry.RULESETS)}")


def new_game(data: dict, on_phase_end=None):
    """The engine game of the transcript's ruleset (``game``: rolling-stock-stars, rolling-stock-v2.2, ...),
    at its start or, for a transcript with a ``position`` (FORMAT-position.md), where the table resumed.

    It plays by the transcript's conventions: an open any-order phase stays open until its
    ``done`` even when nobody can act in it (FORMAT.md), and ``on_phase_end`` is called at the
    end of every phase, also of those that end right after the position without a decision."""

    def prepare(game):
        game.ends_idle_phases = False
        game.on_phase_end = on_phase_end

    ruleset = registry.get(data.get("game", registry.DEFAULT))
    if data.get("position") is not None:
        start = position_shape.check_position(data["position"])  # its shape, before the engine reads it
        return position.resume(
            ruleset,
            data["players"],
            data.get("options") or [],
            start,
            persons=data.get("persons"),
            prepare=prepare,
        )
    game = ruleset.create(
        data["players"], data.get("options") or [], deck=data.get("deck"), persons=data.get("persons")
    )
    prepare(game)
    return game


def run(data: dict, out) -> None:
    ends: dict[tuple[int, int], dict] = {}
    game = new_game(data, on_phase_end=lambda g: ends.__setitem__((g.turn, g.phase), g.snapshot()))
    for index, ev in enumerate(data.get("events", [])):
        if not isinstance(ev, dict):
            out.write(json.dumps({"index": index, "rejected": True, "error": "an event must be an object"}) + "\n")
            continue
        if ev.get("type") == "expect":
            at = ev.get("at")
            if at:
                state = ends.get((at.get("turn"), at.get("phase")))
            else:
                state = game.snapshot()
            out.write(json.dumps({"index": index, "state": state}) + "\n")
            continue
        try:
            game.apply(ev)
        except RuleError as err:
            out.write(json.dumps({"index": index, "rejected": True, "error": err.message}) + "\n")
            continue
        if ev.get("reject"):
            out.write(json.dumps({"index": index, "rejected": False}) + "\n")


def main(path: str) -> int:
    try:
        data = load_transcript(path)
        run(data, sys.stdout)
    except (OSError, ValueError, RuleError) as err:
        print(f"cannot replay {path}: {err}", file=sys.stderr)
        return 2
    return 0
