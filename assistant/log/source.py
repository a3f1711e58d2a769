"""What a game's ``Timeline`` (``timeline.py``) reads from the store, as types: the store
(``assistant.store.Store``) is one ``Source``, its ``GameInfo`` one ``GameStart``.  The log does not
import the store (it sits below it): these say what it relies on."""

from __future__ import annotations

from typing import Protocol

from assistant.rules.core.game import Game
from assistant.rules.core.records import Journal


class GameStart(Protocol):
    """A game's header: its id and the engine game before its first event."""

    @property
    def id(self) -> str: ...

    def start(self) -> Game: ...


class LogRow(Protocol):
    """One row of a game's log: its place (from 1) and its event, read (``walk.read_row``)."""

    @property
    def seq(self) -> int: ...

    @property
    def event(self) -> dict: ...


class SavedStates(Protocol):
    """The tables' saved states of the games (``saved.py`` makes and reads them)."""

    def saved_state(self, gid: str, version: str, upto: int, events: int) -> tuple[int, bytes] | None:
        """(row, data) of the latest state saved by ``version`` at or before row ``upto`` with at most
        ``events`` events in effect, or None."""
        ...


class Source(Protocol):
    """Where a timeline's rows and saved states come from."""

    save_every: int  # a state is saved after every this many rows
    state_key: bytes  # signs the saved states (``saved.opened``)

    @property
    def backend(self) -> SavedStates: ...

    def rows(self, gid: str, after: int = 0, upto: int | None = None) -> list[LogRow]:
        """The log rows after row ``after`` (up to row ``upto``), in order."""
        ...

    def save_states(self, gid: str, saves: list[tuple[int, int, bytes]]) -> None:
        """Keep these saved states, each (row, events in effect, data)."""
        ...

    def journal_at(self, info: GameStart, seq: int) -> Journal:
        """The journal of the game after its first ``seq`` rows (a restored game's older entries)."""
        ...
