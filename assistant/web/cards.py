"""Card figures for display (face value, colour, name; the share price row; required
stars; cards left per colour), read from the engine's card data.

The web app shows these; it never decides anything with them.
"""

from __future__ import annotations

from assistant.rules import cards as _cards
from assistant.rules.market import required_stars as _required_stars


def company(abbr: str) -> dict:
    data = _cards.COMPANIES.get(abbr)
    if data is None:
        return {"abbr": abbr, "color": "unknown", "name": abbr, "face_value": None, "income": None}
    return {"abbr": abbr, "color": data.color, "name": data.name, "face_value": data.face_value, "income": data.income}


def face_value(abbr: str) -> int | None:
    return company(abbr)["face_value"]


def price_row() -> list[int]:
    return list(_cards.PRICES)


def required_stars(price, issued) -> int | None:
    if not isinstance(price, int) or not isinstance(issued, int) or price not in _cards.SHARE_PRICE_CARDS:
        return None
    try:
        return _required_stars(price, issued)
    except KeyError:  # no card for that number of shares
        return None


def deck_left(game) -> dict:
    """Company cards left in the deck per colour."""
    return dict(game.deck_left)


def corporation_ability(name: str) -> str:
    """The special ability printed on a corporation's charter."""
    data = _cards.CORPORATIONS.get(name)
    return data.ability if data else ""


def costs_with_top(top: str) -> dict | None:
    """Cost of ownership per colour while ``top`` (a colour, "end_front" or "end_back") is on top."""
    table = _cards.COST_BY_TOP.get(top)
    return None if table is None else dict(table)
