"""Card figures for display (face value, colour, name; the share price row; required
stars; cards left per colour), read from the card data of the game's ruleset.

The web app shows these; it never decides anything with them.
"""

from __future__ import annotations

from assistant.rules import registry


def _cards(ruleset: registry.Ruleset):
    return ruleset.cards


def company(abbr: str, ruleset: registry.Ruleset) -> dict:
    data = _cards(ruleset).companies.get(abbr)
    if data is None:
        return {"abbr": abbr, "color": "unknown", "name": abbr, "face_value": None, "income": None}
    return {"abbr": abbr, "color": data.color, "name": data.name, "face_value": data.face_value, "income": data.income}


def face_value(abbr: str, ruleset: registry.Ruleset) -> int | None:
    return company(abbr, ruleset)["face_value"]


def price_row(ruleset: registry.Ruleset) -> list[int]:
    return list(_cards(ruleset).prices)


def required_stars(price, issued, ruleset: registry.Ruleset) -> int | None:
    """Stars required on the share price card (None where the ruleset has no stars)."""
    table = _cards(ruleset).required_stars  # None: the ruleset moves prices by book value (classic)
    if table is None or not isinstance(price, int) or not isinstance(issued, int):
        return None
    return (table.get(price) or {}).get(issued)


def deck_left(game) -> dict:
    """Company cards left in the deck per colour."""
    return dict(game.deck_left)


def corporation_ability(name: str, ruleset: registry.Ruleset) -> str:
    """The special ability printed on a corporation's charter."""
    data = ruleset.corporations.get(name)
    return (getattr(data, "ability", None) or "") if data else ""
