"""Each player's "I'm done" in the any-order phases (acquisition and closing), one at a time, and
the table's ``done`` that ends such a phase for all."""

from __future__ import annotations

from ..errors import RuleError


class DoneMixin:
    # ------------------------------------------------------------------ "I'm done", one player at a time
    # In the any-order phases each player who could still act says "I'm done" on their own phone
    # (``player_done``, a live event never exported); when everyone who could act has said it,
    # the phase ends as if the table had entered ``done``.  ``done`` itself still ends it for all.
    def could_act(self, actions: list[dict] | None = None) -> list[str]:
        """The players who could still act in the open any-order phase, in player order: the
        presidents with a purchase left (acquisition), the owners of companies they may close
        (closing).  ``actions``: those purchases or closings, when the caller has them already."""
        if not self.phase_open or self.intervention is not None:
            return []
        if actions is None:
            if self.phase_kind == "acquisition":
                actions = self._purchases()
            elif self.phase_kind == "closing":
                actions = self._closings()
            else:
                return []
        who = {m.get("player") or m.get("president") for m in actions}
        return [p for p in self.order if p in who]

    def not_done_yet(self, actions: list[dict] | None = None) -> list[str]:
        """The players who could still act and have not said "I'm done"."""
        return [p for p in self.could_act(actions) if p not in self.said_done]

    def _phase_done_items(self, actions: list[dict], short=frozenset()) -> list[dict]:
        """Each player who could still act (from ``actions``, the phase's menu) and has not said so
        may say "I'm done"; the table may end the phase unless someone must close companies first."""
        waiting = self.not_done_yet(actions)
        out = [{"type": "player_done", "player": p, "phase": self.phase} for p in waiting if p not in short]
        if not short:
            out.append({"type": "done", "phase": self.phase, "waiting_for": waiting})
        return out

    def _not_done(self, player) -> None:
        """A player who acts after saying "I'm done" was not done after all."""
        if player in self.said_done:
            self.said_done.remove(player)

    def _everyone_done(self) -> bool:
        """After some player said "I'm done": whether everyone who could act has said it; if so
        the phase ends here, written in a transcript as the table's ``done``."""
        if not self.said_done or not self.phase_open or self.not_done_yet():
            return False
        self.phase_open = False
        self._written = [*self._written, {"type": "done", "phase": self.phase}]
        self._log(f"Everyone who could act is done ({', '.join(self.said_done)}): {self._phase_done_words()}")
        return True

    def _nobody_can_act(self) -> bool:
        """The open any-order phase when no player could act in it any more (no purchase left
        for any president, no company anyone may close): it ends by itself, written in a
        transcript as the table's ``done``; a ``done`` for it entered afterwards is then
        accepted as a no-op (``Game.apply``).  Not in a transcript's replay (``ends_idle_phases``
        False): FORMAT.md keeps such a phase open until its ``done`` ("an open phase may offer no
        possible transaction; the table then just says done"), and checkpoints show it open."""
        if self.edition < 2 or not self.ends_idle_phases or not self.phase_open or self.intervention is not None:
            return False
        if self.could_act():
            return False
        self.phase_open = False
        self._written = [*self._written, {"type": "done", "phase": self.phase}]
        self.auto_ended = [*self.auto_ended, self.phase]
        self._log(f"Nobody can act any more in this phase: {self._phase_done_words()}")
        return True

    def _phase_done_words(self) -> str:
        return self.ruleset.word("acquisitions_done" if self.phase_kind == "acquisition" else "closing_done")

    def _check_done_phase(self, phase) -> None:
        buying, closing = self.phase_no("acquisition"), self.phase_no("closing")
        if phase not in (buying, closing):
            said = self.ruleset.phase_said
            raise RuleError(f"Only {said(buying)} and {said(closing)} are declared done.")
        if self.phase != phase:
            raise RuleError(f"It is phase {self.phase}, not phase {phase}.")
        if self.intervention is not None:
            raise RuleError(f"First settle {self._pending_words()}: does a corporation intervene?")
        if not self.phase_open:
            raise RuleError(f"Phase {phase} is already over.")

    def _ev_player_done(self, ev) -> str:
        self._check_done_phase(ev.get("phase"))
        name = ev.get("player")
        if name not in self.players:
            raise RuleError(f"{name!r} is not a player in this game.")
        if name in self.said_done:
            raise RuleError(f"{name} has already said they are done.")
        if name not in self.could_act():
            raise RuleError(f"{name} has nothing left to do in this phase, so there is nothing to say done.")
        short = [s for s in self.players_short() if s[0] == name] if self.phase_kind == "closing" else []
        if short:
            _, cash, income = short[0]
            raise RuleError(
                f"{name} must close companies first: {self.ruleset.cash(cash)} money and {income} income "
                f"(a player must be able to pay a negative income)."
            )
        self.said_done.append(name)
        self._written = []
        waiting = self.not_done_yet()
        if waiting:
            return f"{name} is done; waiting for {', '.join(waiting)}"
        return f"{name} is done"

    def _ev_done(self, ev) -> str:
        phase = ev.get("phase")
        self._check_done_phase(phase)
        self._written = [{"type": "done", "phase": phase}]
        by = f" (ended by {ev['by']} for the table)" if ev.get("by") else ""
        if phase == self.phase_no("acquisition"):
            self.phase_open = False
            return self.ruleset.word("acquisitions_done") + by
        short = self.players_short()
        if short:
            raise RuleError(
                "; ".join(
                    f"{name} must close companies first: {self.ruleset.cash(cash)} money and {income} income"
                    for name, cash, income in short
                )
                + " (a player must be able to pay a negative income)."
            )
        self.phase_open = False
        return self.ruleset.word("closing_done") + by
