"""Rolling Stock Stars (and v2.2 under its names): the shared engine with Stars' own rule hooks.

What is Stars' own and lives here: the nine phases of its turn and their names, the canonical
rule each kind of event is judged by, the set-up (the deck per player count, the highest company
of each colour always in it, the variants open companies and two-handed), and the deduction that
the last card of a colour is its highest company.  Its figures are in ``cards.json``; its share
prices move by stars (``pricing.py``); its charters' abilities are the shared vocabulary of
``core/abilities.py``.
"""

from __future__ import annotations

from ..core import events
from ..core.errors import RuleError
from ..core.game import Game

PHASE_NAMES = {
    1: "Investment",
    2: "Wrap-up",
    3: "Acquisition",
    4: "Closing",
    5: "Income",
    6: "Dividends",
    7: "End card",
    8: "Issue shares",
    9: "IPO",
}

# The canonical rule (anchor in canonical_rules.json) each kind of event is judged by.
EVENT_RULES = {
    "reveal": "deck",
    "pass": "phase-1-investment",
    "bid": "auction",
    "leave": "auction",
    "buy_share": "buy-one-share",
    "sell_share": "sell-one-share",
    "acquire": "phase-3-acquisition",
    "announce": "phase-3-acquisition",
    "no_intervention": "phase-3-acquisition",
    "player_done": "phase-3-acquisition",
    "close": "phase-4-closing",
    "dividend": "pay-dividends",
    "issue": "issue-one-share",
    "skip_issue": "phase-8-issue-share",
    "ipo": "form-corporation",
    "skip_ipo": "phase-9-ipo",
}


class StarsGame(Game):
    """One game of Rolling Stock Stars (or v2.2), from set-up to final scoring."""

    GAME = "rolling-stock-stars"
    PHASES = ("investment", "wrap_up", "acquisition", "closing", "income", "dividends", "end_card", "issue", "ipo")
    PHASE_NAMES = PHASE_NAMES
    FIRST_PHASE = 1
    END_PHASE = "end_card"
    EVENT_RULES = EVENT_RULES
    EVENT_TYPES = events.COMMON

    def _configure(self, options, deck, persons) -> None:
        """Stars' deck per player count, open companies, two-handed."""
        self._seat_persons(options, persons)
        n = len(self.players)
        counts = self.cards.deck_counts[n]
        self.colors = self.cards.colors
        self.deck_left: dict[str, int] = dict(counts)
        self.open_deck: set[str] | None = None
        if "open_companies" in options:
            self.open_deck = self._check_open_deck(deck, counts, self.cards.highest_of_color)
        elif deck:
            raise RuleError("A deck list is only given in the open companies variant.")

    def reveal_choices(self) -> list[str]:
        """The highest company of each colour is always in the deck: the last card of a colour is
        it when it has not been drawn yet."""
        unseen = super().reveal_choices()
        color = self.top_color()
        if self.open_deck is None and color is not None and self.history_known:
            highest = self.cards.highest_of_color[color]
            if self.deck_left[color] == 1 and highest not in self.seen:
                return [highest]
        return unseen

    def reveal_refusal(self, company: str, color: str) -> str:
        if self.open_deck is not None or not self.history_known:
            return super().reveal_refusal(company, color)
        highest = self.cards.highest_of_color[color]
        return (
            f"Only one {color} card is left and the {highest} (highest {color}) "
            f"is always in the deck, so it must be the {highest}."
        )
