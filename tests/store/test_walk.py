"""assistant/log/walk.py without the engine: the walk of hand-laid log rows (new entries, undos,
redos, corrections, goings back), what each row did, and the rows the store writes for an entry
of the table.  Every figure below is counted by hand from the rows."""

from __future__ import annotations

import time
from typing import NamedTuple

import pytest

from assistant.log import walk as walks
from assistant.log.walk import (
    ENTERED,
    JUMPED,
    RESTORED,
    TAKEN_BACK,
    NotARow,
    TooShort,
    Walk,
    asks_confirm,
    compact,
    corrects,
    effective_events,
    expand,
    goes_back,
    is_compact,
    is_history,
    kept_count,
    kept_entries,
    kept_places,
    new_tail,
    reach,
    row_for,
    row_form,
)
from assistant.rules.core import deadline

U, R = {"type": "undo"}, {"type": "redo"}
A, B, C, D, E = ({"type": "bid", "n": n} for n in range(5))
X, Y = {"type": "pass", "player": "Amy"}, {"type": "pass", "player": "Ross"}


class Row(NamedTuple):
    seq: int
    event: dict


def rows_of(*events) -> list[Row]:
    return [Row(seq, event) for seq, event in enumerate(events, 1)]


def amend(index, event, kept, set_aside=()) -> dict:
    return {"type": "amend", "index": index, "event": event, "kept": kept, "set_aside": list(set_aside)}


def test_what_each_row_did():
    walk = Walk()
    assert [walk.step(e) for e in (A, B, U, U, U, R, R, R, C)] == [
        ENTERED,
        ENTERED,
        TAKEN_BACK,
        TAKEN_BACK,
        None,  # nothing left to take back
        RESTORED,
        RESTORED,
        None,  # nothing left to bring back
        ENTERED,
    ]
    assert walk.out == [A, B, C] and walk.taken_count == 3 and walk.undone == []
    assert walk.step(amend(1, D, [0])) == JUMPED
    assert walk.out == [A, D, C]
    assert walk.step({"type": "go_back", "to": 3, "index": 1, "events": [B, C]}) == JUMPED
    assert walk.out == [A, B, C] and walk.count == 3 and walk.taken_count == 5


def test_an_undo_takes_back_the_latest_entry_and_a_redo_brings_it_back():
    walk = Walk.of_events([A, B, C, U, U])
    assert walk.out == [A] and walk.undone == [B, C] and walk.taken_count == 1 and walk.undos_at_end == 2
    walk.step(R)
    assert walk.out == [A, B] and walk.undone == [C] and walk.undos_at_end == 0
    walk.step(D)  # a new entry: what was undone can no longer be restored
    assert walk.out == [A, B, D] and walk.undone == [] and walk.step(R) is None and walk.out == [A, B, D]


def test_a_correction_keeps_the_entries_it_names_and_one_undo_takes_it_back_whole():
    walk = Walk.of_events([A, B, C, D])
    row = amend(1, X, [1], [C])  # B becomes X; of C, D (places 0, 1) D is kept, C set aside
    walk.step(row)
    assert walk.out == [A, X, D] and walk.count == 3 and walk.taken_count == 5
    assert walk.last_taken is row and walk.latest_amend is row and walk.latest_correction is row
    walk.step(U)
    assert walk.out == [A, B, C, D] and walk.taken_count == 4 and walk.undone == [row] and walk.last_taken is None
    assert walk.latest_correction is row, "the latest correction of the log, in effect or not"
    walk.step(R)
    assert walk.out == [A, X, D] and walk.last_taken is row


def test_the_latest_correction_is_none_after_a_going_back():
    walk = Walk.of_events([A, B, amend(0, X, [0])])
    back = {"type": "go_back", "to": 2, "index": 0, "events": [A, B]}
    walk.step(back)
    assert walk.latest_amend is back and walk.latest_correction is None and walk.last_taken is back
    assert Walk.of_events([A]).latest_correction is None


def test_an_old_correction_row_keeps_a_count_of_the_entries_right_after_it():
    walk = Walk.of_events([A, B, C, D, amend(1, X, 1)])  # the first one after B (C) kept, D not
    assert walk.out == [A, X, C]
    assert Walk.of_events([A, B, C, amend(0, X, None)]).out == [X]  # none kept
    assert kept_entries({"kept": 2}, [C, D, E]) == [C, D]
    assert kept_entries({"kept": [2, 0]}, [C, D, E]) == [E, C]
    assert kept_entries({}, [C, D]) == []
    assert kept_places({"kept": 2}, 5) == [0, 1] and kept_places({"kept": 4}, 2) == [0, 1]
    assert kept_places({"kept": [3, 1]}, 5) == [3, 1] and kept_places({}, 3) == []
    assert kept_count({"kept": 3}) == 3 and kept_count({"kept": [4, 7]}) == 2 and kept_count({}) == 0


def test_the_new_events_of_a_correction_and_of_a_going_back():
    assert new_tail(amend(2, X, [1]), [C, D, E]) == [X, E]
    assert new_tail({"type": "go_back", "to": 4, "index": 2, "events": [Y, A]}, [C, D]) == [Y, A]


def test_the_undos_in_a_row_at_the_end_and_when_the_next_one_is_asked_again():
    walk = Walk.of_events([A, B, C, D, U, U])
    assert (walk.undos_at_end, walk.many_undos) == (2, False)
    walk.step(U)
    assert (walk.undos_at_end, walk.many_undos) == (3, True)
    walk.step(U)
    walk.step(U)  # nothing left to take back: still an undo in a row
    assert walk.undos_at_end == 5 and walk.out == []
    walk.step(R)
    assert (walk.undos_at_end, walk.many_undos) == (0, False)


def test_only_an_undo_after_three_in_a_row_asks_to_be_confirmed():
    asked = []

    def undos(n):
        return lambda: asked.append(n) or n

    assert asks_confirm(U, undos(3)) and asks_confirm(U, undos(4))
    assert not asks_confirm(U, undos(2))
    assert asked == [3, 4, 2]
    assert not asks_confirm(R, undos(9)) and not asks_confirm(A, undos(9))
    assert asked == [3, 4, 2], "the undos are counted only for an undo"


def test_the_rows_of_the_history_and_the_new_entries():
    assert [is_history(e) for e in (U, R, amend(0, A, []), {"type": "go_back", "to": 1}, A, {})] == [
        True,
        True,
        True,
        True,
        False,
        False,
    ]
    assert goes_back({"type": "go_back"}) and not goes_back(amend(0, A, [])) and not goes_back(U)
    assert corrects(amend(0, A, [])) and not corrects({"type": "go_back"}) and not corrects(A)


def test_a_going_back_keeps_the_row_it_goes_back_to():
    assert row_form({"type": "go_back", "to": 7, "x": 1}, {"type": "go_back"}) == {"type": "go_back", "to": 7}
    assert row_form({"type": "go_back"}, {"type": "go_back"}) == {"type": "go_back"}
    assert row_form({"type": "bid", "to": 7}, {"type": "bid"}) == {"type": "bid"}


def test_the_row_an_entry_of_the_table_is_written_as():
    def go_back(to):
        return {"type": "go_back", "to": to, "index": 0, "events": []}

    walk = Walk.of_events([A, B, U])
    assert row_for(walk, A, 3, go_back) is A
    assert row_for(walk, U, 3, go_back) is U and row_for(walk, R, 3, go_back) is R
    assert row_for(walk, {"type": "go_back", "to": 2}, 3, go_back) == go_back(2)
    assert row_for(walk, {"type": "go_back", "to": 1}, 3, go_back) == go_back(1)
    for to in (0, 3, -1, "1", 1.0, True, None):
        with pytest.raises(NotARow) as err:
            row_for(walk, {"type": "go_back", "to": to}, 3, go_back)
        assert err.value.message == (
            "to must be the seq of an earlier row of the log, from 1 to 2 (the game's history lists them)"
        )
    with pytest.raises(NotARow, match="^there is no earlier row to go back to$"):
        row_for(walk, {"type": "go_back", "to": 1}, 1, go_back)
    with pytest.raises(NotARow) as err:
        row_for(walk, amend(0, A, []), 3, go_back)
    assert err.value.message == 'a correction is sent to /games/<id>/amend: {"seq", "index", "event"}'
    with pytest.raises(NotARow, match="^there is nothing to undo$"):
        row_for(Walk.of_events([A, U]), U, 2, go_back)
    with pytest.raises(NotARow) as err:
        row_for(Walk.of_events([A, U, B]), R, 3, go_back)
    assert err.value.message == (
        "there is nothing to restore: no entry was undone since the last one entered "
        "(the Log's full history still shows every entry ever made)"
    )
    assert str(err.value) == err.value.message


def test_going_back_names_only_what_differs_from_the_common_start():
    now = Walk.of_events([A, B, C, D])
    assert now.go_back(Walk.of_events([A, X, C, D]), 4) == {"type": "go_back", "to": 4, "index": 1, "events": [X, C, D]}
    assert now.go_back(Walk.of_events([A, B]), 2) == {"type": "go_back", "to": 2, "index": 2, "events": []}
    assert now.go_back(Walk.of_events([A, B, C, D, E]), 9) == {"type": "go_back", "to": 9, "index": 4, "events": [E]}
    assert now.go_back(Walk.of_events([Y]), 1) == {"type": "go_back", "to": 1, "index": 0, "events": [Y]}


def test_a_going_back_is_stored_without_its_events_and_read_with_them():
    full = {"type": "go_back", "to": 2, "index": 1, "events": [B]}
    stored = compact(full)
    assert stored == {"type": "go_back", "to": 2, "index": 1} and full["events"] == [B]
    assert compact(A) is A and compact(amend(0, A, [], [B])) == amend(0, A, [], [B])
    assert is_compact(stored) and not is_compact(full) and not is_compact(A) and not is_compact({"type": "amend"})
    rows = rows_of(A, B, C, {"type": "go_back", "to": 2, "index": 1}, U, {"type": "go_back", "to": 3, "index": 2})
    # row 4: back to after row 2 ([A, B]): from entry 1 on, [B]; row 6: back to after row 3 ([A, B, C])
    assert expand(rows) == {
        4: {"type": "go_back", "to": 2, "index": 1, "events": [B]},
        6: {"type": "go_back", "to": 3, "index": 2, "events": [C]},
    }
    assert expand(rows_of(A, B)) == {}


@pytest.mark.parametrize(
    "row",
    [
        {"type": "go_back", "to": 3, "index": 0},  # row 3 is itself
        {"type": "go_back", "to": 1, "index": 2},  # after row 1 there is one entry: no index 2
        {"type": "go_back", "to": 1, "index": -1},
        {"type": "go_back", "to": 1, "index": "0"},
        {"type": "go_back", "to": 1},
    ],
)
def test_a_going_back_that_names_a_row_or_an_entry_it_cannot_have_is_refused(row):
    with pytest.raises(ValueError, match="^row 3 goes back to a row it cannot: "):
        expand(rows_of(A, B, row))


def test_a_going_back_to_the_end_of_a_row_brings_back_all_of_it():
    rows = rows_of(A, B, {"type": "go_back", "to": 1, "index": 1})
    assert expand(rows) == {3: {"type": "go_back", "to": 1, "index": 1, "events": []}}
    assert effective_events(rows_of(A, B, {"type": "go_back", "to": 1, "index": 1, "events": []})) == [A]


def test_the_effective_events_of_rows():
    assert effective_events(rows_of(A, B, U, C, amend(0, X, [0]))) == [X, C]
    assert Walk.of(rows_of(A, B, U)).undone == [B]


def test_a_copy_and_a_restart_go_on_on_their_own():
    walk = Walk.of_events([A, B, U, amend(0, X, [])])
    copy = walk.copy()
    assert (copy.base, copy.out, copy.taken, copy.taken_count) == (walk.base, walk.out, walk.taken, walk.taken_count)
    assert (copy.back, copy.undos_at_end, copy.latest_amend, copy.low) == (walk.back, 0, walk.latest_amend, 0)
    copy.step(U)
    copy.step(U)
    assert walk.out == [X] and walk.taken_count == 2 and walk.undone == []
    assert copy.out == [] and copy.undone == [A, walk.latest_amend] and copy.undos_at_end == 2
    again = walk.restart()
    assert again.low == 1 and again.out == [X] and walk.low == 0
    again.step(U)
    assert again.low == 0 and walk.out == [X]
    held = Walk.of_events([A, U, U])
    assert held.copy().undos_at_end == 2 and held.restart().undos_at_end == 2


def test_a_trimmed_walk_holds_the_latest_events_and_entries():
    walk = Walk.of_events([A, B, C, D, U])
    kept = walk.trimmed(2)
    assert (kept.base, kept.out, kept.count, kept.taken_count, kept.low) == (1, [B, C], 3, 3, 3)
    assert kept.taken == [("event",), ("event",)] and kept.undone == [D] and kept.undos_at_end == 1
    assert walk.trimmed(9).base == 0 and walk.trimmed(9).out == [A, B, C]
    none = walk.trimmed(0)
    assert (none.base, none.out, none.taken) == (3, [], [])
    none.step(R)  # what was undone is still held
    assert none.out == [D] and none.count == 4
    with pytest.raises(TooShort):
        walk.trimmed(0).step(U)


def test_a_trimmed_walk_cannot_take_back_a_correction_that_reaches_below_it():
    row = amend(1, X, [0, 1])  # B becomes X, C and D kept
    walk = Walk.of_events([A, B, C, D, row, E])
    assert walk.out == [A, X, C, D, E]
    held = walk.trimmed(2)  # events D, E (from index 3): the correction reaches index 1
    assert held.base == 3 and held.taken == [("event",)]
    held.step(U)
    with pytest.raises(TooShort):
        held.step(U)
    near = Walk.of_events([A, B, C, D, amend(3, X, []), E]).trimmed(3)  # events C, X, E (from 2)
    assert [entry[0] for entry in near.taken] == ["event", "amend", "event"]  # D, the correction, E
    near.step(U)
    near.step(U)
    assert near.out == [C, D]


def test_how_low_rows_read_after_a_walk_reach():
    walk = Walk.of_events([A, B, C])
    assert reach(walk, [U, U, D]) == 1
    assert reach(walk, []) == 3
    assert reach(walk, [amend(0, X, [])]) is None  # a correction among them
    assert reach(walk, [{"type": "go_back", "to": 1, "index": 1, "events": []}]) is None
    undone = Walk.of_events([A, B, C, U])
    assert reach(undone, [R]) is None  # restores an entry undone before them
    assert reach(undone, [U, R]) == 1  # restores only its own undo
    assert reach(undone, [U, R, R]) is None  # then the one undone before them
    assert reach(undone, [D, U]) == 2
    assert reach(undone, [U, D, R]) == 1  # a redo with nothing to restore
    corrected = Walk.of_events([A, B, amend(1, X, []), C])
    assert reach(corrected, [U]) == 2
    assert reach(corrected, [U, U]) is None  # takes back the correction made before them
    assert reach(corrected, [U, D, U, U]) is None
    assert reach(Walk.of_events([A, B, C, D]).trimmed(1), [U, U]) is None  # further back than it holds
    assert reach(Walk.of_events([A, B, C, D]).trimmed(2), [U, U]) == 2


def test_a_row_is_read_from_its_stored_json():
    assert walks.read_row('{"type": "bid", "n": 1}') == {"type": "bid", "n": 1}
    with pytest.raises(ValueError):
        walks.read_row("{not json")


def test_a_walk_from_the_start_had_no_events_and_no_undos():
    assert (Walk().low, Walk().undos_at_end, Walk().count) == (0, 0, 0)
    assert Walk.of_events([A, B]).low == 0  # the fewest effective events since it started
    assert Walk.of_events([U]).undos_at_end == 1


def test_what_a_walk_resumed_from_a_saved_state_cannot_take_back():
    with pytest.raises(TooShort, match="^the undo takes back an entry older than the saved state holds$"):
        Walk.of_events([A, B]).trimmed(0).step(U)
    with pytest.raises(TooShort, match="^the undo takes back an event older than the saved state holds$"):
        held = Walk.of_events([A, B]).trimmed(1)
        held.taken.append(("event",))  # an entry it says it holds, whose event it does not
        held.step(U)
        held.step(U)
    with pytest.raises(TooShort, match="^the correction reaches further back than the saved state holds$"):
        Walk.of_events([A, B, C]).trimmed(1).step(amend(1, X, []))


def test_a_trimmed_walk_drops_the_latest_correction_when_it_reaches_below_it():
    walk = Walk.of_events([A, B, C, amend(0, X, [0, 1])])  # X, B, C
    held = walk.trimmed(1)  # the event C alone (from index 2): the correction reaches index 0
    assert held.base == 2 and held.taken == [] and held.taken_count == 4
    three = Walk.of_events([A, B, C, D, amend(1, X, [0, 1]), E]).trimmed(3)  # D, the correction, E
    assert three.taken == [("event",)], "the entries before the correction go with it"
    at = Walk.of_events([A, B, C, D, amend(2, X, [0])]).trimmed(2)  # X, D from index 2: it reaches 2
    assert at.base == 2 and [entry[0] for entry in at.taken] == ["event", "amend"]
    at.step(U)
    assert at.out == [C, D]


def test_a_redo_after_a_new_entry_undone_again_restores_only_that_one():
    undone = Walk.of_events([A, B, C, U])  # C undone before the rows
    assert reach(undone, [D, U, R]) == 2  # D entered (C can no longer be restored), undone, restored


def test_a_going_back_from_the_first_entry_on():
    rows = rows_of(A, B, {"type": "go_back", "to": 1, "index": 0})
    assert expand(rows) == {3: {"type": "go_back", "to": 1, "index": 0, "events": [A]}}


def test_a_going_back_on_a_log_of_two_rows_names_its_one_earlier_row():
    with pytest.raises(NotARow) as err:
        row_for(Walk.of_events([A, B]), {"type": "go_back", "to": 2}, 2, lambda to: {})
    assert (
        err.value.message
        == "to must be the seq of an earlier row of the log, from 1 to 1 (the game's history lists them)"
    )


class SlowRow:
    """A log row whose event takes ``delay`` seconds to read the second time (the first: while the
    rows are looked over for goings back; the second: while they are walked)."""

    def __init__(self, seq, event, delay=0.0):
        self.seq, self._event, self.delay, self.reads = seq, event, delay, 0

    @property
    def event(self):
        self.reads += 1
        if self.reads == 2:
            time.sleep(self.delay)
        return self._event


def test_reading_rows_looks_at_the_deadline_first_then_every_256_rows():
    with deadline.within(0):  # already passed: not even the first row is read
        with pytest.raises(deadline.TooLong):
            expand([SlowRow(1, A)])
    # 257 rows (0 to 256): the second row takes past the deadline; the walk stops at the 257th
    rows = [SlowRow(n, A, delay=0.3 if n == 2 else 0.0) for n in range(1, 258)]
    with deadline.within(0.15):
        with pytest.raises(deadline.TooLong):
            expand(rows)
    assert [row.reads for row in rows[-2:]] == [2, 1], "the 256th row walked, not the 257th"
    shorter = [SlowRow(n, A, delay=0.3 if n == 2 else 0.0) for n in range(1, 257)]  # 0 to 255: not again
    with deadline.within(0.15):
        assert expand(shorter) == {}
