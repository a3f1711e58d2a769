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
key and found again in the registry.  Each is signed (``sign``): an HMAC over the game, the row and
the bytes, keyed from the secret the servers sharing the database share (``key_from_secret``: the
app's SECRET_KEY, ``$RSS_SECRET_KEY`` or the instance folder's ``secret_key``), never kept in the
database; a state whose signature does not hold (edited, copied from another game or row, or
written by a server with another secret) is never used (``opened``: ``Untrusted``), and the log is
replayed instead, with a warning (issue 38).  They are read by a loader that cannot run code (``loads``):
it builds only the classes the rules engine and the walk define, and plain data (lists, dicts,
sets, numbers, text); a pickle that names anything else (a function, a class of another module,
``os.system``, ``open``) is refused before anything is called (``Untrusted``), and the store then
treats the state as absent and replays the log, with a warning (``check-db`` and ``copy-db`` warn
of such states too: ``untrusted``).  The loading is bounded: a state larger than ``MAX_BYTES`` is
refused unread.  A state read without its signature checked (``loads``: check-db's comparison of
what differs) is read by a loader that charges every object it builds or fills by the size of what
it is given (a few copies of a large list made again and again from one pickled reference, or
``list(bytes(10**8))``, is refused past ``WORK`` items per byte of the state, before it is made).
A state whose signature holds (``load_signed``: what a worker starts a game from) was written by
this program's own ``dumps``, which makes nothing of the kind, since no one without the key can
sign one: it is read by Python's own loader in C (15 times faster: 0.07 against 1.06 ms for a
late game of transcript 83092), which answers the same classes only.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import pickle
import secrets
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
MAX_BYTES = 4 << 20  # a saved state is at most 4 MB (a late 100-entry game: about 23 KB)
WORK = 64  # what the loader may build or copy, in items per byte of the state
MAC_BYTES = 32  # the signature before the pickle (HMAC-SHA256)
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
    """The state in ``data`` (a pickle whose signature was not checked), loaded within bounds."""
    _within(data)
    record = _Unpickler(io.BytesIO(data), budget=WORK * len(data) + 4096).load()
    return Saved(seq, record["game"], record["walk"])


def load_signed(key: bytes, gid: str, seq: int, stored: bytes) -> Saved:
    """The state stored for game ``gid`` at row ``seq``, its signature checked first (``opened``):
    one this program wrote, read by the C loader, which names the same classes only."""
    data = opened(key, gid, seq, stored)
    _within(data)
    record = _SignedUnpickler(io.BytesIO(data)).load()
    return Saved(seq, record["game"], record["walk"])


def _within(data: bytes) -> None:
    if len(data) > MAX_BYTES:
        raise Untrusted(f"a saved state of {len(data)} bytes is larger than the {MAX_BYTES} a state may be")


# -- signatures ---------------------------------------------------------------------------------
def key_from_secret(secret: str | bytes) -> bytes:
    """The key that signs saved states, from the secret the servers sharing a database share (a key
    of its own: a signed state says nothing of the app's session cookies, nor they of it)."""
    secret = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(secret, b"rss saved states", hashlib.sha256).digest()


_PROCESS_KEY = secrets.token_bytes(32)


def process_key() -> bytes:
    """The key of a store given none (the tests, the tools): random, this process's own, so that
    the states it saves are used by this process only."""
    return _PROCESS_KEY


def _mac(key: bytes, gid: str, seq: int, data: bytes) -> bytes:
    head = f"{len(gid)}:{gid}:{int(seq)}:".encode()
    return hmac.new(key, head + data, hashlib.sha256).digest()


def sign(key: bytes, gid: str, seq: int, data: bytes) -> bytes:
    """The state ``data`` as it is stored: its signature (over the game, the row and the bytes), then it."""
    return _mac(key, gid, seq, data) + data


def opened(key: bytes, gid: str, seq: int, stored: bytes) -> bytes:
    """The pickle of a stored state whose signature holds for this game and row (else Untrusted)."""
    mac, data = stored[:MAC_BYTES], stored[MAC_BYTES:]
    if len(stored) < MAC_BYTES or not hmac.compare_digest(mac, _mac(key, gid, seq, data)):
        raise Untrusted(
            "its signature does not hold: it was not written by a server with this database's secret key "
            "for this game and row"
        )
    return data


def unsigned(stored: bytes) -> bytes:
    """The pickle of a stored state, its signature left unchecked (check-db: where does it differ?)."""
    return stored[MAC_BYTES:]


class _Pickler(pickle.Pickler):
    """Pickles the ruleset's shared objects by reference: ("ruleset", key, attribute)."""

    def __init__(self, file, key: str):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)  # pragma: no mutate: the default (4) loads alike
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
# (the pickler writes lists, dicts, sets, tuples, text, bytes and numbers with opcodes of their own:
# these are what it would call, and none makes more than it is given, which the loader charges)
_PLAIN = {
    "builtins": {"set", "frozenset", "dict", "list", "tuple", "int", "float", "str", "bool", "complex"},
    "collections": {"OrderedDict", "defaultdict", "deque", "Counter"},
}
_ENGINE = ("assistant.rules.",)  # the rules engine's packages (pure Python, no I/O)
_WALK = "assistant.log.walk"
_SHARED = (None, "cards", "pricing")  # the ruleset's attributes pickled by reference


def _size(obj) -> int:
    return len(obj) if isinstance(obj, (str, bytes, list, tuple, dict, set, frozenset)) else 1


class _Names:
    """What both loaders answer: the classes and references a saved state may name (``_find_class``)."""

    def find_class(self, module: str, name: str):
        return _find_class(super().find_class, module, name)

    def persistent_load(self, pid):
        return _persistent_load(pid)


class _Unpickler(_Names, pickle._Unpickler):  # noqa: SLF001 - the Python loader: its opcodes can be charged
    """Builds the engine's classes and plain data only: ``find_class`` is the one way a pickle
    reaches anything callable, and it answers only classes defined in the engine (or the walk).

    Bounded: every call (``REDUCE``, ``NEWOBJ``) and every filling of an object (``BUILD``) is
    charged the size of what it is given, before it is done; past ``budget`` the state is refused.
    (The opcodes that read data from the pickle make no more than the pickle holds.)"""

    def __init__(self, file, budget: int):
        super().__init__(file)
        self.budget = budget

    def _charge(self, args) -> None:
        items = args.values() if isinstance(args, dict) else args if isinstance(args, (tuple, list)) else (args,)
        self.budget -= 1 + sum(_size(a) for a in items)
        if self.budget < 0:
            raise Untrusted("loading this saved state would build far more than it holds: it is not loaded")

    def _reduce(self):
        self._charge(self.stack[-1])
        pickle._Unpickler.load_reduce(self)  # noqa: SLF001

    def _newobj(self):
        self._charge(self.stack[-1])
        pickle._Unpickler.load_newobj(self)  # noqa: SLF001

    def _newobj_ex(self):
        self._charge(self.stack[-2])
        self._charge(self.stack[-1])
        pickle._Unpickler.load_newobj_ex(self)  # noqa: SLF001

    def _build(self):
        state = self.stack[-1]
        for part in state if isinstance(state, tuple) else (state,):
            self._charge(part)
        pickle._Unpickler.load_build(self)  # noqa: SLF001

    dispatch = dict(pickle._Unpickler.dispatch)  # noqa: SLF001
    dispatch[pickle.REDUCE[0]] = _reduce
    dispatch[pickle.NEWOBJ[0]] = _newobj
    dispatch[pickle.NEWOBJ_EX[0]] = _newobj_ex
    dispatch[pickle.BUILD[0]] = _build
    for _code in (pickle.INST, pickle.OBJ):  # protocol 0 and 1 calls: never written by this program
        dispatch.pop(_code[0], None)


class _SignedUnpickler(_Names, pickle.Unpickler):
    """The C loader, for a state whose signature holds: the same classes and references only."""


def _find_class(find, module: str, name: str):
    """What a saved state may name: plain data, and the classes the engine (or the walk) defines."""
    if name in _PLAIN.get(module, ()):
        return find(module, name)
    if module.startswith(_ENGINE) or module == _WALK:
        if "." not in name and not name.startswith("__"):  # pragma: no mutate: such names reach no class of theirs
            found = find(module, name)
            # a class the engine itself defines (not a name it imported, like importlib's resources)
            if isinstance(found, type) and found.__module__ == module:
                return found
    raise Untrusted(f"a saved state names {module}.{name}, which the loader does not build")


def _persistent_load(pid):
    if not (isinstance(pid, tuple) and len(pid) == 3 and pid[0] == "ruleset" and pid[2] in _SHARED):
        raise Untrusted(f"unknown reference {pid!r} in a saved state")
    _kind, key, name = pid
    ruleset = registry.get(key)
    return ruleset if name is None else getattr(ruleset, name)


def untrusted(states, key: bytes) -> list[str]:
    """Warnings for the saved states (game id, row, data) this version does not use (their signature
    does not hold for ``key``, or they cannot be loaded): each is treated as absent (the log is
    replayed instead)."""
    out = []
    for gid, seq, data in states:
        try:
            load_signed(key, gid, seq, bytes(data))  # pragma: no mutate: only tried: its seq is not read
        except Exception as err:  # noqa: BLE001 - whatever it is, the state is not used
            out.append(f"game {gid}: the state saved at row {seq} is not used ({err}): it is treated as absent")
    return out
