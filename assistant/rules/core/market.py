"""The share price row: price moves with leapfrogging (the row itself is the game's card data), and
the row as a table shows it (``price_row``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, init=False)
class PriceMove:
    """Where a price move lands: the card the step points at, and the free card taken."""

    old: int
    steps: int  # -2, -1, 0, +1, +2
    target: int  # the card the step points at
    new: int  # the card actually taken after leapfrogging cards in use
    skipped: tuple[int, ...]  # cards in use jumped over

    def __init__(self, old: int, steps: int, target: int, new: int, skipped: tuple[int, ...]):
        # Written out, still frozen afterwards: the frozen dataclass's own __init__ sets each field
        # through object.__setattr__, some 9,500 machine instructions a move against 4,700 here (a
        # replay of 83092 makes 126 moves).
        fields = self.__dict__
        fields["old"] = old
        fields["steps"] = steps
        fields["target"] = target
        fields["new"] = new
        fields["skipped"] = skipped

    def describe(self, money=str) -> str:
        """The move in words, each price written by ``money`` (the ruleset's ``cash``: "$12" in v2.2)."""
        if self.steps == 0:
            return f"stays at {money(self.old)}"
        way = "up" if self.steps > 0 else "down"  # pragma: no mutate: steps is not 0 here (returned above)
        text = f"{'double ' if abs(self.steps) == 2 else ''}{way}: {money(self.old)} → {money(self.target)}"
        if self.skipped:
            text += f", {', '.join(map(money, self.skipped))} in use, so {money(self.new)}"
        return text


def move(price: int, steps: int, in_use, row: tuple[int, ...], index) -> PriceMove:
    """Move ``steps`` cards along the ``row`` from ``price``, then leapfrog cards in ``in_use``.

    The first card (0: bankruptcy) and the last (75 in Stars, 100 in classic: several
    corporations may share it) never block.
    """
    if steps == 0:
        return PriceMove(price, 0, price, price, ())
    last = len(row) - 1
    i = min(last, max(0, index[price] + steps))
    target = row[i]
    step = 1 if steps > 0 else -1  # pragma: no mutate: steps is not 0 here (returned above)
    skipped = []
    while 0 < i < last and row[i] in in_use:
        skipped.append(row[i])
        i += step
    return PriceMove(price, steps, target, row[i], tuple(skipped))


def price_row(game) -> list[dict]:
    """The share price row: each card and the corporation holding it."""
    row = game.cards.prices
    at_top = [c.name for c in game.corps.values() if c.price == row[-1]]
    out = []
    for price in row:
        holder = game.price_holder.get(price)
        holders = at_top if price == row[-1] else ([holder] if holder else [])
        out.append({"price": price, "holders": holders})
    return out
