"""Acquisition (Stars: phase 3; classic: 6), a purchase from the foreign investor: its prices and
priority, the announcement, and the interventions of corporations with priority (their legal
decisions, their order, letting it go)."""

from __future__ import annotations

from .. import words
from ..abilities import FOREIGN_FIRST
from ..errors import RuleError


class InterventionsMixin:
    # ------------------------------------------------------------------ the foreign investor
    # Canonical rules, phase 3: "The Foreign Investor only sells at the maximum allowed price
    # ... During the whole phase, the Overseas Trading Corporation is considered to have the
    # highest Share Price and pays only Face Value for Companies bought from the Foreign
    # Investor."  That ability (charter FOREIGN_FIRST: Overseas Trading in Stars, Orion in v2.2)
    # lives here and nowhere else: its price in ``fi_price``, its priority in ``fi_priority``.
    def fi_price(self, corp_name: str, abbr: str) -> int:
        """What a corporation pays the foreign investor: the maximum, face value for Overseas Trading."""
        c = self.cards.companies[abbr]
        return c.face_value if self.ability(corp_name) == FOREIGN_FIRST else c.price_max

    def fi_priority(self, corp) -> tuple:
        """Sort key of the priority with the foreign investor, best first: Overseas Trading
        first (as if its share price were higher than any other), then higher share price."""
        return (self.ability(corp.name) != FOREIGN_FIRST, -corp.price)

    def priority_order(self) -> str:
        """The order of priority with the foreign investor, in words, with this ruleset's names."""
        first = self.ruleset.corporation_names.get(FOREIGN_FIRST)
        return f"{first} first, then the higher share price" if first else "the higher share price first"

    def has_priority(self, corp, over) -> bool:
        """Whether ``corp`` comes strictly before ``over`` with the foreign investor."""
        return corp.name != over.name and self.fi_priority(corp) < self.fi_priority(over)

    def can_announce(self, corp, abbr: str) -> bool:
        """Whether ``corp`` could itself buy the foreign investor's ``abbr`` now: only then may it
        announce the purchase ("the announcing Corporation must buy": no fake announcements)."""
        return (
            self.owner.get(abbr) is self.fi
            and abbr not in self.moved
            and (self.spendable(corp) >= self.fi_price(corp.name, abbr))
        )

    def interveners(self, announcer, abbr: str) -> list:
        """Corporations that may intervene in ``announcer``'s purchase of the foreign investor's
        ``abbr``, best first: run by a player, with priority over the announcer and enough money
        not received in this phase for their own price."""
        out = [
            c
            for c in self.corps.values()
            if c.president is not None
            and self.has_priority(c, announcer)
            and self.spendable(c) >= self.fi_price(c.name, abbr)
        ]
        out.sort(key=self.fi_priority)
        return out

    def _check_intervention(self, corp, abbr: str, announced, pending) -> None:
        """An intervention: ``corp`` buys the foreign investor's ``abbr`` that ``announced``
        announced.  Which of several willing interveners acts is the table's business:
        declined offers are not events (see docs/engine-api.md, "Interventions")."""
        if self.owner.get(abbr) is not self.fi:
            raise RuleError("Only a purchase from the foreign investor is announced and can be intervened in.")
        announcer = self.corps.get(announced) if isinstance(announced, str) else None
        if announcer is None:
            raise RuleError(f"{announced!r} is not a corporation in play.")
        if announcer is corp:
            raise RuleError(f"{corp.name} cannot intervene in its own purchase; leave out announced_by.")
        if announcer.president is None and pending is None:
            raise RuleError(
                f"{announcer.name} is in receivership: its purchases are announced by the "
                f"receiver at the start of the phase, not now."
            )
        if not self.has_priority(corp, announcer):
            raise RuleError(
                f"{corp.name} has no priority over {announcer.name} ({self.priority_order()}), so it cannot intervene."
            )
        if not self.can_announce(announcer, abbr):
            own = self.fi_price(announcer.name, abbr)
            have = self.spendable(announcer)
            extra = " not received in this phase" if have != announcer.cash else ""
            raise RuleError(
                f"{announcer.name} cannot announce buying the {abbr}: it has only {self.ruleset.cash(have)}{extra}, "
                f"not the {self.ruleset.cash(own)} the foreign investor asks, and an announcing corporation must be able to buy "
                f"(no fake announcements)."
            )

    def _check_turn_to_intervene(self, corp) -> None:
        """While an announced purchase waits, the interveners answer in priority order: "If more
        than one corporation wants to intervene, again the one with higher share price has
        priority" (Overseas Trading first).  So a corporation intervenes only once every one
        ahead of it has let the company go.  Only for a purchase announced with ``announce``: in
        the transcript form (nothing pending, or a receiver's purchase, which waits there too)
        declined offers are no events, so an intervention says that those ahead declined aloud."""
        ahead = []
        for c in self.undecided():
            if c is corp:
                break
            ahead.append(c.name)
        else:
            return  # not among the undecided: the other checks said why
        if ahead:
            raise RuleError(
                f"{words.they(ahead, 'answers', 'answer')} first: {corp.name} may intervene only once "
                f"{words.agree(ahead, 'it has', 'they have')} let the {self.intervention[1]} go "
                f"(priority: {self.priority_order()})."
            )

    @property
    def answers_in_order(self) -> bool:
        """Whether the pending purchase's interveners answer one after another in priority order:
        when it was announced with ``announce`` (not a receiver's, which the transcript form holds
        too), in a game stored under the current arbitration (``edition`` 2)."""
        return self.intervention is not None and self.in_turn and self.edition >= 2

    def asked_now(self) -> list:
        """The corporations whose answer the pending announced purchase waits for now: in order,
        the first in priority that has not let it go; else every one that may still intervene."""
        waiting = self.undecided()
        return waiting[:1] if self.answers_in_order else waiting

    def _pending_words(self) -> str:
        announcer, abbr = self.intervention
        receiver = " (in receivership)" if self.corps[announcer].president is None else ""
        return f"{words.possessive(announcer)}{receiver} announced purchase of the {abbr}"

    def _ev_announce(self, ev) -> str:
        """A president announces buying the foreign investor's company: the game waits while some
        corporation with priority has the money to intervene, else the purchase is made at once."""
        self._in_phase_3()
        corp = self._corp_arg(ev)
        abbr = ev.get("company")
        if self.intervention is not None:
            raise RuleError(f"First settle {self._pending_words()}: does a corporation intervene?")
        if not self.phase_open:
            raise RuleError("The acquisition phase is over: nothing more can be bought in it.")
        if abbr not in self.cards.companies:
            raise RuleError(f"There is no company {abbr!r}.")
        if self.owner.get(abbr) is not self.fi:
            raise RuleError(
                f"Only a purchase from the foreign investor is announced; the {abbr} is not the "
                f"foreign investor's: buy it from its owner."
            )
        self._may_buy(corp, abbr)
        price = self.fi_price(corp.name, abbr)
        if not self.can_announce(corp, abbr):
            have = self.spendable(corp)
            extra = " (money received in this phase cannot be spent in it)" if have != corp.cash else ""
            raise RuleError(
                f"{corp.name} has only {self.ruleset.cash(have)} available, not the {self.ruleset.cash(price)} the foreign investor asks for "
                f"the {abbr}{extra}: a corporation announces only what it can buy."
            )
        self._not_done(corp.president)
        waiting = self.interveners(corp, abbr)
        if not waiting:
            self._transfer(corp, abbr, price)
            self._written = [{"type": "acquire", "corporation": corp.name, "company": abbr, "price": price}]
            return f"{corp.name} buys the {abbr} from the foreign investor for {self.ruleset.cash(price)} (nobody could intervene)"
        self.intervention = (corp.name, abbr)
        self.in_turn = True  # announced at the table: the interveners answer in priority order
        self.declined = []
        self._written = []
        return (
            f"{corp.name} announces buying the {abbr} from the foreign investor for {self.ruleset.cash(price)}; "
            f"{self._may_intervene_words(waiting)} may intervene"
        )

    @staticmethod
    def _may_intervene_words(corps) -> str:
        return ", ".join(f"{c.name} ({c.president})" for c in corps)

    def undecided(self) -> list:
        """The corporations that may still intervene in the pending announced purchase, best first."""
        if self.intervention is None:
            return []
        announcer, abbr = self.intervention
        return [c for c in self.interveners(self.corps[announcer], abbr) if c.name not in self.declined]

    def _ev_no_intervention(self, ev) -> str:
        self._in_phase_3()
        pending = self.intervention
        if pending is None:
            raise RuleError("No announced purchase is waiting for interventions.")
        if ev.get("company") != pending[1]:
            raise RuleError(f"The purchase waiting for interventions is of the {pending[1]}.")
        waiting = self.undecided()
        who = ev.get("corporation")
        if who is not None:
            if who not in [c.name for c in waiting]:
                if who in self.declined:
                    raise RuleError(f"{who} has already let the {pending[1]} go.")
                raise RuleError(f"{who} may not intervene in {self._pending_words()}, so it has nothing to let go.")
            self.declined.append(who)
            waiting = self.undecided()
            if waiting:
                self._written = []
                return f"{who} lets the {pending[1]} go; {self._may_intervene_words(waiting)} may still intervene"
        before = [c for c in self.declined if c != who]  # who let it go before this one
        self.intervention = None
        self.declined = []
        corp = self.corps[pending[0]]
        price = self.fi_price(corp.name, pending[1])
        self._transfer(corp, pending[1], price)
        first = f"{who} lets it go{' too' if before else ''}. " if who is not None else ""
        if corp.president is None:
            self._written = [{"type": "no_intervention", "company": pending[1]}]
            return f"{first}Nobody intervenes: {corp.name} (in receivership) buys the {pending[1]} for {self.ruleset.cash(price)}"
        self._written = [{"type": "acquire", "corporation": corp.name, "company": pending[1], "price": price}]
        return f"{first}Nobody intervenes: {corp.name} buys the {pending[1]} from the foreign investor for {self.ruleset.cash(price)}"

    def _interventions(self, announcer, abbr: str) -> list[dict]:
        """The interventions in ``announcer``'s purchase of the foreign investor's ``abbr``: one
        ``acquire`` item per corporation whose answer is awaited now (``asked_now``: after an
        ``announce`` the next in priority only), each at its own fixed price, with ``announced_by``
        naming the announcer."""
        return [
            {
                "type": "acquire",
                "corporation": c.name,
                "company": abbr,
                "seller": "the foreign investor",
                "president": c.president,
                "min": self.fi_price(c.name, abbr),
                "max": self.fi_price(c.name, abbr),
                "announced_by": announcer.name,
            }
            for c in self.asked_now()
        ]
