"""The store's errors (assistant/store/errors.py): what each one carries, and ``translating``, which
turns a backend's own database errors into the store's in every public method."""

from __future__ import annotations

import pytest

from assistant.store.errors import (
    DatabaseUnavailable,
    ImportRefused,
    NotFound,
    Refused,
    Stale,
    StoreError,
    translating,
)


def test_each_error_carries_its_message_and_figures():
    err = StoreError("nothing to undo")
    assert (str(err), err.message) == ("nothing to undo", "nothing to undo")
    assert (Refused("no", "phase-3").rule, Refused("no").rule, Refused("no").message) == ("phase-3", None, "no")
    stale = Stale(3, 5)
    assert (stale.message, stale.expected, stale.current) == (
        "the game has moved on: you saw seq 3, it is now at 5",
        3,
        5,
    )


def test_an_import_refused_names_the_event_and_keeps_the_problems():
    header = ImportRefused("no players")
    assert (header.message, header.reason, header.index, header.problems) == ("no players", "no players", None, None)
    first = ImportRefused("not a move", 0)  # event 0 is an event too
    assert (first.message, first.reason, first.index) == ("event 0: not a move", "not a move", 0)
    assert str(ImportRefused("not a move", 4)) == "event 4: not a move"
    listed = ImportRefused("cannot be", problems=[["offering", "short"], ("turn", "0")])
    assert listed.problems == [("offering", "short"), ("turn", "0")]
    assert ImportRefused("cannot be", problems=[]).problems is None


def _backend_class():
    """A backend whose database's own error is KeyError, made by each test (``translating`` runs
    when a class is made)."""

    class _Backend:
        DATABASE_ERRORS = (KeyError,)

        def translate(self, err):
            return DatabaseUnavailable(f"busy: {err.args[0]}")

        def rows(self, gid):
            """The rows of a game."""
            raise KeyError(gid)

        def game(self, gid):
            raise NotFound(f"no game {gid}")

        def other(self):
            raise ValueError("not a database error")

        def _private(self):
            raise KeyError("inside")

        @staticmethod
        def helper():
            raise KeyError("static")

        @classmethod
        def made(cls):
            raise KeyError("class")

        class Row:  # a class inside is no method
            pass

        name = "backend"

    return translating(_Backend)


def test_a_backends_public_methods_raise_the_stores_errors():
    _Backend = _backend_class()
    backend = _Backend()
    with pytest.raises(DatabaseUnavailable) as err:
        backend.rows("g1")
    assert err.value.message == "busy: g1" and isinstance(err.value.__cause__, KeyError)
    assert (_Backend.rows.__name__, _Backend.rows.__doc__) == ("rows", "The rows of a game.")
    with pytest.raises(NotFound):  # already the store's: as it is
        backend.game("g1")
    with pytest.raises(ValueError):  # not the database's: as it is
        backend.other()
    with pytest.raises(KeyError):  # private and static methods are left alone
        backend._private()
    with pytest.raises(KeyError):
        _Backend.helper()
    with pytest.raises(KeyError):
        _Backend.made()
    assert isinstance(_Backend.Row, type)
    assert _Backend.name == "backend"
