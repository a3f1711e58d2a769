"""The foreign investor's purchases (classic: phase 5; Stars: in its wrap-up): it buys the
offering's companies at face value, cheapest first, while it can; at the phase's end the companies
drawn this turn join the offering."""

from __future__ import annotations


class ForeignInvestorMixin:
    def _start_foreign_investor(self) -> None:
        self._foreign_investor_buys()

    def _finish_foreign_investor(self) -> None:
        self._offering_available()

    def _foreign_investor_buys(self) -> None:
        """The foreign investor buys available companies at face value, cheapest first, while it can."""
        bought = 0
        companies = self.cards.companies
        for abbr in sorted(self.available, key=lambda a: companies[a].face_value):
            face = companies[abbr].face_value
            if face > self.fi.cash:
                break
            self.fi.cash -= face
            self._money(self.fi.label, "Bank", face, f"buys the {abbr}")
            self.available.remove(abbr)
            self._give_company(abbr, self.fi)
            self._log(f"The foreign investor buys the {abbr} for {self.ruleset.cash(face)}")
            bought += 1
        self._draw(bought)

    def _offering_available(self) -> None:
        self.available.extend(self.unavailable)
        self.unavailable = []
