"""Grammar around names (issue 28): articles, possessives, plurals and verb agreement come from one
helper (assistant/rules/core/words.py), and the engine's sentences and the phone's buttons use it.

The expected words are the issue's own examples, written out by hand.
"""

from __future__ import annotations

import pytest

from assistant.rules.core import words
from assistant.rules.core.errors import RuleError
from assistant.rules.core.phases.dividends import explain_dividend_limit
from assistant.rules.core.phases.investment import explain_share_price
from assistant.web import action_forms as web_menu

from .builders import corporation, enter_phase, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.mark.parametrize(
    ("phrase", "said"),
    [
        ("Overseas Trading share", "an Overseas Trading share"),
        ("Eagle share", "an Eagle share"),
        ("Orion share", "an Orion share"),
        ("Horse share", "a Horse share"),
        ("Doppler AG share", "a Doppler AG share"),
        ("Union Pacific share", "a Union Pacific share"),
        ("hour", "an hour"),
        ("FS", "an FS"),
        ("PRU share", "a PRU share"),
        ("8 card", "an 8 card"),
        ("18 card", "an 18 card"),
        ("80 card", "an 80 card"),
        ("9 card", "a 9 card"),
    ],
)
def test_the_article_is_the_one_the_name_sounds_like(phrase, said):
    assert words.a(phrase) == said


def test_possessives_plurals_and_verbs():
    assert words.possessive("Stock Masters") == "Stock Masters'"
    assert words.possessive("Junkyard Scrappers") == "Junkyard Scrappers'"
    assert words.possessive("Amy") == "Amy's"
    assert words.possessive("Jupiter") == "Jupiter's"
    assert words.possessive("KRS") == "KRS's"  # an abbreviation in capitals keeps 's
    assert words.count(1, "Doppler AG share") == "1 Doppler AG share"
    assert words.count(2, "share") == "2 shares"
    assert words.count(0, "share") == "0 shares"
    assert words.they(["Horse"], "decides", "decide") == "Horse decides"
    assert words.they(["Horse", "Eagle"], "decides", "decide") == "Horse and Eagle decide"
    assert words.and_list(["Horse", "Eagle", "Ship"]) == "Horse, Eagle and Ship"


def _investment_with_overseas_trading():
    """Turn 2, phase 1, Amy to act; Overseas Trading (Brian president, one share) is in play."""
    g = table(PLAYERS, cash={"Amy": 30, "Brian": 20, "Crystal": 20}, turn=2)
    place(g, "BSE", "Crystal")
    place(g, "KME", "Brian")
    place(g, "MHE", "available")
    place(g, "MS", "available")
    place(g, "WT", "unavailable")
    corporation(g, "Overseas Trading", price=10, companies=["BPM"], cash=5, shares={"Brian": 1}, bank=1)
    return enter_phase(g, 1, actor="Amy")


def test_the_journal_and_the_buttons_say_an_overseas_trading_share():
    g = _investment_with_overseas_trading()
    buy = next(m for m in g.legal_actions() if m["type"] == "buy_share")
    assert buy["corporation"] == "Overseas Trading"
    groups = web_menu.build([buy], g.snapshot(), g.ruleset)
    labels = [b.label for grp in groups for f in grp.forms for b in f.buttons]
    assert labels == [f"Buy an Overseas Trading share for {buy['price']}"]
    assert explain_share_price(g, "Overseas Trading", True)["title"] == "Buying an Overseas Trading share"
    g.apply({"type": "buy_share", "player": "Amy", "corporation": "Overseas Trading"})
    assert g.journal[-1]["text"].startswith("Amy buys an Overseas Trading share for ")


def test_a_turn_refusal_says_stock_masters_turn():
    g = table(PLAYERS, turn=2)
    place(g, "BPM", "Crystal")
    place(g, "MHE", "available")
    place(g, "MS", "available")
    place(g, "WT", "unavailable")
    corporation(g, "Stock Masters", price=20, companies=["BSE"], cash=30, shares={"Amy": 2})
    corporation(g, "Doppler AG", price=11, companies=["KME"], cash=30, shares={"Brian": 1}, bank=1)
    enter_phase(g, 6)
    assert g.next["corporation"] == "Stock Masters"  # the higher share price pays first
    with pytest.raises(RuleError) as err:
        g.apply({"type": "dividend", "corporation": "Doppler AG", "amount": 0})
    assert "It is Stock Masters' turn, not Doppler AG's." in err.value.message
    dividend = explain_dividend_limit(g, "Doppler AG")
    assert "30 cash for 2 issued shares allows" in " ".join(dividend["lines"])
