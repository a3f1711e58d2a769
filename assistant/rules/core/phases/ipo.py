"""IPO (Stars: phase 9; classic: 2): in descending face value order the owner of each private
company may form a corporation with it at a free share price and charter (a company that cannot
go public is skipped, with the reason); and the IPO calculator the owner decides with."""

from __future__ import annotations

from .. import words
from ..entities import Corporation
from ..errors import RuleError


class IpoMixin:
    def _start_ipo(self):
        private = [a for p in self.players.values() for a in p.companies]
        self.queue = sorted(private, key=lambda a: -self.cards.companies[a].face_value)

    def free_charters(self) -> list[str]:
        return [name for name in self.charters if name not in self.corps]

    def ipo_terms(self, abbr: str, price: int) -> tuple[int, int, int]:
        """(shares for the owner and for the bank each, owner's payment, new treasury)."""
        face = self.cards.companies[abbr].face_value
        shares = 2 if face > price else 1
        payment = shares * price - face
        return shares, payment, payment + shares * price

    def ipo_prices(self, abbr: str) -> list[int]:
        """Share prices allowed for the company's colour and free now."""
        return [p for p in self.cards.ipo_prices[self.cards.companies[abbr].color] if p not in self.price_holder]

    def ipo_options(self, abbr: str) -> list[dict]:
        """Every free share price x free charter for going public with ``abbr``, affordable or not."""
        options = []
        for price in self.ipo_prices(abbr):
            shares, payment, treasury = self.ipo_terms(abbr, price)
            terms = {"price": price, "owner_shares": shares, "bank_shares": shares, "payment": payment}
            options += [{"corporation": c, **terms, "treasury": treasury} for c in self.free_charters()]
        return options

    def ipo_figures(self, charter: str, abbr: str, price: int, shares: int, treasury: int) -> dict:
        """What the IPO calculator shows about a new corporation besides money (its price mechanism's figures)."""
        return self.pricing.ipo_figures(self, charter, abbr, price, shares, treasury)

    def _can_ipo(self, abbr: str) -> str | None:
        """Why the owner cannot form a corporation with ``abbr`` (None if they can)."""
        if not self.free_charters():
            return f"no {self.ruleset.word('charter')} is free"
        owner = self.owner[abbr]
        prices = self.ipo_prices(abbr)
        if not prices:
            return f"every {self.cards.companies[abbr].color} IPO share price is in use"
        if not any(self.ipo_terms(abbr, p)[1] <= owner.cash for p in prices):
            return f"{owner.name} cannot pay the difference at any free share price"
        return None

    def _skip_impossible_ipos(self) -> bool:
        """Automatic steps of the IPO phase: a company whose owner cannot form a corporation with it
        is skipped, with the reason.  True when an owner must decide."""
        while self.queue:
            abbr = self.queue[0]
            why = self._can_ipo(abbr)
            if why is None:
                return True
            self.queue.pop(0)
            self._log(f"The {abbr} cannot go public: {why}")
        return False

    def _menu_ipo(self) -> list[dict]:
        abbr = self.queue[0]
        owner = self.owner[abbr]
        options = [o for o in self.ipo_options(abbr) if o["payment"] <= owner.cash]
        return [
            {"type": "ipo", "player": owner.name, "company": abbr, "options": options},
            {"type": "skip_ipo", "player": owner.name, "company": abbr},
        ]

    def _ipo_head(self, ev):
        if self.phase_kind != "ipo":
            raise RuleError(f"IPOs happen in phase {self.phase_no('ipo')}; it is phase {self.phase} now.")
        abbr = ev.get("company")
        head = self.queue[0]
        if abbr != head:
            raise RuleError(
                f"It is the {words.possessive(head)} turn to go public or not (descending face value order), "
                f"not the {words.possessive(abbr)}."
            )
        return abbr

    def _ev_skip_ipo(self, ev) -> str:
        abbr = self._ipo_head(ev)
        self.queue.pop(0)
        return f"The {abbr} stays private"

    def _ev_ipo(self, ev) -> str:
        abbr = self._ipo_head(ev)
        name = ev.get("corporation")
        price = ev.get("price")
        if name not in self.charters:
            raise RuleError(f"There is no corporation {name!r}.")
        if name in self.corps:
            raise RuleError(f"{name} is already in play; choose a free {self.ruleset.word('charter')}.")
        color = self.cards.companies[abbr].color
        if type(price) is not int or price not in self.cards.price_index:
            raise RuleError(f"{price!r} is not a share price.")
        if price not in self.cards.ipo_prices[color]:
            allowed = ", ".join(map(self.ruleset.cash, self.cards.ipo_prices[color]))
            raise RuleError(
                f"{self.ruleset.cash(price)} is not an IPO price for {words.a(color)} company (allowed: {allowed})."
            )
        if price in self.price_holder:
            raise RuleError(f"The {self.ruleset.cash(price)} share price card is held by {self.price_holder[price]}.")
        owner = self.owner[abbr]
        shares, payment, treasury = self.ipo_terms(abbr, price)
        if payment > owner.cash:
            m = self.ruleset.cash  # money as the game writes it: "$12" in v2.2 and classic
            raise RuleError(
                f"Forming {name} at {m(price)} costs {owner.name} {m(payment)} "
                f"({shares} × {m(price)} − face value {m(self.cards.companies[abbr].face_value)}); "
                f"{owner.name} has {m(owner.cash)}."
            )
        self.queue.pop(0)
        corp = Corporation(name, price, self.charters[name].shares)
        self.corps[name] = corp
        self.price_holder[price] = name
        self._give_company(abbr, corp)
        owner.cash -= payment
        self._money(owner.name, name, payment, "IPO payment")
        self._money("Bank", name, shares * price, "buys IPO shares")
        corp.cash = treasury
        corp.issued = 2 * shares
        corp.bank_shares = shares
        owner.shares[name] = shares
        corp.president = owner.name
        return (
            f"{owner.name} forms {name} with the {abbr} at {self.ruleset.cash(price)}: {words.count(shares, 'share')} "
            f"each for {owner.name} and the bank, {owner.name} pays {self.ruleset.cash(payment)}, treasury {self.ruleset.cash(treasury)}"
        )


# ---------------------------------------------------------------------- before the decision
def ipo_calculator(game) -> dict | None:
    """For the company whose owner decides in the IPO phase: every free price and charter."""
    nxt = game.next
    if not nxt or nxt.get("for") != "ipo":
        return None
    abbr = nxt["company"]
    owner = game.owner[abbr]
    face = game.cards.companies[abbr].face_value
    before = owner.cash + face
    rows = [
        {
            **o,
            **game.ipo_figures(o["corporation"], abbr, o["price"], o["owner_shares"], o["treasury"]),
            "affordable": o["payment"] <= owner.cash,
            "value_before": before,
            "value_after": owner.cash - o["payment"] + o["owner_shares"] * o["price"],
        }
        for o in game.ipo_options(abbr)
    ]
    return {"company": abbr, "owner": owner.name, "face_value": face, "cash": owner.cash, "rows": rows}
