"""``python -m assistant score FILE``: the final scores of a game played on paper.

FILE is a score-check file (../shared/conformance/FORMAT-position.md, section 2): the game, the
players, and the end position (``state``: players' money, companies and shares, every
corporation's share price, the final player order).  Prints how each score is made up, then, as
one JSON object on its last line, ``{"scores": {...}, "ranking": [...]}``, and exits 0; a position
that cannot be is refused with the problem named (exit 1).  ``expected`` is never read.
"""

from __future__ import annotations

import json
import sys

from assistant.rules import RuleError, registry
from assistant.rules.core import position, position_shape

FORMAT = "rss-score-check"


def read(data) -> tuple[registry.Ruleset, list[str], dict]:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        raise ValueError(f'not a score-check file (no "format": "{FORMAT}", "version": 1)')
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("a score-check file needs the list of players")
    if not isinstance(data.get("state"), dict):
        raise ValueError("a score-check file needs the end position (state)")
    return registry.get(data.get("game", registry.DEFAULT)), players, data["state"]


def main(path: str) -> int:
    try:
        with open(path, encoding="utf-8-sig") as fh:
            ruleset, players, state = read(json.load(fh))
        result = position.final_scores(ruleset, players, position_shape.check_state(state, final=True))
    except (OSError, ValueError) as err:
        print(f"cannot check {path}: {err}", file=sys.stderr)
        return 2
    except RuleError as err:
        print(f"This position cannot be: {err.message}", file=sys.stderr)
        return 1
    for line in result["lines"]:
        print(line)
    print(json.dumps({"scores": result["scores"], "ranking": result["ranking"]}))
    return 0
