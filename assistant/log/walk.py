"""The walk of a game's log rows, without the engine: which entries are in effect, undone, corrected
or set aside.  It knows every kind of row the store writes:

* a table event: a new entry in effect (what was undone before it can no longer be restored);
* ``{"type": "undo"}``: takes back the latest entry still in effect (an event, a correction or a
  going back, each as a whole);
* ``{"type": "redo"}``: brings back the latest entry undone, while nothing new was entered since;
* ``{"type": "amend", "index": k, "event": {...}, "kept": [...], "set_aside": [...]}``: a correction
  (``corrections.py``): entry ``k`` becomes ``event``; ``kept`` lists which of the entries after it
  stay in effect, in order, by their place after entry ``k`` (0: the entry right after it).  Rows
  written before corrections kept every entry that still fits hold a count there instead: the
  first ``kept`` entries after ``k``, as they were replayed then;
* ``{"type": "go_back", "to": R, "index": k}``: the game becomes what it was after row ``R``: the
  effective events from ``k`` on are replaced by those row ``R`` had from ``k`` on.  The store writes
  it so (``compact``: a row number, not the events it brings back; issue 38: a row of 12 KB each),
  and puts the events back in when it reads it (``expand``); rows written before hold them
  (``"events": [...]``) and are read as they are.

Rows are read in one place, ``read_row`` (the store's tables hand them over as stored JSON).
"""

from __future__ import annotations

import json

from assistant.rules.core import deadline
from assistant.rules.core.events import AMEND, GO_BACK, REDO, UNDO

UNDOS_WITHOUT_CONFIRM = 3  # past this many undos in a row, the next one must be confirmed again
JUMPS = (AMEND, GO_BACK)  # rows that replace the effective events from an index on


def read_row(text: str) -> dict:
    """A stored row's event, as the walk and the engine read it (ValueError: not readable)."""
    return json.loads(text)


def kept_entries(row: dict, later: list) -> list:
    """The entries after a correction's ``index`` that it kept in effect, in order (``later``: the
    effective entries after it when it was entered)."""
    kept = row.get("kept") or 0
    if isinstance(kept, int):  # a row written before corrections kept every entry that still fits
        return list(later[:kept])
    return [later[i] for i in kept]


def kept_places(row: dict, later: int) -> list[int]:
    """The places (0: right after the corrected entry) of the entries a correction kept, of ``later``."""
    kept = row.get("kept") or 0
    return list(range(min(kept, later))) if isinstance(kept, int) else list(kept)


def kept_count(row: dict) -> int:
    kept = row.get("kept") or 0
    return kept if isinstance(kept, int) else len(kept)


def new_tail(row: dict, old: list) -> list:
    """The effective events a correction or a going back puts in place of ``old`` (the effective
    events from its index on)."""
    if row.get("type") == GO_BACK:
        return list(row["events"])
    return [row["event"], *kept_entries(row, old[1:])]


def compact(row: dict) -> dict:
    """The row as it is stored: a going back without the events it brings back (its row says them)."""
    if row.get("type") == GO_BACK:
        return {k: v for k, v in row.items() if k != "events"}
    return row


def is_compact(row: dict) -> bool:
    """A going back as stored (without its events): ``expand`` puts them back."""
    return row.get("type") == GO_BACK and "events" not in row


def expand(rows) -> dict[int, dict]:
    """The compact going-back rows among ``rows`` (the log from its start, in order), each with the
    events it brings back: {seq: row}.  ValueError: one names a row or an index it cannot have."""
    targets = {r.event.get("to") for r in rows if is_compact(r.event)}
    walk, there, out = Walk(), {}, {}
    for n, r in enumerate(rows):
        if not n % 256:
            deadline.check()
        event = r.event
        if is_compact(event):
            to, k = event.get("to"), event.get("index")
            if to not in there or type(k) is not int or not 0 <= k <= len(there[to]):
                raise ValueError(f"row {r.seq} goes back to a row it cannot: {to!r}, from entry {k!r}")
            event = out[r.seq] = {**event, "events": there[to][k:]}
        walk.step(event)
        if r.seq in targets:
            there[r.seq] = list(walk.out)
    return out


def effective_events(rows) -> list[dict]:
    """The log with undo, restores, corrections and going back applied."""
    return Walk.of(rows).out


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
        # the latest correction or going back of the log, in effect or not (its words: meanwhile.py)
        self.latest_amend: dict | None = None
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
        """What a redo can bring back, the next one first (a correction or a going back as its row)."""
        return [entry for _kind, entry in reversed(self.back)]

    @property
    def last_taken(self) -> dict | None:
        """The row of the latest entry in effect if it is a correction or a going back (what an
        undo takes back whole), else None."""
        if self.taken and self.taken[-1][0] == "amend":
            return self.taken[-1][3]
        return None

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
                    self._jump(entry)
        elif kind in JUMPS:
            self.back.clear()
            self.latest_amend = event
            self._jump(event)
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

    def _jump(self, row: dict) -> None:
        """A correction or a going back: the effective events from its index on replaced."""
        k = row["index"]
        old = self._cut(k)
        self.out.extend(new_tail(row, old))
        self.taken.append(("amend", k, old, row))
        self.taken_count += 1

    def go_back(self, target: Walk, to: int) -> dict:
        """The row that makes this walk's effective events ``target``'s (the walk after row ``to``):
        both must hold the events from the log's start (``Walk.of`` the rows)."""
        k = 0
        for mine, theirs in zip(self.out, target.out, strict=False):
            if mine != theirs:
                break
            k += 1
        return {"type": GO_BACK, "to": to, "index": k, "events": target.out[k:]}
