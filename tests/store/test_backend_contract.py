"""What both backends do alike, on a real SQLite file and a real PostgreSQL database: the rows read
after one row and up to another, and the saved states (the latest that fits, and only the latest
version's).  What only one of them does is in test_sqlite.py and test_postgres.py."""

from __future__ import annotations

import pytest

from assistant.store import backend_for


@pytest.fixture
def backend(store_target):
    backend = backend_for(store_target)
    backend.migrate()
    yield backend
    backend.close()


def _game(backend, gid="g1") -> None:
    backend.insert_game({"id": gid, "players": "[]", "options": "[]", "created": "2026-01-01", "game": "x"})


def test_rows_are_read_after_one_row_and_up_to_another(backend):
    _game(backend)
    for seq in range(4):
        backend.append("g1", seq, f'{{"n": {seq + 1}}}', f"t{seq + 1}" if seq % 2 else None, f"at {seq + 1}")
    assert [r[0] for r in backend.rows("g1")] == [1, 2, 3, 4]
    assert backend.rows("g1", 1, 3) == [(2, '{"n": 2}', "t2", "at 2"), (3, '{"n": 3}', None, "at 3")]
    assert backend.rows("g1", 3) == [(4, '{"n": 4}', "t4", "at 4")]
    assert backend.rows("g1", 0, 0) == [] and backend.rows("other") == []


def test_saved_states_the_latest_that_fits_and_only_the_latest_versions(backend):
    _game(backend)
    _game(backend, "g2")
    backend.save_states("g1", "v1", [(10, 8, b"ten"), (20, 15, b"twenty")], "t")
    backend.save_states("g2", "v1", [(5, 5, b"five")], "t")
    assert backend.saved_state("g1", "v1", 25, 100) == (20, b"twenty")
    assert backend.saved_state("g1", "v1", 19, 100) == (10, b"ten")  # at or before row 19
    assert backend.saved_state("g1", "v1", 20, 14) == (10, b"ten")  # at most 14 events in effect
    assert backend.saved_state("g1", "v1", 9, 100) is None and backend.saved_state("g1", "v2", 25, 100) is None
    assert backend.saved_states_of("v1") == [("g1", 10, b"ten"), ("g1", 20, b"twenty"), ("g2", 5, b"five")]
    backend.save_states("g1", "v1", [(20, 16, b"again")], "t")  # the same row: written over
    assert backend.saved_state("g1", "v1", 25, 100) == (20, b"again")
    assert backend.saved_state("g1", "v1", 25, 15) == (10, b"ten")  # its events: 16 now
    backend.save_states("g1", "v2", [(30, 20, b"new")], "t")  # another version: v1's go (this game's)
    assert backend.saved_states_of("v1") == [("g2", 5, b"five")]
    assert backend.saved_states_of("v2") == [("g1", 30, b"new")]
