"""The games' seqs as a worker last heard them: what lets a poll be answered with no database call.

Every phone polls ``/version?seq=N`` once a second, and nearly every answer is "nothing new".  The
front answers it on the worker's event loop (``poll.FastPoll``).  Asking SQLite there, even one
indexed query, hands the interpreter's lock to the app's threads (they render pages) and the loop
waits to get it back: every request of the worker waits with it.  The worker's stream waker
(``stream.py``) already hears of every change within ``TICK_SECONDS``, so it keeps this record
too: the seq of each game a poll asked about, read in the same snapshot as the changes it reports,
so none falls between.

A poll uses the record only while it is fresh: the waker's last look at the database is less than
``FRESH_SECONDS`` old, and it found the file as it was.  A file deleted or replaced makes the record
unusable for good, and a database error (a damaged file) until the waker has read the database
again: the polls ask the database meanwhile and get its 503.  A game not yet in the record is asked for: the next
tick looks it up, and meanwhile the poll asks the database.

The waker writes, the loop reads: plain dict and set operations, each atomic in CPython.
"""

from __future__ import annotations

import math
import time

FRESH_SECONDS = 1.0
MAX_GAMES = 50_000  # games remembered (about 100 bytes each); past it, the record starts again
MAX_WANTED = 1_000  # games asked about between two ticks (an unknown id is asked about again)


class KnownSeqs:
    def __init__(self):
        self.seqs: dict[str, int] = {}
        self.wanted: set[str] = set()
        self.heard_at = -math.inf  # monotonic time of the waker's last good look
        self.broken = False  # the file went away or was replaced: never trusted again

    def get(self, gid: str) -> int | None:
        """The game's seq, or None (not known, or the record is not fresh): ask the database."""
        seq = self.seqs.get(gid)
        if seq is None:
            if len(self.wanted) < MAX_WANTED:
                self.wanted.add(gid)
            return None
        return seq if time.monotonic() - self.heard_at < FRESH_SECONDS else None

    # -- the waker's side (its own thread) ----------------------------------------------------
    def asked(self) -> list[str]:
        """The games polls asked about that are not known yet (taken: the waker looks them up)."""
        wanted = list(self.wanted)
        self.wanted.difference_update(wanted)
        return wanted

    def heard(self, found: list[tuple[str, int]], changes: list[tuple[str, int | None]]) -> None:
        """One look at the database: ``found``, the seqs of games asked about; ``changes``, (game,
        new seq) of the games changed since the last look (None: a seat change), in one snapshot."""
        if self.broken:
            return
        if len(self.seqs) + len(found) > MAX_GAMES:
            self.seqs = {}
        for gid, seq in found:
            self.seqs[gid] = seq
        for gid, seq in changes:
            if seq is not None and gid in self.seqs:
                self.seqs[gid] = seq
        self.heard_at = time.monotonic()

    def lost(self, for_good: bool = False) -> None:
        """The waker lost the database (``for_good``: the file is not the one served any more)."""
        self.heard_at = -math.inf
        self.seqs = {}
        self.broken = self.broken or for_good
