"""Persistence of games: an append-only event log per game, in SQLite (one file, the default) or
PostgreSQL (several app servers on one database); the tables are in ``assistant/backends/``.

* ``games``: id (>= 128 random bits), players, options, deck, persons (JSON; persons: the two
  persons of the two-handed variant, else NULL), created, game (the ruleset's key, see
  ``assistant.rules.registry``), position (a resumed game's first entry, else NULL).
  The options hold the variants, or the game type (classic: ``["short"]``).
* ``events``: (game_id, seq) primary key, the event JSON, an optional idempotency
  token (unique per game), created.  Undo is an event too (``{"type": "undo"}``):
  it takes back the latest event still in effect.  ``seq`` of a game = number of log
  rows (undo rows included); a row's ``seq`` is its 1-based position.
* the schema grows by named migrations (``assistant/migrations.py``; the same names in PostgreSQL).

The state of a game is the replay of its effective events from its start (``GameInfo.start``),
cached per Store instance and keyed by (game_id, seq); a cache never trusts itself past the seq the
tables say, so changes written by another process or server are caught up.  A long game's state is
also saved in the database every ``save_every`` rows (``assistant/saved_states.py``), and a replay
starts from the latest saved state the rows after it leave in place (``corrections.Walk``).  What
happened meanwhile, in words, is ``assistant/meanwhile.py``.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from typing import NamedTuple

from assistant import corrections, dburl, meanwhile, saved_states, transcript
from assistant.backends.sqlite import SQLiteTables
from assistant.names import check_names
from assistant.rules import RuleError, registry
from assistant.rules.core import events, position
from assistant.rules.core.game import Game
from assistant.rules.core.records import Journal

log = logging.getLogger(__name__)

UNDO = events.UNDO
REDO = events.REDO
AMEND = events.AMEND
REWRITES = (UNDO, REDO, AMEND)  # rows that change which entries are in effect
CACHE_SIZE = 256  # games whose state is kept in memory (a late-game state is a few hundred kB)
INFO_CACHE_SIZE = 4096  # game headers (immutable once created) kept in memory
TOKEN_MAX = 200
HEADS_KEPT = 4  # journals of saved states kept in memory once fetched (saved_states.py)
SAVED_TRIES = 3  # saved states tried, newest first, before a state is replayed from the log's start


class StoreError(Exception):
    """Base class: something the caller asked for cannot be done."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(StoreError):
    pass


class Refused(StoreError):
    """The rules (or the undo log) refuse the event; nothing was written."""

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.rule = rule


class Unreplayable(StoreError):
    """The stored events no longer replay (the rules engine changed); export still works."""


class Stale(StoreError):
    """The client's expected seq is not the current one."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"the game has moved on: you saw seq {expected}, it is now at {current}")
        self.expected = expected
        self.current = current


class ImportRefused(StoreError):
    """A transcript cannot be imported; ``index`` is the failing event (or None for the header)."""

    def __init__(self, message: str, index: int | None = None):
        text = message if index is None else f"event {index}: {message}"
        super().__init__(text)
        self.index = index
        self.reason = message


@dataclass(frozen=True)
class GameInfo:
    id: str
    players: list
    options: list
    deck: list | None
    created: str
    persons: list | None  # two-handed variant: the persons [A, B] behind the 4 seats
    ruleset: str  # the key of the game's ruleset (registry.RULESETS)
    position: dict | None = None  # a game resumed from the table as it lay (its first entry), else None

    def start(self) -> Game:
        """The engine game before the first event: the set-up, or the position it resumed from."""
        ruleset = registry.get(self.ruleset)
        if self.position is not None:
            return position.resume(ruleset, self.players, self.options, self.position, persons=self.persons)
        return ruleset.create(self.players, self.options, deck=self.deck, persons=self.persons)


class Row(NamedTuple):
    """One row of a game's log (a tuple: a long log is read fast)."""

    seq: int
    event: dict
    token: str | None
    created: str


@dataclass(frozen=True)
class _Known:
    """A game as this worker knows it: the state after the first ``seq`` log rows, the log's walk
    there (corrections.Walk), and how many rows were read since the last saved state."""

    seq: int
    game: Game
    walk: corrections.Walk
    unsaved: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_game_id() -> str:
    return secrets.token_urlsafe(18)  # 144 random bits


def _has_surrogate(value) -> bool:
    """True if a string anywhere in ``value`` holds a lone surrogate (not valid Unicode text)."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def normalise_event(event) -> dict:
    """The event as it is stored: its type and the fields the engine reads (others are ignored).

    Raises Refused for what is not an event the table can enter: not an object with a type,
    a checkpoint (``expect``) or an event marked ``reject`` (transcript annotations), text
    that is not valid Unicode.
    """
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise Refused("an event must be an object with a type")
    if not transcript.is_table_event(event):
        raise Refused(
            "checkpoints (expect) and events marked reject are transcript annotations, not decisions of the table"
        )
    out = events.stored_form(event)
    if _has_surrogate(out):
        raise Refused("the event holds text that is not valid Unicode")
    return out


def check_token(token) -> None:
    if token is None:
        return
    if not isinstance(token, str) or not token or len(token) > TOKEN_MAX or _has_surrogate(token):
        raise Refused(f"a token must be a non-empty text of at most {TOKEN_MAX} characters")


def effective_events(rows: list[Row]) -> list[dict]:
    """The log with undo and corrections applied (assistant/corrections.py)."""
    return corrections.effective_events(rows)


class Store:
    """All access to the database; one instance per app (it owns the state cache)."""

    def __init__(self, path: str, save_every: int = saved_states.EVERY):
        """``path``: an SQLite file, or a ``postgresql://`` URL (assistant/dburl.py); ``save_every``:
        a long game's state is saved in the database after this many rows (saved_states.py)."""
        self.path = dburl.check(str(path))
        self.save_every = save_every
        self._heads: OrderedDict[tuple[str, int], Journal] = OrderedDict()  # (gid, row) -> journal there
        self.tables = tables_for(self.path)
        # gid -> the game after its first seq log rows (_Known); never changed once cached
        self._cache: OrderedDict[str, _Known] = OrderedDict()
        # RSS_CACHE_GAMES: more games in memory for a big hall (1,000 tables: about 1,000 per worker)
        wanted = os.environ.get("RSS_CACHE_GAMES", "").strip()
        self.cache_size = int(wanted) if wanted.isdigit() and int(wanted) > 0 else CACHE_SIZE
        self._cache_lock = threading.Lock()
        self._info: OrderedDict[str, GameInfo] = OrderedDict()  # game headers never change
        self.tables.migrate()

    @property
    def kind(self) -> str:
        return self.tables.kind

    def close(self) -> None:
        self.tables.close()

    # -- games -------------------------------------------------------------------
    def create_game(
        self,
        players: list[str],
        options: list[str] | None = None,
        deck: list[str] | None = None,
        persons: list[str] | None = None,
        *,
        ruleset: str,
    ) -> str:
        """Check the set-up with the engine, then store it; returns the new game id."""
        options = list(options or [])
        self._check_setup(players, persons, Refused)
        self._new_engine_game(players, options, deck, persons, ruleset)
        gid = new_game_id()
        self.tables.insert_game(self._game_record(gid, players, options, deck, persons, ruleset))
        return gid

    def _game_record(self, gid, players, options, deck, persons, ruleset, start=None) -> dict:
        return {
            "position": None if start is None else json.dumps(start),
            "game": ruleset,
            "id": gid,
            "players": json.dumps(list(players)),
            "options": json.dumps(options),
            "deck": None if deck is None else json.dumps(list(deck)),
            "persons": None if not persons else json.dumps(list(persons)),
            "created": _now(),
        }

    @staticmethod
    def _check_setup(players, persons, error) -> None:
        # the persons first: their seats ("Amy (right hand)") would only repeat the same problem
        problem = (check_names(persons, "person") if persons else None) or check_names(players)
        if problem:
            raise error(problem)

    @staticmethod
    def _new_engine_game(players, options, deck, persons, ruleset) -> Game:
        try:
            return registry.get(ruleset).create(
                list(players),
                list(options),
                deck=None if deck is None else list(deck),
                persons=list(persons) if persons else None,
            )
        except RuleError as err:
            raise Refused(err.message, getattr(err, "rule", None)) from err
        except (ValueError, TypeError) as err:
            raise Refused(str(err) or "invalid game set-up") from err

    def get_game(self, gid: str) -> GameInfo:
        gid = str(gid)
        with self._cache_lock:
            info = self._info.get(gid)
        if info is not None:
            return info
        r = self.tables.game_row(gid)
        if r is None:
            raise NotFound("no such game")  # not remembered: the game may be created later
        if not r.get("game"):  # every game names its ruleset (migration games_name_their_ruleset)
            raise sqlite3.DatabaseError("database disk image is malformed: a stored game names no ruleset")
        info = GameInfo(
            id=r["id"],
            players=_stored_json(r["players"]),
            options=_stored_json(r["options"]),
            deck=None if r["deck"] is None else _stored_json(r["deck"]),
            created=r["created"],
            persons=_stored_json(r["persons"]) if r.get("persons") else None,
            ruleset=r["game"],
            position=_stored_json(r["position"]) if r.get("position") else None,
        )
        with self._cache_lock:
            self._info[gid] = info
            while len(self._info) > INFO_CACHE_SIZE:
                self._info.popitem(last=False)
        return info

    def game_exists(self, gid: str) -> bool:
        try:
            self.get_game(gid)
        except NotFound:
            return False
        return True

    # -- seats taken by phones (presentation only: the log never depends on them) --
    def take_seat(self, gid: str, phone: str, player: str | None) -> None:
        """Record that ``phone`` plays ``player`` in game ``gid`` (None: the phone has no seat)."""
        self.tables.take_seat(gid, phone, player)

    def seats_taken(self, gid: str) -> set[str]:
        """The seats (players or, two-handed, persons) some phone has taken."""
        return self.tables.seats_taken(gid)

    # -- events ------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[Row]:
        """The log rows after row ``after`` (up to row ``upto``), in order."""
        return [
            Row(seq, _stored_json(event), token, created)
            for seq, event, token, created in self.tables.rows(gid, after, upto)
        ]

    def seq(self, gid: str) -> int:
        return self.tables.seq(gid)

    def events(self, gid: str) -> list[dict]:
        """The effective engine events (undo applied)."""
        self.get_game(gid)
        return effective_events(self.rows(gid))

    def state(self, gid: str) -> tuple[int, Game]:
        """(seq, Game) of the game now.  Treat the Game as read-only."""
        known = self._known(gid)
        return known.seq, known.game

    def undone(self, gid: str, seq: int | None = None) -> list[dict]:
        """What a redo can bring back (at row ``seq``, else now), the next one first."""
        return self._known(gid, seq).walk.undone

    def undos_in_a_row(self, gid: str, seq: int | None = None) -> int:
        """How many undos end the log (its first ``seq`` rows, else all)."""
        return self._known(gid, seq).walk.undos_at_end

    def _known(self, gid: str, seq: int | None = None) -> _Known:
        """The game after its first ``seq`` rows (all of them if None): from this worker's cache,
        moved forward by the rows written since (here or by another process or server), else
        from the latest saved state that is still the start of it, else replayed from the start."""
        info = self.get_game(gid)
        seq = self.tables.seq(gid) if seq is None else seq
        with self._cache_lock:
            hit = self._cache.get(gid)
        if hit is not None and hit.seq == seq:
            self._cache_get(gid, seq)  # mark as recently used
            return hit
        if hit is not None and hit.seq < seq:  # rows written elsewhere: apply just those
            caught_up = self._catch_up(gid, hit, seq)
            if caught_up is not None:
                return caught_up
        known = self._build(info, seq)
        return self._remember(gid, known)

    def _catch_up(self, gid: str, hit: _Known, seq: int) -> _Known | None:
        """The cached state moved forward by the rows after it (None if one of them rewrites the log)."""
        rows = self.rows(gid, hit.seq, seq)
        if any(r.event.get("type") in REWRITES for r in rows) or [r.seq for r in rows] != list(
            range(hit.seq + 1, hit.seq + 1 + len(rows))
        ):
            return None
        game, walk = hit.game.fork(), hit.walk.copy()
        try:
            for row in rows:
                game.apply(row.event)
                walk.step(row.event)
        except RuleError:
            return None  # let the full replay report it
        return self._remember(gid, _Known(hit.seq + len(rows), game, walk, hit.unsaved + len(rows)))

    def _build(self, info: GameInfo, seq: int, extra: tuple[dict, ...] = (), depth: int | None = None) -> _Known:
        """The game after its first ``seq`` rows and the ``extra`` rows not written yet; the Game
        after only the first ``depth`` effective events if given (the walk is the log's, whole).

        Starts from the latest saved state (saved_states.py) that the rows after it leave in place,
        else replays the effective events from the game's start."""
        upto, most = seq, 2**31 - 1 if depth is None else depth  # the row, the events in effect
        for _ in range(SAVED_TRIES if seq >= self.save_every else 0):
            found = self.tables.saved_state(info.id, saved_states.version(), upto, most)
            if found is None:
                break
            at, data = found
            try:
                saved = saved_states.loads(at, data)
            except Exception as err:  # noqa: BLE001 - a cache that cannot be read is replayed instead
                log.warning(
                    "game %s: the state saved at row %s cannot be read (%s): replaying the log", info.id, at, err
                )
                break
            walk, kept = saved.walk.restart(), saved.walk.count
            try:
                for row in self.rows(info.id, at, seq):
                    walk.step(row.event)
                for event in extra:
                    walk.step(event)
            except corrections.TooShort:
                upto = at - 1
                continue
            if walk.low < kept:  # the rows after it took back (or corrected) entries the saved state holds
                upto, most = at - 1, min(most, walk.low)
                continue
            game = saved.game
            game.journal.set_loader(partial(self._journal_at, info, at))
            try:
                for event in walk.out[kept - walk.base : None if depth is None else depth - walk.base]:
                    game.apply(event)
            except RuleError:
                break  # let the full replay report it
            return _Known(seq + len(extra), game, walk, seq - at + len(extra))
        rows = [r.event for r in self.rows(info.id, 0, seq)]
        known, saves = self._replay_log(info, rows + list(extra), depth, written=len(rows))
        self._save_states(info.id, saves)
        return known

    def _replay_log(
        self, info: GameInfo, rows: list[dict], depth: int | None = None, written: int | None = None
    ) -> tuple[_Known, list]:
        """The game after the log rows ``rows`` (its first ``depth`` effective events only, if
        given), replayed from its start; and the saved forms of its states after the latest rows
        (of the first ``written``, those in the database) whose number is a multiple of
        ``save_every`` and whose entries are all still in effect (the next undos start there)."""
        written = len(rows) if written is None else written
        walk, counts, touched, walks = corrections.Walk(), [], [], {}
        for n, event in enumerate(rows, 1):
            walk.low = walk.count
            walk.step(event)
            counts.append(walk.count)
            touched.append(walk.low)
            if n % self.save_every == 0 and n <= written:
                walks[n] = walk.trimmed(saved_states.KEEP)
        lowest, still = len(rows) and counts[-1], {}  # lowest: the fewest events in effect since row n
        for n in range(len(rows), 0, -1):
            if n in walks and counts[n - 1] <= lowest and (depth is None or counts[n - 1] <= depth):
                still.setdefault(counts[n - 1], n)
            lowest = min(lowest, touched[n - 1])
        keep = dict(sorted(still.items())[-saved_states.KEEP_SAVED :])  # events in effect -> row
        effective = walk.out if depth is None else walk.out[:depth]
        saves = []
        try:
            game = info.start()
            for k, event in enumerate(effective):
                if k in keep:
                    saves.append((keep[k], k, saved_states.dumps(game, walks[keep[k]])))
                game.apply(event)
            if len(effective) in keep:
                at = keep[len(effective)]
                saves.append((at, len(effective), saved_states.dumps(game, walks[at])))
        except RuleError as err:  # e.g. the stored log of an older version of the rules
            raise Unreplayable(f"the rules engine refuses the stored events of this game: {err.message}") from err
        unsaved = len(rows) - max(keep.values(), default=0)
        return _Known(len(rows), game, walk, unsaved), saves

    def _save_states(self, gid: str, saves: list[tuple[int, int, bytes]]) -> None:
        """Keep these saved states, each (row, events in effect, data): a cache, one that cannot be
        written only makes a later page slower."""
        if not saves:
            return
        try:
            self.tables.save_states(gid, saved_states.version(), saves, _now())
        except Exception as err:  # noqa: BLE001
            log.warning("game %s: %d saved states were not written (%s)", gid, len(saves), err)

    def _journal_at(self, info: GameInfo, seq: int) -> Journal:
        """The journal of the game after its first ``seq`` rows (a restored game's older entries,
        fetched when first needed: the Log's full history, the charts); the latest few kept, since
        the states after the next undos and redos start from the same saved states."""
        key = (info.id, seq)
        with self._cache_lock:
            journal = self._heads.get(key)
        if journal is None:
            journal = self._replay(info, corrections.Walk.of(self.rows(info.id, 0, seq)).out).journal
        with self._cache_lock:
            self._heads[key] = journal
            self._heads.move_to_end(key)
            while len(self._heads) > HEADS_KEPT:
                self._heads.popitem(last=False)
        return journal

    def _remember(self, gid: str, known: _Known) -> _Known:
        """Cache ``known``; save it in the database when enough rows were read since the last save."""
        if known.unsaved >= self.save_every:  # (if it cannot be written, it is tried again as many rows later)
            self._save_states(gid, [(known.seq, known.walk.count, saved_states.dumps(known.game, known.walk))])
            known = replace(known, unsaved=0)
        self._cache_put(gid, known)
        return known

    def append(self, gid: str, expected_seq: int, event: dict, token: str | None = None) -> int:
        """Append one event (or an undo) if ``expected_seq`` is current; return the new seq.

        Raises Stale, Refused or NotFound.  A token already used returns the seq that
        its event produced, without writing anything (idempotent retries).

        The new state is worked out first (the state at a seq is fixed by the log); the write then
        checks the token and the seq again and inserts the row in one transaction of the tables
        (SQLite: BEGIN IMMEDIATE; PostgreSQL: the (game, seq) primary key), so of two posts at the
        same seq, from any thread, process or server, exactly one is written.
        """
        event = normalise_event(event)
        check_token(token)
        info = self.get_game(gid)
        if token is not None:
            earlier = self.tables.token_seq(gid, token)
            if earlier is not None:
                return earlier
        current = self.tables.seq(gid)
        if expected_seq != current:
            raise Stale(expected_seq, current)
        known = self._next_state(info, current, event)
        status, seq = self.tables.append(gid, expected_seq, json.dumps(event), token, _now())
        if status == "token":
            return seq
        if status == "stale":
            raise Stale(expected_seq, seq)
        self._remember(gid, known)
        return seq

    def amend(self, gid: str, expected_seq: int, index: int, event: dict, token: str | None = None) -> dict:
        """Correct the effective entry ``index`` (as export counts them) to ``event``: one log row.

        Returns {"seq", "kept", "set_aside"}; raises Stale, Refused (the corrected entry does not
        fit where it stands) or NotFound.  A token already used returns the seq it produced."""
        event = normalise_event(event)
        if event["type"] in events.STORE_EVENTS:
            raise Refused("an entry is corrected by a decision of the table, not by an undo or a correction")
        check_token(token)
        self.get_game(gid)
        if token is not None:
            earlier = self.tables.token_seq(gid, token)
            if earlier is not None:
                return {"seq": earlier, "kept": None, "set_aside": None}
        current = self.tables.seq(gid)
        if expected_seq != current:
            raise Stale(expected_seq, current)
        out = self.correction(gid, index, event, current)
        status, seq = self.tables.append(gid, expected_seq, json.dumps(out["row"]), token, _now())
        if status == "token":
            return {"seq": seq, "kept": None, "set_aside": None}
        if status == "stale":
            raise Stale(expected_seq, seq)
        self._remember(gid, _Known(seq, out["game"], out["walk"], seq))
        return {"seq": seq, "kept": out["kept"], "set_aside": out["set_aside"]}

    def correction(self, gid: str, index: int, event: dict, at: int | None = None) -> dict:
        """What correcting entry ``index`` to ``event`` would do (nothing is written): the row, the
        state after it, kept, set_aside, and the changes in words against the game now."""
        info = self.get_game(gid)
        rows = self.rows(gid)
        if at is not None:
            rows = rows[:at]
        walk = corrections.Walk.of(rows)
        try:
            out = corrections.correct(info.start(), walk.out, index, normalise_event(event))
        except RuleError as err:
            raise Refused(err.message, getattr(err, "rule", None)) from err
        now = self._known(gid, len(rows)).game.snapshot()
        out["changes"] = corrections.changes(now, out["game"].snapshot())
        walk.step(out["row"])
        out["walk"] = walk
        return out

    def set_aside(self, gid: str) -> list[dict]:
        """The entries the latest correction in effect set aside, each with whether it fits now."""
        known = self._known(gid)
        latest = known.walk.latest_amend
        if latest is None:
            return []
        walk = known.walk if latest["index"] >= known.walk.base else corrections.Walk.of(self.rows(gid, 0, known.seq))
        effective, index = walk.out, latest["index"] - walk.base
        if index >= len(effective) or effective[index] != latest["event"]:
            return []  # that correction has been undone
        entered_again = effective[index + 1 + latest["kept"] :]
        waiting = list(latest["set_aside"])
        for event in entered_again:  # each entered again once (equal entries count one by one)
            if event in waiting:
                waiting.remove(event)
        return corrections.why_set_aside(known.game, waiting)

    def _next_state(self, info: GameInfo, current: int, event: dict) -> _Known:
        """The game after ``event`` entered at seq ``current`` (Refused if the rules refuse it)."""
        now = self._known(info.id)
        if now.seq != current:  # written meanwhile
            raise Stale(current, now.seq)
        if event["type"] in (UNDO, REDO):
            if event["type"] == UNDO and not now.walk.taken_count:
                raise Refused("there is nothing to undo")
            if event["type"] == REDO and not now.walk.back:
                raise Refused(
                    "there is nothing to restore: no entry was undone since the last one entered "
                    "(the Log's full history still shows every entry ever made)"
                )
            return self._build(info, current, extra=({"type": event["type"]},))
        game, walk = now.game.fork(), now.walk.copy()
        try:
            game.apply(event)
        except RuleError as err:
            raise Refused(err.message, getattr(err, "rule", None)) from err
        walk.step(event)
        return _Known(current + 1, game, walk, now.unsaved + 1)

    @staticmethod
    def _replay(info: GameInfo, events: list[dict]) -> Game:
        try:
            game = info.start()
            for event in events:
                game.apply(event)
            return game
        except RuleError as err:  # e.g. the stored log of an older version of the rules
            raise Unreplayable(f"the rules engine refuses the stored events of this game: {err.message}") from err

    # -- what happened -------------------------------------------------------------
    def changes_since(self, gid: str, seq: int, limit: int = 20) -> list[str]:
        """Journal texts of the log rows after ``seq`` (what a stale view missed)."""
        info = self.get_game(gid)
        now = self._known(gid)
        seq = max(0, min(seq, now.seq))
        rows = self.rows(gid, seq, now.seq)
        if not any(r.event.get("type") in REWRITES for r in rows):
            # the usual case (a phone tapped a moment too late): no replay, the journal has it all
            journal = now.game.journal
            out = [meanwhile.entry_text(j) for j in journal[len(journal) - len(rows) :]] if rows else []
            return out if len(out) <= limit else [f"({len(out) - limit} earlier changes)"] + out[-limit:]
        if now.walk.latest_amend is not None:  # a correction rewrote the log: its words
            out = [
                f"Corrected entry {r.event['index'] + 1}" if r.event.get("type") == AMEND
                else {UNDO: "Undone", REDO: "Restored"}.get(r.event.get("type"), r.event.get("type", "?"))
                for r in rows
            ]  # fmt: skip
            return out[-limit:]
        out = self._walk_meanwhile(info, seq, rows)
        if len(out) > limit:
            out = [f"({len(out) - limit} earlier changes)"] + out[-limit:]
        return out

    def _walk_meanwhile(self, info: GameInfo, seq: int, rows: list[Row]) -> list[str]:
        """The journal texts of ``rows``, the log rows after row ``seq`` (assistant/meanwhile.py),
        played from the lowest point they reach back to."""
        moves = [row.event for row in rows]
        top = meanwhile.lowest(self._known(info.id, seq).walk.count, moves)
        start = self._build(info, seq, depth=top)  # the game after the first ``top`` events, the walk at ``seq``
        try:
            return meanwhile.texts(start.game, start.walk.out[top - start.walk.base :], moves)
        except RuleError as err:
            raise Unreplayable(f"the rules engine refuses a stored event: {err.message}") from err

    # -- transcripts ---------------------------------------------------------------
    def export(self, gid: str) -> dict:
        """The game as a transcript (FORMAT.md file layout): the effective events only, the live
        ones written as the table's (``Game.transcript_events``: an announced purchase and its
        answer as the acquire it made, the last "I'm done" as the phase's done)."""
        info = self.get_game(gid)
        try:
            known = self._known(gid)
            journal = known.game.journal
            # a long game restored from a saved state: its older entries from the log, not replayed
            head = None if journal.fetched else corrections.Walk.of(self.rows(gid, 0, known.seq)).out
            events = known.game.transcript_events(head)
        except Unreplayable:  # the log the engine refuses is still taken away whole, as stored
            events = effective_events(self.rows(gid))
        return transcript.build(
            info.players,
            info.options,
            info.deck,
            events,
            f"exported by the Rolling Stock table assistant; game created {info.created}",
            persons=info.persons,
            game=info.ruleset,
            position=info.position,
        )

    def import_transcript(self, data) -> str:
        """Replay a transcript through the engine and store it as a new game."""
        try:
            players, options, deck, events = transcript.read_header(data)
            persons = transcript.read_persons(data)
            ruleset = transcript.read_game(data).key
            start = transcript.read_position(data)
        except transcript.TranscriptError as err:
            raise ImportRefused(err.message) from err
        self._check_setup(players, persons, ImportRefused)
        try:
            if start is None:
                game = self._new_engine_game(players, options, deck, persons, ruleset)
            else:
                game = position.resume(registry.get(ruleset), players, options, start, persons=persons)
        except Refused as err:
            raise ImportRefused(err.message) from err
        except RuleError as err:
            raise ImportRefused(f"the position cannot be: {err.message}") from err
        accepted: list[dict] = []
        for index, event in enumerate(events):
            if not isinstance(event, dict) or not isinstance(event.get("type"), str):
                raise ImportRefused("an event must be an object with a type", index)
            if not transcript.is_table_event(event):
                continue
            try:
                event = normalise_event(event)
            except Refused as err:
                raise ImportRefused(err.message, index) from err
            if event["type"] in (UNDO, REDO):
                raise ImportRefused(
                    f"a transcript holds the events in effect; {event['type']} is not one of them", index
                )
            try:
                game.apply(event)
            except RuleError as err:
                raise ImportRefused(err.message, index) from err
            accepted.append(event)
        gid = new_game_id()
        created = _now()
        self.tables.insert_game(
            self._game_record(gid, players, options, deck, persons, ruleset, start),
            [
                {"game_id": gid, "seq": i + 1, "event": json.dumps(e), "token": None, "created": created}
                for i, e in enumerate(accepted)
            ],
        )
        if len(accepted) >= self.save_every:  # a long game: states to start from, saved on the way
            known, saves = self._replay_log(self.get_game(gid), accepted)
            self._save_states(gid, saves)
        else:
            known = _Known(len(accepted), game, corrections.Walk.of_events(accepted), len(accepted))
        self._cache_put(gid, known)
        return gid

    # -- cache ---------------------------------------------------------------------
    def _cache_get(self, gid: str, seq: int) -> Game | None:
        with self._cache_lock:
            hit = self._cache.get(gid)
            if hit is None or hit.seq != seq:
                return None
            self._cache.move_to_end(gid)
            return hit.game

    def _cache_put(self, gid: str, known: _Known) -> None:
        with self._cache_lock:
            old = self._cache.get(gid)
            if old is not None and old.seq > known.seq:
                return
            self._cache[gid] = known
            self._cache.move_to_end(gid)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)


def tables_for(target: str):
    """The tables of the store ``target`` names: PostgreSQL for a postgresql:// URL, else an SQLite file."""
    if dburl.is_postgres(target):
        from assistant.backends.postgres import PostgresTables  # psycopg: installed with the postgresql extra

        return PostgresTables(target)
    return SQLiteTables(target)


def _stored_json(text: str):
    """A JSON column as stored; garbage inside a row (which SQLite's own check cannot see) is damage."""
    try:
        return json.loads(text)
    except ValueError as err:
        raise sqlite3.DatabaseError("database disk image is malformed: a stored row is not readable") from err
