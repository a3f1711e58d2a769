"""How a game moves a share price after the dividends: a named strategy chosen by the ruleset.

Rolling Stock Stars counts **stars** against the stars its share price card requires
(``stars/pricing.py``); classic Rolling Stock compares the **book value** with the card's table
(``classic/pricing.py``).  The engine never asks which: it calls the ruleset's mechanism, an object
with these members:

``key``, ``title``
    ``"stars"`` / ``"Stars"``, ``"book_value"`` / ``"Book value"``.
``adjustment(game, corp, cash) -> (PriceMove, facts, sentence)``
    where the price moves with ``cash`` left after the dividend, the figures it depends on
    (Stars ``stars``/``required``; classic ``book_value``/``table_row``) and a sentence for the log.
``rating(game, name) -> dict``
    what the corporation's snapshot shows for it (FORMAT.md / FORMAT-classic.md).
``ipo_figures(game, charter, abbr, price, shares, treasury) -> dict``
    what the IPO calculator shows about a new corporation besides money.
``explain(game, name) -> dict``
    the Why? of the rating: ``{"title", "total", "lines"}`` (and ``required`` for stars).
``dividend_lines(game, corp, cash, facts, move) -> list[str]``
    how the price after a dividend follows from the facts (the dividend chart's Why?).
"""

from __future__ import annotations

from typing import Protocol


class PriceMechanism(Protocol):
    key: str
    title: str
    column: str  # the heading of a table column of what it rates a corporation by

    def adjustment(self, game, corp, cash: int): ...

    def rating(self, game, name: str) -> dict: ...

    def ipo_figures(self, game, charter: str, abbr: str, price: int, shares: int, treasury: int) -> dict: ...

    def explain(self, game, name: str) -> dict: ...

    def dividend_lines(self, game, corp, cash: int, facts: dict, move) -> list[str]: ...


def explain_rating(game, corp_name: str) -> dict:
    """What the ruleset rates a corporation by, explained: Stars its stars against the stars its
    share price card requires, classic its book value against its market value."""
    return game.pricing.explain(game, corp_name)
