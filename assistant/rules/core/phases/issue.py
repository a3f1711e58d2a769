"""Issuing shares (Stars: phase 8; classic: 1): in share price order each president may issue one
share at the next lower free card (a receiver always issues); classic's share redemption variant
adds its own decision in ``classic/game.py``."""

from __future__ import annotations

from ..abilities import STEADY_ISSUE
from ..errors import RuleError


class IssueMixin:
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

    def _menu_issue(self) -> list[dict]:
        corp = self.corps[self.queue[0]]
        base = {"player": corp.president, "corporation": corp.name}
        out = [{"type": "issue", **base, "price": self.issue_price(corp)}] if corp.unissued else []
        return out + [{"type": "skip_issue", **base}]

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
            self._go_bankrupt(corp, f"issuing a share dropped its price to {self.ruleset.cash(0)}")
            return f"{corp.name}{note} issues a share"
        self._set_price(corp, price)
        corp.cash += price
        self._money("Bank", corp.name, price, "issues a share")
        return f"{corp.name}{note} issues a share for {self.ruleset.cash(price)}"
