"""A game's records: the journal, one entry per accepted event, oldest first.

A game replayed from its start holds every entry.  A game restored from a saved state (the store's
``assistant/log/saved.py``) holds only its latest entries, which is all a page needs; the older
ones (``base`` of them) are fetched by the ``load`` function the store gives (it returns the
journal as it was saved, or at least its first ``base`` entries), on first need (the Log's full
history, the charts, the correction of an old entry), once, and shared by every fork of that game.
The export does not need them: ``Game.transcript_events(head)`` writes them from the log's events.

The entries a game keeps are packed: tuples of plain values (``_pack``), handed out as dicts.  Python's
garbage collector looks at every dict and list it could free, and a server holds the journals of a
thousand games: a full collection over their entries' dicts took most of a second, in which no table
got an answer.  A tuple of plain values it stops looking at.  An entry is appended as the engine
writes it and packed by ``pack()``, which whoever keeps the game calls (the store, before it caches
a game): a replay that keeps nothing (a preview, a walk, the command line) packs nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence


class _Head:
    """The entries a restored game does not hold, shared by its forks: fetched once, on first need."""

    __slots__ = ("count", "load", "entries", "lock")

    def __init__(self, count: int, load: Callable[[], list[dict]] | None):
        self.count, self.load, self.entries = count, load, None
        self.lock = threading.Lock()

    def get(self) -> list[dict]:
        with self.lock:
            if self.entries is None:
                if self.load is None:
                    raise LookupError(f"the {self.count} oldest journal entries of this game are not at hand")
                entries = self.load()  # the journal of the game as it was saved (at least the head)
                if len(entries) < self.count:
                    raise LookupError(f"expected the {self.count} oldest journal entries, got {len(entries)}")
                self.entries = list(entries[: self.count])
            return self.entries


def _pack(entry) -> tuple:
    """An entry as a tuple of plain values: (event items, text, auto, moves, written or None); an
    entry packed already is kept as it is."""
    if type(entry) is tuple:
        return entry
    written = entry.get("written")
    return (
        tuple(entry["event"].items()),
        entry["text"],
        tuple(entry["auto"]),
        tuple(entry["moves"]),
        None if written is None else tuple(tuple(e.items()) for e in written),
    )


def _unpack(packed) -> dict:
    """An entry as a new dict (whoever gets it may change it: the journal's own is not touched)."""
    if type(packed) is dict:  # not packed yet: as the engine wrote it
        event, text, auto, moves = packed["event"], packed["text"], packed["auto"], packed["moves"]
        out = {"event": dict(event), "text": text, "auto": tuple(auto), "moves": tuple(moves)}
        if "written" in packed:
            out["written"] = tuple(dict(e) for e in packed["written"])
        return out
    event, text, auto, moves, written = packed
    out = {"event": dict(event), "text": text, "auto": auto, "moves": moves}
    if written is not None:
        out["written"] = tuple(dict(e) for e in written)
    return out


LOOSE = 512  # entries appended before a journal packs them by itself (a game's page replays fewer)


class Journal(Sequence):
    """The journal as a sequence of entries (``len``, indexing, slices, iteration); only ``append`` changes it."""

    __slots__ = ("_head", "_tail")

    def __init__(self, entries=(), base: int = 0, load: Callable[[], list[dict]] | None = None):
        self._tail: list = [_pack(e) for e in entries]  # packed (module docstring), new ones appended as dicts
        self._head = _Head(base, load) if base else None

    def append(self, entry: dict) -> None:
        """One more entry, as the engine wrote it (never changed afterwards); packed by ``pack``, and
        every ``LOOSE`` entries here: a long replay (an export's check, a 20,000-row log) never holds
        more than that many for the garbage collector to look at again and again."""
        tail = self._tail
        tail.append(entry)
        if len(tail) % LOOSE == 0:
            self.pack()

    def pack(self) -> None:
        """Pack the entries appended since the last ``pack`` (module docstring): the latest ones, since
        all before them are packed.  The list is a new one: a fork's journal may share the old."""
        tail = self._tail
        loose = len(tail)
        while loose and type(tail[loose - 1]) is not tuple:
            loose -= 1
        if loose < len(tail):
            self._tail = tail[:loose] + [_pack(e) for e in tail[loose:]]

    @property
    def base(self) -> int:
        """How many of the oldest entries this journal does not hold itself (0: it holds them all)."""
        return 0 if self._head is None else self._head.count

    @property
    def fetched(self) -> bool:
        """Whether the older entries were fetched (always True for a journal that holds them all)."""
        return self._head is None or self._head.entries is not None

    @property
    def held(self) -> list[dict]:
        """The latest entries, the ones held (all of them unless restored from a saved state)."""
        return [_unpack(p) for p in self._tail]

    def held_events(self) -> list[dict]:
        """The events of the entries held, as entered (without unpacking the rest of each entry)."""
        return [dict(p[0]) if type(p) is tuple else dict(p["event"]) for p in self._tail]

    def set_loader(self, load: Callable[[], list[dict]]) -> None:
        if self._head is not None:
            self._head.load = load

    def copy(self) -> Journal:
        """A journal to go on from: the held entries in a new list, the fetched head shared."""
        out = Journal()
        out._tail, out._head = list(self._tail), self._head  # the entries shared: never changed
        return out

    def latest(self, count: int) -> Journal:
        """A journal holding only the latest ``count`` entries (the older ones fetched by a loader set later)."""
        keep = self._tail[-count:] if count else []
        return Journal(keep, len(self) - len(keep))

    def __len__(self) -> int:
        return self.base + len(self._tail)

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1 and start >= self.base:
                return [_unpack(p) for p in self._tail[start - self.base : max(start, stop) - self.base]]
            return self._all()[index]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("journal index out of range")
        if index >= self.base:
            return _unpack(self._tail[index - self.base])
        return self._head.get()[index]

    def __iter__(self):
        if self._head is not None:
            yield from self._head.get()
        for packed in self._tail:
            yield _unpack(packed)

    def _all(self) -> list[dict]:
        return list(self)

    def __eq__(self, other) -> bool:
        if isinstance(other, Journal | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Journal({len(self)} entries, {len(self._tail)} held)"

    def __reduce__(self):
        # pickled (a saved state) with what it holds; the loader is the store's, set again on load
        return (Journal, (self._tail, self.base))


def banker_sheet(entry: dict, cash: Callable[[int], str] = str) -> list[str]:
    """What to move on the real table for one journal entry: who pays whom, grouped, each amount as
    ``cash`` writes it (the ruleset's: "12" in Stars, "$12" in v2.2 and classic)."""
    grouped: dict[tuple[str, str], int] = {}
    for payer, payee, amount, _why in entry.get("moves", ()):
        grouped[(payer, payee)] = grouped.get((payer, payee), 0) + amount
    by_payer: dict[str, list[str]] = {}
    for (payer, payee), amount in grouped.items():
        by_payer.setdefault(payer, []).append(f"{payee} {cash(amount)}")
    return [f"{payer} pays " + "; ".join(parts) for payer, parts in by_payer.items()]
