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

This module is the only reader of those kinds of rows (issue 39): the rest of the code asks it what
a row does (``is_history``, ``goes_back``, ``corrects``, the move ``Walk.step`` returns, how far back
rows reach: ``reach``) and which row an entry of the table is written as (``row_for``, ``row_form``).
"""

from __future__ import annotations

import json

from assistant.rules.core import deadline
from assistant.rules.core.events import AMEND, GO_BACK, REDO, UNDO

UNDOS_WITHOUT_CONFIRM = 3  # past this many undos in a row, the next one must be confirmed again
JUMPS = (AMEND, GO_BACK)  # rows that replace the effective events from an index on
HISTORY = (UNDO, REDO, *JUMPS)  # rows that change which entries are in effect (not a new entry)

# What a row did, as ``Walk.step`` returns it (None: an undo or a redo that had nothing to do)
ENTERED = "entered"  # a new entry in effect
TAKEN_BACK = "taken back"  # the latest entry in effect taken back
RESTORED = "restored"  # the latest entry undone brought back
JUMPED = "jumped"  # the effective events from the row's ``index`` on replaced


class NotARow(Exception):
    """An entry of the table that the log cannot take as it stands (``message``: why)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def read_row(text: str) -> dict:
    """A stored row's event, as the walk and the engine read it (ValueError: not readable)."""
    return json.loads(text)


def is_history(row: dict) -> bool:
    """Whether ``row`` is a row of the history (an undo, a restore, a correction, a going back), which
    changes which entries are in effect, rather than a new entry."""
    return row.get("type") in HISTORY


def goes_back(row: dict) -> bool:
    """Whether ``row`` is a going back (to the game as it was after its row ``to``)."""
    return row.get("type") == GO_BACK


def corrects(row: dict) -> bool:
    """Whether ``row`` is a correction (of its entry ``index``)."""
    return row.get("type") == AMEND


def asks_confirm(event: dict, undos_in_a_row) -> bool:
    """Whether ``event`` must be confirmed before it is written: an undo after
    ``UNDOS_WITHOUT_CONFIRM`` undos in a row (``undos_in_a_row()``, asked only for an undo)."""
    return event.get("type") == UNDO and undos_in_a_row() >= UNDOS_WITHOUT_CONFIRM


def row_form(event: dict, stored: dict) -> dict:
    """``stored`` (``event`` as the engine keeps it) with the fields only the walk reads: a going
    back's ``to``, the row it goes back to."""
    if stored["type"] == GO_BACK and "to" in event:
        stored["to"] = event["to"]
    return stored


def row_for(walk: Walk, event: dict, seq: int, go_back) -> dict:
    """The log row ``event`` is written as, after ``walk`` (the log's first ``seq`` rows): a going
    back with the events it brings back (``go_back(to)``: its row).  NotARow: the log has nothing for
    an undo or a redo to do, a correction is sent to its own door, a going back names no earlier row."""
    kind = event["type"]
    if kind == UNDO and not walk.taken_count:
        raise NotARow("there is nothing to undo")
    if kind == REDO and not walk.back:
        raise NotARow(
            "there is nothing to restore: no entry was undone since the last one entered "
            "(the Log's full history still shows every entry ever made)"
        )
    if kind == AMEND:
        raise NotARow('a correction is sent to /games/<id>/amend: {"seq", "index", "event"}')
    if kind == GO_BACK:
        to = event.get("to")
        if type(to) is not int or not 1 <= to < seq:
            raise NotARow(
                f"to must be the seq of an earlier row of the log, from 1 to {seq - 1} (the game's history lists them)"
                if seq > 1
                else "there is no earlier row to go back to"
            )
        return go_back(to)
    return event


def reach(walk: Walk, events) -> int | None:
    """The fewest effective events there are while ``events`` (log rows) are read after ``walk``;
    None when they hold a correction or a going back, take back one made before them, restore an
    entry undone before them, or reach further back than ``walk`` holds (what they did is then
    known only from the log's start)."""
    if any(event.get("type") in JUMPS for event in events):
        return None
    before, after = walk.taken, walk.restart()
    low, undone_before = len(before), len(walk.back)
    try:
        for event in events:
            kind = event.get("type")
            if kind == REDO and after.back and len(after.back) <= undone_before:
                return None  # it restores an entry undone before them
            if kind not in (UNDO, REDO):
                undone_before = 0
            after.step(event)
            low = min(low, len(after.taken))
    except TooShort:
        return None
    if any(entry[0] == "amend" for entry in before[low:]):
        return None  # they take back a correction or a going back made before them
    return after.low


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

    @property
    def latest_correction(self) -> dict | None:
        """The latest correction of the log, in effect or not (None: there is none, or a going back
        came after it)."""
        row = self.latest_amend
        return row if row is not None and corrects(row) else None

    @property
    def many_undos(self) -> bool:
        """Whether the log ends with so many undos in a row that the next one is asked again."""
        return self.undos_at_end >= UNDOS_WITHOUT_CONFIRM

    def step(self, event: dict) -> str | None:
        """Read one more row of the log (TooShort: it reaches further back than this walk holds);
        what it did: ENTERED, TAKEN_BACK, RESTORED, JUMPED, or None (an undo or a redo with nothing to do)."""
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
                    self.back.append(("amend", done[3]))  # pragma: no mutate: any tag but "event" reads as a jump
                self.taken.pop()
                self.taken_count -= 1
                self.low = min(self.low, self.count)
                return TAKEN_BACK
            return None
        if kind == REDO:
            if self.back:
                again, entry = self.back.pop()
                if again == "event":
                    self._push(entry)
                else:
                    self._jump(entry)
                return RESTORED
            return None
        self.back.clear()
        if kind in JUMPS:
            self.latest_amend = event
            self._jump(event)
            return JUMPED
        self._push(event)
        return ENTERED

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
        for mine, theirs in zip(self.out, target.out, strict=False):  # pragma: no mutate: strict=None is False
            if mine != theirs:
                break
            k += 1
        return {"type": GO_BACK, "to": to, "index": k, "events": target.out[k:]}
