"""One game's log as one object: the engine game after a row, the walk of the rows (in effect,
undone, corrected, set aside, ``walk.py``), the journal's words (``meanwhile.py``) and the form it
is saved in (``saved.py``).

A ``Timeline`` is never changed: ``advance`` (the one place that moves a timeline forward by new
rows) returns a new one.  It answers the game before an entry, the words since a row, what a redo
would restore, a correction's preview and the row that brings an earlier state back.  It is made
from its ``Source`` (the store: the rows and the saved states in the database) by ``build``: from
the latest saved state that the rows after it leave in place, else by one replay from the start.

Every table event the log holds is given to the engine here (``play``) or in the two walks that
need their own order: ``corrections.correct`` and ``meanwhile.texts``.

The source (``assistant.store.Store``) is what ``source.Source`` says: the log rows (read in one
place: ``walk.read_row``), the saved states and what signs them, a restored game's older journal
entries.  What a row does is the walk's to say (``walk.py``): nothing here reads a row's kind.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from functools import partial

from assistant.log import corrections, meanwhile, saved
from assistant.log.source import GameStart, Source
from assistant.log.walk import TooShort, Walk, is_history, kept_count, kept_places, new_tail, reach
from assistant.rules import RuleError
from assistant.rules.core.game import Game

log = logging.getLogger(__name__)

SAVED_TRIES = 3  # saved states tried, newest first, before a state is replayed from the log's start
ANY_COUNT = 2**31 - 1  # more events in effect than any game holds: a saved state with any count will do


class Unplayable(Exception):
    """The engine refuses a stored event (``message``): the log no longer replays."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NothingEntered(RuleError):
    """The engine accepted an event as a no-op (the ``done`` of an any-order phase that had ended
    by itself because nobody could act in it): there is no entry, so no log row is written.  A
    RuleError, so that a caller that only replays treats it as an entry that does not fit."""

    def __init__(self):
        super().__init__("That phase has already ended by itself: nobody could act in it.")


def play(game: Game, events) -> Game:
    """``game`` played on with ``events`` (RuleError: the engine refuses one; the game is then as
    it was after the events before it; NothingEntered: it accepts one as a no-op)."""
    for event in events:
        if not game.apply(event):
            raise NothingEntered
    return game


def _entry_text(entry: dict | None) -> str:
    return str((entry or {}).get("text") or "")


@dataclass(frozen=True)
class Timeline:
    """A game after its first ``seq`` log rows.  ``unsaved``: rows read since the last saved state.
    Treat ``game`` as read-only (fork it to play on)."""

    info: GameStart  # the store's GameInfo: the game's start
    seq: int
    game: Game
    walk: Walk
    unsaved: int
    source: Source = field(repr=False, compare=False)  # the store: rows(gid, after, upto), saved states

    # -- moving on ---------------------------------------------------------------------
    def advance(self, events: list[dict]) -> Timeline:
        """This timeline moved on by the rows ``events`` (RuleError: the engine refuses one)."""
        if any(is_history(e) for e in events):
            return build(self.source, self.info, self.seq, extra=tuple(events))
        game, walk = self.game.fork(), self.walk.copy()
        for event in events:
            play(game, [event])
            walk.step(event)
        return replace(self, seq=self.seq + len(events), game=game, walk=walk, unsaved=self.unsaved + len(events))

    # -- questions ---------------------------------------------------------------------
    def effective(self) -> list[dict]:
        """Every effective event (from the log's start, fetched when this walk holds only the latest)."""
        if not self.walk.base:
            return list(self.walk.out)
        return Walk.of(self.source.rows(self.info.id, 0, self.seq)).out

    def full_walk(self) -> Walk:
        """The walk of the whole log (read from its start when this one holds only the latest)."""
        if self.walk.base:
            return Walk.of(self.source.rows(self.info.id, 0, self.seq))
        return self.walk

    def game_before(self, index: int) -> Game:
        """A new game: this one just before effective entry ``index`` (from a saved state if one fits)."""
        return build(self.source, self.info, self.seq, depth=index).game

    def undone_words(self) -> list[dict]:
        """What redo would restore, the next first, in words: [{"n", "text"}]."""
        out, game = [], self.game.fork()
        for n, (again, entry) in enumerate(reversed(self.walk.back), 1):
            text = None  # pragma: no mutate: read only as a truth value (any empty text is as none)
            if again == "event" and game is not None:
                try:
                    text = _entry_text(play(game, [entry]).journal[-1])
                except RuleError:
                    game = None
            out.append({"n": n, "text": text or meanwhile.jump_label(entry)})
        return out

    def undo_names(self) -> str | None:
        """What an undo would take back, in words (None: a plain entry, the journal's latest says it)."""
        row = self.walk.last_taken
        return None if row is None else meanwhile.jump_label(row)

    def correction(self, index: int, event: dict) -> dict:
        """What correcting effective entry ``index`` to ``event`` would do (nothing is written):
        ``row``, ``timeline`` (after the row), ``kept`` and ``set_aside`` (the row's), each entry
        after ``index`` in words (``kept_words``: as it reads after the correction; ``set_aside_words``:
        as it read before), and ``changes``, the banker's list against the game now.
        RuleError: the corrected entry does not fit where it stands, or there is no such entry."""
        corrections.check_index(index, self.walk.count)
        walk = self.walk.copy()
        # the walk holds only the latest events: read the log from its start
        if index < walk.base:  # pragma: no mutate: at the base either walk holds the entry and all after it
            walk = self.full_walk().copy()
        later = walk.out[index + 1 - walk.base :]
        out = corrections.correct(self.game_before(index), later, index, event)
        walk.step(out["row"])
        after = replace(self, seq=self.seq + 1, game=out["game"], walk=walk, unsaved=self.seq + 1)
        journal, places = self.game.journal, set(out["kept"])
        new_journal = after.game.journal
        out["kept_words"] = [_entry_text(new_journal[index + 1 + n]) for n in range(len(out["kept"]))]
        out["set_aside_words"] = [_entry_text(journal[index + 1 + i]) for i in range(len(later)) if i not in places]
        out["changes"] = corrections.changes(self.game.snapshot(), after.game.snapshot(), money=self.game.ruleset.cash)
        out["timeline"] = after
        return out

    def _latest_correction_in_effect(self):
        """(walk, its taken entry) of the latest correction if it is still in effect, else None."""
        latest = self.walk.latest_correction
        if latest is None:
            return None
        at = latest["index"] - self.walk.base
        if at >= 0 and (at >= len(self.walk.out) or self.walk.out[at] != latest["event"]):
            return None  # that correction has been undone
        for walk in (self.walk, None):
            walk = walk or self.full_walk()
            for entry in reversed(walk.taken):
                if entry[0] == "amend" and entry[3] is walk.latest_amend:
                    return walk, entry
            if not walk.base:
                return None  # undone (a walk from the log's start holds every entry in effect)
        return None

    def latest_correction(self) -> dict | None:
        """The latest correction still in effect, in words, for the Log: ``index``, ``was`` and ``now``
        (the entry's words before and after), ``kept`` and ``set_aside`` (the later entries' words),
        and ``changes``: the banker's list of what to move on the real table.  None if there is none."""
        found = self._latest_correction_in_effect()
        if found is None:
            return None
        _walk, (_kind, index, old, row) = found
        before, after = self.game_before(index), self.game_before(index)
        try:
            old_texts = [_entry_text(play(before, [event]).journal[-1]) for event in old]
            new_texts = [_entry_text(play(after, [event]).journal[-1]) for event in new_tail(row, old)]
        except RuleError:
            return None
        places = set(kept_places(row, len(old) - 1))
        return {
            "index": index,
            "was": old_texts[0],  # old and the new tail start with the corrected entry
            "now": new_texts[0],
            "kept": new_texts[1:],
            "set_aside": [text for i, text in enumerate(old_texts[1:]) if i not in places],
            "changes": corrections.changes(before.snapshot(), after.snapshot(), money=before.ruleset.cash),
        }

    def set_aside(self) -> list[dict]:
        """The entries the latest correction in effect set aside, each with whether it fits now and
        its words (``text``: as it read before the correction)."""
        found = self._latest_correction_in_effect()
        if found is None:
            return []
        walk, (_kind, index, old, latest) = found
        effective = walk.out[index - walk.base :]
        entered_again = effective[1 + kept_count(latest) :]
        places = set(kept_places(latest, len(old) - 1))
        waiting = [(e, i) for i, e in enumerate(old[1:]) if i not in places]
        for event in entered_again:  # each entered again once (equal entries count one by one)
            for n, (e, _i) in enumerate(waiting):
                if e == event:
                    del waiting[n]
                    break
        if not waiting:
            return []
        game, texts = self.game_before(index), {}
        try:
            for i, event in enumerate(old):
                play(game, [event])
                texts[i - 1] = _entry_text(game.journal[-1])
        except RuleError:
            pass
        out = corrections.why_set_aside(self.game, [e for e, _i in waiting])
        for item, (_e, i) in zip(out, waiting, strict=True):  # pragma: no mutate: one item per entry, so equal lengths
            item["text"] = texts.get(i) or meanwhile.event_words(item["event"])
        return out

    def go_back(self, to: int) -> dict:
        """The row that brings back the game as it was after row ``to`` (1 to seq - 1)."""
        rows = self.source.rows(self.info.id, 0, self.seq)
        return Walk.of(rows).go_back(Walk.of(rows[:to]), to)

    def go_back_preview(self, to: int) -> dict:
        """What going back to row ``to`` changes, in words: ``row`` (the log row it would be),
        ``leaving`` (the entries in effect now that it takes out), ``coming`` (those it brings back),
        and ``changes``, the banker's list against the game now."""
        row = self.go_back(to)
        there = build(self.source, self.info, to).game
        k, now = row["index"], self.game.journal
        return {
            "row": row,
            "leaving": [_entry_text(now[i]) for i in range(k, len(now))],
            "coming": [_entry_text(there.journal[i]) for i in range(k, len(there.journal))],
            "changes": corrections.changes(self.game.snapshot(), there.snapshot(), money=self.game.ruleset.cash),
        }

    def words_since(self, seq: int, limit: int = 20) -> list[str]:
        """The words of the log rows after row ``seq`` (what a stale view missed), the latest
        ``limit`` (with the count of the earlier ones); an undo or a redo that changed nothing has none."""
        out = [text for text in self.row_words(seq) if text is not None]
        return out if len(out) <= limit else [f"({len(out) - limit} earlier changes)"] + out[-limit:]

    def row_words(self, seq: int = 0) -> list[str | None]:
        """The words of each log row after row ``seq`` (None: an undo or a redo that changed nothing)."""
        seq = max(0, min(seq, self.seq))
        rows = self.source.rows(self.info.id, seq, self.seq)
        if not any(is_history(r.event) for r in rows):
            # the usual case (a phone tapped a moment too late): no replay, the journal has it all
            journal = self.game.journal
            return [meanwhile.entry_text(j) for j in journal[len(journal) - len(rows) :]]
        # from the lowest row they reach back to (only the work differs from a walk from the start)
        at = build(self.source, self.info, seq) if seq else None  # pragma: no mutate: the same words
        top = None if at is None else reach(at.walk, [r.event for r in rows])  # pragma: no mutate: as above
        if top is None:
            # a correction or a going back among them, or one taken back by them: the walk from the start
            every = rows
            if seq:
                every = self.source.rows(self.info.id, 0, self.seq)
            return self._texts(None, every)[seq:]
        return self._texts(at, rows, top)

    def _texts(self, at: Timeline | None, rows, top: int = 0) -> list[str]:
        """The words of ``rows``, the log rows after ``at`` (None: the log's start), played from the
        lowest point they reach back to, ``top`` effective events (meanwhile.py)."""
        moves = [row.event for row in rows]
        if at is None:
            start, prefix = self.info.start(), []
        else:
            begin = build(self.source, self.info, at.seq, depth=top)  # the game after the first ``top`` events
            start, prefix = begin.game, begin.walk.out[top - begin.walk.base :]
        try:
            return meanwhile.texts(start, prefix, moves)
        except RuleError as err:
            raise Unplayable(f"the rules engine refuses a stored event: {err.message}") from err


# -- making timelines -------------------------------------------------------------------------
def fresh(source: Source, info: GameStart, game: Game, events: list[dict]) -> Timeline:
    """The timeline of a game just stored with ``events`` (all in effect), ``game`` played to there."""
    return Timeline(info, len(events), game, Walk.of_events(events), len(events), source)


def build(
    source: Source, info: GameStart, seq: int, extra: tuple[dict, ...] = (), depth: int | None = None
) -> Timeline:
    """The game after its first ``seq`` rows and the ``extra`` rows not written yet; the Game
    after only the first ``depth`` effective events if given (the walk is the log's, whole).

    Starts from the latest saved state (saved.py) that the rows after it leave in place,
    else replays the effective events from the game's start (Unplayable if the engine refuses one)."""
    upto, most = seq, ANY_COUNT if depth is None else depth  # the row, the events in effect
    for _ in range(SAVED_TRIES if seq >= source.save_every else 0):
        found = source.backend.saved_state(info.id, saved.version(), upto, most)
        if found is None:
            break
        at, data = found
        try:
            state = saved.load_signed(source.state_key, info.id, at, data)
        except Exception as err:  # noqa: BLE001 - a cache that cannot be read is replayed instead
            log.warning("game %s: the state saved at row %s cannot be read (%s): replaying the log", info.id, at, err)
            break
        walk, kept = state.walk.restart(), state.walk.count
        try:
            for row in source.rows(info.id, at, seq):
                walk.step(row.event)
            for event in extra:
                walk.step(event)
        except TooShort:
            upto = at - 1
            continue
        if walk.low < kept:  # the rows after it took back (or corrected) entries the saved state holds
            upto, most = at - 1, min(most, walk.low)
            continue
        game = state.game
        game.journal.set_loader(partial(source.journal_at, info, at))
        try:
            play(game, walk.out[kept - walk.base : None if depth is None else depth - walk.base])
        except RuleError:
            break  # let the full replay report it
        return Timeline(info, seq + len(extra), game, walk, seq - at + len(extra), source)
    rows = [r.event for r in source.rows(info.id, 0, seq)]
    timeline, saves = replay(source, info, rows + list(extra), depth, written=len(rows))
    source.save_states(info.id, saves)
    return timeline


def replay(source: Source, info: GameStart, rows: list[dict], depth: int | None = None, written: int | None = None):
    """The timeline after the log rows ``rows`` (its game after the first ``depth`` effective events
    only, if given), replayed from its start; and the saved forms of its states after the latest rows
    (of the first ``written``, those in the database) whose number is a multiple of ``save_every``
    and whose entries are all still in effect (the next undos start there)."""
    every = source.save_every
    written = len(rows) if written is None else written
    walk, counts, touched, walks = Walk(), [], [], {}
    for n, event in enumerate(rows, 1):
        walk.low = walk.count
        walk.step(event)
        counts.append(walk.count)
        touched.append(walk.low)
        if n % every == 0 and n <= written:
            walks[n] = walk.trimmed(saved.KEEP)
    lowest, still = len(rows) and counts[-1], {}  # lowest: the fewest events in effect since row n
    for n in range(len(rows), 0, -1):
        if n in walks and counts[n - 1] <= lowest and (depth is None or counts[n - 1] <= depth):
            still.setdefault(counts[n - 1], n)
        lowest = min(lowest, touched[n - 1])
    keep = dict(sorted(still.items())[-saved.KEEP_SAVED :])  # events in effect -> row
    effective = walk.out if depth is None else walk.out[:depth]
    saves, done = [], 0
    try:
        game = info.start()
        for k in sorted(keep):  # play to each state kept, save it, go on
            if k > len(effective):
                break
            play(game, effective[done:k])
            done = k
            saves.append((keep[k], k, saved.dumps(game, walks[keep[k]])))
        play(game, effective[done:])
    except RuleError as err:  # e.g. the stored log of an older version of the rules
        raise Unplayable(f"the rules engine refuses the stored events of this game: {err.message}") from err
    unsaved = len(rows) - max(keep.values(), default=0)
    return Timeline(info, len(rows), game, walk, unsaved, source), saves
