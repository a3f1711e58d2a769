"""The end of game check (classic: phase 10, Guide 1.6.10): the game ends when a corporation holds
the top share price or the game end card was flipped before; the card flips when the offering is
empty."""

from __future__ import annotations


class EndCheckMixin:
    def _start_end_check(self) -> None:
        at_top = [c.name for c in self.corps.values() if c.price == self.cards.top_price]
        if at_top:
            self._log(f"{', '.join(at_top)} at {self.ruleset.cash(self.cards.top_price)}: the game ends")
            self._finish_game()
        elif self.end_flipped:
            self._log("The game end card was already flipped: the game ends")
            self._finish_game()
        elif not (self.available or self.unavailable):
            self.end_flipped = True
            cost = ", ".join(f"{c} {self.ruleset.cash(v)}" for c, v in self.cost_shown_by("end_back").items())
            self._log(
                f"No company is left in the offering: the game end card is flipped (cost of ownership "
                f"{cost}); the game ends in the next phase 10"
            )
