"""Table transcripts (FORMAT.md "File layout"): building one, and reading its header."""

from __future__ import annotations

import json

from assistant.rules import registry
from assistant.rules.core import position_shape

FORMAT = "rss-table-transcript"
VERSION = 1
GAME_NAME = registry.DEFAULT  # a transcript without "game" is one of Rolling Stock Stars


class TranscriptError(ValueError):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def build(
    players: list,
    options: list,
    deck: list | None,
    events: list,
    description: str,
    persons: list | None = None,
    game: str = GAME_NAME,
    position: dict | None = None,
) -> dict:
    out = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "players": list(players),
        "options": list(options),
        "source": {"description": description, "notes": [], "warnings": []},
    }
    if position is not None:
        out["position"] = position  # FORMAT-position.md: the table as it lay when the game resumed
    out["events"] = list(events)
    if deck is not None:
        out["deck"] = list(deck)  # the open companies variant: which companies are in the deck
    if persons:
        out["persons"] = list(persons)  # the two-handed variant: the persons A and B behind the 4 seats
    return out


def dumps(data: dict) -> str:
    """A transcript as text: its header indented, then its events one per line (readable, and fast:
    pretty-printing every field of 20,000 events costs ten times more)."""
    head = {k: v for k, v in data.items() if k != "events"}
    text = json.dumps(head, indent=1, ensure_ascii=False)  # pragma: no mutate: None is False to json
    each = data.get("events") or []
    events = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in each)  # pragma: no mutate: None is False to json
    body = f'"events": [\n  {events}\n ]' if events else '"events": []'
    return (text[:-2] + ",\n " if head else "{\n ") + body + "\n}\n"


def is_table_event(event: dict) -> bool:
    """Events the table entered: not checkpoints, not the ones meant to be refused."""
    return event.get("type") != "expect" and not event.get("reject")


def read_persons(data) -> list | None:
    """The two persons of a two-handed transcript (``persons``), or None."""
    persons = data.get("persons") if isinstance(data, dict) else None
    if persons is None:
        return None
    if (
        not isinstance(persons, list)
        or len(persons) != 2
        or not all(isinstance(p, str) and p.strip() for p in persons)
        or persons[0] == persons[1]
    ):
        raise TranscriptError("persons must be a list of two different names")
    return persons


def read_position(data) -> dict | None:
    """The position a resumed game starts from (FORMAT-position.md), or None."""
    pos = data.get("position") if isinstance(data, dict) else None
    if pos is None:
        return None
    if not isinstance(pos, dict) or not isinstance(pos.get("state"), dict):
        raise TranscriptError("a position needs the state of the table (position.state)")
    try:
        return position_shape.check_position(pos)  # its shape, before the engine reads it
    except position_shape.ShapeError as err:
        raise TranscriptError(err.message) from None


def read_game(data) -> registry.Ruleset:
    """The ruleset a transcript's ``game`` names (Rolling Stock Stars when it names none)."""
    game = data.get("game", GAME_NAME) if isinstance(data, dict) else GAME_NAME
    if not isinstance(game, str) or game not in registry.RULESETS:
        raise TranscriptError(f"unknown game {str(game)[:60]!r}: this assistant plays {', '.join(registry.RULESETS)}")
    return registry.get(game)


def read_header(data) -> tuple[list, list, list | None, list]:
    if not isinstance(data, dict):
        raise TranscriptError("a transcript must be a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise TranscriptError(f"not a transcript: format must be {FORMAT!r} version {VERSION}")
    ruleset = read_game(data)
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not all(isinstance(p, str) and p.strip() for p in players)
        or len(set(players)) != len(players)
    ):
        raise TranscriptError("players must be a list of distinct names")
    options = data.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise TranscriptError("options must be a list of strings")
    known = set(ruleset.variants) | {o for t in ruleset.game_types for o in t.options}
    unknown = [o for o in options if o not in known]
    if unknown:
        raise TranscriptError(f"unknown option {unknown[0]!r} for {ruleset.title}")
    deck = data.get("deck")
    if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
        raise TranscriptError("deck must be a list of company abbreviations")
    events = data.get("events")
    if not isinstance(events, list):
        raise TranscriptError("events must be a list")
    return players, options, deck, events
