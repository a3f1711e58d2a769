"""The share price row: required stars, dividend limits and price moves with leapfrogging."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import PRICE_INDEX, PRICES, SHARE_PRICE_CARDS, TOP_PRICE

LAST = len(PRICES) - 1


def required_stars(price: int, issued: int) -> int:
    """Stars printed on the share price card for this number of issued shares.

    The one source of these figures is the card table ``cards.SHARE_PRICE_CARDS``; they equal
    issued x price / 10 rounded half up, which the tests check, but the engine reads the cards."""
    table = SHARE_PRICE_CARDS[price][2]
    if table is None:
        return 0
    return table[issued]


def max_dividend(price: int) -> int:
    """Maximum payout per share printed on the card (0 for the 0 and 75 cards)."""
    return SHARE_PRICE_CARDS[price][1] or 0


@dataclass(frozen=True)
class PriceMove:
    """Where a price move lands: the card the step points at, and the free card taken."""

    old: int
    steps: int  # -2, -1, 0, +1, +2
    target: int  # the card the step points at
    new: int  # the card actually taken after leapfrogging cards in use
    skipped: tuple[int, ...]  # cards in use jumped over

    def describe(self) -> str:
        if self.steps == 0:
            return f"stays at {self.old}"
        way = "up" if self.steps > 0 else "down"
        text = f"{'double ' if abs(self.steps) == 2 else ''}{way}: {self.old} → {self.target}"
        if self.skipped:
            text += f", {', '.join(map(str, self.skipped))} in use, so {self.new}"
        return text


def move(price: int, steps: int, in_use, row: tuple[int, ...] = PRICES, index: dict | None = None) -> PriceMove:
    """Move ``steps`` cards along the ``row`` from ``price``, then leapfrog cards in ``in_use``.

    The first card (0: bankruptcy) and the last (75 in Stars, 100 in classic: several
    corporations may share it) never block.
    """
    if steps == 0:
        return PriceMove(price, 0, price, price, ())
    last = len(row) - 1
    i = min(last, max(0, (PRICE_INDEX if index is None else index)[price] + steps))
    target = row[i]
    step = 1 if steps > 0 else -1
    skipped = []
    while 0 < i < last and row[i] in in_use:
        skipped.append(row[i])
        i += step
    return PriceMove(price, steps, target, row[i], tuple(skipped))


def star_steps(owned: int, required: int) -> int:
    """Steps along the row for a star count against the required stars."""
    diff = owned - required
    if diff >= 2:
        return 2
    if diff <= -2:
        return -2
    return diff


assert PRICES[LAST] == TOP_PRICE
