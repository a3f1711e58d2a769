"""Decision helpers (``assistant.rules.preview``) against what actually happens.

Seeded random playouts (2-6 players) are driven by ``g.legal_actions()`` and
``assistant.rules.events_of``.  At the decisions the helpers serve, every preview is compared
with the game after really entering the event (on a copy of the game, with ``apply``):

* dividend chart: one row per allowed amount; each row's new price, cash left, what every
  shareholder receives and the marked effect equal the game after paying that dividend;
* IPO calculator: one row per free price and charter; for an affordable row the owner's payment
  and shares, the bank's shares and the treasury equal the game after the IPO; an unaffordable
  row is refused;
* share trade: the price paid / received, the president after, receivership, bankruptcy and game
  end equal the game after the buy or sale; an illegal trade is refused when applied too;
* acquisition: income, stars and the zero-dividend price of buyer and selling corporation equal
  the snapshot after the purchase; a price outside the range is refused;
* closing: the owner's income (and a corporation's stars and cash) equal the game after closing;
  the closings ``must_close`` proposes leave the player able to pay;
* standings, banker's sheet and cost of ownership outlook are checked against the game's own
  scores, money movements and deck.

"The game after the event" is the state at the end of the current phase when the event ends it
(``Game.on_phase_end``), so automatic steps of later phases (e.g. phase 5 income) do not blur the
comparison; otherwise it is the state right after the event.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter

from assistant.rules import RuleError, events_of
from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.game import Game
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.closing import must_close, preview_closing
from assistant.rules.core.phases.dividends import dividend_chart, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price, share_trade
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.records import banker_sheet
from assistant.rules.core.scores import explain_score, standings
from assistant.rules.registry import STARS

STYLES = {
    "uniform": {},
    "seller": {"sell_share": 6, "buy_share": 2, "issue": 3, "ipo": 3, "close": 0.5},
    "buyer": {"buy_share": 5, "sell_share": 0.3, "ipo": 3, "pass": 1, "skip_issue": 2},
    # pays the dividend with the highest new price (from the chart itself): prices reach 75
    "climber": {"buy_share": 4, "sell_share": 0.05, "ipo": 3, "issue": 0.5, "skip_issue": 3, "close": 0.05},
    # keeps its companies private and never closes them: late costs of ownership force closings
    "keeper": {"bid": 3, "skip_ipo": 8, "ipo": 0.2, "close": 0.01, "buy_share": 0.3},
}
SEEDS = [(n, style, 7000 + 31 * n + i) for n in (2, 3, 4, 5, 6) for i, style in enumerate(STYLES)] + [
    (3, "uniform", 7101),
    (4, "buyer", 7102),
    (5, "seller", 7103),
    (3, "climber", 7104),
    (4, "keeper", 7105),
]
EVENT_CAP = {"climber": 600}  # climbing games are longer; others stop at 320 events
TIME_BUDGET = 30.0  # seconds for the whole run; the required coverage must be reached before


# ---------------------------------------------------------------------- playing
def pick_event(g: Game, rng: random.Random, style: str) -> dict:
    menu = g.legal_actions()
    weights = STYLES[style]
    if style == "climber" and menu[0]["type"] == "dividend":
        chart = dividend_chart(g)
        best = max(chart["rows"], key=lambda r: (r["new_price"], r["amount"]))
        return {"type": "dividend", "corporation": chart["corporation"], "amount": best["amount"]}
    item = rng.choices(menu, [weights.get(i["type"], 1.0) for i in menu])[0]

    def pick(*args):
        if len(args) == 2:
            lo, hi = args
            r = rng.random()
            return lo if r < 0.4 else hi if r < 0.6 else rng.randint(lo, hi)
        return rng.choice(args[0])

    return events_of(item, pick)


def after(g: Game, event: dict) -> Game:
    """The game after ``event``: at the end of the current phase if the event ends it."""
    trial = g.clone()
    ended: list[Game] = []
    phase = trial.phase

    def at_end(game):
        if not ended and game.phase == phase:
            ended.append(game.clone())

    trial.on_phase_end = at_end
    trial.apply(event)
    return ended[0] if ended else trial


def refused(g: Game, event: dict) -> bool:
    try:
        g.clone().apply(event)
    except RuleError:
        return True
    return False


# ---------------------------------------------------------------------- checks per decision
def check_dividend(g: Game, seen: Counter) -> None:
    chart = dividend_chart(g)
    item = g.legal_actions()[0]
    assert item["type"] == "dividend" and chart is not None
    name = chart["corporation"]
    corp = g.corps[name]
    assert name == item["corporation"] and chart["price"] == corp.price and chart["cash"] == corp.cash
    assert [r["amount"] for r in chart["rows"]] == list(range(item["min"], item["max"] + 1))
    for row in chart["rows"]:
        amount = row["amount"]
        a = after(g, {"type": "dividend", "corporation": name, "amount": amount})
        bankrupt = name not in a.corps
        assert row["new_price"] == (0 if bankrupt else a.corps[name].price), (row, amount)
        assert row["new_price"] == explain_price_after_dividend(g, name, amount)["total"]
        if not bankrupt:
            assert row["cash_left"] == a.corps[name].cash, (row, a.corps[name].cash)
        assert row["cash_left"] == corp.cash - amount * corp.issued
        for p in g.players.values():
            assert a.players[p.name].cash - p.cash == row["payouts"].get(p.name, 0), (p.name, row)
        assert sum(row["payouts"].values()) == amount * corp.issued
        assert row["payouts"].get("Bank", 0) == amount * corp.bank_shares
        effect = (
            "bankrupt"
            if bankrupt
            else "75"
            if row["new_price"] == 75
            else "keep"
            if row["new_price"] == corp.price
            else "raise"
            if row["new_price"] > corp.price
            else "drop"
        )
        assert row["effect"] == effect, (row, corp.price)
        seen["dividend:" + effect] += 1
    over = {"type": "dividend", "corporation": name, "amount": item["max"] + 1}
    assert refused(g, over)


def check_ipo(g: Game, rng: random.Random, seen: Counter) -> None:
    calc = ipo_calculator(g)
    menu = g.legal_actions()
    assert calc is not None and menu[0]["type"] == "ipo"
    abbr = calc["company"]
    owner = g.players[calc["owner"]]
    offered = {(o["corporation"], o["price"]): o for o in menu[0]["options"]}
    assert {(r["corporation"], r["price"]) for r in calc["rows"] if r["affordable"]} == set(offered)
    by_price: dict[int, list] = {}
    for row in calc["rows"]:
        by_price.setdefault(row["price"], []).append(row)
    # every price; per price two charters (Stars, Inc. counts 2 stars more: always when free)
    sample = [
        r
        for rows in by_price.values()
        for r in rng.sample(rows, min(2, len(rows))) + [x for x in rows if x["corporation"] == "Stars, Inc."]
    ]
    for row in sample:
        event = {"type": "ipo", "company": abbr, "corporation": row["corporation"], "price": row["price"]}
        if not row["affordable"]:
            assert row["payment"] > owner.cash and refused(g, event)
            seen["ipo:unaffordable"] += 1
            continue
        opt = offered[(row["corporation"], row["price"])]
        assert (opt["payment"], opt["treasury"], opt["owner_shares"], opt["bank_shares"]) == (
            row["payment"],
            row["treasury"],
            row["owner_shares"],
            row["bank_shares"],
        )
        a = after(g, event)
        c = a.corps[row["corporation"]]
        assert owner.cash - a.players[owner.name].cash == row["payment"]
        assert a.players[owner.name].shares.get(row["corporation"]) == row["owner_shares"]
        assert c.bank_shares == row["bank_shares"] and c.issued == row["owner_shares"] + row["bank_shares"]
        assert c.cash == row["treasury"] and c.price == row["price"] and c.president == owner.name
        assert explain_rating(a, c.name)["total"] == row["stars"]
        assert explain_rating(a, c.name)["required"] == row["required"]
        # value = money + this company's face value before, money + the new shares after
        assert row["value_before"] == owner.cash + calc["face_value"]
        assert a.scores()[owner.name] - g.scores()[owner.name] == row["value_after"] - row["value_before"]
        seen["ipo:formed"] += 1


def check_trades(g: Game, seen: Counter) -> None:
    menu = g.legal_actions()
    player = menu[0]["player"]
    offered = {(m["type"], m["corporation"]): m["price"] for m in menu if m["type"] in ("buy_share", "sell_share")}
    for cname in list(g.corps):
        for buying in (True, False):
            kind = "buy_share" if buying else "sell_share"
            t = share_trade(g, player, cname, buying)
            event = {"type": kind, "player": player, "corporation": cname}
            assert t["legal"] == ((kind, cname) in offered), (t, offered)
            if not t["legal"]:
                assert t["error"] and refused(g, event)
                seen["trade:refused"] += 1
                continue
            assert t["price"] == offered[(kind, cname)]
            assert t["price"] == explain_share_price(g, cname, buying)["total"]
            a = after(g, event)
            change = a.players[player].cash - g.players[player].cash
            assert change == (-t["price"] if buying else t["price"]), (t, change)
            assert t["bankrupt"] == (cname not in a.corps)
            full = g.clone()
            full.apply(event)  # the game may end in a later phase of the same event's automatic flow
            assert t["game_ends"] == full.game_over
            seen["trade:game_end"] += t["game_ends"]
            if t["bankrupt"]:
                seen["trade:bankrupt"] += 1
                continue
            ac = a.corps[cname]
            assert ac.price == t["price"]
            assert t["president_after"] == ac.president
            assert t["presidency_changes"] == (ac.president != g.corps[cname].president)
            assert t["receivership"] == (ac.president is None and g.corps[cname].president is not None)
            seen["trade:buy" if buying else "trade:sell"] += 1
            seen["trade:president"] += t["presidency_changes"] and not t["receivership"]
            seen["trade:receivership"] += t["receivership"]


def check_acquisitions(g: Game, rng: random.Random, seen: Counter) -> None:
    # an announced purchase from the foreign investor is previewed as the purchase it makes
    items = [{**m, "type": "acquire"} for m in g.legal_actions() if m["type"] in ("acquire", "announce")]
    for item in rng.sample(items, min(len(items), 3)):
        corp, abbr = item["corporation"], item["company"]
        for price in {item["min"], item["max"]}:
            ev = events_of(item, lambda *a, p=price: p)
            out = preview_purchase(g, corp, abbr, price)
            assert out["legal"], out
            a = after(g, ev)
            snap = a.snapshot()["corporations"]
            assert set(out["effects"]) == {corp} | ({out["seller"]} if out["seller"] in g.corps else set())
            for name, eff in out["effects"].items():
                assert eff["after"]["income"] == snap[name]["income"] == explain_income(a, name)["total"]
                assert eff["after"]["stars"] == snap[name]["stars"]
                assert eff["before"]["income"] == g.snapshot()["corporations"][name]["income"]
                assert eff["after"]["zero_dividend_price"] == explain_price_after_dividend(a, name, 0)["total"]
                gained = {tuple(p) for p in eff["synergies_gained"]}
                lost = {tuple(p) for p in eff["synergies_lost"]}
                assert not gained & lost
                seen["acquire:synergy"] += bool(gained or lost)
            if g.owner[abbr].kind == "foreign_investor":
                assert out["span"] == [item["min"], item["max"]]
                assert out["may_intervene"] == [x.name for x in g.interveners(g.corps[corp], abbr)]
                seen["acquire:foreign"] += 1
            else:
                seen["acquire:" + g.owner[abbr].kind] += 1
        if item["min"] == item["max"] or item.get("announced_by"):
            continue
        low = preview_purchase(g, corp, abbr, item["min"] - 1)
        assert not low["legal"] and low["error"]
        assert refused(g, {"type": "acquire", "corporation": corp, "company": abbr, "price": item["min"] - 1})


def check_closings(g: Game, seen: Counter) -> None:
    items = [m for m in g.legal_actions() if m["type"] == "close"]
    for item in items:
        abbr = item["company"]
        owner = g.owner[abbr]
        out = preview_closing(g, abbr)
        assert out["legal"] and out["owner"] == owner.name
        a = after(g, {"type": "close", "company": abbr})
        if owner.kind == "corporation":
            s = a.snapshot()["corporations"][owner.name]
            assert out["after"]["income"] == s["income"] and out["after"]["stars"] == s["stars"]
            assert out["cash_after"] == s["cash"]
            seen["close:corporation"] += 1
        else:
            assert out["after"]["income"] == a.snapshot()["players"][owner.name]["income"]
            seen["close:player"] += 1
    for short in must_close(g):
        trial = g.clone()
        for abbr in short["close"]:
            trial.apply({"type": "close", "company": abbr})
        assert trial.players[short["player"]].cash + trial.player_income(short["player"]).total >= 0
        assert trial.player_income(short["player"]).total == short["income_after"]
        assert short["player"] not in [s[0] for s in trial.players_short()]
        seen["close:must"] += 1


def check_standings(g: Game) -> None:
    rows = standings(g)
    scores = g.scores()
    assert [r["player"] for r in rows] == sorted(g.order, key=lambda p: (-scores[p], g.order.index(p)))
    for r in rows:
        assert r["total"] == scores[r["player"]] == explain_score(g, r["player"])["total"]
        assert r["cash"] + r["companies"] + r["shares"] == r["total"]


LINE = re.compile(r"^(.+?) pays (.+)$")
PART = re.compile(r"(.+?) (\d+)(?:; |$)")  # "Amy 5; Stars, Inc. 14": names may contain ", "


def check_banker(entry: dict) -> None:
    want = Counter()
    for payer, payee, amount, _why in entry.get("moves", ()):
        want[(payer, payee)] += amount
    got = Counter()
    for line in banker_sheet(entry):
        payer, rest = LINE.match(line).groups()
        for payee, amount in PART.findall(rest):
            got[(payer, payee)] += int(amount)
    assert got == want, (entry, banker_sheet(entry))


def check_outlook(g: Game, seen: Counter) -> None:
    out = cost_outlook(g)
    assert out["now"] == g.costs()
    if out["draws"] is None:
        return
    trial = g.clone()
    for k in range(1, out["draws"] + 1):  # take cards off the top of the deck, one by one
        top = trial.top_color()
        trial.deck_left[top] -= 1
        if k < out["draws"]:
            assert trial.costs() == out["now"], k
    assert trial.costs() == out["next"] != out["now"]
    for row in out["losing"]:
        assert g.owner[row["company"]].name == row["owner"]
        assert row["income_then"] < 0
    seen["outlook:change"] += 1


# ---------------------------------------------------------------------- the run
def test_previews_equal_the_game_after_the_event():
    seen: Counter = Counter()
    started = time.monotonic()
    games = 0
    for players, style, seed in SEEDS:
        if time.monotonic() - started > TIME_BUDGET:
            break
        rng = random.Random(seed)
        g = STARS.create([f"P{i}" for i in range(1, players + 1)])
        for _ in range(EVENT_CAP.get(style, 320)):
            if g.game_over:
                seen["game over"] += 1
                break
            kind = (g.next or {}).get("for")
            if kind == "dividend":
                check_dividend(g, seen)
            elif kind == "ipo":
                check_ipo(g, rng, seen)
            elif kind == "investment" and g.corps and rng.random() < 0.35:
                check_trades(g, seen)
            elif kind == "acquisition":
                check_acquisitions(g, rng, seen)
            elif kind == "closing":
                check_closings(g, seen)
            if rng.random() < 0.1:
                check_standings(g)
                check_outlook(g, seen)
            g.apply(pick_event(g, rng, style))
            check_banker(g.journal[-1])
        games += 1
    assert games >= 10, f"only {games} games in the time budget"
    needed = [
        "dividend:raise",
        "dividend:keep",
        "dividend:drop",
        "ipo:formed",
        "ipo:unaffordable",
        "trade:buy",
        "trade:sell",
        "trade:president",
        "trade:receivership",
        "trade:bankrupt",
        "trade:refused",
        "dividend:bankrupt",
        "acquire:player",
        "acquire:corporation",
        "acquire:foreign",
        "acquire:synergy",
        "close:player",
        "close:corporation",
        "close:must",
        "outlook:change",
        "game over",
    ]
    missing = [k for k in needed if not seen[k]]
    assert not missing, (missing, seen)


def test_helpers_outside_their_decision():
    g = STARS.create(["Amy", "Brian", "Crystal"])
    assert dividend_chart(g) is None
    assert ipo_calculator(g) is None
    assert must_close(g) == []
    assert [r["total"] for r in standings(g)] == [30, 30, 30]
    assert banker_sheet({"moves": []}) == []
    assert banker_sheet({"moves": [("Bank", "Amy", 5, "x"), ("Bank", "Brian", 3, "y"), ("Bank", "Amy", 1, "z")]}) == [
        "Bank pays Amy 6; Brian 3"
    ]
