"""Closing, the any-order phase where companies are closed (Stars: phase 4; classic: 7): the
automatic closings, who is short of money for a negative income, the closings the owners may make
and make; and before deciding, what a closing would do, the closings a player short of money needs,
and the corporations that go bankrupt in the income phase unless they close companies."""

from __future__ import annotations

from itertools import combinations

from ..abilities import CLOSING_BONUS
from ..errors import RuleError
from ..figures import corporation_figures


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

    def _menu_closing(self) -> list[dict]:
        out = self._closings()
        return out + self._phase_done_items(out, {name for name, _, _ in self.players_short()})

    def _closings(self) -> list[dict]:
        """Every company its owner may close now (a corporation keeps at least one)."""
        out = []
        for name in self.order:
            for abbr in self.players[name].companies:
                out.append({"type": "close", "company": abbr, "owner": name, "player": name})
        for corp in self.corps.values():
            if corp.president is not None and len(corp.companies) > 1:
                for abbr in corp.companies:
                    out.append({"type": "close", "company": abbr, "owner": corp.name, "player": corp.president})
        return out

    def _close(self, owner, abbr, who) -> str:
        self._remove_company(abbr)
        text = f"{who} closes the {abbr}"
        if owner.kind == "corporation" and self.ability(owner.name) == CLOSING_BONUS:
            bonus = 2 * self.cards.companies[abbr].income
            owner.cash += bonus
            self._money("Bank", owner.name, bonus, f"scrapping bonus for the {abbr}")
            text += f" and receives a scrapping bonus of {self.ruleset.cash(bonus)}"
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


# ---------------------------------------------------------------------- before the decision
def preview_closing(game, company: str) -> dict:
    """Income and star change of closing ``company`` for its owner."""
    owner = game.owner.get(company)
    event = {"type": "close", "company": company}
    out = {"event": event, "legal": True, "error": None, "owner": owner.name if owner else None}
    try:
        after = game.preview(event, within_phase=True)
    except RuleError as err:
        out.update(legal=False, error=err.message)
        return out
    if owner.kind == "corporation":
        out["before"], out["after"] = corporation_figures(game, owner.name), corporation_figures(after, owner.name)
        out["cash_after"] = after.corps[owner.name].cash
    else:
        out["before"] = {"income": game.player_income(owner.name).total}
        out["after"] = {"income": after.player_income(owner.name).total}
    return out


def must_close(game) -> list[dict]:
    """Players whose money cannot pay their coming negative income, and closings that cover it."""
    out = []
    costs = game.costs()
    COMPANIES = game.cards.companies  # noqa: N806
    for name, cash, income in game.players_short():
        p = game.players[name]
        losers = sorted(
            (a for a in p.companies if COMPANIES[a].income - costs.get(COMPANIES[a].color, 0) < 0),
            key=lambda a: COMPANIES[a].income - costs.get(COMPANIES[a].color, 0),
        )
        covering, inc = [], income
        for abbr in losers:
            if cash + inc >= 0:
                break
            covering.append(abbr)
            inc -= COMPANIES[abbr].income - costs.get(COMPANIES[abbr].color, 0)
        out.append({"player": name, "cash": cash, "income": income, "close": covering, "income_after": inc})
    return out


# ---------------------------------------------------------------------- bankruptcy ahead
SEARCH_MAX = 10  # companies of one corporation searched for the fewest closings (more: the worst first)


def bankrupt_ahead(game) -> list[dict]:
    """Corporations that cannot pay their coming negative income (each rulebook's income phase:
    a corporation that cannot pay goes bankrupt), and the fewest closings that avoid it.

    Each: ``corporation``, ``president`` (None: in receivership, nobody may close its companies),
    ``cash``, ``income``, ``close`` (the companies to close, None when no closing is enough: a
    corporation keeps at least one) and ``cash_after`` / ``income_after`` with them closed."""
    costs = game.costs()
    out = []
    for name in game.share_order():
        corp = game.corps[name]
        income = game.corporation_income(name, corp.companies, costs).total
        if corp.cash + income >= 0:
            continue
        row = {"corporation": name, "president": corp.president, "cash": corp.cash, "income": income}
        row.update(close=None, cash_after=corp.cash, income_after=income)
        if corp.president is not None:
            row.update(_fewest_closings(game, corp, costs))
        out.append(row)
    return out


def _fewest_closings(game, corp, costs) -> dict:
    """The fewest companies whose closing leaves the corporation able to pay (the best income on a
    tie); a closing bonus (the scrapping charter) counts as cash.  Empty when none is enough."""
    companies = game.cards.companies
    bonus = 2 if game.ability(corp.name) == CLOSING_BONUS else 0
    owned = sorted(corp.companies, key=lambda a: companies[a].income - costs.get(companies[a].color, 0))
    owned_searched = owned[:SEARCH_MAX]

    def after(closed):
        kept = [a for a in corp.companies if a not in closed]
        cash = corp.cash + bonus * sum(companies[a].income for a in closed)
        return cash, game.corporation_income(corp.name, kept, costs).total

    for k in range(1, len(corp.companies)):
        best = None
        for closed in combinations(owned_searched, min(k, len(owned_searched))):
            cash, income = after(closed)
            if cash + income >= 0 and (best is None or income > best[2]):
                best = (list(closed), cash, income)
        if best:
            return {"close": best[0], "cash_after": best[1], "income_after": best[2]}
    return {}
