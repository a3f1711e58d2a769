"""Every write counts against the database's cap, and each game has its own budget far below it
(issue 38 §5: with a 3 MB cap, 600 go-backs of one client grew the database to 10.3 MB, and no
table could start a game).

* ``RSS_DB_MAX_MB`` (default 4096): past it, nothing more is written: no new game (``web/limits.py``)
  and no new row of any game; the refusal says so (507);
* ``RSS_GAME_MAX_MB`` (default 8): what one game's log and saved states may hold, and never more than
  a tenth of the database's cap; past it, that game takes no new row (507, said in words: its
  transcript can be exported and imported again, which starts a fresh log of the entries in
  effect).  A whole game played by the menu (223 entries, entered one by one) holds 25 KB.

The saved states, a cache, are not written past either (the game is then replayed when needed).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from assistant.store import settings
from assistant.store.errors import Full

MB = 1024 * 1024
SHARE = 10  # a game may hold at most this fraction of the database's cap


def db_max_bytes() -> int:
    return int(settings.get("RSS_DB_MAX_MB") * MB)


def game_max_bytes() -> int:
    return min(int(settings.get("RSS_GAME_MAX_MB") * MB), db_max_bytes() // SHARE)


def _mb(size: int) -> str:
    return f"{size / MB:.1f} MB"


class Held:
    """What each game holds, as last counted (a sum over its rows: 5 ms for 20,000 of them), moved on
    by the rows this process writes; counted again when the log has rows it did not write."""

    KEPT = 4096  # games remembered

    def __init__(self):
        self._known: OrderedDict[str, tuple[int, int]] = OrderedDict()  # gid -> (rows, bytes)
        self._lock = threading.Lock()

    def of(self, tables, gid: str, rows: int) -> int:
        with self._lock:
            hit = self._known.get(gid)
        if hit is not None and hit[0] == rows:
            return hit[1]
        held = tables.game_bytes(gid)
        self._set(gid, rows, held)
        return held

    def wrote(self, gid: str, rows: int, adding: int) -> None:
        """Row ``rows`` of ``adding`` bytes was written (a saved state: ``forget``)."""
        with self._lock:
            hit = self._known.get(gid)
        if hit is not None and hit[0] == rows - 1:
            self._set(gid, rows, hit[1] + adding)

    def forget(self, gid: str) -> None:
        with self._lock:
            self._known.pop(gid, None)

    def _set(self, gid: str, rows: int, held: int) -> None:
        with self._lock:
            self._known[gid] = (rows, held)
            self._known.move_to_end(gid)
            while len(self._known) > self.KEPT:
                self._known.popitem(last=False)  # pragma: no mutate: last=None is false to popitem


def check_room(tables, gid: str, adding: int, held: int | None = None) -> None:
    """Full if writing ``adding`` more bytes to game ``gid`` (holding ``held``, else counted) would pass
    its budget or the database's cap."""
    cap, used = db_max_bytes(), tables.used()
    if used + adding > cap:
        raise Full(
            f"The table's database is full ({_mb(used)}, the cap is {_mb(cap)}): nothing more can be saved, in "
            "any game. Whoever runs the server can raise RSS_DB_MAX_MB or move finished games away "
            "(README: settings)."
        )
    limit = game_max_bytes()
    held = tables.game_bytes(gid) if held is None else held
    if held + adding > limit:
        raise Full(
            f"This game's log is full ({_mb(held)}; each game may hold {_mb(limit)}): nothing more can be "
            "entered in it. Export its transcript and import it to go on: the imported game starts a fresh "
            "log with the entries in effect. (Whoever runs the server can raise RSS_GAME_MAX_MB.)"
        )
