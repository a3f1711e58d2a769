"""Card figures for display (face value, colour, name; the share price row; required
stars; cards left per colour), read from the card data of the game's ruleset.

The web app shows these; it never decides anything with them.
"""

from __future__ import annotations

from assistant.rules import cards as stars_cards
from assistant.rules import rulesets
from assistant.rules.market import required_stars as _required_stars
from assistant.web.labels import current_ruleset


def _cards(ruleset: rulesets.Ruleset | None):
    return (ruleset or current_ruleset()).cards


def company(abbr: str, ruleset: rulesets.Ruleset | None = None) -> dict:
    data = _cards(ruleset).COMPANIES.get(abbr)
    if data is None:
        return {"abbr": abbr, "color": "unknown", "name": abbr, "face_value": None, "income": None}
    return {"abbr": abbr, "color": data.color, "name": data.name, "face_value": data.face_value, "income": data.income}


def face_value(abbr: str, ruleset: rulesets.Ruleset | None = None) -> int | None:
    return company(abbr, ruleset)["face_value"]


def price_row(ruleset: rulesets.Ruleset | None = None) -> list[int]:
    return list(_cards(ruleset).PRICES)


def required_stars(price, issued, ruleset: rulesets.Ruleset | None = None) -> int | None:
    """Stars required on the share price card (None where the ruleset has no stars)."""
    if _cards(ruleset) is not stars_cards:  # classic Rolling Stock moves prices by book value
        return None
    table = stars_cards.SHARE_PRICE_CARDS
    if not isinstance(price, int) or not isinstance(issued, int) or price not in table:
        return None
    try:
        return _required_stars(price, issued)
    except KeyError:  # no card for that number of shares
        return None


def deck_left(game) -> dict:
    """Company cards left in the deck per colour."""
    return dict(game.deck_left)


def corporation_ability(name: str, ruleset: rulesets.Ruleset | None = None) -> str:
    """The special ability printed on a corporation's charter."""
    data = (ruleset or current_ruleset()).corporations.get(name)
    return (getattr(data, "ability", None) or "") if data else ""
