"""Closing, the any-order phase where companies are closed (Stars: phase 4; classic: 7): who is
short of money for a negative income, and the closings themselves."""

from __future__ import annotations

from ..abilities import CLOSING_BONUS
from ..errors import RuleError


class ClosingMixin:
    # ------------------------------------------------------------------ phase 4
    def players_short(self) -> list[tuple[str, int, int]]:
        """Players whose money cannot pay their coming negative income."""
        out = []
        for name in self.order:
            p = self.players[name]
            if p.companies:
                income = self.player_income(name).total
                if p.cash + income < 0:
                    out.append((name, p.cash, income))
        return out

    def _start_closing(self):
        self.said_done = []
        costs = self.costs()
        for abbr in sorted(self.fi.companies, key=lambda a: self.cards.companies[a].face_value):
            c = self.cards.companies[abbr]
            if c.income - costs.get(c.color, 0) < 0:
                self._remove_company(abbr)
                self._log(
                    f"The foreign investor closes the {abbr} (income {self.ruleset.cash(c.income)}, cost {self.ruleset.cash(costs[c.color])})"
                )
        red, orange = costs.get("red", 0) >= 4, costs.get("orange", 0) >= 7
        for corp in list(self.corps.values()):
            if corp.president is not None:
                continue
            for abbr in sorted(corp.companies, key=lambda a: self.cards.companies[a].face_value):
                color = self.cards.companies[abbr].color
                if len(corp.companies) > 1 and ((color == "red" and red) or (color == "orange" and orange)):
                    self._log(self._close(corp, abbr, f"{corp.name} (in receivership)"))
        self.phase_open = bool(
            any(p.companies for p in self.players.values())
            or (
                any(len(c.companies) >= 2 for c in self.corps.values())
                and any(c.president is not None for c in self.corps.values())
            )
        )

    def _closing_open(self) -> bool:
        """Phase 4 waits for its ``done`` while open (the automatic closings ran at its start),
        or until everyone who could close a company has said "I'm done"."""
        return self.phase_open and not self._everyone_done() and not self._nobody_can_act()

    def _close(self, owner, abbr, who) -> str:
        self._remove_company(abbr)
        text = f"{who} closes the {abbr}"
        if owner.kind == "corporation" and self.ability(owner.name) == CLOSING_BONUS:
            bonus = 2 * self.cards.companies[abbr].income
            owner.cash += bonus
            self._money("Bank", owner.name, bonus, f"scrapping bonus for the {abbr}")
            text += f" and receives a scrapping bonus of {bonus}"
        return text

    def _ev_close(self, ev) -> str:
        if self.phase_kind != "closing":
            raise RuleError(
                f"Companies are closed in {self.ruleset.phase_said(self.phase_no('closing'))}; it is phase {self.phase} now."
            )
        abbr = ev.get("company")
        if abbr not in self.cards.companies:
            raise RuleError(f"There is no company {abbr!r}.")
        owner = self.owner.get(abbr)
        if owner is None:
            raise RuleError(f"The {abbr} is not owned by anyone.")
        if owner.kind == "foreign_investor":
            raise RuleError("The foreign investor closes its companies by itself.")
        if owner.kind == "corporation":
            if owner.president is None:
                raise RuleError(f"{owner.name} is in receivership; the receiver closes companies by itself.")
            if len(owner.companies) == 1:
                raise RuleError(f"The {abbr} is the only company of {owner.name}; a corporation keeps at least one.")
        self._not_done(owner.president if owner.kind == "corporation" else owner.name)
        return self._close(owner, abbr, owner.name)
