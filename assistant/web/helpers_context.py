"""Decision helpers and explanations for the templates (issue 4).

Presentation only: every figure comes from the engine (``assistant.rules.preview``,
``assistant.rules.explain``, ``Game.preview``), so a preview always equals what happens when
the event is entered.  This module groups, labels and orders those figures for a phone.
"""

from __future__ import annotations

from assistant.rules import RuleError, registry
from assistant.rules.core import scores
from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.closing import must_close, preview_closing
from assistant.rules.core.phases.dividends import dividend_chart, explain_dividend_limit, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price, share_trade
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.records import banker_sheet
from assistant.rules.core.scores import explain_score
from assistant.web import ahead, labels
from assistant.web.acquisition import purchases

FOREIGN_INVESTOR = "foreign_investor"  # the entity name explain_income() uses

# Dividend chart: what an amount does to the share price (text and a mark, never colour alone).
EFFECTS = {
    "raise": ("▲", "price rises"),
    "keep": ("=", "price stays"),
    "drop": ("▼", "price drops"),
    "bankrupt": ("✖", "bankrupt"),
}

WHY_KINDS = ("income", "stars", "price", "share_price", "dividend_limit", "score")


class HelperError(Exception):
    """A helper was asked about something that does not exist (404) or makes no sense (400)."""

    def __init__(self, message: str, status: int = 404):
        super().__init__(message)
        self.message = message
        self.status = status


def short(game, corp: str) -> str:
    """The short label of a corporation in the game's ruleset."""
    return labels.corporation_short(corp, game.ruleset)


def companies_of(game) -> dict:
    """The company cards of the game's ruleset: abbreviation -> card."""
    return registry.of(game).cards.companies


def refusal_rule(game, event: dict) -> str | None:
    """The anchor of the rule that refuses ``event`` now (None when it is allowed)."""
    try:
        game.preview(event)
    except RuleError as err:
        return err.rule
    return None


def rule_title(ruleset: registry.Ruleset, anchor: str | None) -> str | None:
    if not anchor:
        return None
    sec = ruleset.rule_section(anchor)
    return sec["title"] if sec else None


# ------------------------------------------------------------------ the rules page
def rules_groups(ruleset: registry.Ruleset) -> list[dict]:
    """The ruleset's rules in their groups, each section with its anchor and paragraphs."""
    groups: list[dict] = []
    for sec in ruleset.rules_sections():
        if not groups or groups[-1]["title"] != sec["group"]:
            groups.append({"title": sec["group"], "sections": []})
        paragraphs = [p.strip() for p in str(sec["text"]).split("\n") if p.strip()]
        groups[-1]["sections"].append(dict(sec, paragraphs=paragraphs))
    return groups


# ------------------------------------------------------------------ checks of request arguments
def need_player(game, name) -> str:
    if not name or name not in game.players:
        raise HelperError(f"{str(name or '')[:40]!r} is not a player of this game.")
    return name


def need_corporation(game, name) -> str:
    if not name or name not in game.corps:
        raise HelperError(f"{str(name or '')[:40]!r} is not a corporation in this game now.")
    return name


def need_company(game, abbr) -> str:
    if not abbr or abbr not in game.owner:
        raise HelperError(f"{str(abbr or '')[:40]!r} is not a company owned by anybody now.")
    return abbr


def need_int(value, what: str, lo: int = 0, hi: int | None = None) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise HelperError(f"The {what} must be a whole number, not {str(value)[:20]!r}.", 400) from None
    if number < lo or (hi is not None and number > hi):
        span = f"{lo}–{hi}" if hi is not None else f"at least {lo}"
        raise HelperError(f"The {what} must be {span}, not {number}.", 400)
    return number


# ------------------------------------------------------------------ dividend chart
def _effect(game, effect: str) -> tuple[str, str]:
    """Mark and words of a dividend's effect; reaching the top card ends the game (Stars: 75,
    in phase 7; classic: 100, in phase 10)."""
    top = str(game.cards.top_price)
    if effect == top:
        return "★", f"reaches {top}: the game ends in phase {game.phase_no(game.END_PHASE)}"
    return EFFECTS.get(effect, ("", effect))


def dividend(game) -> dict | None:
    chart = dividend_chart(game)
    if chart is None:
        return None
    name = chart["corporation"]
    corp = game.corps[name]
    order = list(game.order)
    rows = []
    for r in chart["rows"]:
        mark, text = _effect(game, r["effect"])
        payouts = sorted(
            r["payouts"].items(), key=lambda kv: (kv[0] == "Bank", order.index(kv[0]) if kv[0] in order else 99)
        )
        rows.append(
            dict(
                r,
                mark=mark,
                effect_text=text,
                paid=r["amount"] * chart["issued"],
                payout_list=payouts,
                diff=r["stars"] - r["required"] if "stars" in r else None,  # classic: book value instead
            )
        )
    limit = explain_dividend_limit(game, name)
    return dict(
        chart,
        short=short(game, name),
        president=corp.president,
        rows=rows,
        limit=limit,
        max=rows[-1]["amount"] if rows else 0,
    )


# ------------------------------------------------------------------ IPO calculator
def ipo(game) -> dict | None:
    calc = ipo_calculator(game)
    if calc is None:
        return None
    by_price: dict[int, dict] = {}
    for r in calc["rows"]:
        group = by_price.setdefault(
            r["price"],
            {
                "price": r["price"],
                "owner_shares": r["owner_shares"],
                "bank_shares": r["bank_shares"],
                "payment": r["payment"],
                "treasury": r["treasury"],
                "required": r.get("required"),
                "book_value": r.get("book_value"),
                "affordable": r["affordable"],
                "value_before": r["value_before"],
                "value_after": r["value_after"],
                "charters": [],
            },
        )
        group["charters"].append(
            {
                "corporation": r["corporation"],
                "short": short(game, r["corporation"]),
                "stars": r.get("stars"),
                "diff": r["stars"] - r["required"] if "stars" in r else None,
            }
        )
    prices = sorted(by_price.values(), key=lambda g: g["price"])
    for g in prices:
        stars = {c["stars"] for c in g["charters"] if c["stars"] is not None}
        g["stars_min"], g["stars_max"] = (min(stars), max(stars)) if stars else (0, 0)
    company = companies_of(game)[calc["company"]]
    return dict(
        calc,
        prices=prices,
        color=company.color,
        company_name=company.name,
        charters=[c["corporation"] for c in prices[0]["charters"]] if prices else [],
    )


# ------------------------------------------------------------------ share trade
def trade(game, player: str, corporation: str, buying: bool) -> dict:
    out = share_trade(game, player, corporation, buying)
    corp = game.corps[corporation]
    out["corporation"] = corporation
    out["player"] = player
    out["buying"] = buying
    out["old_price"] = corp.price
    out["cash"] = game.players[player].cash
    if out["legal"]:
        out["cash_after"] = out["cash"] - out["price"] if buying else out["cash"] + out["price"]
        out["explain"] = explain_share_price(game, corporation, buying)
    else:
        out["rule"] = refusal_rule(game, out["event"])
    return out


# ------------------------------------------------------------------ acquisition what-if
def acquisition_choices(game, menu: list[dict]) -> dict:
    """What the what-if form offers: buyers and companies of the menu, plus every company owned."""
    by_buyer = purchases(menu)  # the same list the Play tab's picker shows
    corps = list(by_buyer) or [c for c in game.corps if game.corps[c].president is not None]
    cards = companies_of(game)
    companies = sorted(game.owner, key=lambda a: (-cards[a].face_value, a))
    spans = {(buyer, m["company"]): (m["min"], m["max"]) for buyer, items in by_buyer.items() for m in items}
    return {
        "corporations": corps,
        "companies": [{"abbr": a, "color": cards[a].color, "owner": game.owner[a].name} for a in companies],
        "spans": spans,
    }


def _company_line(game, abbr: str) -> dict:
    c = companies_of(game)[abbr]
    cost = game.costs().get(c.color, 0)
    return {
        "abbr": abbr,
        "color": c.color,
        "income": c.income,
        "cost": cost,
        "net": c.income - cost,
        "stars": c.stars,
        "face_value": c.face_value,
        "span": [c.price_min, c.price_max],
    }


def acquisition(game, corporation: str, company: str, price: int) -> dict:
    out = preview_purchase(game, corporation, company, price)
    out.update(corporation=corporation, company=company, price=price, line=_company_line(game, company))
    seller = game.owner[company]
    out["seller_kind"] = seller.kind
    if not out["legal"]:
        out["rule"] = refusal_rule(game, out["event"])
        return out
    after = game.preview(out["event"])
    out["cash"] = {corporation: (game.corps[corporation].cash, after.corps[corporation].cash)}
    if seller.kind == "corporation":
        out["cash"][seller.name] = (seller.cash, after.corps[seller.name].cash)
    elif seller.kind == "player":
        out["seller_player"] = {
            "name": seller.name,
            "cash": (seller.cash, after.players[seller.name].cash),
            "income": (game.player_income(seller.name).total, after.player_income(seller.name).total),
        }
    for name, eff in out["effects"].items():
        eff["short"] = short(game, name)
        eff["income_diff"] = eff["after"]["income"] - eff["before"]["income"]
        if "stars" in eff["after"]:
            eff["stars_diff"] = eff["after"]["stars"] - eff["before"]["stars"]
        eff["price"] = game.corps[name].price
    return out


# ------------------------------------------------------------------ closing what-if
def closing(game, company: str) -> dict:
    out = preview_closing(game, company)
    out["company"] = company
    out["line"] = _company_line(game, company)
    owner = game.owner[company]
    out["owner_kind"] = owner.kind
    out["owner_short"] = short(game, owner.name) if owner.kind == "corporation" else owner.name
    if not out["legal"]:
        out["rule"] = refusal_rule(game, out["event"])
        return out
    out["income_diff"] = out["after"]["income"] - out["before"]["income"]
    if owner.kind == "corporation":
        if "stars" in out["after"]:
            out["stars_diff"] = out["after"]["stars"] - out["before"]["stars"]
        out["cash_before"] = game.corps[owner.name].cash
        out["price"] = game.corps[owner.name].price
    else:
        out["cash_before"] = game.players[owner.name].cash
    return out


def closing_overview(game, menu: list[dict]) -> dict:
    closable = [m["company"] for m in menu if m.get("type") == "close"]
    return {
        "must_close": must_close(game),
        "bankrupt": ahead.bankrupt_ahead(game),
        "closings": [closing(game, a) for a in closable],
        "phase_open": bool(closable),
    }


# ------------------------------------------------------------------ standings, banker, outlook
def standings(game) -> list[dict]:
    rows = scores.standings(game)
    for rank, r in enumerate(rows, 1):
        r["rank"] = rank
    return rows


BANKER_LOOKS_BACK = 60  # entries: older payments are settled at the table


def banker(game, last: int = 10) -> list[dict]:
    """The latest journal entries that move money (among the latest BANKER_LOOKS_BACK), newest
    first, with what to move on the table."""
    out = []
    journal = game.journal
    for i in range(len(journal) - 1, max(-1, len(journal) - 1 - BANKER_LOOKS_BACK), -1):
        entry = journal[i]
        if entry.get("moves"):
            out.append(
                {
                    "n": i + 1,
                    "text": entry.get("text", ""),
                    "sheet": banker_sheet(entry, game.ruleset.cash),
                    "moves": [{"payer": p, "payee": q, "amount": a, "why": w} for p, q, a, w in entry["moves"]],
                    "auto": bool(entry.get("auto")),
                }
            )
            if len(out) >= last:
                break
    return out


def banker_lines(game, n: int, recent: int = 3) -> list[str] | None:
    """The banker's sheet of journal entry ``n`` (1-based), only for the ``recent`` latest entries."""
    journal = game.journal
    if not isinstance(n, int) or not 1 <= n <= len(journal) or n <= len(journal) - recent:
        return None
    return banker_sheet(journal[n - 1], game.ruleset.cash) or None


def outlook(game) -> dict:
    out = cost_outlook(game)
    colors = list(getattr(game, "colors", None) or labels.colors(registry.of(game)))
    out["table"] = [
        {"color": c, "now": out["now"].get(c, 0), "next": None if out["next"] is None else out["next"].get(c, 0)}
        for c in colors
    ]
    for row in out["losing"]:
        row["color"] = companies_of(game)[row["company"]].color
    out["deck_size"] = game.deck_size()
    out["end_flipped"] = game.end_flipped
    return out


# ------------------------------------------------------------------ Why?
def why(game, kind: str, args) -> dict:
    """The derivation of one figure; ``args`` is the request's query arguments.  ``money``: whether
    the figure is an amount (written as the game writes money); all are but Stars' stars."""
    out = _why(game, kind, args)
    out["money"] = kind != "stars" or game.pricing.key == "book_value"
    return out


def _why(game, kind: str, args) -> dict:
    if kind == "income":
        entity = args.get("entity") or ""
        if entity != FOREIGN_INVESTOR and entity not in game.corps and entity not in game.players:
            raise HelperError(f"{entity[:40]!r} is not a player, a corporation or the foreign investor.")
        return explain_income(game, entity)
    if kind == "score":
        return explain_score(game, need_player(game, args.get("player")))
    corp = need_corporation(game, args.get("corporation"))
    if kind == "stars":
        return explain_rating(game, corp)
    if kind == "dividend_limit":
        return explain_dividend_limit(game, corp)
    if kind == "share_price":
        side = args.get("side", "buy")
        if side not in ("buy", "sell"):
            raise HelperError("side must be buy or sell.", 400)
        return explain_share_price(game, corp, side == "buy")
    if kind == "price":
        limit = explain_dividend_limit(game, corp)["total"]
        amount = need_int(args.get("amount"), "amount per share", 0, max(0, limit))
        return explain_price_after_dividend(game, corp, amount)
    raise HelperError(f"There is no explanation called {kind[:40]!r}.")
