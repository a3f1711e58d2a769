"""Income, dividends, the end card, issuing shares and IPOs (Stars: phases 5 to 9; classic has
its own end check and issues and forms corporations at the start of the turn)."""

from __future__ import annotations

from .. import words
from ..abilities import STEADY_ISSUE
from ..compute import private_income
from ..entities import Corporation
from ..errors import RuleError


class CorporateMixin:
    # ------------------------------------------------------------------ phase 5
    def _start_income(self):
        costs = self.costs()
        companies = self.cards.companies
        paid = []
        for name in self.order:
            p = self.players[name]
            if p.companies:
                income = private_income(p.companies, costs, companies).total
                p.cash += income
                self._money("Bank", name, income, "income")
                paid.append((name, income))
        income = private_income(self.fi.companies, costs, companies, self.cards.foreign_investor_income).total
        self.fi.cash += income
        self._money("Bank", self.fi.label, income, "income")
        paid.append(("foreign investor", income))
        for corp in list(self.corps.values()):
            income = self.corporation_income(corp.name, corp.companies, costs).total
            if income < 0 and corp.cash < -income:
                self._go_bankrupt(corp, f"it cannot pay its income of {income} with {corp.cash}")
                continue
            corp.cash += income
            self._money("Bank", corp.name, income, "income")
            paid.append((corp.name, income))
        said = self.ruleset.phase_name(self.phase_no("income")) or "Income"
        self._log(
            said[:1].upper()
            + said[1:]
            + ": "
            + ", ".join(f"{who} {'+' if amount >= 0 else '−'}{abs(amount)}" for who, amount in paid)
        )

    # ------------------------------------------------------------------ dividends
    def _start_dividends(self):
        self.queue = self.share_order()

    def max_payout(self, corp) -> int:
        """Maximum payout per share printed on the share price card (none on the 0 and top cards)."""
        return self.cards.max_payout.get(corp.price) or 0

    def dividend_max(self, corp) -> int:
        return min(self.max_payout(corp), corp.cash // corp.issued)

    def _receivers_pay_no_dividend(self) -> bool:
        """Automatic steps of the dividends phase: a corporation in receivership pays a dividend of 0
        (its share price still adjusts).  True when a president must choose a dividend."""
        while self.queue:
            corp = self.corps[self.queue[0]]
            if corp.president is not None:
                return True
            self.queue.pop(0)
            self._log(self._pay_dividend(corp, 0, "(in receivership)"))
        return False

    def _ev_dividend(self, ev) -> str:
        corp = self._queue_head(ev, "dividends")
        amount = ev.get("amount")
        if type(amount) is not int or amount < 0:
            raise RuleError("The dividend is a whole number of coins per share, 0 or more.")
        top = self.dividend_max(corp)
        if amount > top:
            raise RuleError(
                f"{corp.name} can pay at most {self.ruleset.cash(top)} per share (share price {self.ruleset.cash(corp.price)} allows "
                f"{self.ruleset.cash(self.max_payout(corp))}; {self.ruleset.cash(corp.cash)} cash for {words.count(corp.issued, 'share')})."
            )
        self.queue.pop(0)
        return self._pay_dividend(corp, amount, "")

    def _pay_dividend(self, corp, amount, note) -> str:
        if amount:
            for p in self.players.values():
                n = p.shares.get(corp.name)
                if n:
                    p.cash += amount * n
                    self._money(corp.name, p.name, amount * n, "dividend")
            corp.cash -= amount * corp.issued
            self._money(corp.name, "Bank", amount * corp.bank_shares, "dividend on bank shares")
        text = f"{corp.name}{' ' + note if note else ''} pays {self.ruleset.cash(amount)} per share"
        move, why = self.dividend_move(corp)
        text += f"; {why}"
        if move.new == 0:
            self._go_bankrupt(corp, "its share price fell to 0")
        elif move.steps:
            self._set_price(corp, move.new)
        return text

    def adjustment(self, corp, cash: int):
        """Where the share price moves after the dividend with ``cash`` left in the treasury:
        (the move, the figures it depends on, a sentence), by the ruleset's price mechanism."""
        return self.pricing.adjustment(self, corp, cash)

    def dividend_move(self, corp):
        """The share price move after the dividend is paid (cash already paid out), and why."""
        move, _facts, why = self.adjustment(corp, corp.cash)
        return move, why

    def ipo_figures(self, charter: str, abbr: str, price: int, shares: int, treasury: int) -> dict:
        """What the IPO calculator shows about a new corporation besides money (its price mechanism's figures)."""
        return self.pricing.ipo_figures(self, charter, abbr, price, shares, treasury)

    def _queue_head(self, ev, kind):
        if self.phase_kind != kind:
            raise RuleError(f"It is phase {self.phase}, not {self.ruleset.phase_said(self.phase_no(kind))}.")
        name = ev.get("corporation")
        head = self.queue[0]
        if name != head:
            raise RuleError(
                f"It is {words.possessive(head)} turn, not {words.possessive(name)}."
                if name in self.corps
                else f"It is {words.possessive(head)} turn; {name!r} is not a corporation in play."
            )
        return self.corps[head]

    # ------------------------------------------------------------------ end card (Stars phase 7)
    def _start_end_card(self):
        top_price = self.cards.top_price
        at_top = [c.name for c in self.corps.values() if c.price == top_price]
        if at_top:
            self._log(f"{', '.join(at_top)} at {top_price}: the game ends")
            self._finish_game()
        elif self.end_flipped:
            self._log("The game end card was already flipped: the game ends")
            self._finish_game()
        elif not self.unowned_left():
            self.end_flipped = True
            self._log(
                "No unowned companies are left: the game end card is flipped (cost of ownership 10 "
                "for red, orange, yellow and green); the game ends in the next phase 7"
            )

    # ------------------------------------------------------------------ issue shares
    def _start_issue(self):
        self.queue = [c for c in self.share_order() if self.corps[c].unissued]

    def issue_price(self, corp) -> int:
        if self.ability(corp.name) == STEADY_ISSUE:
            return corp.price
        return self.price_move(corp, -1).new

    def _receivers_issue_a_share(self) -> bool:
        """Automatic steps of issuing: a corporation in receivership always issues a share, even
        if it goes bankrupt by doing so.  True when a president must decide."""
        while self.queue:
            corp = self.corps[self.queue[0]]
            if corp.president is not None:
                return True
            self.queue.pop(0)
            self._log(self._issue(corp, " (in receivership)"))
        return False

    def _ev_issue(self, ev) -> str:
        corp = self._queue_head(ev, "issue")
        if not corp.unissued:
            raise RuleError(f"{corp.name} has issued all its {corp.total_shares} shares.")
        self.queue.pop(0)
        return self._issue(corp, "")

    def _ev_skip_issue(self, ev) -> str:
        corp = self._queue_head(ev, "issue")
        self.queue.pop(0)
        return f"{corp.name} issues no share"

    def _issue(self, corp, note) -> str:
        price = self.issue_price(corp)
        corp.issued += 1
        corp.bank_shares += 1
        if price == 0:
            self._go_bankrupt(corp, "issuing a share dropped its price to 0")
            return f"{corp.name}{note} issues a share"
        self._set_price(corp, price)
        corp.cash += price
        self._money("Bank", corp.name, price, "issues a share")
        return f"{corp.name}{note} issues a share for {self.ruleset.cash(price)}"

    # ------------------------------------------------------------------ IPO
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
            raise RuleError(f"{name} is already in play; choose a free charter.")
        color = self.cards.companies[abbr].color
        if type(price) is not int or price not in self.cards.price_index:
            raise RuleError(f"{price!r} is not a share price.")
        if price not in self.cards.ipo_prices[color]:
            allowed = ", ".join(map(str, self.cards.ipo_prices[color]))
            raise RuleError(f"{price} is not an IPO price for {words.a(color)} company (allowed: {allowed}).")
        if price in self.price_holder:
            raise RuleError(f"The {price} share price card is held by {self.price_holder[price]}.")
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
