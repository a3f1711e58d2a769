"""Persistence of games: an append-only event log per game, in SQLite (one file, the default) or
PostgreSQL (several app servers on one database); the tables are in ``assistant/store/``.

* ``games``: id (>= 128 random bits), players, options, deck, persons (JSON; persons: the two
  persons of the two-handed variant, else NULL), created, game (the ruleset's key, see
  ``assistant.rules.registry``), position (a resumed game's first entry, else NULL).
  The options hold the variants, or the game type (classic: ``["short"]``).
* ``events``: (game_id, seq) primary key, the event JSON, an optional idempotency
  token (unique per game), created.  Undo is an event too (``{"type": "undo"}``):
  it takes back the latest event still in effect.  ``seq`` of a game = number of log
  rows (undo rows included); a row's ``seq`` is its 1-based position.
* the schema grows by named migrations (``assistant/store/schema.py``; the same names in PostgreSQL).

The state of a game is the replay of its effective events from its start (``GameInfo.start``),
cached per Store instance and keyed by (game_id, seq); a cache never trusts itself past the seq the
tables say, so changes written by another process or server are caught up.  A long game's state is
also saved in the database every ``save_every`` rows (``assistant/log/saved.py``), and a replay
starts from the latest saved state the rows after it leave in place.  The replay, the walk of the
rows (undo, redo, corrections, going back) and the words of what happened meanwhile are one
object, the game's ``Timeline`` (``assistant/log/timeline.py``): the store keeps the rows and a
cache of timelines.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict

from assistant.log import saved
from assistant.log.timeline import NothingEntered, Timeline, Unplayable
from assistant.log.walk import NotARow, asks_confirm, compact, effective_events, is_history, row_for
from assistant.rules import RuleError, registry
from assistant.rules.core.game import Game
from assistant.rules.core.records import Journal
from assistant.store import backends, budget, dburl, settings
from assistant.store.entries import (  # noqa: F401 - offered by the package (store/__init__.py)
    TOKEN_MAX,
    GameInfo,
    _now,
    check_token,
    new_game_id,
    normalise_event,
)
from assistant.store.errors import (
    Damaged,
    NotFound,
    Refused,
    Stale,
    Unreplayable,
)
from assistant.store.logrows import Row, RowReader
from assistant.store.names import check_names
from assistant.store.timelines import TimelinesMixin
from assistant.store.transcripts import TranscriptsMixin

log = logging.getLogger(__name__)

CACHE_SIZE = 1024  # games whose state is kept in memory per worker (a late game: about 0.2 MB); RSS_CACHE_GAMES
INFO_CACHE_SIZE = 4096  # game headers (immutable once created) kept in memory


class Store(TimelinesMixin, TranscriptsMixin):
    """All access to the database; one instance per app (it owns the state cache). Its games' timelines
    (cache, replay, saved states) are in ``timelines.py``, import and export in ``transcripts.py``;
    the rows are the backend's (``self.backend``: ``sqlite.py``, ``postgres.py``)."""

    def __init__(self, path: str, save_every: int = saved.EVERY, key: bytes | None = None, migrate: bool = True):
        """``path``: an SQLite file, or a ``postgresql://`` URL (assistant/store/dburl.py); ``save_every``:
        a long game's state is saved in the database after this many rows (assistant/log/saved.py);
        ``key`` signs them (``saved.key_from_secret``; none: this process's own, ``saved.process_key``);
        ``migrate``: apply the schema's pending steps (check-db only reads: it does not)."""
        self.path = dburl.check(str(path))
        self.save_every = save_every
        self.state_key = key or saved.process_key()
        self._heads: OrderedDict[tuple[str, int], Journal] = OrderedDict()  # (gid, row) -> journal there
        self.backend = backend_for(self.path)
        # gid -> the game's timeline after its first seq log rows; never changed once cached
        self._cache: OrderedDict[str, Timeline] = OrderedDict()
        # RSS_CACHE_GAMES: more games in memory for a big hall (1,000 tables: about 1,000 per worker)
        self.cache_size = settings.get("RSS_CACHE_GAMES", CACHE_SIZE)
        self._cache_lock = threading.Lock()
        self._info: OrderedDict[str, GameInfo] = OrderedDict()  # game headers never change
        self._rows = RowReader(self.backend)  # the log's rows, a going back with its events (logrows.py)
        self._held = budget.Held()  # what each game holds (its budget: assistant/store/budget.py)
        if migrate:
            self.backend.migrate()

    @property
    def kind(self) -> str:
        return self.backend.kind

    def close(self) -> None:
        self.backend.close()

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
        self.backend.insert_game(self._game_record(gid, players, options, deck, persons, ruleset))
        return gid

    def _game_record(self, gid, players, options, deck, persons, ruleset, start=None) -> dict:
        # (the keys are the tables' column names, which SQL reads case-blind: no mutant of their case)
        return {
            "position": None if start is None else json.dumps(start),  # pragma: no mutate: case-blind
            "game": ruleset,  # pragma: no mutate: case-blind
            "id": gid,  # pragma: no mutate: case-blind
            "players": json.dumps(list(players)),  # pragma: no mutate: case-blind
            "options": json.dumps(options),  # pragma: no mutate: case-blind
            "deck": None if deck is None else json.dumps(list(deck)),  # pragma: no mutate: case-blind
            "persons": json.dumps(list(persons)) if persons else None,  # pragma: no mutate: case-blind
            "created": _now(),  # pragma: no mutate: case-blind
            "edition": Game.EDITION,  # pragma: no mutate: case-blind
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
            raise Refused(err.message, err.rule) from err
        except (ValueError, TypeError) as err:
            raise Refused(str(err) or "invalid game set-up") from err

    def get_game(self, gid: str) -> GameInfo:
        gid = str(gid)
        with self._cache_lock:
            info = self._info.get(gid)
        if info is not None:
            return info
        r = self.backend.game_row(gid)
        if r is None:
            raise NotFound("no such game")  # not remembered: the game may be created later
        if not r.get("game"):  # every game names its ruleset (migration games_name_their_ruleset)
            raise Damaged("database disk image is malformed: a stored game names no ruleset")
        info = GameInfo(
            id=r["id"],
            players=_stored_json(r["players"]),
            options=_stored_json(r["options"]),
            deck=None if r["deck"] is None else _stored_json(r["deck"]),
            created=r["created"],
            persons=_stored_json(r["persons"]) if r.get("persons") else None,
            ruleset=r["game"],
            position=_stored_json(r["position"]) if r.get("position") else None,
            edition=r.get("edition") or 1,  # stored before editions: the first
        )
        with self._cache_lock:
            self._info[gid] = info
            while len(self._info) > INFO_CACHE_SIZE:
                self._info.popitem(last=False)  # pragma: no mutate: last=None is false to popitem
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
        self.backend.take_seat(gid, phone, player)

    def seats_taken(self, gid: str) -> set[str]:
        """The seats (players or, two-handed, persons) some phone has taken."""
        return self.backend.seats_taken(gid)

    # -- events ------------------------------------------------------------------
    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[Row]:
        """The log rows after row ``after`` (up to row ``upto``), in order (assistant/store/logrows.py)."""
        return self._rows.read(gid, after, upto)

    def seq(self, gid: str) -> int:
        return self.backend.seq(gid)

    def events(self, gid: str) -> list[dict]:
        """The effective engine events (undo applied)."""
        self.get_game(gid)
        return effective_events(self.rows(gid))

    def state(self, gid: str) -> tuple[int, Game]:
        """(seq, Game) of the game now.  Treat the Game as read-only."""
        known = self.timeline(gid)
        return known.seq, known.game

    def undone(self, gid: str, seq: int | None = None) -> list[dict]:
        """What a redo can bring back (at row ``seq``, else now), the next one first."""
        return self.timeline(gid, seq).walk.undone

    def asks_confirm(self, gid: str, event: dict) -> bool:
        """Whether ``event`` must be confirmed before it is written (an undo past a few in a row)."""
        return asks_confirm(event, lambda: self.undos_in_a_row(gid))

    def undos_in_a_row(self, gid: str, seq: int | None = None) -> int:
        """How many undos end the log (its first ``seq`` rows, else all)."""
        return self.timeline(gid, seq).walk.undos_at_end

    def append(self, gid: str, expected_seq: int, event: dict, token: str | None = None) -> int:
        """Append one event (an undo, a redo, a going back) if ``expected_seq`` is current; return
        the new seq (``enter``: the new timeline)."""
        return self._enter(gid, expected_seq, event, token)[0]

    def enter(self, gid: str, expected_seq: int, event: dict, token: str | None = None) -> Timeline:
        """Append one event (or an undo, a redo, a going back) if ``expected_seq`` is current;
        return the timeline after it, to render from (a token already used: the game now)."""
        seq, known = self._enter(gid, expected_seq, event, token)
        return known or self.timeline(gid)

    def _enter(self, gid: str, expected_seq: int, event: dict, token: str | None) -> tuple[int, Timeline | None]:
        """(the new seq, the timeline after it).

        Raises Stale, Refused or NotFound.  A token already used returns (the seq that its event
        produced, None), without writing anything (idempotent retries).

        The new state is worked out first (the state at a seq is fixed by the log); the write then
        checks the token and the seq again and inserts the row in one transaction of the tables
        (SQLite: BEGIN IMMEDIATE; PostgreSQL: the (game, seq) primary key), so of two posts at the
        same seq, from any thread, process or server, exactly one is written.
        """
        event = normalise_event(event)
        check_token(token)
        info = self.get_game(gid)
        if token is not None:
            earlier = self.backend.token_seq(gid, token)
            if earlier is not None:
                return earlier, None
        current = self.backend.seq(gid)
        if expected_seq != current:
            raise Stale(expected_seq, current)
        now = self.timeline(info.id)
        if now.seq != current:  # written meanwhile
            raise Stale(current, now.seq)
        row = self._row_for(now, event)
        try:
            known = now.advance([row])
        except NothingEntered:  # accepted as a no-op: the ``done`` of a phase that ended by itself
            return current, now
        except RuleError as err:
            raise Refused(err.message, err.rule) from err
        return self._write(gid, expected_seq, row, token, known)

    def _row_for(self, now: Timeline, event: dict) -> dict:
        """The log row ``event`` is written as (a going back: with the events it brings back,
        ``walk.row_for``); Refused if the log cannot take it (nothing for an undo or a redo to do)."""
        try:
            return row_for(now.walk, event, now.seq, now.go_back)
        except NotARow as err:
            raise Refused(err.message) from None

    def _write(self, gid: str, expected_seq: int, row: dict, token: str | None, known: Timeline):
        """Write ``row`` at ``expected_seq``: (its seq, ``known`` cached), or (the seq a token already
        used produced, None); Stale if another row was written meanwhile."""
        text = json.dumps(compact(row))  # a going back: its row number, not the events it brings back
        held = self._held.of(self.backend, gid, expected_seq)
        # every write counts against the caps (issue 38); without held, check_room counts the same figure again
        budget.check_room(self.backend, gid, len(text), held)  # pragma: no mutate: gid and held only spare a count
        status, seq = self.backend.append(gid, expected_seq, text, token, _now())
        if status == "written":
            self._held.wrote(gid, seq, len(text.encode()))
        if status == "token":
            return seq, None
        if status == "stale":
            raise Stale(expected_seq, seq)
        return seq, self._remember(gid, known)

    def amend(self, gid: str, expected_seq: int, index: int, event: dict, token: str | None = None) -> dict:
        """Correct the effective entry ``index`` (as export counts them) to ``event``: one log row.

        Returns {"seq", "kept", "set_aside"} (kept: how many later entries stay in effect); raises
        Stale, Refused (the corrected entry does not fit where it stands) or NotFound.  A token
        already used returns the seq it produced."""
        event = normalise_event(event)
        if is_history(event):
            raise Refused("an entry is corrected by a decision of the table, not by an undo or a correction")
        check_token(token)
        self.get_game(gid)
        if token is not None:
            earlier = self.backend.token_seq(gid, token)
            if earlier is not None:
                return {"seq": earlier, "kept": None, "set_aside": None}
        current = self.backend.seq(gid)
        if expected_seq != current:
            raise Stale(expected_seq, current)
        # the correction at row current is the one now: a row written since is refused (Stale) by _write
        out = self.correction(gid, index, event, current)  # pragma: no mutate: at current = now
        seq, known = self._write(gid, expected_seq, out["row"], token, out["timeline"])
        if known is None:
            return {"seq": seq, "kept": None, "set_aside": None}
        return {"seq": seq, "kept": len(out["kept"]), "set_aside": out["set_aside"]}

    def correction(self, gid: str, index: int, event: dict, at: int | None = None) -> dict:
        """What correcting entry ``index`` to ``event`` would do (nothing is written): the row, the
        timeline after it, kept, set_aside, their words, and the changes in words against the game now."""
        try:
            return self.timeline(gid, at).correction(index, normalise_event(event))
        except RuleError as err:
            raise Refused(err.message, err.rule) from err

    def set_aside(self, gid: str) -> list[dict]:
        """The entries the latest correction in effect set aside, each with whether it fits now."""
        return self.timeline(gid).set_aside()

    # -- what happened -------------------------------------------------------------
    def changes_since(self, gid: str, seq: int, limit: int = 20) -> list[str]:
        """Journal texts of the log rows after ``seq`` (what a stale view missed)."""
        try:
            return self.timeline(gid).words_since(seq, limit)
        except Unplayable as err:
            raise Unreplayable(err.message) from err


def backend_for(target: str):
    """The tables of the store ``target`` names: PostgreSQL for a postgresql:// URL, else an SQLite file."""
    return backends.backend(target)(target)


def _stored_json(text: str):
    """A JSON column as stored; garbage inside a row (which SQLite's own check cannot see) is damage."""
    try:
        return json.loads(text)
    except ValueError as err:
        raise Damaged("database disk image is malformed: a stored row is not readable") from err
