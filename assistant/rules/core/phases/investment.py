"""Investment (Stars: phase 1; classic: 3): auctions of the offering's companies and share trading,
in player order until everyone passes in a row; and what the table sees before a trade (its
exact price, presidency change, bankruptcy or game end, and the price explained)."""

from __future__ import annotations

from .. import words
from ..errors import RuleError


class Auction:
    __slots__ = ("company", "high", "high_bidder", "bidders", "current", "starter")

    def __init__(self, company, price, starter, bidders):
        self.company = company
        self.high = price
        self.high_bidder = starter
        self.starter = starter  # pragma: no mutate: read by no rule now; kept in the saved states' form
        self.bidders = bidders  # players still in, in player order starting with the starter
        self.current = 1 % len(bidders)  # index in bidders of the player to bid next


class InvestmentMixin:
    # ------------------------------------------------------------------ phase 1
    def _start_investment(self):
        self.actor = 0
        self.passes = 0
        self.auction = None

    def actor_name(self) -> str:
        return self.order[self.actor]

    def buy_price(self, corp) -> int:
        """What one share costs now: the next higher free share price card."""
        return self.price_move(corp, 1).new

    def sell_price(self, corp) -> int:
        """What selling one share pays now: the next lower free share price card."""
        return self.price_move(corp, -1).new

    def _has_investment_action(self, player) -> bool:
        if any(self.sale_refusal(player.name, self.corps[c]) is None for c, n in player.shares.items() if n):
            return True
        cash = player.cash
        if any(self.cards.companies[a].face_value <= cash for a in self.available):
            return True
        return any(c.bank_shares and self.buy_price(c) <= cash for c in self.corps.values())

    def _auto_pass_and_leave(self) -> bool:
        """Automatic steps of the investment phase: an auction with one bidder left ends; a bidder
        who cannot raise leaves; a player with nothing to do passes.  True when a player must decide."""
        n = len(self.order)
        while True:
            auction = self.auction
            if auction is not None:
                if len(auction.bidders) == 1:
                    self._end_auction()
                    if self.pending_reveals or self.game_over:
                        return True
                    continue
                bidder = auction.bidders[auction.current]
                if self.players[bidder].cash <= auction.high:
                    self._log(f"{bidder} cannot raise above {self.ruleset.cash(auction.high)} and leaves the auction")
                    self._drop_bidder(auction.current)
                    continue
                return True
            if self.passes >= n:
                return False
            player = self.players[self.order[self.actor]]
            if self._has_investment_action(player):
                return True
            self._log(f"{player.name} has nothing to do and passes")
            self.passes += 1
            self.actor = (self.actor + 1) % n

    def _menu_investment(self) -> list[dict]:
        a = self.auction
        if a is not None:
            name = a.bidders[a.current]
            return [
                {
                    "type": "bid",
                    "player": name,
                    "company": a.company,
                    "min": a.high + 1,
                    "max": self.players[name].cash,
                },
                {"type": "leave", "player": name, "company": a.company},
            ]
        name = self.order[self.actor]
        p = self.players[name]
        out = [{"type": "pass", "player": name}]
        companies = self.cards.companies
        for abbr in sorted(self.available, key=lambda x: companies[x].face_value):
            face = companies[abbr].face_value
            if face <= p.cash:
                out.append({"type": "bid", "player": name, "company": abbr, "min": face, "max": p.cash})
        for cname in self.share_order():
            corp = self.corps[cname]
            if corp.bank_shares:
                price = self.buy_price(corp)
                if price <= p.cash:
                    out.append({"type": "buy_share", "player": name, "corporation": cname, "price": price})
        for cname in self.share_order():
            if p.shares.get(cname) and not self.sale_refusal(name, self.corps[cname]):
                out.append(
                    {
                        "type": "sell_share",
                        "player": name,
                        "corporation": cname,
                        "price": self.sell_price(self.corps[cname]),
                    }
                )
        return out

    def _require_actor(self, ev) -> str:
        if self.phase_kind != "investment":
            raise RuleError(f"That is a phase {self.phase_no('investment')} action; it is phase {self.phase} now.")
        name = ev.get("player")
        if name not in self.players:
            raise RuleError(f"There is no player {name!r} in this game.")
        if self.auction is not None:
            raise RuleError(
                f"The auction for the {self.auction.company} is running: "
                f"{self.auction.bidders[self.auction.current]} raises or leaves."
            )
        if name != self.order[self.actor]:
            raise RuleError(f"It is {words.possessive(self.order[self.actor])} turn, not {words.possessive(name)}.")
        return name

    def _next_actor(self, after: int | None = None) -> None:
        self.actor = ((self.actor if after is None else after) + 1) % len(self.order)

    def _ev_pass(self, ev) -> str:
        name = self._require_actor(ev)
        self.passes += 1
        self._next_actor()
        return f"{name} passes"

    def _ev_bid(self, ev) -> str:
        if self.phase_kind != "investment":
            raise RuleError(f"Bids happen in phase {self.phase_no('investment')}; it is phase {self.phase} now.")
        name = ev.get("player")
        company = ev.get("company")
        price = ev.get("price")
        if name not in self.players:
            raise RuleError(f"There is no player {name!r} in this game.")
        if type(price) is not int:
            raise RuleError("A bid must be a whole number of coins.")
        cash = self.players[name].cash
        auction = self.auction
        if auction is not None:
            bidder = auction.bidders[auction.current]
            if name != bidder:
                raise RuleError(f"It is {words.possessive(bidder)} turn to bid, not {words.possessive(name)}.")
            if company != auction.company:
                raise RuleError(
                    f"The auction for the {auction.company} is running; {name} can only raise for it or leave."
                )
            if price <= auction.high:
                raise RuleError(
                    f"A raise must be above the current bid of {self.ruleset.cash(auction.high)}; {self.ruleset.cash(price)} is not."
                )
            if price > cash:
                raise RuleError(f"{name} has only {self.ruleset.cash(cash)}, so cannot bid {self.ruleset.cash(price)}.")
            auction.high = price
            auction.high_bidder = name
            auction.current = (auction.current + 1) % len(auction.bidders)
            return f"{name} bids {self.ruleset.cash(price)} for the {company}"
        self._require_actor(ev)
        if company not in self.cards.companies:
            raise RuleError(f"There is no company {company!r}.")
        if company not in self.available:
            if company in self.unavailable:
                raise RuleError(f"The {company} was drawn this turn and cannot be auctioned until next turn.")
            raise RuleError(f"The {company} is not in the offering.")
        face = self.cards.companies[company].face_value
        if price < face:
            raise RuleError(
                f"The {company} needs a bid of at least {self.ruleset.cash(face)}, its face value; {self.ruleset.cash(price)} is too low."
            )
        if price > cash:
            raise RuleError(
                f"{name} has only {self.ruleset.cash(cash)}, so cannot bid {self.ruleset.cash(price)} for the {company}."
            )
        n = len(self.order)
        start = self.actor
        bidders = [self.order[(start + k) % n] for k in range(n)]
        self.auction = Auction(company, price, name, bidders)
        self.passes = 0
        return f"{name} starts an auction for the {company} at {self.ruleset.cash(price)}"

    def _ev_leave(self, ev) -> str:
        auction = self.auction
        name = ev.get("player")
        if auction is None:  # (there is one only in the investment phase)
            raise RuleError("No auction is running, so there is nothing to leave.")
        bidder = auction.bidders[auction.current]
        if name != bidder:
            raise RuleError(f"It is {words.possessive(bidder)} turn to bid or leave, not {words.possessive(name)}.")
        self._drop_bidder(auction.current)
        return f"{name} leaves the auction for the {auction.company}"

    def _drop_bidder(self, index: int) -> None:
        auction = self.auction
        del auction.bidders[index]
        auction.current = index % len(auction.bidders)

    def _end_auction(self) -> None:
        auction = self.auction
        winner = self.players[auction.high_bidder]
        winner.cash -= auction.high
        self._money(winner.name, "Bank", auction.high, f"wins the {auction.company}")
        self.available.remove(auction.company)
        self._give_company(auction.company, winner)
        self._log(f"{winner.name} wins the {auction.company} for {self.ruleset.cash(auction.high)}")
        self._next_actor()  # the starter is still the actor: the player after them goes on
        self.auction = None
        self._draw()

    def _ev_buy_share(self, ev) -> str:
        name = self._require_actor(ev)
        corp = self._corp_arg(ev)
        player = self.players[name]
        if not corp.bank_shares:
            raise RuleError(f"The bank has no {corp.name} share to sell.")
        new = self.price_move(corp, 1).new
        if new > player.cash:
            raise RuleError(
                f"{words.article(corp.name).capitalize()} {corp.name} share now costs {self.ruleset.cash(new)}; "
                f"{name} has {self.ruleset.cash(player.cash)}."
            )
        self._set_price(corp, new)
        player.cash -= new
        self._money(name, "Bank", new, f"buys {words.a(corp.name)} share")
        corp.bank_shares -= 1
        player.shares[corp.name] = player.shares.get(corp.name, 0) + 1
        text = f"{name} buys {words.a(corp.name)} share for {self.ruleset.cash(new)}"
        if corp.president is None:
            corp.president = name
            text += f" (the President's Share: {name} ends the receivership)"
        else:
            self._check_presidency(corp)
        self.passes = 0
        self._next_actor()
        if new == self.cards.top_price:
            self._log(f"{corp.name} reached {new}")
            self._finish_game()
        return text

    def _ev_sell_share(self, ev) -> str:
        name = self._require_actor(ev)
        corp = self._corp_arg(ev)
        player = self.players[name]
        held = player.shares.get(corp.name)
        if not held:
            raise RuleError(f"{name} has no {corp.name} share to sell.")
        why = self.sale_refusal(name, corp)
        if why:
            raise RuleError(why)
        new = self.price_move(corp, -1).new
        self.passes = 0
        self._next_actor()
        if new == 0:  # its shares are void: the seller's too
            self._go_bankrupt(corp, f"its share price fell to {self.ruleset.cash(0)}")
            return f"{name} sells {words.a(corp.name)} share for {self.ruleset.cash(0)}"
        self._set_price(corp, new)
        player.cash += new
        self._money("Bank", name, new, f"sells {words.a(corp.name)} share")
        if held == 1:
            del player.shares[corp.name]
        else:
            player.shares[corp.name] = held - 1
        corp.bank_shares += 1
        was_president = corp.president == name
        self._check_presidency(corp, acting=name if was_president else None)
        return f"{name} sells {words.a(corp.name)} share for {self.ruleset.cash(new)}"

    def sale_refusal(self, name: str, corp) -> str | None:
        """Why the player may not sell a share of ``corp`` (None: may).  Stars: always may."""
        return None


# ---------------------------------------------------------------------- before the decision
def share_trade(game, player: str, corporation: str, buying: bool) -> dict:
    """Exact price, presidency change, receivership, bankruptcy or game end of a buy or sale."""
    kind = "buy_share" if buying else "sell_share"
    event = {"type": kind, "player": player, "corporation": corporation}
    corp = game.corps[corporation]
    move = game.price_move(corp, 1 if buying else -1)
    out = {
        "event": event,
        "price": move.new,
        "skipped": list(move.skipped),
        "legal": True,
        "error": None,
        "president_before": corp.president,
    }
    try:
        after = game.preview(event)
    except RuleError as err:
        out.update(legal=False, error=err.message)
        return out
    ac = after.corps.get(corporation)
    out.update(
        president_after=ac.president if ac else None,
        presidency_changes=bool(ac) and ac.president != corp.president,
        receivership=bool(ac) and ac.president is None and corp.president is not None,
        bankrupt=ac is None,
        game_ends=after.game_over,
    )
    return out


def explain_share_price(game, corp_name: str, buying: bool) -> dict:
    """The price of buying (next higher free card) or selling (next lower free card) one share, in
    the game's money ("$12" in v2.2 and classic)."""
    corp = game.corps[corp_name]
    move = game.price_move(corp, 1 if buying else -1)
    m = game.ruleset.cash
    verb = "Buying" if buying else "Selling"
    m = game.ruleset.cash  # a share price as the game writes money: "$12" in v2.2 and classic
    lines = [
        f"{verb} moves {corp_name} from {m(corp.price)} to the next {'higher' if buying else 'lower'} "
        f"free card: {m(move.new)}."
    ]
    if move.skipped:
        holders = ", ".join(f"{m(p)} ({game.price_holder.get(p)})" for p in move.skipped)
        lines.append(f"Cards in use are skipped: {holders}.")
    lines.append(f"The {'buyer pays' if buying else 'seller receives'} the new price, {m(move.new)}.")
    return {"title": f"{verb} {words.a(corp_name)} share", "total": move.new, "lines": lines}
