"""The rows of a game's log as the store hands them over: each row's event read in one place
(``walk.read_row``), and a going back, stored as the row it goes back to (``walk.compact``), with
the events it brings back put in (``walk.expand``: a walk of the log from its start, done once; the
rows never change, so what it found is kept).  A long log is read within the request's deadline."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from assistant.log.walk import expand, is_compact, read_row
from assistant.rules.core import deadline
from assistant.store.errors import Damaged

EXPANDED_KEPT = 4096  # going-back rows kept with the events they bring back


class Row(NamedTuple):
    """One row of a game's log (a tuple: a long log is read fast)."""

    seq: int
    event: dict
    token: str | None
    created: str


class RowReader:
    def __init__(self, tables):
        self.backend = tables
        self._expanded: OrderedDict[tuple[str, int], dict] = OrderedDict()  # (gid, seq) -> a going back read
        self._lock = threading.Lock()

    def read(self, gid: str, after: int = 0, upto: int | None = None) -> list[Row]:
        """The log rows after row ``after`` (up to row ``upto``), in order; a going back with the
        events it brings back (stored without them: ``walk.compact``; worked out once, then kept)."""
        rows = self._read(gid, after, upto)
        wanted = [r.seq for r in rows if is_compact(r.event)]
        if not wanted:
            return rows
        with self._lock:
            missing = [seq for seq in wanted if (gid, seq) not in self._expanded]
        if missing:
            prefix = rows if after == 0 else self._read(gid, 0, max(missing))
            try:
                found = expand(prefix[: max(missing)])
            except ValueError as err:
                raise Damaged(f"database disk image is malformed: {err}") from err
            with self._lock:
                for seq, event in found.items():
                    self._expanded[(gid, seq)] = event
                while len(self._expanded) > EXPANDED_KEPT:
                    self._expanded.popitem(last=False)  # pragma: no mutate: last=None is false to popitem
        with self._lock:
            known = {seq: self._expanded.get((gid, seq)) for seq in wanted}
        if any(event is None for event in known.values()):  # pushed out meanwhile: work them out here
            known = expand(self._read(gid, 0, max(wanted)))
        return [r._replace(event=known[r.seq]) if r.seq in known else r for r in rows]

    def _read(self, gid: str, after: int, upto: int | None) -> list[Row]:
        out = []
        for n, (seq, event, token, created) in enumerate(self.backend.rows(gid, after, upto)):
            if not n % 64:
                deadline.check()  # a long log is read within the request's deadline
            out.append(Row(seq, _stored_event(event), token, created))
        return out


def _stored_event(text: str) -> dict:
    """A log row's event as stored (the one place rows are read: assistant/log/walk.py)."""
    try:
        return read_row(text)
    except ValueError as err:
        raise Damaged("database disk image is malformed: a stored row is not readable") from err
