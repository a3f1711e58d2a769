"""The store's errors, the same whatever the backend: the callers (the web app, the command line)
never see ``sqlite3`` or ``psycopg`` exceptions.  Each backend turns its database's own errors into
``DatabaseDamaged`` or ``DatabaseUnavailable`` (``translating``)."""

from __future__ import annotations

import functools

# what to do about a damaged database, said wherever it is found
ADVICE = (
    'Stop the server, check the file with "python -m assistant check-db" and restore a backup '
    '(README: "A damaged database file").'
)


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


class Damaged(StoreError):
    """A stored row does not read back (garbage inside it, which the database's own checks cannot
    see): the same error whatever the backend.  The web app answers 503 with how to restore."""


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

    def __init__(self, message: str, index: int | None = None, problems=None):
        text = message if index is None else f"event {index}: {message}"
        super().__init__(text)
        self.index = index
        self.reason = message
        # a position that cannot be: each problem as (field, message) (rules/core/position.py)
        self.problems = [tuple(p) for p in problems] if problems else None


class Full(StoreError):
    """Writing this would pass the game's budget or the database's cap (assistant/store/budget.py):
    nothing was written.  The web app answers 507 with ``message``."""


class DatabaseDamaged(StoreError):
    """The database cannot be read or written as it is (a damaged, emptied, deleted or replaced
    file): the games cannot be saved until it is restored.  ``message`` says what to do."""


class DatabaseUnavailable(StoreError):
    """The database cannot be used right now (busy, restarting, unreachable): try again in a moment."""


def translating(cls):
    """A backend class whose public methods raise the store's errors for its database's own
    (``cls.DATABASE_ERRORS``, turned into a StoreError by ``self.translate(err)``)."""
    for name, fn in list(vars(cls).items()):
        if name.startswith("_") or not callable(fn) or isinstance(fn, (staticmethod, classmethod, type)):
            continue
        setattr(cls, name, _translated(fn))
    return cls


def _translated(fn):
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except StoreError:
            raise
        except self.DATABASE_ERRORS as err:
            raise self.translate(err) from err

    return method
