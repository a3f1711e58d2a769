"""The shape of a position (../shared/conformance/FORMAT-position.md), checked before anything reads it.

A position comes from outside (a transcript's ``position``, the resume form, a score check): before
``position.resume`` or ``final_score.final_scores`` look at it, every field the format defines must be
of its type and every figure within what a real game can hold, else ``ShapeError`` (a RuleError)
names the field.  Whether the position can be (shares that add up, a company in one place, prices
on the price row of its game) is the engine's to say (``position.py``); this module only makes sure
the engine is handed what the format says: ``"after": [1]``, ``"offering": "CDG"``, a president
given as a list or money of 4,300 digits are refused here, the same way for every door.

Unknown keys are ignored (FORMAT.md: "Unknown keys anywhere must be ignored"), and so are the
figures the rules derive (incomes, stars, cost of ownership, the auction): nothing here reads them.
"""

from __future__ import annotations

from .errors import RuleError

MONEY_MAX = 99_999  # money a person can type: far above any game's (Rolling Stock's bank is much smaller)
TURN_MAX = 99  # a game of Rolling Stock Stars ends well before its 30th turn
COUNT_MAX = 99  # shares, cards: no game has this many of anything
TEXT_MAX = 100  # a name or a company's abbreviation
ITEMS_MAX = 100  # companies in one place, corporations, players


class ShapeError(RuleError):
    """A position that is not of the format's shape; the message names the field."""

    def __init__(self, message: str):
        super().__init__(message, None)  # pragma: no mutate: None is RuleError's own default rule


def _fail(where: str, what: str, value) -> None:
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    raise ShapeError(f"{where} must be {what}, not {shown}.")


def _dict(value, where: str, optional: bool = False) -> dict:
    if value is None and optional:
        return {}
    if not isinstance(value, dict):
        _fail(where, "an object (a JSON {...})", value)
    if len(value) > ITEMS_MAX:
        _fail(where, f"an object of at most {ITEMS_MAX} entries", f"{len(value)} entries")
    for key in value:
        _text(key, f"a name in {where}")
    return value


def _text(value, where: str, nullable: bool = False) -> str | None:
    if value is None and nullable:
        return None
    if not isinstance(value, str) or not value or len(value) > TEXT_MAX:
        _fail(where, f"a name of 1 to {TEXT_MAX} characters" + (" or null" if nullable else ""), value)
    return value


def _texts(value, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, list) or len(value) > ITEMS_MAX:
        _fail(where, f"a list of at most {ITEMS_MAX} names", value)
    for i, item in enumerate(value):
        _text(item, f"{where}[{i}]")


def _number(value, where: str, low: int, high: int, optional: bool = False) -> None:
    if value is None and optional:
        return
    if type(value) is not int:  # true and false are no numbers
        _fail(where, f"a whole number from {low} to {high:,}", value)
    if not low <= value <= high:
        _fail(where, f"from {low} to {high:,}", value if abs(value) < 10**12 else "a number that large")


def _flag(value, where: str) -> None:
    if value is not None and not isinstance(value, bool):
        _fail(where, "true or false", value)


def _player_rows(players, where: str) -> None:
    for name, row in _dict(players, where).items():
        at = f"{where}[{name!r}]"
        row = _dict(row, at)
        _number(row.get("cash"), f"{at}.cash", 0, MONEY_MAX)
        _texts(row.get("companies"), f"{at}.companies")
        for corp, n in _dict(row.get("shares"), f"{at}.shares", optional=True).items():
            _number(n, f"{at}.shares[{corp!r}]", 0, COUNT_MAX)


def _corporations(corps, where: str, final: bool = False) -> None:
    for name, c in _dict(corps, where).items():
        at = f"{where}[{name!r}]"
        c = _dict(c, at)
        _number(c.get("share_price"), f"{at}.share_price", 0, MONEY_MAX)
        if final:  # a score check reads the share price only
            continue
        _number(c.get("cash"), f"{at}.cash", 0, MONEY_MAX)
        _texts(c.get("companies"), f"{at}.companies")
        _text(c.get("president"), f"{at}.president", nullable=True)
        _number(c.get("issued"), f"{at}.issued", 0, COUNT_MAX)
        _number(c.get("bank_shares"), f"{at}.bank_shares", 0, COUNT_MAX, optional=True)
        _number(c.get("unissued"), f"{at}.unissued", 0, COUNT_MAX, optional=True)
        _flag(c.get("receivership"), f"{at}.receivership")


def check_state(state, where: str = "state", final: bool = False) -> dict:
    """The snapshot of a position (``final``: a score check's end position, which needs less)."""
    state = _dict(state, where)
    _texts(state.get("player_order"), f"{where}.player_order")
    _player_rows(state.get("players"), f"{where}.players")
    if final:
        _corporations(state.get("corporations", {}), f"{where}.corporations", final=True)
        return state
    if "corporations" not in state:
        raise ShapeError(f"{where}.corporations must give the corporations in play ({{}} when there are none).")
    _corporations(state["corporations"], f"{where}.corporations")
    fi = _dict(state.get("foreign_investor"), f"{where}.foreign_investor", optional=True)
    _number(fi.get("cash"), f"{where}.foreign_investor.cash", 0, MONEY_MAX, optional=True)
    _texts(fi.get("companies"), f"{where}.foreign_investor.companies")
    offering = _dict(state.get("offering"), f"{where}.offering", optional=True)
    _texts(offering.get("available"), f"{where}.offering.available")
    _texts(offering.get("unavailable"), f"{where}.offering.unavailable")
    _number(state.get("deck_size"), f"{where}.deck_size", 0, COUNT_MAX, optional=True)
    _flag(state.get("end_card_flipped"), f"{where}.end_card_flipped")
    _flag(state.get("game_over"), f"{where}.game_over")
    return state


def check_position(position, where: str = "position") -> dict:
    """A position to resume from (FORMAT-position.md, section 1): after, state, deck, out_of_game."""
    position = _dict(position, where)
    after = _dict(position.get("after"), f"{where}.after")
    _number(after.get("turn"), f"{where}.after.turn", 1, TURN_MAX)
    _number(after.get("phase"), f"{where}.after.phase", 1, COUNT_MAX, optional=True)
    check_state(position.get("state"), f"{where}.state")
    for color, n in _dict(position.get("deck"), f"{where}.deck").items():
        _number(n, f"{where}.deck[{color!r}]", 0, COUNT_MAX)
    _texts(position.get("out_of_game"), f"{where}.out_of_game")
    return position
