"""The action panel offers classic's own event, share redemption (Guide 3.6), as a form whose
posted fields rebuild exactly the engine's event."""

from __future__ import annotations

from assistant.rules.classic.game import ClassicGame
from assistant.rules.core.entities import Corporation
from assistant.rules.registry import CLASSIC
from assistant.web import action_forms as web_menu


def _redeemable_game() -> ClassicGame:
    """Phase 1 of turn 2 with the Bear (3 shares issued, one in the bank, $30) to decide."""
    g = CLASSIC.create(["Amy", "Brian", "Crystal"], ["share_redemption"])
    for abbr in ("BME", "KME", "MHE"):
        g.apply({"type": "reveal", "company": abbr})
    bear = Corporation("Bear", 13, 10)
    bear.cash, bear.issued, bear.bank_shares, bear.president = 30, 3, 1, "Amy"
    g.corps["Bear"], g.price_holder[13] = bear, "Bear"
    g.players["Amy"].shares["Bear"] = 2
    g.seen.add("BD")
    g.deck_left["orange"] -= 1
    g._give_company("BD", bear)
    g.turn, g.phase = 2, 1
    g._start_issue()
    g._advance()
    return g


def test_redeem_is_a_form_that_rebuilds_the_event():
    g = _redeemable_game()
    assert g.next == {"player": "Amy", "for": "issue", "corporation": "Bear"}
    groups = web_menu.build(g.legal_actions(), g.snapshot(), g.ruleset)
    forms = [f for grp in groups for f in grp.forms if f.hidden.get("type") == "redeem"]
    assert len(forms) == 1 and forms[0].actor == "Amy"
    assert forms[0].buttons[0].label == "Redeem a Bear share from the bank (the treasury pays 14)"
    event = web_menu.event_from_form({f"e.{k}": str(v) for k, v in forms[0].hidden.items()})
    assert event == {"type": "redeem", "corporation": "Bear"}
    g.apply(event)
    assert (g.corps["Bear"].price, g.corps["Bear"].issued, g.corps["Bear"].cash) == (14, 2, 16)
