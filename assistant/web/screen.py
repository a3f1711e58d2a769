"""The board: the table's own screen, read from 2 m on a tablet or TV in the middle of the table.

It shows what everybody at a physical table looks at (whose turn, the phase track, the offering,
the deck, the price row, the corporations as their cards lie, the players, the foreign
investor, and at the end the final scoring), from the same page model as the phones; it holds
no controls.  This module adds only what the board lays out differently."""

from __future__ import annotations

from functools import cached_property

from assistant.web.context import TablePage


class BoardScreen(TablePage):
    """A TablePage for the board page (no seat: the board is everybody's)."""

    @cached_property
    def seat(self) -> str | None:
        return None  # the board belongs to the whole table, whatever phone opened it before

    @cached_property
    def phase_track(self) -> list[dict]:
        """Every phase of the turn, in order, with the current one marked (none during set-up and at the end)."""
        current = None if self.in_setup or self.snap.get("game_over") else self.phase
        return [
            {"no": n, "name": self.ruleset.phase_name(n), "current": n == current}
            for n in range(1, len(self.game.PHASES) + 1)
        ]

    @cached_property
    def waiting_line(self) -> str:
        """Who acts: the player whose decision it is, or the players the any-order phase waits for."""
        who = (self.next or {}).get("player")
        if who:
            return f"{who} to act"
        return f"Waiting for {self.waiting_for}" if self.waiting_for else ""

    @cached_property
    def foreign(self) -> dict:
        fi = self.snap.get("foreign_investor") or {}
        return {
            "cash": fi.get("cash"),
            "income": fi.get("income"),
            "companies": self.sorted_companies(fi.get("companies") or []),
        }
