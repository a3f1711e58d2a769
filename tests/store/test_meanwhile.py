"""assistant/log/meanwhile.py: first the pieces that need no engine (how low a run of rows reaches
in the log: ``walk.reach``, where ``meanwhile.texts`` starts; the words for an entry, a correction
or a going back, and for an event the engine has no words for), then ``texts`` on hand-laid rows.
Every figure below is counted by hand from the rows."""

from __future__ import annotations

import pytest

from assistant.log import meanwhile
from assistant.log.walk import Walk, reach
from assistant.rules import registry
from tests import corrected_game as hand
from tests.web.turn_one import PLAYERS, TURN_ONE

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


# -- meanwhile.texts on the engine: the words of hand-laid rows, and the game it is given played on
READ = TURN_ONE[:3]  # the three companies of the setup revealed
A = {"type": "bid", "player": "Amy", "company": "KME", "price": 5}  # Amy auctions the KME first
X = {"type": "bid", "player": "Amy", "company": "KME", "price": 6}  # or for 6
B = {"type": "bid", "player": "Brian", "company": "KME", "price": 6}  # after A
Z = {"type": "bid", "player": "Brian", "company": "KME", "price": 7}  # after X


def fresh():
    return registry.STARS.create(PLAYERS)


def played(events):
    game = fresh()
    for event in events:
        game.apply(event)
    return game


def amend(index, event, kept, set_aside=()) -> dict:
    return {"type": "amend", "index": index, "event": event, "kept": kept, "set_aside": list(set_aside)}


def test_an_undo_or_a_redo_with_nothing_to_do_has_no_words():
    words = meanwhile.texts(fresh(), [], [U, READ[0], U, U, R, R, R])
    first = played(READ[:1]).journal[-1]["text"]
    assert words == [None, first, f"Undone: {first}", None, f"Restored: {first}", None, None]


def test_a_correction_restored_then_an_entry_after_it():
    """tests/store/test_timeline.py's HAND_WORDS: the correction, its undo and redo, then Amy keeps
    the WT private."""
    row = amend(hand.DIVIDEND, hand.CORRECTED, hand.KEPT, hand.SET_ASIDE)
    words = meanwhile.texts(fresh(), [], [*hand.EVENTS, row, U, R, {"type": "skip_ipo", "company": "WT"}])
    assert words[52:] == [
        "Corrected entry 34: Prussian Railway pays 3 per share; 2★ for 2 required: stays at 10 "
        "(16 later entries kept, 2 set aside)",
        "Undone: the correction of entry 34",
        "Restored: the correction of entry 34",
        "The WT stays private",
    ]


@pytest.mark.parametrize(("kept", "tail"), [([0], "(1 later entry kept)"), ([0, 1], "(2 later entries kept)")])
def test_a_correction_names_how_many_entries_it_kept(kept, tail):
    """The same correction written keeping only turn 2's last entries (Prussian Railway issues no
    share, the BSE stays private), none set aside."""
    words = meanwhile.texts(fresh(), [], [*hand.EVENTS, amend(hand.DIVIDEND, hand.CORRECTED, kept)])
    assert words[-1] == f"Corrected entry 34: Prussian Railway pays 3 per share; 2★ for 2 required: stays at 10 {tail}"


def test_the_game_given_is_played_on_by_the_last_new_branch():
    """Each node's state is computed once, from its parent's; a parent's own state goes to its last
    new child (the others get copies), so the game given ends as the last branch computed."""
    game = fresh()
    meanwhile.texts(game, [], [*READ, A])
    assert game.snapshot() == played([*READ, A]).snapshot()
    game = fresh()
    meanwhile.texts(game, [], [*READ, A, U, X])  # two new children: A gets a copy, X the game
    assert game.snapshot() == played([*READ, X]).snapshot()


def test_an_entry_made_again_is_not_computed_again():
    """A entered again after its undo reaches the node it made: nothing is computed, so the game
    given stays where the branch computed last left it (after B)."""
    for again in (A, dict(reversed(list(A.items())))):  # the same entry, its fields in another order
        game = fresh()
        words = meanwhile.texts(game, [], [*READ, A, B, U, U, again])
        assert game.snapshot() == played([*READ, A, B]).snapshot()
        assert words[-1] == words[3] and words[-2] == f"Undone: {words[3]}"


def test_a_jump_to_known_entries_computes_nothing():
    game = fresh()
    back = {"type": "go_back", "to": 4, "index": 3, "events": [A]}
    words = meanwhile.texts(game, [], [*READ, A, B, back])
    assert words[-1] == "Went back to the game as it was after row 4"
    assert game.snapshot() == played([*READ, A, B]).snapshot()
    # a correction's new entry (X) reached again by a plain entry: known, not computed again
    game = fresh()
    words = meanwhile.texts(game, [], [*READ, A, amend(3, X, []), Z, U, U, U, X])
    assert game.snapshot() == played([*READ, X, Z]).snapshot()
    assert words[-1] == played([*READ, X]).journal[-1]["text"]
