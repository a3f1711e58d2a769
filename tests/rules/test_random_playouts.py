"""Random playouts driven by the legal menu, with invariants checked after every event.

Hundreds of seeded games (2-6 players) are played by picking from ``game.legal_actions()``
and building the event with ``assistant.rules.events_of``.  After every event:

* every coin is accounted for: the change of all money (players, the foreign investor,
  corporations, including what a bankrupt corporation returned) equals what the bank paid
  out minus what it took in, per ``game.journal[-1]["moves"]``, and each entity's change
  equals its own moves;
* share counts add up (players + bank = issued; issued + unissued = the charter's shares),
  the president holds the most shares, receivership = no player holds a share;
* nobody has negative money; no two corporations share a share price card (except 75);
  every corporation owns a company; a company is in one place only and a company that left
  the game never comes back;
* every menu event is accepted (the chosen one, plus another menu item at an extreme of its
  range on a clone); events just outside the menu (wrong player, one below the minimum,
  one above the maximum, an unknown company, the wrong phase, a wrong reveal, items the
  menu does not offer) are refused with ``RuleError``, leaving the snapshot and the menu
  unchanged;
* in phase 3, every intervention the menu lists is accepted (on a copy) and a perturbed
  one (price off by one, a buyer without priority, an announcer that could not pay) is
  refused; every unlisted (buyer, company, announcer) intervention is refused;
* at the end, ``STARS.replay(players, options, game.events)`` gives the same snapshot.

Three picking styles make the rare parts happen: "uniform", "seller" (sells shares, pays
tiny dividends, issues shares: receivership and bankruptcy) and "climber" (pays the
dividend that lifts the price most without reaching 75, saves money, and buys the share
that takes a corporation to 75: the game ends in phase 1).  The run asserts that each rare
part happened at least once.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from assistant.rules import RuleError, events_of
from assistant.rules.classic.game import ClassicGame
from assistant.rules.core.game import Game
from assistant.rules.registry import CLASSIC, STARS
from assistant.rules.stars.cards import CARDS

COLORS = CARDS.colors
COMPANIES_BY_COLOR = CARDS.companies_by_color
DECK_COUNTS = CARDS.deck_counts
HIGHEST_OF_COLOR = CARDS.highest_of_color

GAMES_PER_PLAYER_COUNT = 60  # 5 player counts: 300 capped games
EVENT_CAP = {"uniform": 300, "seller": 300, "climber": 450}  # climbing games are longer
TRY_OTHER_ITEM = 0.2  # share of events after which another menu item is applied to a copy
FULL_GAMES = [
    (2, "uniform", 9001),
    (3, "climber", 9002),
    (4, "seller", 9003),
    (5, "uniform", 9004),
    (6, "climber", 9005),
    (4, "uniform", 9006),
]
STYLES = ("uniform", "seller", "climber")
FOREIGN_INVESTOR = "Foreign investor"  # the foreign investor's name in the money moves


# ---------------------------------------------------------------------------- picking


class Picker:
    """Chooses a menu item and the amounts in it, in one of the STYLES."""

    WEIGHTS = {
        "uniform": {},
        "seller": {
            "sell_share": 8,
            "buy_share": 1.5,
            "pass": 0.5,
            "bid": 0.7,
            "issue": 4,
            "skip_issue": 1,
            "close": 0.3,
            "ipo": 2,
        },
        "climber": {
            "buy_share": 4,
            "sell_share": 0.05,
            "pass": 1,
            "bid": 0.6,
            "issue": 1,
            "skip_issue": 3,
            "close": 0.03,
            "ipo": 2,
        },
    }

    def __init__(self, seed: int, style: str):
        self.rng = random.Random(seed)
        self.style = style

    def amount(self, kind: str, lo: int, hi: int) -> int:
        r = self.rng.random()
        if self.style == "seller" and kind == "dividend":
            return lo if r < 0.8 else min(hi, lo + 1)
        if self.style == "climber" and kind == "bid":
            return lo
        if r < 0.35:
            return lo
        if r < 0.6:
            return hi
        return self.rng.randint(lo, hi)

    def choose(self, g: Game, menu: list[dict]) -> dict:
        rng = self.rng
        weights = dict(self.WEIGHTS[self.style])
        if self.style == "climber":
            row = g.cards.prices  # Stars: 61 near the top, 41 high, 75 the top; classic: 81, 50, 100
            top_price, near, high = row[-1], row[-3], row[-7]
            top = [i for i in menu if i["type"] == "buy_share" and i["price"] == top_price]
            if top:
                return events_of(top[0], lambda *a: a[0][0])
            if g.auction is None and menu[0]["type"] == "pass":
                # a corporation near the top with a share in the bank: raise the money for it
                near_top = [c for c in g.corps.values() if c.price >= near and c.bank_shares]
                if near_top and g.players[menu[0]["player"]].cash < top_price:
                    sells = [i for i in menu if i["type"] == "sell_share" and g.corps[i["corporation"]].price < near]
                    if sells:
                        return events_of(sells[0], lambda *a: a[0][0])
            if any(c.price >= high for c in g.corps.values()):
                # save money for the share that ends the game
                weights.update({"pass": 25, "bid": 0.02, "skip_ipo": 30, "issue": 3})
            if menu[0]["type"] == "dividend":
                return self.climbing_dividend(g, menu[0])
        item = rng.choices(menu, [weights.get(i["type"], 1.0) for i in menu])[0]
        kind = item["type"]

        def pick(*args):
            if len(args) == 2:
                return self.amount(kind, *args)
            seq = args[0]
            if kind == "ipo" and self.style == "climber":
                return max(seq, key=lambda o: o["price"])
            return rng.choice(seq)

        return events_of(item, pick)

    def climbing_dividend(self, g: Game, item: dict) -> dict:
        """The dividend whose price adjustment lands highest below the top (ties: the larger dividend)."""
        name = item["corporation"]
        corp = g.corps[name]
        top_price = g.cards.prices[-1]
        # Stars: only the cash left in full tens changes the stars: try the largest dividend of each
        by_tens = {}
        for amount in range(item["min"], item["max"] + 1):
            key = (corp.cash - amount * corp.issued) // 10 if g.pricing.key == "stars" else amount
            by_tens[key] = amount
        best = None
        for amount in sorted(by_tens.values()):
            ev = {"type": "dividend", "corporation": name, "amount": amount}
            trial = g.preview(ev)
            price = trial.corps[name].price if name in trial.corps else 0
            key = (price < top_price, price, amount)
            if best is None or key > best[0]:
                best = (key, ev)
        return best[1]


# ---------------------------------------------------------------------------- invariants


def money(g: Game) -> dict[str, int]:
    out = {name: p.cash for name, p in g.players.items()}
    out[FOREIGN_INVESTOR] = g.fi.cash
    out.update({name: c.cash for name, c in g.corps.items()})
    return out


def check_money(before: dict, after: dict, moves) -> None:
    net = Counter()
    for payer, payee, amount, _why in moves:
        assert type(amount) is int and amount > 0, moves
        net[payer] -= amount
        net[payee] += amount
    bank_paid_out = -net.pop("Bank", 0)
    assert sum(after.values()) - sum(before.values()) == bank_paid_out, (before, after, moves)
    for entity in set(before) | set(after) | set(net):
        assert after.get(entity, 0) - before.get(entity, 0) == net.get(entity, 0), (entity, before, after, moves)


def check_state(snap: dict, g: Game) -> None:
    players = snap["players"]
    assert sorted(snap["player_order"]) == sorted(players)
    for name, p in players.items():
        assert p["cash"] >= 0, name
    assert snap["foreign_investor"]["cash"] >= 0
    cards = {}
    places = list(snap["offering"]["available"]) + list(snap["offering"]["unavailable"])
    places += snap["foreign_investor"]["companies"]
    for p in players.values():
        places += p["companies"]
    for name, c in snap["corporations"].items():
        held = {p: players[p]["shares"].get(name, 0) for p in players}
        assert sum(held.values()) + c["bank_shares"] == c["issued"], name
        assert c["issued"] + c["unissued"] == g.charters[name].shares, name
        assert c["cash"] >= 0, name
        assert c["companies"], f"{name} owns no company"
        assert c["share_price"] in g.cards.prices and c["share_price"] != 0
        if c["share_price"] != g.cards.top_price:
            assert c["share_price"] not in cards, f"{name} and {cards.get(c['share_price'])} share a price card"
            cards[c["share_price"]] = name
        if "receivership" not in c:  # classic: the bank never owns all issued shares
            assert c["president"] is not None and any(held.values()), name
        if c["president"] is None:
            assert c["receivership"] and not any(held.values()), name
        else:
            assert not c.get("receivership") and held[c["president"]] == max(held.values()), name
        if "book_value" in c:
            assert c["book_value"] == c["cash"] + sum(g.cards.companies[a].face_value for a in c["companies"])
        places += c["companies"]
    assert len(places) == len(set(places)), "a company is in two places"
    assert snap["deck_size"] == g.deck_size()


# ---------------------------------------------------------------------------- illegal events


def perturbations(g: Game, menu: list[dict], chosen: dict, rng: random.Random):
    """(category, event) pairs that the rules must refuse now."""
    out = []
    players = list(g.players)
    if "player" in chosen:
        # "I'm done" is open to several players at once: the wrong ones are those not offered it
        allowed = {i["player"] for i in menu if i["type"] == chosen["type"] and "player" in i}
        others = [p for p in players if p not in allowed | {chosen["player"]}]
        if others:
            out.append(("wrong player", {**chosen, "player": rng.choice(others)}))
    for item in menu:
        if item["type"] in ("bid", "acquire", "dividend"):
            field = "amount" if item["type"] == "dividend" else "price"
            ev = events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])
            out.append(("below minimum", {**ev, field: item["min"] - 1}))
            out.append(("above maximum", {**ev, field: item["max"] + 1}))
    if "company" in chosen:
        out.append(("unknown company", {**chosen, "company": "XYZ"}))
    COMPANIES = g.cards.companies  # noqa: N806
    buying, closing = g.phase_no("acquisition"), g.phase_no("closing")
    if g.phase_kind == "investment" or g.pending_reveals:
        if buying not in g.auto_ended:  # else the late ``done`` of a phase that ended by itself: a no-op
            out.append(("wrong phase", {"type": "done", "phase": buying}))
        if g.corps:
            out.append(("wrong phase", {"type": "dividend", "corporation": next(iter(g.corps)), "amount": 0}))
    else:
        out.append(("wrong phase", {"type": "pass", "player": rng.choice(players)}))
        late = closing if g.phase == buying else buying
        if late not in g.auto_ended:
            out.append(("wrong phase", {"type": "done", "phase": late}))
    if not g.pending_reveals:
        out.append(("reveal when no card is drawn", {"type": "reveal", "company": rng.choice(list(COMPANIES))}))
        out += outside_menu(g, menu, rng)
    else:
        color = g.top_color()
        if g.seen:
            out.append(("reveal seen card", {"type": "reveal", "company": rng.choice(sorted(g.seen))}))
        wrong = [a for a, c in COMPANIES.items() if c.color != color and a not in g.seen]
        if wrong:
            out.append(("reveal wrong colour", {"type": "reveal", "company": rng.choice(wrong)}))
        if g.open_deck is None and len(menu[0]["choices"]) == 1:
            others = [
                a for a, c in COMPANIES.items() if c.color == color and a not in g.seen and a not in menu[0]["choices"]
            ]
            if others:
                out.append(("reveal: highest card must be last", {"type": "reveal", "company": others[0]}))
        out.append(("event while a card is drawn", {"type": "pass", "player": rng.choice(players)}))
    return out


def outside_menu(g: Game, menu: list[dict], rng: random.Random):
    """Events of the current phase's kinds that the menu does not offer: must be refused."""
    out = []
    kinds = {i["type"] for i in menu}
    COMPANIES, CORPORATIONS, IPO_PRICES, PRICES = (  # noqa: N806
        g.cards.companies,
        g.cards.charters,
        g.cards.ipo_prices,
        g.cards.prices,
    )
    kind = g.phase_kind
    if kind == "investment" and g.auction is None:
        actor = menu[0]["player"]
        buyable = {i["corporation"] for i in menu if i["type"] == "buy_share"}
        sellable = {i["corporation"] for i in menu if i["type"] == "sell_share"}
        for name in g.corps:
            if name not in buyable:
                out.append(("buy outside menu", {"type": "buy_share", "player": actor, "corporation": name}))
            if name not in sellable:
                out.append(("sell outside menu", {"type": "sell_share", "player": actor, "corporation": name}))
        biddable = {i["company"] for i in menu if i["type"] == "bid"}
        for abbr in g.available + g.unavailable:
            if abbr not in biddable:
                out.append(
                    (
                        "bid outside menu",
                        {"type": "bid", "player": actor, "company": abbr, "price": COMPANIES[abbr].face_value},
                    )
                )
        free = [n for n in CORPORATIONS if n not in g.corps]
        if free:
            out.append(("buy outside menu", {"type": "buy_share", "player": actor, "corporation": free[0]}))
    elif kind == "acquisition":
        offered = {(i["corporation"], i["company"], i.get("announced_by")) for i in menu if i["type"] == "acquire"}
        # an announced purchase stands also for its transcript form, the plain acquire settled aloud
        offered |= {(i["corporation"], i["company"], None) for i in menu if i["type"] == "announce"}
        for name in g.corps:
            for abbr, seller in g.owner.items():
                price = COMPANIES[abbr].price_min
                if seller is g.fi:
                    price = g.fi_price(name, abbr)
                announced = g.intervention[0] if g.intervention else None
                if (name, abbr, announced) not in offered:
                    ev = {"type": "acquire", "corporation": name, "company": abbr, "price": price}
                    if announced:
                        ev["announced_by"] = announced
                    out.append(("acquire outside menu", ev))
        if g.intervention is None:
            out.append(("no intervention pending", {"type": "no_intervention", "company": next(iter(g.owner), "BME")}))
    elif kind == "closing":
        closable = {i["company"] for i in menu if i["type"] == "close"}
        for abbr in g.owner:
            if abbr not in closable:
                out.append(("close outside menu", {"type": "close", "company": abbr}))
        if "done" not in kinds:
            out.append(("done while a player must close", {"type": "done", "phase": g.phase}))
    elif kind in ("dividends", "issue"):
        head = menu[0]["corporation"]
        for name in g.corps:
            if name != head:
                ev = {"type": "dividend" if kind == "dividends" else "issue", "corporation": name}
                if kind == "dividends":
                    ev["amount"] = 0
                out.append(("not this corporation's turn", ev))
    elif kind == "ipo":
        head = menu[0]["company"]
        color = COMPANIES[head].color
        for abbr in g.owner:
            if abbr != head:
                out.append(("not this company's turn", {"type": "skip_ipo", "company": abbr}))
        bad = [p for p in PRICES if p not in IPO_PRICES[color]]
        free = [n for n in CORPORATIONS if n not in g.corps]
        charter = free[0] if free else next(iter(CORPORATIONS))
        out.append(
            (
                "IPO price not allowed",
                {"type": "ipo", "company": head, "corporation": charter, "price": rng.choice(bad)},
            )
        )
        taken = [p for p in IPO_PRICES[color] if p in g.price_holder]
        if taken:
            out.append(("IPO price taken", {"type": "ipo", "company": head, "corporation": charter, "price": taken[0]}))
        if g.corps:
            offered = next(i for i in menu if i["type"] == "ipo")["options"]
            price = offered[0]["price"] if offered else IPO_PRICES[color][0]
            out.append(
                (
                    "IPO charter in use",
                    {"type": "ipo", "company": head, "corporation": next(iter(g.corps)), "price": price},
                )
            )
        owner, face = g.owner[head], COMPANIES[head].face_value
        for p in IPO_PRICES[color]:
            payment = ipo_payment(g, face, p)  # Form Corporation, by hand
            if p not in g.price_holder and payment > owner.cash and free:
                out.append(("IPO unaffordable", {"type": "ipo", "company": head, "corporation": free[0], "price": p}))
                break
    return out


def ipo_payment(g, face: int, price: int) -> int:
    """The owner's payment to go public, worked out here from the rules (not by the engine)."""
    if isinstance(g, ClassicGame):  # Guide 1.6.2: the fewest shares (1-4) worth the face value
        shares = next(n for n in range(1, 5) if n * price >= face or n == 4)
    else:  # Stars: Form Corporation, one share or two
        shares = 2 if face > price else 1
    return shares * price - face


def listed_interventions(g: Game, menu: list[dict]) -> list[dict]:
    """The interventions the menu lists: while an announced purchase waits, its ``acquire`` items
    with ``announced_by``; otherwise each ``announce`` item's ``may_intervene``, which stands for
    the transcript form of an intervention settled aloud (an ``acquire`` with ``announced_by``)."""
    out = [i for i in menu if i["type"] == "acquire" and i.get("announced_by")]
    for i in menu:
        if i["type"] == "announce":
            for c in i["may_intervene"]:
                price = g.fi_price(c, i["company"])
                out.append(
                    {
                        "type": "acquire",
                        "corporation": c,
                        "company": i["company"],
                        "min": price,
                        "max": price,
                        "announced_by": i["corporation"],
                    }
                )
    return out


def check_interventions(g: Game, menu: list[dict], rng: random.Random, stats: Counter, where: str) -> None:
    """Acquisition: the menu lists exactly the interventions ``apply`` accepts.

    Every listed intervention (an ``acquire`` with ``announced_by``) is accepted on a copy and
    a perturbed copy of it is refused; every other (buyer, foreign investor's company,
    announcer) triple, at the buyer's own fixed price, is refused."""
    listed = listed_interventions(g, menu)
    for item in listed:
        ev = events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])
        stats["interventions listed"] += 1
        try:
            g.clone().apply(ev)
        except RuleError as e:  # pragma: no cover - a failure message
            raise AssertionError(
                f"{where}: the menu offers the intervention {ev} but it is refused: {e.message}"
            ) from e
        stats["interventions accepted"] += 1
        announcer = g.corps[item["announced_by"]]
        bad = [("price", {**ev, "price": ev["price"] + rng.choice((-1, 1))})]
        lower = [c for c in g.corps if c != ev["corporation"] and not g.has_priority(g.corps[c], announcer)]
        if lower:
            bad.append(("buyer without priority", {**ev, "corporation": rng.choice(lower)}))
        if g.intervention is None:
            fake = [
                c
                for c in g.corps.values()
                if g.has_priority(g.corps[ev["corporation"]], c) and not g.can_announce(c, ev["company"])
            ]
            if fake:
                bad.append(("fake announcement", {**ev, "announced_by": rng.choice(fake).name}))
        category, perturbed = rng.choice(bad)
        with pytest.raises(RuleError):
            g.apply(perturbed)
        stats["interventions perturbed and refused"] += 1
        stats["intervention refused: " + category] += 1
    offered = {(i["corporation"], i["company"], i["announced_by"]) for i in listed}
    for buyer in g.corps:
        for abbr in g.fi.companies:
            for announcer in g.corps:
                if (buyer, abbr, announcer) in offered:
                    continue
                ev = {
                    "type": "acquire",
                    "corporation": buyer,
                    "company": abbr,
                    "price": g.fi_price(buyer, abbr),
                    "announced_by": announcer,
                }
                try:
                    g.apply(ev)
                except RuleError:
                    stats["unlisted interventions refused"] += 1
                else:  # pragma: no cover - a failure message
                    raise AssertionError(f"{where}: {ev} is accepted but the menu does not list it")


# ---------------------------------------------------------------------------- one game


def play(
    seed: int,
    n_players: int,
    style: str,
    cap: int | None,
    stats: Counter,
    options=(),
    deck=None,
    persons=None,
    ruleset=STARS,
) -> Game:
    players = [f"P{i}" for i in range(1, n_players + 1)]
    g = ruleset.create(players, options, deck=deck, persons=persons)
    picker = Picker(seed, style)
    rng = random.Random(seed * 7919 + 1)
    snap = g.snapshot()
    check_state(snap, g)
    gone: set[str] = set()
    while not g.game_over and (cap is None or len(g.events) < cap):
        where = f"seed {seed} ({style}, {n_players} players), event {len(g.events)}"
        menu = g.legal_actions()
        assert menu, where
        ev = picker.choose(g, menu)

        # events just outside the menu are refused and change nothing
        candidates = perturbations(g, menu, ev, rng)
        tried = rng.sample(candidates, min(3, len(candidates)))
        for category, bad in tried:
            with pytest.raises(RuleError) as err:
                g.apply(bad)
            assert err.value.message.strip(), (where, bad)
            stats["refused: " + category] += 1
        if tried:
            assert g.snapshot() == snap, (where, tried)
            assert g.legal_actions() == menu, (where, tried)

        # interventions: every one listed is accepted, perturbed ones and unlisted ones are refused
        if g.phase_kind == "acquisition" and not g.pending_reveals:
            check_interventions(g, menu, rng, stats, where)
            assert g.snapshot() == snap, where

        # now and then another menu item, at an extreme of its range, is accepted too (on a copy)
        if rng.random() < TRY_OTHER_ITEM:
            other = rng.choice(menu)
            extreme = rng.choice(("min", "max"))
            trial_ev = events_of(
                other,
                lambda *a, extreme=extreme: (a[0] if extreme == "min" else a[1]) if len(a) == 2 else rng.choice(a[0]),
            )
            try:
                g.clone().apply(trial_ev)
            except RuleError as e:  # pragma: no cover - a failure message
                raise AssertionError(f"{where}: the menu offers {other} but {trial_ev} is refused: {e.message}") from e
            stats["menu items tried on a copy"] += 1

        # the chosen event
        before = money(g)
        corps_before = set(g.corps)
        try:
            g.apply(ev)
        except RuleError as e:  # pragma: no cover - a failure message
            raise AssertionError(f"{where}: menu event {ev} refused: {e.message}") from e
        stats["events"] += 1
        stats["event: " + ev["type"]] += 1
        check_money(before, money(g), g.journal[-1]["moves"])
        snap = g.snapshot()
        check_state(snap, g)

        # companies that left the game never come back
        here = set(g.owner) | set(g.available) | set(g.unavailable)
        assert not (here & gone), where
        gone |= g.seen - here

        # the rare parts
        if any(c.get("receivership") for c in snap["corporations"].values()):
            stats["receivership"] += 1
        if corps_before - set(g.corps):
            stats["bankruptcy"] += len(corps_before - set(g.corps))
        if snap["next"] and snap["next"].get("for") == "intervention":
            stats["intervention asked"] += 1
        if ev.get("announced_by"):
            stats["intervention"] += 1
        if ev["type"] == "no_intervention":
            stats["no intervention"] += 1
        if g.end_flipped:
            stats["end card flipped"] += 1

    stats["games"] += 1
    if g.game_over:
        stats[f"game ends in phase {g.phase}"] += 1
        assert g.phase_kind in ("investment", g.END_PHASE)
        final = g.snapshot()["final"]
        assert final["ranking"] == sorted(final["scores"], key=lambda p: (-final["scores"][p], g.order.index(p)))
    if deck is not None:
        assert g.seen <= set(deck)
    again = ruleset.replay(players, options, g.events, deck=deck, persons=persons)
    assert again.snapshot() == g.snapshot(), f"seed {seed}: replay differs"
    stats["replays"] += 1
    # the transcript form (live events written as the table's: announce + no_intervention as the
    # announcer's acquire, the last "I'm done" as done) replays to the same game
    if g.intervention is None:
        written = ruleset.replay(players, options, g.transcript_events(), deck=deck, persons=persons)
        assert written.snapshot() == g.snapshot(), f"seed {seed}: the transcript form replays differently"
        assert not {"announce", "player_done"} & {e["type"] for e in g.transcript_events()}
        stats["transcript forms replayed"] += 1
    return g


@functools.cache
def run_player_count(n_players: int) -> Counter:
    stats = Counter()
    for k in range(GAMES_PER_PLAYER_COUNT):
        seed = 1000 * n_players + k
        play(seed, n_players, STYLES[k % 3], EVENT_CAP[STYLES[k % 3]], stats)
    return stats


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_capped_playouts(n_players):
    stats = run_player_count(n_players)
    assert stats["games"] == GAMES_PER_PLAYER_COUNT
    assert stats["events"] > 20 * GAMES_PER_PLAYER_COUNT


@pytest.mark.parametrize("n_players, style, seed", FULL_GAMES)
def test_full_game_to_the_end(n_players, style, seed):
    stats = Counter()
    g = play(seed, n_players, style, None, stats)
    assert g.game_over and g.snapshot()["next"] is None and g.legal_actions() == []
    with pytest.raises(RuleError):
        g.apply({"type": "pass", "player": "P1"})


def random_open_deck(n_players: int, rng: random.Random) -> list[str]:
    """A legal deck for the open companies variant: the highest of each colour plus a random
    draw of the others, as in the setup."""
    deck = []
    for color in COLORS:
        others = [a for a in COMPANIES_BY_COLOR[color] if a != HIGHEST_OF_COLOR[color]]
        deck += rng.sample(others, DECK_COUNTS[n_players][color] - 1) + [HIGHEST_OF_COLOR[color]]
    return deck


@pytest.mark.parametrize("n_players, style, seed", [(3, "uniform", 31), (5, "seller", 32), (4, "climber", 33)])
def test_full_open_companies_game(n_players, style, seed):
    deck = random_open_deck(n_players, random.Random(seed))
    g = play(seed, n_players, style, None, Counter(), options=["open_companies"], deck=deck)
    assert g.game_over


@pytest.mark.parametrize("style, seed", [("uniform", 41), ("seller", 42)])
def test_full_two_handed_game(style, seed):
    g = play(seed, 4, style, None, Counter(), options=["two_handed"], persons=["A", "B"])
    final = g.snapshot()["final"]
    rank = {seat: i for i, seat in enumerate(final["ranking"])}
    weaker = {"A": max(rank["P1"], rank["P4"]), "B": max(rank["P2"], rank["P3"])}
    assert final["two_handed"]["winner"] == min(weaker, key=weaker.get)


def test_playouts_reach_the_rare_parts():
    total = Counter()
    for n in (2, 3, 4, 5, 6):
        total += run_player_count(n)
    print("\nplayout totals:", dict(sorted(total.items())))
    assert total["games"] == 5 * GAMES_PER_PLAYER_COUNT
    for part in (
        "receivership",
        "bankruptcy",
        "intervention asked",
        "intervention",
        "no intervention",
        "game ends in phase 1",
        "game ends in phase 7",
        "end card flipped",
    ):
        assert total[part] >= 1, f"no {part} in {total['games']} games"
    for kind in (
        "reveal",
        "pass",
        "bid",
        "leave",
        "buy_share",
        "sell_share",
        "acquire",
        "done",
        "close",
        "dividend",
        "issue",
        "skip_issue",
        "ipo",
        "skip_ipo",
        "no_intervention",
        "announce",
        "player_done",
    ):
        assert total["event: " + kind] >= 1, kind
    assert total["transcript forms replayed"] >= total["games"] * 0.9
    for part in (
        "interventions listed",
        "interventions accepted",
        "interventions perturbed and refused",
        "unlisted interventions refused",
        "intervention refused: price",
        "intervention refused: buyer without priority",
        "intervention refused: fake announcement",
    ):
        assert total[part] >= 1, part
    assert total["interventions accepted"] == total["interventions listed"]
    for category in (
        "wrong player",
        "below minimum",
        "above maximum",
        "unknown company",
        "wrong phase",
        "reveal seen card",
        "reveal wrong colour",
        "buy outside menu",
        "sell outside menu",
        "acquire outside menu",
        "close outside menu",
        "not this corporation's turn",
        "IPO price not allowed",
        "IPO price taken",
        "IPO charter in use",
    ):
        assert total["refused: " + category] >= 1, category


# ---------------------------------------------------------------------------- classic Rolling Stock
# The same harness and invariants, played with ClassicGame: every player count, both game types
# (and the training game), and the rare parts of classic (bankruptcy, the end card, interventions
# in purchases from the foreign investor).

CLASSIC_GAMES_PER_PLAYER_COUNT = 24
CLASSIC_TYPES = ([], ["short"], ["training"], ["short", "share_redemption"])
CLASSIC_FULL_GAMES = [
    (2, "uniform", 7001, []),
    (3, "climber", 7002, ["short"]),
    (4, "seller", 7003, []),
    (5, "uniform", 7004, ["short"]),
    (6, "climber", 7005, []),
    (3, "uniform", 7006, ["training"]),
]


@functools.cache
def run_classic_player_count(n_players: int) -> Counter:
    stats = Counter()
    for k in range(CLASSIC_GAMES_PER_PLAYER_COUNT):
        seed = 50_000 + 1000 * n_players + k
        style = STYLES[k % 3]
        options = CLASSIC_TYPES[(k // 3) % len(CLASSIC_TYPES)]
        play(seed, n_players, style, EVENT_CAP[style], stats, options=options, ruleset=CLASSIC)
    return stats


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_classic_capped_playouts(n_players):
    stats = run_classic_player_count(n_players)
    assert stats["games"] == CLASSIC_GAMES_PER_PLAYER_COUNT
    assert stats["events"] > 20 * CLASSIC_GAMES_PER_PLAYER_COUNT


@pytest.mark.parametrize("n_players, style, seed, options", CLASSIC_FULL_GAMES)
def test_classic_full_game_to_the_end(n_players, style, seed, options):
    g = play(seed, n_players, style, None, Counter(), options=options, ruleset=CLASSIC)
    assert g.game_over and g.snapshot()["next"] is None and g.legal_actions() == []
    assert g.snapshot()["phase"] in (3, 10)


def test_classic_playouts_reach_the_rare_parts():
    total = Counter()
    for n in (2, 3, 4, 5, 6):
        total += run_classic_player_count(n)
    print("\nclassic playout totals:", dict(sorted(total.items())))
    for part in ("bankruptcy", "intervention", "game ends in phase 10", "end card flipped"):
        assert total[part] >= 1, f"no {part} in {total['games']} classic games"
    assert total["receivership"] == 0
    for kind in ("reveal", "pass", "bid", "leave", "buy_share", "sell_share", "acquire", "done", "close"):
        assert total["event: " + kind] >= 1, kind
    for kind in ("announce", "no_intervention", "player_done"):  # the live events classic plays too
        assert total["event: " + kind] >= 1, kind
    assert total["transcript forms replayed"] >= total["games"] * 0.9
    for kind in ("dividend", "issue", "skip_issue", "ipo", "skip_ipo", "redeem"):
        assert total["event: " + kind] >= 1, kind
    for category in (
        "wrong player",
        "below minimum",
        "above maximum",
        "sell outside menu",
        "acquire outside menu",
        "close outside menu",
        "IPO price not allowed",
        "IPO price taken",
    ):
        assert total["refused: " + category] >= 1, category


@pytest.mark.parametrize("n_players, style, seed, options", [(3, "uniform", 7101, []), (5, "seller", 7102, ["short"])])
def test_classic_open_companies_game(n_players, style, seed, options):
    """Guide 3.4: the deck, built as usual (any companies: no colour's highest is forced in), is
    declared; only its companies are ever drawn."""
    probe = CLASSIC.create([f"P{i}" for i in range(1, n_players + 1)], options)
    rng = random.Random(seed)
    deck = [a for color, k in probe.deck_left.items() for a in rng.sample(CLASSIC.cards.companies_by_color[color], k)]
    g = play(seed, n_players, style, None, Counter(), options=[*options, "open_companies"], deck=deck, ruleset=CLASSIC)
    assert g.game_over and g.seen <= set(deck)
