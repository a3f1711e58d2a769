"""Table transcripts (FORMAT.md "File layout"): building one, and reading its header."""

from __future__ import annotations

FORMAT = "rss-table-transcript"
VERSION = 1
GAME_NAME = "rolling-stock-stars"
KNOWN_OPTIONS = ("open_companies", "two_handed")


class TranscriptError(ValueError):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def build(
    players: list, options: list, deck: list | None, events: list, description: str, persons: list | None = None
) -> dict:
    out = {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME_NAME,
        "players": list(players),
        "options": list(options),
        "source": {"description": description, "notes": [], "warnings": []},
        "events": list(events),
    }
    if deck is not None:
        out["deck"] = list(deck)  # the open companies variant: which companies are in the deck
    if persons:
        out["persons"] = list(persons)  # the two-handed variant: the persons A and B behind the 4 seats
    return out


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


def read_header(data) -> tuple[list, list, list | None, list]:
    if not isinstance(data, dict):
        raise TranscriptError("a transcript must be a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise TranscriptError(f"not a transcript: format must be {FORMAT!r} version {VERSION}")
    if data.get("game", GAME_NAME) != GAME_NAME:
        raise TranscriptError(f"not a {GAME_NAME} transcript")
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
    unknown = [o for o in options if o not in KNOWN_OPTIONS]
    if unknown:
        raise TranscriptError(f"unknown option {unknown[0]!r}")
    deck = data.get("deck")
    if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
        raise TranscriptError("deck must be a list of company abbreviations")
    events = data.get("events")
    if not isinstance(events, list):
        raise TranscriptError("events must be a list")
    return players, options, deck, events
