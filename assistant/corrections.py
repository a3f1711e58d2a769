"""Correcting an entry made long ago (issue 16): the corrected entry in its place, every later entry
that still fits kept, the first that no longer fits and all after it set aside (not lost).

The whole correction is one row of the log, ``{"type": "amend", "index": k, "event": {...},
"kept": n, "set_aside": [...]}``, worked out once, when it is entered, by the engine: ``index``
counts the effective table events (as ``/export`` lists them) from 0.  ``effective_events`` reads
the log with undo and corrections applied; one undo takes a correction back whole.
"""

from __future__ import annotations

from assistant import words
from assistant.rules import RuleError
from assistant.rules.core.events import AMEND, REDO, UNDO


def effective_events(rows) -> list[dict]:
    """The log with undo and corrections applied: each undo takes back the latest entry still in
    effect (an event, or a correction as a whole)."""
    return Walk.of(rows).out


UNDOS_WITHOUT_CONFIRM = 3  # past this many undos in a row, the next one must be confirmed again


class TooShort(Exception):
    """A walk resumed from a saved state was asked to take back more than that state holds."""


class Walk:
    """The log read in order, row by row: the effective events, what each entry in effect did
    (what an undo takes back), and what was undone since the last new entry (what a redo brings back).

    A walk from the log's start holds everything.  The store saves walks with its saved states
    (``trimmed``): those hold only the latest effective events, from index ``base`` on, and the
    latest entries in effect; a row that would reach further back raises TooShort, and the store
    then starts from an earlier saved state.  ``low`` is the fewest effective events there were
    since the walk (re)started (``restart``): the events below it were never touched meanwhile.
    """

    __slots__ = ("base", "out", "taken", "taken_count", "back", "undos_at_end", "latest_amend", "low")

    def __init__(self):
        self.base = 0
        self.out: list[dict] = []  # the effective events from index ``base`` on
        # what the latest entries in effect did, ("event",) or ("amend", index, the old tail, row)
        self.taken: list[tuple] = []
        self.taken_count = 0  # entries in effect, in all
        self.back: list[tuple] = []  # undone, most recent last: ("event", event) or ("amend", row)
        self.undos_at_end = 0
        self.latest_amend: dict | None = None  # the latest correction row of the log, in effect or not
        self.low = 0

    @classmethod
    def of(cls, rows) -> Walk:
        return cls.of_events(row.event for row in rows)

    @classmethod
    def of_events(cls, events) -> Walk:
        walk = cls()
        for event in events:
            walk.step(event)
        return walk

    @property
    def count(self) -> int:
        """How many effective events there are."""
        return self.base + len(self.out)

    @property
    def undone(self) -> list[dict]:
        """What a redo can bring back, the next one first."""
        return [entry for _kind, entry in reversed(self.back)]

    def copy(self) -> Walk:
        out = Walk()
        out.base, out.out, out.taken, out.taken_count = self.base, list(self.out), list(self.taken), self.taken_count
        out.back, out.undos_at_end, out.latest_amend = list(self.back), self.undos_at_end, self.latest_amend
        out.low = self.low
        return out

    def restart(self) -> Walk:
        """This walk, to go on from (a copy), with ``low`` at the effective events it has now."""
        out = self.copy()
        out.low = out.count
        return out

    def trimmed(self, keep: int) -> Walk:
        """A copy holding at most the latest ``keep`` effective events and entries in effect."""
        out = Walk()
        cut = max(0, len(self.out) - keep)
        out.base, out.out, out.taken_count = self.base + cut, self.out[cut:], self.taken_count
        out.back, out.undos_at_end, out.latest_amend = list(self.back), self.undos_at_end, self.latest_amend
        out.low = out.count
        taken = self.taken[-keep:] if keep else []
        # a correction that reaches below the events held, and all before it, cannot be taken back here
        for i in range(len(taken) - 1, -1, -1):
            if taken[i][0] == "amend" and taken[i][1] < out.base:
                taken = taken[i + 1 :]
                break
        out.taken = taken
        return out

    def step(self, event: dict) -> None:
        """Read one more row of the log (TooShort: it reaches further back than this walk holds)."""
        kind = event.get("type")
        self.undos_at_end = self.undos_at_end + 1 if kind == UNDO else 0
        if kind == UNDO:
            if self.taken_count:
                if not self.taken:
                    raise TooShort("the undo takes back an entry older than the saved state holds")
                done = self.taken[-1]
                if done[0] == "event":
                    if not self.out:
                        raise TooShort("the undo takes back an event older than the saved state holds")
                    self.back.append(("event", self.out.pop()))
                else:
                    self._cut(done[1])
                    self.out.extend(done[2])
                    self.back.append(("amend", done[3]))
                self.taken.pop()
                self.taken_count -= 1
                self.low = min(self.low, self.count)
        elif kind == REDO:
            if self.back:
                again, entry = self.back.pop()
                if again == "event":
                    self._push(entry)
                else:
                    self._amend(entry)
        elif kind == AMEND:
            self.back.clear()
            self.latest_amend = event
            self._amend(event)
        else:
            self.back.clear()
            self._push(event)

    def _push(self, event: dict) -> None:
        self.out.append(event)
        self.taken.append(("event",))
        self.taken_count += 1

    def _cut(self, index: int) -> list[dict]:
        """Remove and return the effective events from ``index`` on."""
        if index < self.base:
            raise TooShort("the correction reaches further back than the saved state holds")
        old = self.out[index - self.base :]
        del self.out[index - self.base :]
        self.low = min(self.low, index)
        return old

    def _amend(self, row: dict) -> None:
        k = row["index"]
        old = self._cut(k)
        self.out.extend([row["event"], *old[1 : 1 + row["kept"]]])
        self.taken.append(("amend", k, old, row))
        self.taken_count += 1


def correct(start, effective: list[dict], index: int, event: dict) -> dict:
    """The correction of entry ``index`` to ``event``, played from ``start`` (the game before the
    first entry): ``{"row": the log row, "game": the state after it, "kept": n, "set_aside": [...]}``.
    RuleError when the corrected entry itself does not fit where it stands."""
    if type(index) is not int or not 0 <= index < len(effective):
        raise RuleError(
            f"There is no entry {index!r} to correct: the game has {len(effective)} entries (0 to {len(effective) - 1})."
        )
    game = start
    for earlier in effective[:index]:
        game.apply(earlier)
    game.apply(event)  # RuleError: the corrected entry does not fit
    later = effective[index + 1 :]
    kept = 0
    for entry in later:
        try:
            game.apply(entry)
        except RuleError:
            break
        kept += 1
    set_aside = later[kept:]
    row = {"type": AMEND, "index": index, "event": event, "kept": kept, "set_aside": set_aside}
    return {"row": row, "game": game, "kept": kept, "set_aside": set_aside}


def why_set_aside(game, entries: list[dict]) -> list[dict]:
    """Each set-aside entry against the game now: whether it fits, and if not, why."""
    out = []
    for entry in entries:
        try:
            game.preview(entry)
        except RuleError as err:
            out.append({"event": entry, "fits": False, "reason": err.message})
        else:
            out.append({"event": entry, "fits": True, "reason": "It fits now: it can be entered again."})
    return out


def changes(before: dict, after: dict, limit: int = 8) -> list[str]:
    """What a correction changes, in words, from two snapshots ("Doppler AG's treasury 14 → 15")."""
    out = []
    for name, p in before.get("players", {}).items():
        q = after.get("players", {}).get(name, {})
        if p.get("cash") != q.get("cash"):
            out.append(f"{words.possessive(name)} money {p.get('cash')} → {q.get('cash')}")
    fi, gi = before.get("foreign_investor", {}), after.get("foreign_investor", {})
    if fi.get("cash") != gi.get("cash"):
        out.append(f"the foreign investor's money {fi.get('cash')} → {gi.get('cash')}")
    corps = dict.fromkeys([*before.get("corporations", {}), *after.get("corporations", {})])
    for name in corps:
        c, d = before.get("corporations", {}).get(name), after.get("corporations", {}).get(name)
        if c is None or d is None:
            out.append(f"{name} {'is formed' if c is None else 'is gone'}")
            continue
        if c.get("cash") != d.get("cash"):
            out.append(f"{words.possessive(name)} treasury {c.get('cash')} → {d.get('cash')}")
        if c.get("share_price") != d.get("share_price"):
            out.append(f"{words.possessive(name)} share price {c.get('share_price')} → {d.get('share_price')}")
    if before.get("turn") != after.get("turn") or before.get("phase") != after.get("phase"):
        out.append(f"turn {before.get('turn')}·{before.get('phase')} → {after.get('turn')}·{after.get('phase')}")
    return out if len(out) <= limit else [*out[:limit], f"and {len(out) - limit} more"]
