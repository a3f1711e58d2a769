"""Classic Rolling Stock's price mechanism (Guide 1.5.9): the book value against the card's table.

After the dividend, a corporation's book value (treasury plus the face values of its companies) is
looked up in the table on its share price card for the number of issued shares; the row names the
new share price (then on past cards in use in the arrow's direction).  The top card ($100) has no
table: a corporation there stays, and the game ends in phase 10.
"""

from __future__ import annotations

from ..core import words
from . import rules


class BookValuePricing:
    key = "book_value"
    title = "Book value"
    column = "Book value"  # a table column of what it rates a corporation by (the closing helper)

    def adjustment(self, game, corp, cash: int):
        book = rules.book_value(cash, corp.companies)
        row = rules.table_row(corp.price, corp.issued, book)
        move = game.price_move(corp, rules.price_steps(corp.price, corp.issued, book))
        facts = {"book_value": book, "table_row": None if row is None else [row[0], row[1]]}
        return (
            move,
            facts,
            (
                f"book value {game.ruleset.cash(book)} with {words.count(corp.issued, 'share')}: "
                f"{move.describe(game.ruleset.cash)}"
            ),
        )

    def rating(self, game, name: str) -> dict:
        c = game.corps[name]
        return {"book_value": rules.book_value(c.cash, c.companies)}

    def ipo_figures(self, game, charter: str, abbr: str, price: int, shares: int, treasury: int) -> dict:
        return {"book_value": rules.book_value(treasury, [abbr])}

    def explain(self, game, name: str) -> dict:
        """A corporation's book value (treasury + face values) against its market value."""
        corp = game.corps[name]
        companies = game.cards.companies
        m = game.ruleset.cash  # money as the Guide writes it: "$12"
        lines = [f"Treasury: {m(corp.cash)}."]
        for abbr in sorted(corp.companies, key=lambda a: -companies[a].face_value):
            lines.append(f"{abbr}: face value {m(companies[abbr].face_value)}.")
        total = rules.book_value(corp.cash, corp.companies)
        market = corp.issued * corp.price
        where = "above" if total > market else ("equal to" if total == market else "below")
        lines.append(
            f"Market value: {words.count(corp.issued, 'share')} × {m(corp.price)} = {m(market)}; "
            f"the book value is {where} it."
        )
        move, _facts, _why = self.adjustment(game, corp, corp.cash)
        if corp.price == game.cards.top_price:
            lines.append(
                f"The {m(corp.price)} card has no table: the share price stays, and the game ends in phase 10."
            )
        else:
            lines.append(f"With no dividend the price would go {'up' if move.steps > 0 else 'down'} to {m(move.new)}.")
        return {"title": f"{name} book value", "total": total, "lines": lines}

    def dividend_lines(self, game, corp, cash: int, facts: dict, move) -> list[str]:
        companies = game.cards.companies
        m = game.ruleset.cash  # money as the Guide writes it: "$12"
        faces = " + ".join(f"{a} {m(companies[a].face_value)}" for a in corp.companies)
        book = facts["book_value"]
        lines = [
            f"Book value: {m(cash)} cash + {faces} = {m(book)}.",
            f"Market value at {m(corp.price)}: {words.count(corp.issued, 'share')} × {m(corp.price)} "
            f"= {m(corp.issued * corp.price)}.",
        ]
        if facts["table_row"] is None:
            lines.append(f"The {m(corp.price)} card has no table: the share price stays.")
            return lines
        low, high = facts["table_row"]
        row = game.cards.prices
        i = row.index(corp.price)
        n = corp.issued
        lower, higher = row[i - 1], row[i + 1]
        span = f"{m(low)}–{m(high)}" if high is not None else f"{m(low)} or more"
        lines += [
            f"The {m(corp.price)} card with {words.count(n, 'share')}: below {m(n * lower)} (×{m(lower)}) two cards "
            f"down, below {m(n * corp.price)} one down, below {m(n * higher)} (×{m(higher)}) one up, else two up.",
            f"{m(book)} is in the row {span}: {'up' if move.steps > 0 else 'down'} to {m(move.target)}.",
        ]
        return lines


BOOK_VALUE = BookValuePricing()
