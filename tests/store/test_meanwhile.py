"""The pieces of assistant/log/meanwhile.py that need no engine: how low a run of rows reaches in
the log (``walk.reach``, where ``meanwhile.texts`` starts), and the words for an entry, a correction or a going back and an event the engine has no
words for.  Every figure below is counted by hand from the rows."""

from __future__ import annotations

import pytest

from assistant.log import meanwhile
from assistant.log.walk import Walk, reach

U, R = {"type": "undo"}, {"type": "redo"}


def entry(kind: str = "pass") -> dict:
    return {"type": kind, "player": "Amy"}


@pytest.mark.parametrize(
    ("count", "rows", "lowest"),
    [
        (3, [], 3),  # nothing read: the log stays as it is
        (3, [entry()], 3),  # a new entry only adds
        (3, [{"player": "Amy"}], 3),  # an event without a type is a new entry too
        (3, [U], 2),
        (3, [U, U], 1),
        (1, [U, U, U], 0),  # nothing below the log's start
        (3, [U, entry(), U, U], 1),  # 2, 3, 2, 1
        (5, [R, U, U], 3),  # a redo with nothing undone changes nothing: 5, 4, 3
        (2, [U, R, U, U], 0),  # 1, 2 (restored), 1, 0
        (1, [U, U, R, R], 0),  # the second undo took back nothing: only one entry to restore
        (3, [U, U, R, R, U, U], 1),  # 2, 1, 2, 3, 2, 1: both undos are restored
        (3, [U, R, R, U, U], 1),  # 2, 3, (nothing left to restore) 3, 2, 1
        (2, [U, entry(), R, U], 1),  # 1, 2, (the new entry ended the redo) 2, 1
    ],
)
def test_the_lowest_point_a_run_of_rows_reaches(count, rows, lowest):
    assert reach(Walk.of_events([entry()] * count), rows) == lowest


def test_an_entry_is_its_text_and_what_the_engine_did_after_it():
    assert meanwhile.entry_text({"text": "Amy passes"}) == "Amy passes"
    assert meanwhile.entry_text({"text": "Amy passes", "auto": ["Brian wins", 3]}) == (
        "Amy passes (then: Brian wins; 3)"
    )
    assert meanwhile.entry_text({"auto": []}) == ""


def test_a_correction_and_a_going_back_are_named_by_their_row():
    assert meanwhile.jump_label({"type": "go_back", "to": 12, "index": 3, "events": []}) == "going back to row 12"
    assert meanwhile.jump_label({"type": "amend", "index": 4, "event": entry()}) == "the correction of entry 5"
    assert meanwhile.jump_label({"type": "amend", "event": entry()}) == "the correction of entry 1"
    assert meanwhile.jump_label({"type": "pass"}) == "Pass"
    assert meanwhile.jump_label({}) == "?"


def test_an_event_the_engine_has_no_words_for_is_named_by_its_label_and_fields():
    assert meanwhile.event_words({"type": "bid", "player": "Amy", "amount": 12}) == "Bid: Amy, 12"
    assert meanwhile.event_words({"type": "pass"}) == "Pass"
    assert meanwhile.event_words({"player": "Amy"}) == "?: Amy"
