"""A store's games as timelines (assistant/log/timeline.py): the cache of this worker, moved forward
by the rows written since (here or elsewhere), else started from the latest saved state that is
still the start of the log, else replayed; long games' states saved in the database on the way."""

from __future__ import annotations

import logging
from dataclasses import replace

from assistant.log import saved
from assistant.log.timeline import Timeline, Unplayable, build, replay
from assistant.log.walk import is_history
from assistant.rules import RuleError
from assistant.rules.core.game import Game
from assistant.rules.core.records import Journal
from assistant.store import budget
from assistant.store.entries import GameInfo, _now
from assistant.store.errors import (
    Damaged,
    Unreplayable,
)

log = logging.getLogger("assistant.store.store")

HEADS_KEPT = 4  # journals of saved states kept in memory once fetched (assistant/log/saved.py)


class TimelinesMixin:
    def timeline(self, gid: str, seq: int | None = None) -> Timeline:
        """The game after its first ``seq`` rows (all of them if None): from this worker's cache,
        moved forward by the rows written since (here or by another process or server), else
        from the latest saved state that is still the start of it, else replayed from the start."""
        info = self.get_game(gid)
        seq = self.backend.seq(gid) if seq is None else seq
        with self._cache_lock:
            hit = self._cache.get(gid)
        if hit is not None and hit.seq == seq:
            self._cache_get(gid, seq)  # mark as recently used
            return hit
        if hit is not None and hit.seq < seq:  # rows written elsewhere: apply just those
            rows = self.rows(gid, hit.seq, seq)
            if [r.seq for r in rows] == list(range(hit.seq + 1, seq + 1)) and not any(
                is_history(r.event) for r in rows
            ):
                try:
                    return self._remember(gid, hit.advance([r.event for r in rows]))
                except RuleError:
                    pass  # let the full replay report it
        return self._remember(gid, self._build(info, seq))

    def _build(self, info: GameInfo, seq: int) -> Timeline:
        try:
            return build(self, info, seq)
        except Unplayable as err:  # e.g. the stored log of an older version of the rules
            raise Unreplayable(err.message) from err

    def save_states(self, gid: str, saves: list[tuple[int, int, bytes]]) -> None:
        """Keep these saved states, each (row, events in effect, data): a cache, one that cannot be
        written only makes a later page slower."""
        if not saves:
            return
        saves = [(seq, count, saved.sign(self.state_key, gid, seq, data)) for seq, count, data in saves]
        try:
            budget.check_room(self.backend, gid, sum(len(data) for _seq, _count, data in saves))
            self.backend.save_states(gid, saved.version(), saves, _now())
            self._held.forget(gid)
        except Exception as err:  # noqa: BLE001
            log.warning("game %s: %d saved states were not written (%s)", gid, len(saves), err)

    def journal_at(self, info: GameInfo, seq: int) -> Journal:
        """The journal of the game after its first ``seq`` rows (a restored game's older entries,
        fetched when first needed: the Log's full history, the charts); the latest few kept, since
        the states after the next undos and redos start from the same saved states."""
        key = (info.id, seq)
        with self._cache_lock:
            journal = self._heads.get(key)
        if journal is None:
            rows = self.rows(info.id, 0, seq)
            if [r.seq for r in rows] != list(range(1, seq + 1)):  # a damaged file may just read fewer
                raise Damaged(
                    f"database disk image is malformed: rows of this game's log are missing ({len(rows)} of {seq} read)"
                )
            try:
                # pragma below: ``written`` only has the replay pickle states besides, which [0] leaves out
                journal = replay(self, info, [r.event for r in rows], written=0)[0].game.journal  # pragma: no mutate
            except Unplayable as err:
                raise Unreplayable(err.message) from err
            journal.pack()  # kept for long (rules/core/records.py)
        with self._cache_lock:
            self._heads[key] = journal
            self._heads.move_to_end(key)
            while len(self._heads) > HEADS_KEPT:
                self._heads.popitem(last=False)  # pragma: no mutate: last=None is false to popitem
        return journal

    def _remember(self, gid: str, known: Timeline) -> Timeline:
        """Cache ``known``; save it in the database when enough rows were read since the last save."""
        if known.unsaved >= self.save_every:  # (if it cannot be written, it is tried again as many rows later)
            self.save_states(gid, [(known.seq, known.walk.count, saved.dumps(known.game, known.walk))])
            known = replace(known, unsaved=0)
        self._cache_put(gid, known)
        return known

    def _cache_get(self, gid: str, seq: int) -> Game | None:
        with self._cache_lock:
            hit = self._cache.get(gid)
            if hit is None or hit.seq != seq:
                return None
            self._cache.move_to_end(gid)
            return hit.game

    def _cache_put(self, gid: str, known: Timeline) -> None:
        known.game.journal.pack()  # kept for long: its new entries packed (rules/core/records.py)
        with self._cache_lock:
            old = self._cache.get(gid)
            if old is not None and old.seq > known.seq:
                return
            self._cache[gid] = known
            self._cache.move_to_end(gid)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)  # pragma: no mutate: last=None is false to popitem
