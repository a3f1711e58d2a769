"""Decision helpers: what an event would do, before it is entered.

Every figure here comes from applying the event to a copy of the game (``Game.preview``) or
from the engine's own computations, so a preview always equals what happens when the event is
entered.
"""

from __future__ import annotations

from .errors import RuleError


# ---------------------------------------------------------------------- acquisitions
def _corp_figures(game, name):
    corp = game.corps.get(name)
    if corp is None:
        return None
    inc = game.corp_income(name)
    move, facts, _why = game.adjustment(corp, corp.cash)
    return {
        "income": inc.total,
        "synergies": [list(p) for p in inc.synergies],
        **facts,
        "zero_dividend_price": move.new,
    }


def acquisition(game, corporation: str, company: str, price: int, announced_by: str | None = None) -> dict:
    """What buying ``company`` for ``price`` does to the buyer and (if a corporation) the seller;
    ``announced_by`` for an intervention in another corporation's announced purchase."""
    seller = game.owner.get(company)
    event = {"type": "acquire", "corporation": corporation, "company": company, "price": price}
    if announced_by:
        event["announced_by"] = announced_by
    c = game.cards.companies.get(company)
    out = {
        "event": event,
        "legal": True,
        "error": None,
        "seller": seller.name if seller else None,
        "span": [c.price_min, c.price_max] if c else None,
    }
    if seller is not None and seller.kind == "foreign_investor" and corporation in game.corps:
        fixed = game.fi_price(corporation, company)
        out["span"] = [fixed, fixed]
        out["may_intervene"] = [x.name for x in game.interveners(game.corps[corporation], company)]
    try:
        after = game.preview(event, within_phase=True)
    except RuleError as err:
        out.update(legal=False, error=err.message)
        return out
    names = [corporation] + ([seller.name] if seller.kind == "corporation" else [])
    out["effects"] = {}
    for name in names:
        b, a = _corp_figures(game, name), _corp_figures(after, name)
        gained = [p for p in a["synergies"] if p not in b["synergies"]]
        lost = [p for p in b["synergies"] if p not in a["synergies"]]
        out["effects"][name] = {"before": b, "after": a, "synergies_gained": gained, "synergies_lost": lost}
    return out


# ---------------------------------------------------------------------- closing
def closing(game, company: str) -> dict:
    """Income and star change of closing ``company`` for its owner."""
    owner = game.owner.get(company)
    event = {"type": "close", "company": company}
    out = {"event": event, "legal": True, "error": None, "owner": owner.name if owner else None}
    try:
        after = game.preview(event, within_phase=True)
    except RuleError as err:
        out.update(legal=False, error=err.message)
        return out
    if owner.kind == "corporation":
        out["before"], out["after"] = _corp_figures(game, owner.name), _corp_figures(after, owner.name)
        out["cash_after"] = after.corps[owner.name].cash
    else:
        out["before"] = {"income": game.player_income(owner.name).total}
        out["after"] = {"income": after.player_income(owner.name).total}
    return out


def must_close(game) -> list[dict]:
    """Players whose money cannot pay their coming negative income, and closings that cover it."""
    out = []
    costs = game.costs()
    COMPANIES = game.cards.companies  # noqa: N806
    for name, cash, income in game.players_short():
        p = game.players[name]
        losers = sorted(
            (a for a in p.companies if COMPANIES[a].income - costs.get(COMPANIES[a].color, 0) < 0),
            key=lambda a: COMPANIES[a].income - costs.get(COMPANIES[a].color, 0),
        )
        covering, inc = [], income
        for abbr in losers:
            if cash + inc >= 0:
                break
            covering.append(abbr)
            inc -= COMPANIES[abbr].income - costs.get(COMPANIES[abbr].color, 0)
        out.append({"player": name, "cash": cash, "income": income, "close": covering, "income_after": inc})
    return out


# ---------------------------------------------------------------------- bankruptcy ahead
SEARCH_MAX = 10  # companies of one corporation searched for the fewest closings (more: the worst first)


def bankrupt_ahead(game) -> list[dict]:
    """Corporations that cannot pay their coming negative income (each rulebook's income phase:
    a corporation that cannot pay goes bankrupt), and the fewest closings that avoid it.

    Each: ``corporation``, ``president`` (None: in receivership, nobody may close its companies),
    ``cash``, ``income``, ``close`` (the companies to close, None when no closing is enough: a
    corporation keeps at least one) and ``cash_after`` / ``income_after`` with them closed."""
    costs = game.costs()
    out = []
    for name in game.share_order():
        corp = game.corps[name]
        income = game.corporation_income(name, corp.companies, costs).total
        if corp.cash + income >= 0:
            continue
        row = {"corporation": name, "president": corp.president, "cash": corp.cash, "income": income}
        row.update(close=None, cash_after=corp.cash, income_after=income)
        if corp.president is not None:
            row.update(_fewest_closings(game, corp, costs))
        out.append(row)
    return out


def _fewest_closings(game, corp, costs) -> dict:
    """The fewest companies whose closing leaves the corporation able to pay (the best income on a
    tie); a closing bonus (the scrapping charter) counts as cash.  Empty when none is enough."""
    from itertools import combinations

    from .abilities import CLOSING_BONUS

    companies = game.cards.companies
    bonus = 2 if game.ability(corp.name) == CLOSING_BONUS else 0
    owned = sorted(corp.companies, key=lambda a: companies[a].income - costs.get(companies[a].color, 0))
    owned_searched = owned[:SEARCH_MAX]

    def after(closed):
        kept = [a for a in corp.companies if a not in closed]
        cash = corp.cash + bonus * sum(companies[a].income for a in closed)
        return cash, game.corporation_income(corp.name, kept, costs).total

    for k in range(1, len(corp.companies)):
        best = None
        for closed in combinations(owned_searched, min(k, len(owned_searched))):
            cash, income = after(closed)
            if cash + income >= 0 and (best is None or income > best[2]):
                best = (list(closed), cash, income)
        if best:
            return {"close": best[0], "cash_after": best[1], "income_after": best[2]}
    return {}


# ---------------------------------------------------------------------- standings
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


# ---------------------------------------------------------------------- banker's sheet
def banker_sheet(entry: dict) -> list[str]:
    """What to move on the real table for one journal entry: who pays whom, grouped."""
    grouped: dict[tuple[str, str], int] = {}
    for payer, payee, amount, _why in entry.get("moves", ()):
        grouped[(payer, payee)] = grouped.get((payer, payee), 0) + amount
    by_payer: dict[str, list[str]] = {}
    for (payer, payee), amount in grouped.items():
        by_payer.setdefault(payer, []).append(f"{payee} {amount}")
    return [f"{payer} pays " + "; ".join(parts) for payer, parts in by_payer.items()]


# ---------------------------------------------------------------------- cost of ownership outlook
def cost_outlook(game) -> dict:
    """Draws until the cost of ownership changes, and which owned companies then lose money."""
    now = game.costs()
    draws = 0
    nxt_costs = None
    colors = game.colors
    for color in colors:
        left = game.deck_left[color]
        if not left:
            continue
        draws += left
        later = [c for c in colors[colors.index(color) + 1 :] if game.deck_left[c]]
        upcoming = game.cost_shown_by(later[0] if later else "end_front")
        if upcoming != now:
            nxt_costs = upcoming
            break
    if nxt_costs is None:
        if game.end_flipped:
            return {"draws": None, "now": now, "next": None, "losing": []}
        nxt_costs, draws = game.cost_shown_by("end_back"), None  # changes when the end card flips
    losing = []
    for abbr, ent in game.owner.items():
        c = game.cards.companies[abbr]
        if c.income - nxt_costs.get(c.color, 0) < 0 <= c.income - now.get(c.color, 0):
            losing.append({"company": abbr, "owner": ent.name, "income_then": c.income - nxt_costs.get(c.color, 0)})
    return {"draws": draws, "now": now, "next": nxt_costs, "losing": losing}


__all__ = [
    "acquisition",
    "closing",
    "must_close",
    "bankrupt_ahead",
    "standings",
    "banker_sheet",
    "cost_outlook",
]
