"""A dividend corrected two turns back, laid out by hand (issue 36): the figures below come from
the canonical rules and the card data (tests/web/turn_one.py's turn 1, then turns 2 and 3), not
from the engine, so the tests that correct it can tell a right correction from a wrong one.

After turn 1: Amy 20, Brian 30, Crystal 28 (the BSE), the foreign investor 9 (the BME); Prussian
Railway (Amy, 1 of 2 issued shares; the bank the other) owns the KME, has 15, share price 10.
The deck's top card is orange or yellow until turn 4, so no company has a cost of ownership.

Turn 2. Phase 1: Amy wins the MHE for 8 (20 → 12), the BD is drawn. Phase 2: the order stays
Brian 30, Crystal 28, Amy 12; the foreign investor (9) cannot pay for the WT (11). Phase 3:
Prussian Railway buys the MHE from Amy for 10 (15 → 5; Amy 22). Phase 5, income: Prussian
Railway 2 (KME) + 2 (MHE) + 1 (their synergy) + 1 per company (its ability) = 7 → 12; Crystal
+1 → 29; the foreign investor 1 + 5 → 15. Phase 6: **the dividend, 0 per share** (the card at 10
allows 0 to 3). Phase 8: no share issued. Phase 9: the BSE stays private.

Turn 3. Phase 1: Amy wins the WT for 11, the PR is drawn. Phase 2: the foreign investor buys the
BY for 12, the KK is drawn. Phase 3: **Prussian Railway buys the WT from Amy for 10** (12 → 2;
Amy 21). It could still buy the BSE (1 to 3), so the table ends the phase (a ``done`` that is an
entry, as is phase 4's). The dividend is 0 again, no share issued, the BSE stays private.

The correction: that first dividend becomes 3 per share. Prussian Railway pays 2 × 3 = 6 (12 → 6),
Amy gets 3 (22 → 25), the bank 3. Every later entry still fits (Amy's 25 pays her 11 for the
WT; at turn 3's wrap-up her 14 still puts her last, behind Brian 30 and Crystal 29) until the
purchase of the WT for 10: Prussian Railway has 6. It is set aside; the two phase ends, the
dividend of 0 and the share not issued fit after it and are kept. The WT stays Amy's, so in
phase 9 it is the WT's turn to go public first ("in descending Face Value Order"): the BSE's
"stays private" no longer fits there and is set aside too. 16 of the 18 later entries kept.
"""

from __future__ import annotations

from tests.web.turn_one import PLAYERS, TURN_ONE

PR = "Prussian Railway"

TURNS_TWO_AND_THREE = [
    # turn 2
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Crystal"},
    {"type": "bid", "player": "Amy", "company": "MHE", "price": 8},
    {"type": "leave", "player": "Brian"},
    {"type": "leave", "player": "Crystal"},
    {"type": "reveal", "company": "BD"},
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Crystal"},
    {"type": "pass", "player": "Amy"},
    {"type": "acquire", "corporation": PR, "company": "MHE", "price": 10},
    {"type": "done", "phase": 3},
    {"type": "done", "phase": 4},
    {"type": "dividend", "corporation": PR, "amount": 0},
    {"type": "skip_issue", "corporation": PR},
    {"type": "skip_ipo", "company": "BSE"},
    # turn 3
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Crystal"},
    {"type": "bid", "player": "Amy", "company": "WT", "price": 11},
    {"type": "leave", "player": "Brian"},
    {"type": "leave", "player": "Crystal"},
    {"type": "reveal", "company": "PR"},
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Crystal"},
    {"type": "pass", "player": "Amy"},
    {"type": "reveal", "company": "KK"},
    {"type": "acquire", "corporation": PR, "company": "WT", "price": 10},
    {"type": "done", "phase": 3},
    {"type": "done", "phase": 4},
    {"type": "dividend", "corporation": PR, "amount": 0},
    {"type": "skip_issue", "corporation": PR},
    {"type": "skip_ipo", "company": "BSE"},
]
EVENTS = TURN_ONE + TURNS_TWO_AND_THREE  # 21 + 31 = 52 entries, one log row each
DIVIDEND = len(TURN_ONE) + 12  # entry 33 (from 0): turn 2's dividend
CORRECTED = {"type": "dividend", "corporation": PR, "amount": 3}
LATER = EVENTS[DIVIDEND + 1 :]  # 18 entries
SET_ASIDE_PLACES = [12, 17]  # the purchase of the WT for 10, the BSE staying private
SET_ASIDE = [LATER[p] for p in SET_ASIDE_PLACES]
KEPT = [p for p in range(len(LATER)) if p not in SET_ASIDE_PLACES]  # places after the dividend

__all__ = ["CORRECTED", "DIVIDEND", "EVENTS", "KEPT", "LATER", "PLAYERS", "PR", "SET_ASIDE", "SET_ASIDE_PLACES"]
