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
tables say, so changes written by another process or server are caught up.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime

from assistant import corrections, dburl, transcript
from assistant.backends.sqlite import SQLiteTables
from assistant.names import check_names
from assistant.rules import RuleError, registry
from assistant.rules.core import events, position
from assistant.rules.core.game import Game

UNDO = events.UNDO
REDO = events.REDO
AMEND = events.AMEND
REWRITES = (UNDO, REDO, AMEND)  # rows that change which entries are in effect
CACHE_SIZE = 256  # games whose state is kept in memory (a late-game state is a few hundred kB)
INFO_CACHE_SIZE = 4096  # game headers (immutable once created) kept in memory
TOKEN_MAX = 200


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


@dataclass(frozen=True)
class Row:
    seq: int
    event: dict
    token: str | None
    created: str


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

    def __init__(self, path: str):
        """``path``: an SQLite file, or a ``postgresql://`` URL (assistant/dburl.py)."""
        self.path = dburl.check(str(path))
        self.tables = tables_for(self.path)
        # gid -> (seq, Game): the state after the first seq log rows; never changed once cached
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
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
    def rows(self, gid: str, after: int = 0) -> list[Row]:
        return [
            Row(seq, _stored_json(event), token, created) for seq, event, token, created in self.tables.rows(gid, after)
        ]

    def seq(self, gid: str) -> int:
        return self.tables.seq(gid)

    def events(self, gid: str) -> list[dict]:
        """The effective engine events (undo applied)."""
        self.get_game(gid)
        return effective_events(self.rows(gid))

    def state(self, gid: str) -> tuple[int, Game]:
        """(seq, Game) of the game now.  Treat the Game as read-only."""
        info = self.get_game(gid)
        seq = self.tables.seq(gid)
        with self._cache_lock:
            hit = self._cache.get(gid)
        if hit is not None and hit[0] == seq:
            self._cache_get(gid, seq)  # mark as recently used
            return seq, hit[1]
        if hit is not None and hit[0] < seq:  # rows written elsewhere: apply just those
            caught_up = self._catch_up(gid, *hit)
            if caught_up is not None:
                return caught_up
        rows = self.rows(gid)
        game = self._replay(info, effective_events(rows))
        self._cache_put(gid, len(rows), game)
        return len(rows), game

    def _catch_up(self, gid: str, seq: int, game: Game) -> tuple[int, Game] | None:
        """The cached state moved forward by the rows after ``seq`` (None if one of them is an undo)."""
        rows = self.rows(gid, seq)
        if any(r.event.get("type") in REWRITES for r in rows) or [r.seq for r in rows] != list(
            range(seq + 1, seq + 1 + len(rows))
        ):
            return None
        game = game.fork()
        try:
            for row in rows:
                game.apply(row.event)
        except RuleError:
            return None  # let the full replay report it
        self._cache_put(gid, seq + len(rows), game)
        return seq + len(rows), game

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
        game = self._next_state(info, current, event)
        status, seq = self.tables.append(gid, expected_seq, json.dumps(event), token, _now())
        if status == "token":
            return seq
        if status == "stale":
            raise Stale(expected_seq, seq)
        self._cache_put(gid, seq, game)
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
        self._cache_put(gid, seq, out["game"])
        return {"seq": seq, "kept": out["kept"], "set_aside": out["set_aside"]}

    def correction(self, gid: str, index: int, event: dict, at: int | None = None) -> dict:
        """What correcting entry ``index`` to ``event`` would do (nothing is written): the row, the
        state after it, kept, set_aside, and the changes in words against the game now."""
        info = self.get_game(gid)
        rows = self.rows(gid)
        if at is not None:
            rows = rows[:at]
        effective = effective_events(rows)
        try:
            out = corrections.correct(info.start(), effective, index, normalise_event(event))
        except RuleError as err:
            raise Refused(err.message, getattr(err, "rule", None)) from err
        now = self._replay(info, effective).snapshot()
        out["changes"] = corrections.changes(now, out["game"].snapshot())
        return out

    def set_aside(self, gid: str) -> list[dict]:
        """The entries the latest correction in effect set aside, each with whether it fits now."""
        rows = self.rows(gid)
        amends = [r for r in rows if r.event.get("type") == AMEND]
        if not amends:
            return []
        effective = effective_events(rows)
        latest = amends[-1].event
        if latest["index"] >= len(effective) or effective[latest["index"]] != latest["event"]:
            return []  # that correction has been undone
        entered_again = effective[latest["index"] + 1 + latest["kept"] :]
        waiting = list(latest["set_aside"])
        for event in entered_again:  # each entered again once (equal entries count one by one)
            if event in waiting:
                waiting.remove(event)
        return corrections.why_set_aside(self.state(gid)[1], waiting)

    def _next_state(self, info: GameInfo, current: int, event: dict) -> Game:
        """The state after ``event`` entered at seq ``current`` (Refused if the rules refuse it)."""
        if event["type"] in (UNDO, REDO):
            rows = self.rows(info.id)[:current]
            if event["type"] == UNDO and not corrections.in_effect(rows)[1]:
                raise Refused("there is nothing to undo")
            if event["type"] == REDO and not corrections.undone(rows):
                raise Refused(
                    "there is nothing to restore: no entry was undone since the last one entered "
                    "(the Log's full history still shows every entry ever made)"
                )
            return self._replay(info, effective_events([*rows, Row(current + 1, {"type": event["type"]}, None, "")]))
        seq, game = self.state(info.id)
        if seq != current:  # written meanwhile
            raise Stale(current, seq)
        game = game.fork()
        try:
            game.apply(event)
        except RuleError as err:
            raise Refused(err.message, getattr(err, "rule", None)) from err
        return game

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
        rows = self.rows(gid)
        seq = max(0, min(seq, len(rows)))
        effective = effective_events(rows[:seq])
        if not any(r.event.get("type") in REWRITES for r in rows[seq:]):
            # the usual case (a phone tapped a moment too late): no replay, the journal has it all
            now_seq, now = self.state(gid)
            if now_seq == len(rows) and len(now.journal) == len(effective) + len(rows) - seq:
                out = [_entry_text(j) for j in now.journal[len(effective) :]]
                return out if len(out) <= limit else [f"({len(out) - limit} earlier changes)"] + out[-limit:]
        if any(r.event.get("type") == AMEND for r in rows):  # a correction rewrote the log: its words
            out = [
                f"Corrected entry {r.event['index'] + 1}" if r.event.get("type") == AMEND
                else {UNDO: "Undone", REDO: "Restored"}.get(r.event.get("type"), r.event.get("type", "?"))
                for r in rows[seq:]
            ]  # fmt: skip
            return out[-limit:]
        out = self._walk_meanwhile(info, effective, rows[seq:])
        if len(out) > limit:
            out = [f"({len(out) - limit} earlier changes)"] + out[-limit:]
        return out

    def _walk_meanwhile(self, info: GameInfo, prefix: list[dict], rows: list[Row]) -> list[str]:
        """The journal texts of ``rows`` played after the effective events ``prefix``.

        The log is a walk on a tree of effective-event lists (an event goes down to a child, an undo
        back up to the parent), and the text of an event depends only on the node it is applied at.
        A first pass lays out the tree without the engine; then one replay of ``prefix`` gives the
        texts of its events and the states of its nodes where the walk branches off, and each new
        node is computed once from its parent: undoing and entering the same event again costs
        nothing, however often it happens.  A state is copied only for a node with several new
        children (the last one takes the parent's state itself).
        """
        # pass 1: the tree, and the walk on it as (node before, node after or None, new event or None)
        chain = [_Node(None, 0)]
        for event in prefix:
            chain.append(chain[-1].child(_event_key(event), new=False))
        walk: list[tuple[_Node, _Node | None, dict | None]] = []
        node = chain[-1]
        back: list[_Node] = []  # the nodes undone since the last new entry: where a redo goes back down
        for row in rows:
            if row.event.get("type") == UNDO:
                walk.append((node, node.parent, None))
                if node.parent is not None:
                    back.append(node)
                node = node.parent or node
                continue
            if row.event.get("type") == REDO:
                again = back.pop() if back else None
                walk.append((node, again, "redo"))
                node = again or node
                continue
            back.clear()
            key = _event_key(row.event)
            known = node.children.get(key)
            child = known or node.child(key, new=True)
            walk.append((node, child, None if known else row.event))
            node = child
        # pass 2: one replay of the prefix; the states where new events are applied
        try:
            game = info.start()
        except RuleError as err:
            raise Unreplayable(f"the rules engine refuses this game's position: {err.message}") from err
        try:
            for node, event in zip(chain, prefix, strict=False):
                if node.fresh_children:
                    node.state = game.fork()
                game.apply(event)
                node.children[_event_key(event)].text = _entry_text(game.journal[-1])
        except RuleError as err:
            raise Unreplayable(f"the rules engine refuses a stored event: {err.message}") from err
        chain[-1].state = game
        # pass 3: the walk, each new node computed once from its parent's state
        out: list[str] = []
        for before, after, event in walk:
            if after is None:  # an undo (or redo) with nothing left to take back changes nothing
                continue
            if event == "redo":
                out.append("Restored: " + after.text)
                continue
            if after is before.parent:
                out.append("Undone: " + before.text)
                continue
            if event is not None:
                before.fresh_children -= 1
                state = before.state if not before.fresh_children else before.state.fork()
                if not before.fresh_children:
                    before.state = None  # its last new child takes it over
                try:
                    state.apply(event)
                except RuleError as err:
                    raise Unreplayable(f"the rules engine refuses a stored event: {err.message}") from err
                after.state = state if after.fresh_children else None
                after.text = _entry_text(state.journal[-1])
            out.append(after.text)
        return out

    # -- transcripts ---------------------------------------------------------------
    def export(self, gid: str) -> dict:
        """The game as a transcript (FORMAT.md file layout): the effective events only, the live
        ones written as the table's (``Game.transcript_events``: an announced purchase and its
        answer as the acquire it made, the last "I'm done" as the phase's done)."""
        info = self.get_game(gid)
        try:
            events = self.state(gid)[1].transcript_events()
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
        self._cache_put(gid, len(accepted), game)
        return gid

    # -- cache ---------------------------------------------------------------------
    def _cache_get(self, gid: str, seq: int) -> Game | None:
        with self._cache_lock:
            hit = self._cache.get(gid)
            if hit is None or hit[0] != seq:
                return None
            self._cache.move_to_end(gid)
            return hit[1]

    def _cache_put(self, gid: str, seq: int, game: Game) -> None:
        with self._cache_lock:
            old = self._cache.get(gid)
            if old is not None and old[0] > seq:
                return
            self._cache[gid] = (seq, game)
            self._cache.move_to_end(gid)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)


def _event_key(event: dict) -> str:
    return json.dumps(event, sort_keys=True)


class _Node:
    """A list of effective events, as a node of the tree a log walks on (see _walk_meanwhile)."""

    __slots__ = ("parent", "depth", "children", "fresh_children", "state", "text")

    def __init__(self, parent: _Node | None, depth: int):
        self.parent, self.depth = parent, depth
        self.children: dict[str, _Node] = {}
        self.fresh_children = 0  # children the log creates (not on the client's prefix)
        self.state: Game | None = None
        self.text: str | None = None  # the journal text of the event leading here

    def child(self, key: str, new: bool) -> _Node:
        node = self.children[key] = _Node(self, self.depth + 1)
        self.fresh_children += new
        return node


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


def _entry_text(entry: dict) -> str:
    text = str(entry.get("text", ""))
    auto = [str(a) for a in entry.get("auto") or []]
    return text + (" (then: " + "; ".join(auto) + ")" if auto else "")
