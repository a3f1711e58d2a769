"""A store's games as transcripts (``rss-table-transcript``, assistant/log/transcript.py): the
export of a game, and a game imported from one (checked whole before anything is stored)."""

from __future__ import annotations

import json
import logging

from assistant.log import transcript
from assistant.log.timeline import fresh, replay
from assistant.log.walk import effective_events, is_history
from assistant.rules import RuleError, registry
from assistant.rules.core import position
from assistant.store.entries import _now, new_game_id, normalise_event
from assistant.store.errors import (
    ImportRefused,
    Refused,
    Unreplayable,
)

log = logging.getLogger("assistant.store.store")


class TranscriptsMixin:
    def export(self, gid: str) -> dict:
        """The game as a transcript (FORMAT.md file layout): the effective events only, the live
        ones written as the table's (``Game.transcript_events``: an announced purchase and its
        answer as the acquire it made, the last "I'm done" as the phase's done)."""
        info = self.get_game(gid)
        try:
            known = self.timeline(gid)
            journal = known.game.journal
            # a long game restored from a saved state: its older entries from the log, not replayed (without
            # head, the same entries fetched from the journal: the same events, so no mutant is told apart)
            head = None if journal.fetched else known.effective()  # pragma: no mutate: see above
            events = known.game.transcript_events(head)  # pragma: no mutate: see above
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
            raise ImportRefused(
                f"the position cannot be: {err.message}", problems=getattr(err, "problems", None)
            ) from err
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
            if is_history(event):
                raise ImportRefused(
                    f"a transcript holds the events in effect; {event['type']} is not one of them", index
                )
            try:
                entered = game.apply(event)
            except RuleError as err:
                raise ImportRefused(err.message, index) from err
            if entered:  # not the no-op ``done`` of a phase that ended by itself
                accepted.append(event)
        gid = new_game_id()
        created = _now()
        self.backend.insert_game(
            self._game_record(gid, players, options, deck, persons, ruleset, start),
            [
                {"game_id": gid, "seq": i + 1, "event": json.dumps(e), "token": None, "created": created}
                for i, e in enumerate(accepted)
            ],
        )
        if len(accepted) >= self.save_every:  # a long game: states to start from, saved on the way
            known, saves = replay(self, self.get_game(gid), accepted)
            self.save_states(gid, saves)
        else:
            known = fresh(self, self.get_game(gid), game, accepted)
        self._cache_put(gid, known)
        return gid
