"""Income (Stars: phase 5; classic: 8): every player, the foreign investor and every corporation
earns its companies' income less the cost of ownership (a corporation that cannot pay goes
bankrupt), and the Why? of an income."""

from __future__ import annotations

from .. import words
from ..compute import private_income


class IncomeMixin:
    def _start_income(self):
        costs = self.costs()
        companies = self.cards.companies
        said = self.ruleset.phase_name(self.phase_no("income")) or "Income"  # pragma: no mutate: every ruleset names it
        why = said.lower()  # the banker's sheet says why in the game's words: "income", "collect income"
        paid = []
        for name in self.order:
            p = self.players[name]
            if p.companies:
                income = private_income(p.companies, costs, companies).total
                p.cash += income
                self._money("Bank", name, income, why)
                paid.append((name, income))
        income = private_income(self.fi.companies, costs, companies, self.cards.foreign_investor_income).total
        self.fi.cash += income
        self._money("Bank", self.fi.label, income, why)
        paid.append(("foreign investor", income))
        for corp in list(self.corps.values()):
            income = self.corporation_income(corp.name, corp.companies, costs).total
            if income < 0 and corp.cash < -income:  # pragma: no mutate: at 0 the treasury is never < 0
                loss = "-" + self.ruleset.cash(-income)  # income < 0 here: "-1" (Stars), "-$1" (v2.2, classic)
                self._go_bankrupt(corp, f"it cannot pay its income of {loss} with {self.ruleset.cash(corp.cash)}")
                continue
            corp.cash += income
            self._money("Bank", corp.name, income, why)
            paid.append((corp.name, income))
        self._log(
            said[:1].upper()
            + said[1:]
            + ": "
            + ", ".join(f"{who} {'+' if amount >= 0 else '−'}{self.ruleset.cash(abs(amount))}" for who, amount in paid)
        )


# ---------------------------------------------------------------------- explained
def _costs_line(game) -> str:
    costs = game.costs()
    top = game.top_color()
    where = (
        f"the top card of the deck is {top}"
        if top
        else ("the game end card shows its " + ("back" if game.end_flipped else "front"))
    )
    if not costs:
        return f"No cost of ownership now ({where})."
    parts = ", ".join(f"{color} {game.ruleset.cash(amount)}" for color, amount in costs.items())
    return f"Cost of ownership per company: {parts} ({where})."


def explain_income(game, entity: str) -> dict:
    """The income of a player, a corporation or the foreign investor ("foreign_investor")."""
    if entity == "foreign_investor":
        inc = game.fi_income()
        title = "Foreign investor income"
    elif entity in game.corps:
        inc = game.corp_income(entity)
        title = f"{entity} income"
    else:
        inc = game.player_income(entity)
        title = f"{words.possessive(entity)} income"
    lines = inc.lines(game.ruleset.cash) or ["No companies."]
    lines.append(_costs_line(game))
    if entity in game.players:
        lines.append("Companies owned by players never earn synergies.")
    return {"title": title, "total": inc.total, "lines": lines}
