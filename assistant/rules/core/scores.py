"""A player's value, the same figure everywhere (``Game.scores``): the standings if the game ended
now, and a score explained in its parts."""

from __future__ import annotations

from . import words


def standings(game) -> list[dict]:
    """Each player's value if the game ended now, best first (ties by player order)."""
    scores = game.scores()
    rows = []
    for name in sorted(game.order, key=lambda p: (-scores[p], game.order.index(p))):
        p = game.players[name]
        faces = sum(game.cards.companies[a].face_value for a in p.companies)
        shares = sum(n * game.corps[c].price for c, n in p.shares.items())
        rows.append({"player": name, "cash": p.cash, "companies": faces, "shares": shares, "total": scores[name]})
    return rows


def explain_score(game, player: str) -> dict:
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
