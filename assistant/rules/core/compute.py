"""Income and synergies, each with the parts that make it up (stars: stars/pricing.py).

Pure functions of company lists and the current cost of ownership, shared by the engine
(which uses the totals) and the explanations (which show the parts).  A corporation's special
ability is given by its charter key (core/abilities.py), never by its name: the name is
only used in the texts, so every ruleset's names come out right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .abilities import (
    COST_RELIEF,
    COST_RELIEF_MAX,
    DOUBLES_BEST,
    PER_COMPANY,
    SYNERGY_PAIRS,
)


@dataclass
class Income:
    """An income figure and its parts, in the order the rules add them."""

    total: int = 0
    companies: list = field(default_factory=list)  # (abbr, printed income, cost of ownership)
    synergies: list = field(default_factory=list)  # (abbr, abbr, bonus)
    bonuses: list = field(default_factory=list)  # (label, amount)

    def lines(self, money: Callable[[int], str] = str) -> list[str]:
        """The parts in words, each amount as ``money`` writes it (the ruleset's ``cash``)."""
        out = []
        for abbr, printed, cost in self.companies:
            out.append(f"{abbr}: {money(printed)}" + (f" − {money(cost)} cost of ownership" if cost else ""))
        for a, b, bonus in self.synergies:
            out.append(f"synergy {a}–{b}: +{money(bonus)}")
        for label, amount in self.bonuses:
            out.append(f"{label}: {'+' if amount >= 0 else '−'}{money(abs(amount))}")
        return out


def synergy_pairs(abbrs, companies) -> list[tuple[str, str, int]]:
    """Every pair of the companies that have each other's code printed, with its bonus
    (``companies``: the game's card data)."""
    ordered = sorted(abbrs, key=lambda a: -companies[a].face_value)
    pairs = []
    for i, a in enumerate(ordered):
        syn = companies[a].synergies
        for b in ordered[i + 1 :]:
            bonus = syn.get(b)
            if bonus:
                pairs.append((a, b, bonus))
    return pairs


def private_income(abbrs, costs: dict, companies, foreign_investor_income: int | None = None) -> Income:
    """Income of a player's (or, with its extra income, the foreign investor's) companies: no synergies."""
    inc = Income()
    total = 0
    for a in abbrs:
        c = companies[a]
        cost = costs.get(c.color, 0)
        inc.companies.append((a, c.income, cost))
        total += c.income - cost
    if foreign_investor_income is not None:
        inc.bonuses.append(("foreign investor", foreign_investor_income))
        total += foreign_investor_income
    inc.total = total
    return inc


def corporation_income(name: str, ability: str | None, abbrs, costs: dict, companies) -> Income:
    """Income of a corporation: companies, cost of ownership, synergies and its ability."""
    inc = Income()
    printed = 0
    cost_total = 0
    for a in abbrs:
        c = companies[a]
        cost = costs.get(c.color, 0)
        inc.companies.append((a, c.income, cost))
        printed += c.income
        cost_total += cost
    pairs = synergy_pairs(abbrs, companies)
    inc.synergies = pairs
    total = printed - cost_total + sum(p[2] for p in pairs)
    if ability == PER_COMPANY and abbrs:
        inc.bonuses.append((f"{name}: +1 per company", len(abbrs)))
        total += len(abbrs)
    elif ability == DOUBLES_BEST and abbrs:
        best = max(abbrs, key=lambda a: companies[a].face_value)
        inc.bonuses.append((f"{name} doubles {best}", companies[best].income))
        total += companies[best].income
    elif ability == SYNERGY_PAIRS and len(pairs) >= 2:
        inc.bonuses.append((f"{name}: {len(pairs)} synergy markers", len(pairs) // 2))
        total += len(pairs) // 2
    elif ability == COST_RELIEF and cost_total:
        relief = min(COST_RELIEF_MAX, cost_total)
        inc.bonuses.append((f"{name} cost of ownership relief", relief))
        total += relief
    inc.total = total
    return inc
