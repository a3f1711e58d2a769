"""The end card (Stars: phase 7): the game ends when a corporation reached the top share price or
the game end card was flipped before; the card flips when no unowned company is left."""

from __future__ import annotations


class EndCardMixin:
    def _start_end_card(self):
        top_price = self.cards.top_price
        at_top = [c.name for c in self.corps.values() if c.price == top_price]
        if at_top:
            self._log(f"{', '.join(at_top)} at {self.ruleset.cash(top_price)}: the game ends")
            self._finish_game()
        elif self.end_flipped:
            self._log("The game end card was already flipped: the game ends")
            self._finish_game()
        elif not self.unowned_left():
            self.end_flipped = True
            self._log(
                f"No unowned companies are left: the game end card is flipped (cost of ownership "
                f"{self.ruleset.cash(10)} for red, orange, yellow and green); the game ends in the next phase 7"
            )
