"""``python -m assistant score FILE``: the final scores of a game played on paper.

FILE is a score-check file (../shared/conformance/FORMAT-position.md, section 2): the game, the
players, and the end position (``state``: players' money, companies and shares, every
corporation's share price, the final player order).  Prints how each score is made up, then, as
one JSON object on its last line, ``{"scores": {...}, "ranking": [...], "winner": ...}``, and
exits 0; a position that cannot be is refused with every problem named (exit 1).  ``expected`` is
never read.

The two-handed variant (``"options": ["two_handed"]``): ``players`` are the four seats in their
first player order (person A at 1 and 4, B at 2 and 3), ``persons`` (optional, as in transcripts)
names the two people, and the winner is the person whose lower-ranked seat ranks better.
"""

from __future__ import annotations

import json
import sys

from assistant.rules import RuleError, registry
from assistant.rules.core import final_score, position_shape

FORMAT = "rss-score-check"


def read(data) -> tuple[registry.Ruleset, list[str], dict, list[str], list[str] | None]:
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != 1:
        raise ValueError(f'not a score-check file (no "format": "{FORMAT}", "version": 1)')
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("a score-check file needs the list of players")
    if not isinstance(data.get("state"), dict):
        raise ValueError("a score-check file needs the end position (state)")
    options = data.get("options") or []
    if not isinstance(options, list):
        raise ValueError('"options" must be a list of the variants played')
    persons = data.get("persons")
    if persons is not None and not (isinstance(persons, list) and all(isinstance(p, str) for p in persons)):
        raise ValueError('"persons" must name the two people of a two-handed game')
    return registry.get(data.get("game", registry.DEFAULT)), players, data["state"], options, persons


def main(path: str) -> int:
    try:
        with open(path, encoding="utf-8-sig") as fh:
            ruleset, players, state, options, persons = read(json.load(fh))
        state = position_shape.check_state(state, final=True)
        result = final_score.final_scores(ruleset, players, state, options, persons)
    except (OSError, ValueError) as err:
        print(f"cannot check {path}: {err}", file=sys.stderr)
        return 2
    except RuleError as err:
        print(f"This position cannot be: {err.message}", file=sys.stderr)
        return 1
    for line in result["lines"]:
        print(line)
    print(json.dumps({"scores": result["scores"], "ranking": result["ranking"], "winner": result["winner"]}))
    return 0
