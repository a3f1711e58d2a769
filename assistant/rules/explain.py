"""Explanations: every computed figure with its parts, in plain words.

Each function returns ``{"title", "total", "lines"}`` (lines are short sentences) built from the
same computations the engine uses, so an explanation never disagrees with the game.
"""

from __future__ import annotations

from .cards import COMPANIES, PRICES
from .compute import corporation_income, private_income, star_count
from .market import max_dividend, required_stars, star_steps


def _costs_line(game) -> str:
    costs = game.costs()
    top = game.top_color()
    where = (
        f"the top card of the deck is {top}"
        if top
        else ("the game end card shows its " + ("back" if game.end_flipped else "front"))
    )
    if not costs:
        return f"No cost of ownership now ({where})."
    parts = ", ".join(f"{color} {amount}" for color, amount in costs.items())
    return f"Cost of ownership per company: {parts} ({where})."


def income(game, entity: str) -> dict:
    """Phase 5 income of a player, a corporation or the foreign investor ("foreign_investor")."""
    costs = game.costs()
    if entity == "foreign_investor":
        inc = private_income(game.fi.companies, costs, foreign_investor=True)
        title = "Foreign investor income"
    elif entity in game.corps:
        inc = corporation_income(entity, game.corps[entity].companies, costs)
        title = f"{entity} income"
    else:
        inc = private_income(game.players[entity].companies, costs)
        title = f"{entity}'s income"
    lines = inc.lines() or ["No companies."]
    lines.append(_costs_line(game))
    if entity in game.players:
        lines.append("Companies owned by players never earn synergies.")
    return {"title": title, "total": inc.total, "lines": lines}


def stars(game, corp_name: str) -> dict:
    """Stars a corporation counts now against the stars its share price card requires."""
    corp = game.corps[corp_name]
    st = game.corp_stars(corp_name)
    need = required_stars(corp.price, corp.issued)
    lines = st.lines()
    lines.append(
        f"Required at {corp.price} with {corp.issued} issued shares: {need}★ "
        f"(printed on the {corp.price} share price card)."
    )
    return {"title": f"{corp_name} stars", "total": st.total, "required": need, "lines": lines}


def price_after_dividend(game, corp_name: str, amount: int) -> dict:
    """Where the share price goes if the corporation pays ``amount`` per share now."""
    corp = game.corps[corp_name]
    cash = corp.cash - amount * corp.issued
    owned = star_count(corp_name, corp.companies, cash)
    need = required_stars(corp.price, corp.issued)
    move = game.price_move(corp, star_steps(owned, need))
    lines = [
        f"Pays {amount} × {corp.issued} shares = {amount * corp.issued}; {cash} cash left.",
        f"{owned}★ counted against {need}★ required.",
        "Equal: the price stays."
        if owned == need
        else (
            f"{abs(owned - need)} {'more' if owned > need else 'fewer'}: "
            f"{'double ' if abs(move.steps) == 2 else ''}{'up' if move.steps > 0 else 'down'} to {move.target}."
        ),
    ]
    if move.skipped:
        lines.append(
            f"{', '.join(map(str, move.skipped))} {'is' if len(move.skipped) == 1 else 'are'} in use, "
            f"so it leapfrogs to {move.new}."
        )
    if move.new == 0:
        lines.append("The 0 card means bankruptcy.")
    return {
        "title": f"{corp_name} share price",
        "total": move.new,
        "target": move.target,
        "skipped": list(move.skipped),
        "lines": lines,
    }


def share_price(game, corp_name: str, buying: bool) -> dict:
    """The price of buying (next higher free card) or selling (next lower free card) one share."""
    corp = game.corps[corp_name]
    move = game.price_move(corp, 1 if buying else -1)
    verb = "Buying" if buying else "Selling"
    lines = [
        f"{verb} moves {corp_name} from {corp.price} to the next {'higher' if buying else 'lower'} "
        f"free card: {move.new}."
    ]
    if move.skipped:
        holders = ", ".join(f"{p} ({game.price_holder.get(p)})" for p in move.skipped)
        lines.append(f"Cards in use are skipped: {holders}.")
    lines.append(f"The {'buyer pays' if buying else 'seller receives'} the new price, {move.new}.")
    return {"title": f"{verb} a {corp_name} share", "total": move.new, "lines": lines}


def dividend_limit(game, corp_name: str) -> dict:
    corp = game.corps[corp_name]
    card = max_dividend(corp.price)
    by_cash = corp.cash // corp.issued
    return {
        "title": f"{corp_name} dividend",
        "total": min(card, by_cash),
        "lines": [
            f"The {corp.price} card allows up to {card} per share.",
            f"{corp.cash} cash for {corp.issued} issued shares allows {by_cash} per share.",
        ],
    }


def score(game, player: str) -> dict:
    """A player's value: money, face values of private companies, share prices of shares."""
    p = game.players[player]
    lines = [f"Money: {p.cash}."]
    total = p.cash
    for abbr in sorted(p.companies, key=lambda a: -COMPANIES[a].face_value):
        lines.append(f"{abbr}: face value {COMPANIES[abbr].face_value}.")
        total += COMPANIES[abbr].face_value
    for cname, n in sorted(p.shares.items()):
        price = game.corps[cname].price
        lines.append(f"{n} × {cname} at {price} = {n * price}.")
        total += n * price
    return {"title": f"{player}'s value", "total": total, "lines": lines}


def price_row(game) -> list[dict]:
    """The share price row: each card and the corporation holding it."""
    at_top = [c.name for c in game.corps.values() if c.price == PRICES[-1]]
    out = []
    for price in PRICES:
        holder = game.price_holder.get(price)
        holders = at_top if price == PRICES[-1] else ([holder] if holder else [])
        out.append({"price": price, "holders": holders})
    return out
