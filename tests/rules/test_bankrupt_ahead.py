"""Bankruptcy ahead (issue 37), in every ruleset: in the closing phase, a corporation that cannot
pay its coming negative income is named before the income phase (Stars and v2.2: phase 5;
classic: phase 8, Players Guide 1.6.8: "If there is not enough left, it goes bankrupt"), with
the closings that avoid it.  The prediction is held against the engine's own income phase: left
alone the corporation goes bankrupt, with the advised closings it stays.

Each case is a seeded menu-driven game stopped in its closing phase at a corporation with a
negative income; its treasury is then set one short of paying it (as the builders lay out cards)."""

from __future__ import annotations

import random

import pytest

from assistant.rules import events_of, registry
from assistant.rules.core.phases.closing import bankrupt_ahead

RULESETS = [("rolling-stock-stars", []), ("rolling-stock-v2.2", []), ("rolling-stock", ["short"])]


def _closing_with_a_loss(ruleset, options):
    """A game in its closing phase where no player is short and a corporation with a president
    has a negative income; the corporation's name and income."""
    for seed in range(40):
        rng = random.Random(seed)
        g = ruleset.create(["A", "B", "C", "D"], options)
        while not g.game_over and len(g.events) < 3000:
            if g.phase_kind == "closing" and (g.next or {}).get("for") == "closing" and not g.players_short():
                costs = g.costs()
                for name, corp in g.corps.items():
                    income = g.corporation_income(name, corp.companies, costs).total
                    if corp.president and income < 0:
                        return g, name, income
            item = rng.choice(g.legal_actions())
            g.apply(events_of(item, lambda *a, rng=rng: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
    pytest.fail(f"no seeded {ruleset.title} game reaches a closing phase with a corporation losing money")


def _after_income(g, closings=()) -> dict:
    """The corporations after the income phase: ``closings`` entered, then the table's "phase done"
    for the closing phase (unless the last closing ended it)."""
    income = g.phase_no("income")
    seen = {}
    g.on_phase_end = lambda game: seen.setdefault(game.phase, game.snapshot()) if game.phase == income else None
    for abbr in closings:
        g.apply({"type": "close", "company": abbr})
    if g.phase_kind == "closing":
        g.apply({"type": "done", "phase": g.phase})
    return seen[income]["corporations"]


@pytest.mark.parametrize(("key", "options"), RULESETS)
def test_a_corporation_one_short_of_its_loss_is_named_and_the_advised_closings_save_it(key, options):
    g, name, income = _closing_with_a_loss(registry.get(key), options)
    g.corps[name].cash = -income - 1  # one short of paying its loss
    ahead = {row["corporation"]: row for row in bankrupt_ahead(g)}
    assert name in ahead and ahead[name]["income"] == income and ahead[name]["cash"] == -income - 1
    left_alone = g.clone()
    assert name not in _after_income(left_alone)  # bankrupt in the income phase
    close = ahead[name]["close"]
    if close is None:  # nothing saves it: every company but one closed, it still cannot pay
        return
    after = _after_income(g.clone(), close)
    assert name in after and after[name]["cash"] == ahead[name]["cash_after"] + ahead[name]["income_after"]


@pytest.mark.parametrize(("key", "options"), RULESETS)
def test_a_corporation_that_can_pay_its_loss_is_not_named(key, options):
    g, name, income = _closing_with_a_loss(registry.get(key), options)
    g.corps[name].cash = -income  # exactly enough
    assert name not in {row["corporation"] for row in bankrupt_ahead(g)}
    assert _after_income(g)[name]["cash"] == 0
