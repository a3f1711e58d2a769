"""Card figures for display (face value, colour, name; the share price row; required
stars; cards left per colour), read from the engine's card data when it has them.

The web app shows these; it never decides anything with them.
"""

from __future__ import annotations

from assistant.web import labels

try:  # the engine's card data (beyond the engine-api contract, so optional)
    from assistant.rules import cards as _cards
except ImportError:  # pragma: no cover - engine without a cards module
    _cards = None
try:
    from assistant.rules.market import required_stars as _required_stars
except ImportError:  # pragma: no cover
    _required_stars = None


def company(abbr: str) -> dict:
    data = getattr(_cards, "COMPANIES", {}).get(abbr) if _cards else None
    if data is None:
        return {"abbr": abbr, "color": labels.company_color(abbr), "name": abbr, "face_value": None,
                "income": None}
    return {"abbr": abbr, "color": data.color, "name": data.name, "face_value": data.face_value,
            "income": data.income}


def face_value(abbr: str) -> int | None:
    return company(abbr)["face_value"]


def price_row() -> list[int]:
    row = getattr(_cards, "PRICES", None) if _cards else None
    return list(row) if row else list(labels.SHARE_PRICE_ROW)


def required_stars(price, issued) -> int | None:
    if _required_stars is None or not isinstance(price, int) or not isinstance(issued, int) or not price:
        return None
    try:
        return _required_stars(price, issued)
    except (KeyError, ValueError, TypeError, IndexError):
        return None


def deck_left(game) -> dict | None:
    """Company cards left in the deck per colour, if the engine tells."""
    left = getattr(game, "deck_left", None)
    if not isinstance(left, dict):
        return None
    return {c: n for c, n in left.items() if isinstance(n, int)}


def corporation_ability(name: str) -> str:
    """The special ability printed on a corporation's charter (empty if the engine does not tell)."""
    data = getattr(_cards, "CORPORATIONS", {}).get(name) if _cards else None
    return getattr(data, "ability", "") or ""


def costs_with_top(top: str) -> dict | None:
    """Cost of ownership per colour while ``top`` (a colour, "end_front" or "end_back") is on top."""
    table = getattr(_cards, "COST_BY_TOP", None) if _cards else None
    if not table or top not in table:
        return None
    return dict(table[top])
