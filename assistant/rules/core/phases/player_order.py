"""The new player order (classic: phase 4; Stars: the start of its wrap-up): by money, most first."""

from __future__ import annotations


class PlayerOrderMixin:
    def _start_player_order(self) -> None:
        self._new_player_order()

    def _new_player_order(self) -> None:
        """By money, most first; ties keep the old order."""
        old = self.order
        self.order = sorted(old, key=lambda p: (-self.players[p].cash, old.index(p)))
        self._log("New player order: " + ", ".join(self.order))
