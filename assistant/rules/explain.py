"""Explanations: every computed figure with its parts, in plain words.

Each function returns ``{"title", "total", "lines"}`` (lines are short sentences) built from the
same computations the engine uses, so an explanation never disagrees with the game.
"""

from __future__ import annotations

from .market import required_stars


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
        title = f"{entity}'s income"
    lines = inc.lines() or ["No companies."]
    lines.append(_costs_line(game))
    if entity in game.players:
        lines.append("Companies owned by players never earn synergies.")
    return {"title": title, "total": inc.total, "lines": lines}


def stars(game, corp_name: str) -> dict:
    """Stars a corporation counts now against the stars its share price card requires (classic
    Rolling Stock counts no stars: its book value instead)."""
    if not game.HAS_STARS:
        return book_value(game, corp_name)
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
    move, facts, _why = game.adjustment(corp, cash)
    lines = [f"Pays {amount} × {corp.issued} shares = {amount * corp.issued}; {cash} cash left."]
    if "book_value" in facts:
        lines += _book_value_lines(game, corp, cash, facts, move)
    else:
        owned, need = facts["stars"], facts["required"]
        lines += [
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
    card = game.max_payout(corp)
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
    companies = game.cards.COMPANIES
    for abbr in sorted(p.companies, key=lambda a: -companies[a].face_value):
        lines.append(f"{abbr}: face value {companies[abbr].face_value}.")
        total += companies[abbr].face_value
    for cname, n in sorted(p.shares.items()):
        price = game.corps[cname].price
        lines.append(f"{n} × {cname} at {price} = {n * price}.")
        total += n * price
    return {"title": f"{player}'s value", "total": total, "lines": lines}


def price_row(game) -> list[dict]:
    """The share price row: each card and the corporation holding it."""
    row = game.cards.PRICES
    at_top = [c.name for c in game.corps.values() if c.price == row[-1]]
    out = []
    for price in row:
        holder = game.price_holder.get(price)
        holders = at_top if price == row[-1] else ([holder] if holder else [])
        out.append({"price": price, "holders": holders})
    return out


# ---------------------------------------------------------------------- classic: book value


def _book_value_lines(game, corp, cash, facts, move) -> list[str]:
    """Classic (Guide 1.5.9): the book value against the share price card's table."""
    companies = game.cards.COMPANIES
    faces = " + ".join(f"{a} {companies[a].face_value}" for a in corp.companies)
    book, (low, high) = facts["book_value"], facts["table_row"]
    row = game.cards.PRICES
    i = row.index(corp.price)
    n = corp.issued
    lower, higher = row[i - 1], row[i + 1]
    span = f"{low}–{high}" if high is not None else f"{low} or more"
    return [
        f"Book value: {cash} cash + {faces} = {book}.",
        f"Market value at {corp.price}: {n} shares × {corp.price} = {n * corp.price}.",
        f"The {corp.price} card with {n} shares: below {n * lower} (×{lower}) two cards down, below "
        f"{n * corp.price} one down, below {n * higher} (×{higher}) one up, else two up.",
        f"{book} is in the row {span}: {'up' if move.steps > 0 else 'down'} to {move.target}.",
    ]


def book_value(game, corp_name: str) -> dict:
    """Classic: a corporation's book value (treasury + face values) against its market value."""
    corp = game.corps[corp_name]
    companies = game.cards.COMPANIES
    lines = [f"Treasury: {corp.cash}."]
    for abbr in sorted(corp.companies, key=lambda a: -companies[a].face_value):
        lines.append(f"{abbr}: face value {companies[abbr].face_value}.")
    total = corp.cash + sum(companies[a].face_value for a in corp.companies)
    lines.append(
        f"Market value: {corp.issued} shares × {corp.price} = {corp.issued * corp.price}; the book value is "
        f"{'above' if total >= corp.issued * corp.price else 'below'} it."
    )
    move, _facts, _why = game.adjustment(corp, corp.cash)
    lines.append(f"With no dividend the price would go {'up' if move.steps > 0 else 'down'} to {move.new}.")
    return {"title": f"{corp_name} book value", "total": total, "lines": lines}
