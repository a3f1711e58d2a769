"""Acquisition, the any-order phase where corporations buy companies (Stars: phase 3; classic: 6):
receivers buying from the foreign investor by themselves, the purchases presidents may make, a
purchase itself, and what it would do (``preview_purchase``).  Announcements and interventions in
a purchase from the foreign investor are in ``acquisition_interventions.py``."""

from __future__ import annotations

from .. import words
from ..errors import RuleError
from ..figures import corporation_figures


class AcquisitionMixin:
    def spendable(self, corp) -> int:
        """Money not received in this phase (money received in the phase is turned vertical
        and cannot be used for further transactions)."""
        return corp.cash - self.received.get(corp.name, 0)

    # ------------------------------------------------------------------ phase 3 flow
    def _start_acquisition(self):
        self.moved = set()
        self.received = {}
        self.intervention = None
        self.declined = []
        self.said_done = []
        self.phase_open = self._acquisition_possible()
        receivers = [c for c in self.corps.values() if c.president is None]
        receivers.sort(key=self.fi_priority)
        self.receivers = [c.name for c in receivers]

    def _acquisition_possible(self) -> bool:
        """FORMAT.md's test for an open phase 3: money for some company's minimum price, and a
        corporation run by a player."""
        if not any(c.president is not None for c in self.corps.values()):
            return False
        for corp in self.corps.values():
            for abbr, ent in self.owner.items():
                if ent is not corp and self.cards.companies[abbr].price_min <= corp.cash:
                    return True
        return False

    def _receivers_buy_from_the_foreign_investor(self) -> bool:
        """Automatic steps of phase 3: each receiver (best priority first) announces the most
        expensive company of the foreign investor it can afford and buys it, unless some
        corporation may intervene: then the game waits for that decision.  True while waiting
        or while the phase is open."""
        if self.intervention is not None:
            return True
        if self._everyone_done():
            return False
        while self.receivers:
            corp = self.corps[self.receivers[0]]
            target = self._receiver_target(corp)
            if target is None:
                self.receivers.pop(0)
                continue
            if self.interveners(corp, target):
                self.intervention = (corp.name, target)
                self.in_turn = False  # the transcript form waits too: any willing intervener may take it
                return True
            self._buy_from_fi(corp, target, f"{corp.name} (in receivership)")
        return self.phase_open and not self._nobody_can_act()

    def _receiver_target(self, corp) -> str | None:
        """The most expensive company of the foreign investor the receiver can afford."""
        best = None
        for abbr in self.fi.companies:
            if abbr in self.moved:
                continue
            price = self.fi_price(corp.name, abbr)
            if price <= self.spendable(corp):
                if best is None or (price, self.cards.companies[abbr].face_value) > best[0]:
                    best = ((price, self.cards.companies[abbr].face_value), abbr)
        return None if best is None else best[1]

    def _buy_from_fi(self, corp, abbr, who) -> str:
        price = self.fi_price(corp.name, abbr)
        self._transfer(corp, abbr, price)
        text = f"{who} buys the {abbr} from the foreign investor for {self.ruleset.cash(price)}"
        self._log(text)
        return text

    def _transfer(self, corp, abbr, price) -> None:
        seller = self.owner[abbr]
        corp.cash -= price
        seller.cash += price
        self._money(corp.name, seller.label, price, f"buys the {abbr}")
        if seller.kind == "corporation":
            self.received[seller.name] = self.received.get(seller.name, 0) + price
        self._give_company(abbr, corp)
        self.moved.add(abbr)

    def _in_phase_3(self):
        if self.phase_kind != "acquisition":
            raise RuleError(
                f"Companies are bought in {self.ruleset.phase_said(self.phase_no('acquisition'))}; "
                f"it is phase {self.phase} now."
            )

    def _may_buy(self, corp, abbr: str) -> None:
        """A corporation run by a player buys (or announces) a company that has not moved this phase."""
        if corp.president is None:
            raise RuleError(
                f"{corp.name} is in receivership: the receiver only buys from the foreign investor, "
                f"by itself at the start of the phase."
            )
        if abbr in self.moved:
            raise RuleError(f"The {abbr} already changed hands in this phase.")

    def _menu_acquisition(self) -> list[dict]:
        if self.intervention is not None:
            announcer, abbr = self.intervention
            out = self._interventions(self.corps[announcer], abbr)
            waiting = self.undecided()
            # each corporation that may intervene may let it go (the next in priority first,
            # those after it may say so early); then anyone may say nobody does
            out += [
                {
                    "type": "no_intervention",
                    "company": abbr,
                    "announced_by": announcer,
                    "corporation": c.name,
                    "president": c.president,
                    "price": self.fi_price(c.name, abbr),  # what it would pay, were it to intervene
                    # announced: those who answer before it (it may let it go now, intervene only after them)
                    "after": [a.name for a in waiting[:k]] if self.answers_in_order else [],
                }
                for k, c in enumerate(waiting)
            ]
            out.append({"type": "no_intervention", "company": abbr, "announced_by": announcer})
            return out
        out = self._purchases()
        if self.phase_open:
            out += self._phase_done_items(out)
        return out

    def _purchases(self) -> list[dict]:
        """Every purchase a player-run corporation may make now: ``acquire`` from a player or a
        corporation (a price span), ``announce`` for the foreign investor's (a fixed price)."""
        out = []
        for corp in self.corps.values():
            if corp.president is None:
                continue
            money = self.spendable(corp)
            for abbr, seller in self.owner.items():
                if seller is corp or abbr in self.moved:
                    continue
                c = self.cards.companies[abbr]
                if seller.kind == "foreign_investor":
                    lo = hi = self.fi_price(corp.name, abbr)
                else:
                    if seller.kind == "corporation" and (seller.president is None or len(seller.companies) == 1):
                        continue
                    lo, hi = c.price_min, min(c.price_max, money)
                if lo <= money and lo <= hi:
                    item = {
                        "type": "acquire",
                        "corporation": corp.name,
                        "company": abbr,
                        "seller": seller.name,
                        "president": corp.president,
                        "min": lo,
                        "max": hi,
                    }
                    if seller.kind == "foreign_investor":
                        # announced first: these corporations may then intervene (best first)
                        item["type"] = "announce"
                        item["may_intervene"] = [c.name for c in self.interveners(corp, abbr)]
                    out.append(item)
        return out

    def _ev_acquire(self, ev) -> str:
        self._in_phase_3()
        corp = self._corp_arg(ev)
        abbr = ev.get("company")
        price = ev.get("price")
        announced = ev.get("announced_by")
        if abbr not in self.cards.companies:
            raise RuleError(f"There is no company {abbr!r}.")
        if type(price) is not int:
            raise RuleError("The price must be a whole number of coins.")
        pending = self.intervention
        if pending is not None and (announced != pending[0] or abbr != pending[1]):
            raise RuleError(f"First settle {self._pending_words()}: does a corporation intervene?")
        seller = self.owner.get(abbr)
        if seller is None:
            said = self.ruleset.phase_said(self.phase_no("acquisition"))
            raise RuleError(f"The {abbr} is not owned by anyone, so it cannot be bought in {said}.")
        if seller is corp:
            raise RuleError(f"{corp.name} already owns the {abbr}.")
        self._may_buy(corp, abbr)
        if seller.kind == "corporation":
            if seller.president is None:
                raise RuleError(f"{seller.name} is in receivership and never sells companies.")
            if len(seller.companies) == 1:
                raise RuleError(f"The {abbr} is the only company of {seller.name}; a corporation keeps at least one.")
        c = self.cards.companies[abbr]
        if seller.kind == "foreign_investor":
            fixed = self.fi_price(corp.name, abbr)
            if price != fixed:
                how = "face value" if fixed == c.face_value != c.price_max else "the maximum of its price span"
                m = self.ruleset.cash
                raise RuleError(f"The foreign investor sells the {abbr} to {corp.name} only at {m(fixed)} ({how}).")
        elif not c.price_min <= price <= c.price_max:
            m = self.ruleset.cash
            raise RuleError(f"{m(price)} is outside the price span {m(c.price_min)}–{m(c.price_max)} of the {abbr}.")
        available = self.spendable(corp)
        if price > available:
            extra = " (money received in this phase cannot be spent in it)" if available != corp.cash else ""
            raise RuleError(
                f"{corp.name} has only {self.ruleset.cash(available)} available for the {abbr}, not {self.ruleset.cash(price)}{extra}."
            )
        if announced is not None:
            self._check_intervention(corp, abbr, announced, pending)
            if pending is not None and corp.name in self.declined:
                raise RuleError(f"{corp.name} has already let the {abbr} go.")
            if pending is not None and self.answers_in_order:
                self._check_turn_to_intervene(corp)
        self._transfer(corp, abbr, price)
        self._not_done(corp.president)
        if pending is not None:
            self.intervention = None
            self.declined = []
        seller_name = seller.name
        text = f"{corp.name} buys the {abbr} from {seller_name} for {self.ruleset.cash(price)}"
        if announced:
            text += f" (intervening in {words.possessive(announced)} announced purchase)"
        return text


# ---------------------------------------------------------------------- before the decision
def preview_purchase(game, corporation: str, company: str, price: int, announced_by: str | None = None) -> dict:
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
        b, a = corporation_figures(game, name), corporation_figures(after, name)
        gained = [p for p in a["synergies"] if p not in b["synergies"]]
        lost = [p for p in b["synergies"] if p not in a["synergies"]]
        out["effects"][name] = {"before": b, "after": a, "synergies_gained": gained, "synergies_lost": lost}
    return out
