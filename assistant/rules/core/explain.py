"""Explanations: every computed figure with its parts, in plain words.

Each function returns ``{"title", "total", "lines"}`` (lines are short sentences) built from the
same computations the engine uses, so an explanation never disagrees with the game.
"""

from __future__ import annotations

from . import words


def rating(game, corp_name: str) -> dict:
    """What the ruleset rates a corporation by, explained: Stars its stars against the stars its
    share price card requires, classic its book value against its market value."""
    return game.pricing.explain(game, corp_name)


stars = rating  # the stars explanation (classic: its book value explanation)
book_value = rating


def score(game, player: str) -> dict:
    """A player's value: money, face values of private companies, share prices of shares."""
    p = game.players[player]
    m = game.ruleset.cash
    lines = [f"Money: {m(p.cash)}."]
    total = p.cash
    companies = game.cards.companies
    for abbr in sorted(p.companies, key=lambda a: -companies[a].face_value):
        lines.append(f"{abbr}: face value {m(companies[abbr].face_value)}.")
        total += companies[abbr].face_value
    for cname, n in sorted(p.shares.items()):
        price = game.corps[cname].price
        lines.append(f"{n} × {cname} at {m(price)} = {m(n * price)}.")
        total += n * price
    return {"title": f"{words.possessive(player)} value", "total": total, "lines": lines}


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
