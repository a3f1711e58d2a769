"""Explanations: every computed figure with its parts, in plain words.

Each function returns ``{"title", "total", "lines"}`` (lines are short sentences) built from the
same computations the engine uses, so an explanation never disagrees with the game.
"""

from __future__ import annotations

from . import words


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
    if entity == "foreign_investor":
        inc = game.fi_income()
        title = "Foreign investor income"
    elif entity in game.corps:
        inc = game.corp_income(entity)
        title = f"{entity} income"
    else:
        inc = game.player_income(entity)
        title = f"{words.possessive(entity)} income"
    lines = inc.lines() or ["No companies."]
    lines.append(_costs_line(game))
    if entity in game.players:
        lines.append("Companies owned by players never earn synergies.")
    return {"title": title, "total": inc.total, "lines": lines}


def rating(game, corp_name: str) -> dict:
    """What the ruleset rates a corporation by, explained: Stars its stars against the stars its
    share price card requires, classic its book value against its market value."""
    return game.pricing.explain(game, corp_name)


stars = rating  # the stars explanation (classic: its book value explanation)
book_value = rating


def price_after_dividend(game, corp_name: str, amount: int) -> dict:
    """Where the share price goes if the corporation pays ``amount`` per share now."""
    corp = game.corps[corp_name]
    cash = corp.cash - amount * corp.issued
    move, facts, _why = game.adjustment(corp, cash)
    m = game.ruleset.cash  # money as the game writes it: "$12" in v2.2 and classic, "12" in Stars
    lines = [
        f"Pays {m(amount)} × {words.count(corp.issued, 'share')} = {m(amount * corp.issued)}; {m(cash)} cash left."
    ]
    lines += game.pricing.dividend_lines(game, corp, cash, facts, move)
    if move.skipped:
        lines.append(
            f"{', '.join(map(str, move.skipped))} {'is' if len(move.skipped) == 1 else 'are'} in use, "
            f"so it {game.ruleset.word('skipped')} to {move.new}."
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
    return {"title": f"{verb} {words.a(corp_name)} share", "total": move.new, "lines": lines}


def dividend_limit(game, corp_name: str) -> dict:
    corp = game.corps[corp_name]
    card = game.max_payout(corp)
    by_cash = corp.cash // corp.issued
    m = game.ruleset.cash
    return {
        "title": f"{corp_name} dividend",
        "total": min(card, by_cash),
        "lines": [
            f"The {m(corp.price)} card allows up to {m(card)} per share.",
            f"{m(corp.cash)} cash for {words.count(corp.issued, 'issued share')} allows {m(by_cash)} per share.",
        ],
    }


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
