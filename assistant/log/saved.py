"""Saved states: the state of a game at a row of its log, kept in the database so that a long game is
not replayed from its start by every worker that meets it (issue 18: a 20,000-entry log).

A saved state is a cache, never the truth: the log alone is the game, a saved state is only ever
used where the rows after it show that it is still the start of the game now (``corrections.Walk``:
nothing after it took back or corrected an entry it holds), and it is used only by the code that
wrote it (``version()``: a digest of the rules engine, its card data and the code of the saved
states, so that a new version replays the log instead, and saves its own).  It holds:

* the engine ``Game`` after the effective events of the first ``seq`` rows, with only the latest
  ``KEEP`` journal entries (the older ones are fetched from the log on first need, see
  ``core/records.py``);
* the log's ``Walk`` at that row, with the latest ``KEEP`` effective events and entries in effect
  (what undo, redo and a correction need).

They are pickles of the engine's own objects, written only by this program in its own database
(never taken from a request or a transcript); the ruleset (its cards, its prices) is pickled by its
key and found again in the registry.  They are read by a loader that cannot run code (``loads``):
it builds only the classes the rules engine and the walk define, and plain data (lists, dicts,
sets, numbers, text); a pickle that names anything else (a function, a class of another module,
``os.system``, ``open``) is refused before anything is called (``Untrusted``), and the store then
treats the state as absent and replays the log, with a warning (``check-db`` and ``copy-db`` warn
of such states too: ``untrusted``).
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from assistant.log.walk import Walk
from assistant.rules import registry
from assistant.rules.core.game import Game

EVERY = 200  # a state is saved when this many rows were read since the last one (Store's save_every)
KEEP = 64  # journal entries and effective events a saved state holds (the page shows the latest 30)
KEEP_SAVED = 8  # states saved at once by a replay from the start (the latest ones: where undos go)
_PACKAGE = Path(__file__).resolve().parent.parent
# what a saved state is made of: the rules engine and its card data, the log's walk (and the rest of
# the log's timeline, this module included)
_SOURCES = ("rules", "log")


@cache
def version() -> str:
    """A digest of the code and data a saved state is made of (and of Python's version, for pickle)."""
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for source in _SOURCES:
        top = _PACKAGE / source
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            if path.suffix in (".py", ".json", ".txt") and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(_PACKAGE)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


@dataclass
class Saved:
    seq: int  # the log rows it is the state after
    game: Game  # a new object each time it is read: the caller may play on with it
    walk: Walk


def dumps(game: Game, walk: Walk) -> bytes:
    """The saved form of ``game`` (its journal cut to the latest entries) and of the log's ``walk``."""
    state = game.fork()
    state.journal = game.journal.latest(KEEP)
    state.on_phase_end = None
    buffer = io.BytesIO()
    _Pickler(buffer, game.ruleset.key).dump({"game": state, "walk": walk.trimmed(KEEP)})
    return buffer.getvalue()


def loads(seq: int, data: bytes) -> Saved:
    record = _Unpickler(io.BytesIO(data)).load()
    return Saved(seq, record["game"], record["walk"])


class _Pickler(pickle.Pickler):
    """Pickles the ruleset's shared objects by reference: ("ruleset", key, attribute)."""

    def __init__(self, file, key: str):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        ruleset = registry.get(key)
        self._shared = {id(ruleset): (key, None)}
        for name in ("cards", "pricing"):
            self._shared[id(getattr(ruleset, name))] = (key, name)

    def persistent_id(self, obj):
        found = self._shared.get(id(obj))
        return None if found is None else ("ruleset", *found)


class Untrusted(pickle.UnpicklingError):
    """A saved state names something the loader does not build: it is not used (nothing was run)."""


# plain data a saved state may hold besides the engine's own objects (no callable that does anything)
_PLAIN = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "int", "float", "str", "bool", "bytes", "complex"},
    "collections": {"OrderedDict", "defaultdict", "deque", "Counter"},
}
_ENGINE = ("assistant.rules.",)  # the rules engine's packages (pure Python, no I/O)
_WALK = "assistant.log.walk"
_SHARED = (None, "cards", "pricing")  # the ruleset's attributes pickled by reference


class _Unpickler(pickle.Unpickler):
    """Builds the engine's classes and plain data only: ``find_class`` is the one way a pickle
    reaches anything callable, and it answers only classes defined in the engine (or the walk)."""

    def find_class(self, module: str, name: str):
        if name in _PLAIN.get(module, ()):
            return super().find_class(module, name)
        if module.startswith(_ENGINE) or module == _WALK:
            if "." not in name and not name.startswith("__"):
                found = super().find_class(module, name)
                # a class the engine itself defines (not a name it imported, like importlib's resources)
                if isinstance(found, type) and found.__module__ == module:
                    return found
        raise Untrusted(f"a saved state names {module}.{name}, which the loader does not build")

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) == 3 and pid[0] == "ruleset" and pid[2] in _SHARED):
            raise Untrusted(f"unknown reference {pid!r} in a saved state")
        _kind, key, name = pid
        ruleset = registry.get(key)
        return ruleset if name is None else getattr(ruleset, name)


def untrusted(states) -> list[str]:
    """Warnings for the saved states (game id, row, data) this version cannot load: each is treated
    as absent (the log is replayed instead)."""
    out = []
    for gid, seq, data in states:
        try:
            loads(seq, bytes(data))
        except Exception as err:  # noqa: BLE001 - whatever it is, the state is not used
            out.append(f"game {gid}: the state saved at row {seq} is not used ({err}): it is treated as absent")
    return out
