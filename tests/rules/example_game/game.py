"""Rolling Stock Sprint's rule hooks: its turn is Stars' nine phases, its deck has every company."""

from __future__ import annotations

from assistant.rules.core import events
from assistant.rules.core.game import Game


class SprintGame(Game):
    GAME = "example-sprint"
    PHASES = ("investment", "wrap_up", "acquisition", "closing", "income", "dividends", "end_card", "issue", "ipo")
    PHASE_NAMES = dict(enumerate(("Invest", "Wrap up", "Buy", "Close", "Earn", "Pay", "End?", "Issue", "Float"), 1))
    END_PHASE = "end_card"
    EVENT_RULES = {"reveal": "sprint"}
    EVENT_TYPES = events.COMMON
    MIN_PLAYERS, MAX_PLAYERS = 2, 3

    def _configure(self, options, deck, persons) -> None:
        self._seat_persons(options, persons)
        self.colors = self.cards.colors
        self.deck_left = dict(self.cards.deck_counts[len(self.players)])
        self.open_deck = None


class SteadyPrices:
    """Sprint's price mechanism: a share price moves one card up after a dividend of 2 or more cash
    per share left in the treasury, else it stays."""

    key = "steady"
    title = "Steady"

    def adjustment(self, game, corp, cash: int):
        steps = 1 if cash >= 2 * corp.issued else 0
        move = game.price_move(corp, steps)
        return move, {"cash_per_share": cash // max(1, corp.issued)}, move.describe()

    def rating(self, game, name: str) -> dict:
        return {}

    def ipo_figures(self, game, charter, abbr, price, shares, treasury) -> dict:
        return {}

    def explain(self, game, name: str) -> dict:
        corp = game.corps[name]
        return {"title": f"{name}", "total": corp.cash, "lines": [f"Treasury: {corp.cash}."]}

    def dividend_lines(self, game, corp, cash, facts, move) -> list[str]:
        return [f"{cash} left: {move.describe()}."]
