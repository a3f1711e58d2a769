"""A timeline's questions about the hand-laid game (tests/corrected_game.py), each answer written
by hand: the latest correction in effect and what it set aside, a correction's preview, going back,
and the timeline of a row.  Each is asked twice: of a timeline whose walk holds the whole log, and
of one a new worker made from a saved state (its walk holding only the latest entries, so that the
entry asked about lies before it and the log is read from its start).

The figures (tests/corrected_game.py's docstring): before the correction Amy ends turn 3 with 21,
Prussian Railway with 13 and a share price of 13 (turn 3's 5★ for 2 doubled it up from 11), the
game at turn 4, phase 1.  With turn 2's dividend corrected to 3, Amy keeps the WT (set aside:
its purchase for 10, and then the BSE's staying private, as the WT goes first in phase 9): she pays
11 for it (25 → 14) and earns its 3 (→ 17); Prussian Railway has 6 + 7 income = 13 in turn 3 and
pays 0: KME 1★ + MHE 1★ + 1★ for 10 in cash = 3★ for 2 required, up from 10 to 11; the game
waits at turn 3, phase 9, for the WT's decision."""

from __future__ import annotations

import pytest

from assistant.log import saved, transcript
from assistant.store import Store
from tests import corrected_game as hand

EVERY = 10  # a state saved every 10 rows
PR = hand.PR

# turn 2's dividend and the entries after it as they read before the correction
WAS = "Prussian Railway pays 0 per share; 3★ for 2 required: up: 10 → 11"  # KME, MHE, 12 in cash
NOW = "Prussian Railway pays 3 per share; 2★ for 2 required: stays at 10"  # 12 - 6 = 6: no star for cash
TURN_THREE = [
    "Brian passes",
    "Crystal passes",
    "Amy starts an auction for the WT at 11",
    "Brian leaves the auction for the WT",
    "Crystal leaves the auction for the WT",
    "PR drawn (unavailable until the wrap-up)",
    "Brian passes",
    "Crystal passes",
    "Amy passes",
    "KK drawn (unavailable until the wrap-up)",
]
KEPT = [
    "Prussian Railway issues no share",
    "The BSE stays private",
    *TURN_THREE,
    "Acquisitions done",
    "Closing done",
    "Prussian Railway pays 0 per share; 3★ for 2 required: up: 10 → 11",  # 13 in cash after income
    "Prussian Railway issues no share",
]
SET_ASIDE = ["Prussian Railway buys the WT from Amy for 10", "The BSE stays private"]
CHANGES = [
    "Amy's money 21 → 17",
    "Amy's cards: + WT",
    "Prussian Railway's cards: − WT",
    "Prussian Railway's share price 13 → 11",
    "turn 4·1 → 3·9",
]


@pytest.fixture(params=["whole walk", "from a saved state"])
def trimmed(request, monkeypatch):
    """True when the timelines are made from a saved state holding only the latest 8 entries."""
    if request.param == "from a saved state":
        monkeypatch.setattr(saved, "KEEP", 8)
        return True
    return False


def _game(tmp_path, trimmed: bool):
    """(path, gid): the hand-laid game imported (52 rows), a state saved every 10 rows."""
    path = str(tmp_path / "hand.sqlite3")
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    gid = store.import_transcript(transcript.build(hand.PLAYERS, [], None, hand.EVENTS, "hand"))
    store.close()
    return path, gid


def _timeline(path, gid, trimmed: bool):
    """The game's timeline as a new worker makes it (no cache)."""
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    timeline = store.timeline(gid)
    assert (timeline.walk.base > hand.DIVIDEND) == trimmed  # the entry asked about lies before the walk
    return store, timeline


def test_the_latest_correction_in_words(tmp_path, trimmed):
    path, gid = _game(tmp_path, trimmed)
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    assert store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)["seq"] == 53
    store.close()
    store, timeline = _timeline(path, gid, trimmed)
    assert timeline.latest_correction() == {
        "index": hand.DIVIDEND,
        "was": WAS,
        "now": NOW,
        "kept": KEPT,
        "set_aside": SET_ASIDE,
        "changes": CHANGES,
    }
    aside = timeline.set_aside()
    assert [item["text"] for item in aside] == SET_ASIDE
    assert [item["event"] for item in aside] == hand.SET_ASIDE
    assert [item["fits"] for item in aside] == [False, False]  # the game waits for the WT's decision
    assert aside[1]["reason"] == (
        "It is the WT's turn to go public or not (descending face value order), not the BSE's."
    )
    store.close()


def test_a_set_aside_entry_entered_again_is_no_longer_listed(tmp_path, trimmed):
    """Amy keeps the WT private: the BSE's turn comes, and its 'stays private' entered again leaves
    the purchase alone set aside (it fits nowhere now: phase 3 is over)."""
    path, gid = _game(tmp_path, trimmed)
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    assert store.append(gid, 53, {"type": "skip_ipo", "company": "WT"}) == 54
    assert [item["text"] for item in store.timeline(gid).set_aside()] == SET_ASIDE  # the BSE's turn now
    assert [item["fits"] for item in store.timeline(gid).set_aside()] == [False, True]
    assert store.append(gid, 54, {"type": "skip_ipo", "company": "BSE"}) == 55
    store.close()
    store, timeline = _timeline(path, gid, trimmed)
    assert [item["text"] for item in timeline.set_aside()] == SET_ASIDE[:1]
    assert timeline.latest_correction()["set_aside"] == SET_ASIDE  # what it set aside, whatever came after
    store.close()


def test_an_undone_correction_is_no_latest_correction(tmp_path, trimmed):
    path, gid = _game(tmp_path, trimmed)
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    assert store.append(gid, 53, {"type": "undo"}) == 54
    store.close()
    store, timeline = _timeline(path, gid, trimmed)
    assert timeline.latest_correction() is None
    assert timeline.set_aside() == []
    store.close()


def test_a_corrections_preview_writes_nothing(tmp_path, trimmed):
    path, gid = _game(tmp_path, trimmed)
    store, timeline = _timeline(path, gid, trimmed)
    out = timeline.correction(hand.DIVIDEND, hand.CORRECTED)
    assert out["kept_words"] == KEPT
    assert out["set_aside_words"] == SET_ASIDE
    assert out["changes"] == CHANGES
    assert out["kept"] == hand.KEPT
    after = out["timeline"]
    assert (after.seq, after.unsaved) == (53, 53)  # the row it would be; no state saved with it
    assert after.game.snapshot()["players"]["Amy"]["cash"] == 17
    assert store.seq(gid) == 52 and store.timeline(gid).game.snapshot()["players"]["Amy"]["cash"] == 21
    store.close()


def test_going_back_in_words(tmp_path, trimmed):
    """Back to row 40 (turn 3, Amy's auction for the WT at 11 open, Crystal still in it): the twelve
    later entries leave, nothing comes back; Crystal has not had her income of 1 yet (29), Amy has
    neither paid 11 nor been paid 10 (22), the foreign investor has not bought the BY for 12 nor
    earned 9 (15), Prussian Railway has 12 and its price of 11."""
    path, gid = _game(tmp_path, trimmed)
    store, timeline = _timeline(path, gid, trimmed)
    preview = timeline.go_back_preview(40)
    assert preview["row"] == {"type": "go_back", "to": 40, "index": 40, "events": []}
    assert preview["leaving"] == [
        "Crystal leaves the auction for the WT",
        *TURN_THREE[5:],
        "Prussian Railway buys the WT from Amy for 10",
        "Acquisitions done",
        "Closing done",
        "Prussian Railway pays 0 per share; 5★ for 2 required: double up: 11 → 13",
        "Prussian Railway issues no share",
        "The BSE stays private",
    ]
    assert preview["coming"] == []
    assert preview["changes"] == [
        "Crystal's money 30 → 29",
        "Amy's money 21 → 22",
        "the foreign investor's money 12 → 15",
        "the foreign investor's cards: − BY",
        "Prussian Railway's treasury 13 → 12",
        "Prussian Railway's cards: − WT",
        "Prussian Railway's share price 13 → 11",
        "turn 4·1 → 3·1",
    ]
    store.close()


def test_going_back_past_a_correction_brings_back_what_it_took(tmp_path, trimmed):
    """Back to row 52, before the correction: its corrected dividend and the 16 entries kept leave,
    the dividend of 0 and the 18 entries after it come back."""
    path, gid = _game(tmp_path, trimmed)
    store = Store(path, save_every=EVERY if trimmed else saved.EVERY)
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    store.close()
    store, timeline = _timeline(path, gid, trimmed)
    preview = timeline.go_back_preview(52)
    assert preview["leaving"] == [NOW, *KEPT]
    assert preview["coming"][0] == WAS and preview["coming"][13] == SET_ASIDE[0]
    assert len(preview["coming"]) == 19 and preview["coming"][-1] == SET_ASIDE[1]
    assert preview["changes"] == [
        "Amy's money 17 → 21",
        "Amy's cards: − WT",
        "Prussian Railway's cards: + WT",
        "Prussian Railway's share price 11 → 13",
        "turn 3·9 → 4·1",
    ]
    store.close()


def test_a_timeline_answers_for_its_own_row(tmp_path):
    """A timeline of row 52 asked after a correction was written (row 53): going back to row 40
    takes back entries 40 on, as at row 52 (not from the corrected entry 33 on)."""
    path, gid = _game(tmp_path, False)
    store = Store(path)
    timeline = store.timeline(gid)
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    assert timeline.go_back(40) == {"type": "go_back", "to": 40, "index": 40, "events": []}
    store.close()


def test_a_timelines_words_are_those_of_its_own_rows(tmp_path):
    """A timeline of row 52 asked for the words after row 50 once rows 53 and 54 are written (an
    entry, then an undo that reaches back): the last two imported entries' words, nothing after."""
    path, gid = _game(tmp_path, False)
    store = Store(path)
    timeline = store.timeline(gid)
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    store.append(gid, 53, {"type": "skip_ipo", "company": "WT"})
    assert timeline.row_words(50) == ["Prussian Railway issues no share", "The BSE stays private"]
    later = store.timeline(gid)  # row 54; then an undo (row 55) and a new entry (row 56)
    store.append(gid, 54, {"type": "undo"})
    store.append(gid, 55, {"type": "skip_ipo", "company": "WT"})
    assert later.row_words(52) == [
        "Corrected entry 34: Prussian Railway pays 3 per share; 2★ for 2 required: stays at 10 "
        "(16 later entries kept, 2 set aside)",
        "The WT stays private",
    ]
    store.close()


def test_the_words_since_a_row_are_cut_only_past_the_limit(tmp_path):
    path, gid = _game(tmp_path, False)
    store = Store(path)
    timeline = store.timeline(gid)
    last_three = ["Prussian Railway pays 0 per share; 5★ for 2 required: double up: 11 → 13", *KEPT[-1:], SET_ASIDE[1]]
    assert timeline.words_since(49, limit=3) == last_three  # exactly the limit: all, no count
    assert timeline.words_since(48, limit=3) == ["(1 earlier changes)", *last_three]
    store.close()


def test_a_log_the_rules_refuse_says_which_entry(tmp_path):
    """A stored entry the engine refuses (a row edited in the file: Amy's bid for the MHE at 80,
    more than her 20): the game cannot be shown, and the engine's reason is given."""
    import json
    import sqlite3

    from assistant.store import Unreplayable

    path, gid = _game(tmp_path, False)
    bid = hand.EVENTS.index({"type": "bid", "player": "Amy", "company": "MHE", "price": 8})
    conn = sqlite3.connect(path)
    conn.execute(
        "UPDATE events SET event = ? WHERE game_id = ? AND seq = ?",
        (json.dumps({"type": "bid", "player": "Amy", "company": "MHE", "price": 80}), gid, bid + 1),
    )
    conn.commit()
    conn.close()
    store = Store(path)
    with pytest.raises(Unreplayable) as refused:
        store.timeline(gid)
    assert str(refused.value).startswith("the rules engine refuses the stored events of this game: ")
    assert "80" in str(refused.value) and "20" in str(refused.value)
    store.close()


def test_a_saved_state_that_cannot_be_read_is_named_and_replayed(tmp_path, monkeypatch, caplog):
    """The state saved at row 50 overwritten in the file: the log says which game and row, and the
    game is replayed from its log (Amy's 21 at the end of turn 3)."""
    import sqlite3

    monkeypatch.setattr(saved, "KEEP", 8)
    path, gid = _game(tmp_path, True)
    conn = sqlite3.connect(path)
    assert conn.execute("UPDATE saved_states SET data = ? WHERE game_id = ? AND seq = 50", (b"x", gid)).rowcount == 1
    conn.commit()
    conn.close()
    store = Store(path, save_every=EVERY)
    with caplog.at_level("WARNING", logger="assistant.log.timeline"):
        timeline = store.timeline(gid)
    assert timeline.game.snapshot()["players"]["Amy"]["cash"] == 21
    assert f"game {gid}: the state saved at row 50 cannot be read (" in caplog.text
    assert caplog.text.rstrip().endswith("): replaying the log")
    store.close()


def _in_v22(event: dict) -> dict:
    """The hand-laid game's entry in v2.2, where the Stars rules' Prussian Railway is Jupiter."""
    return {key: "Jupiter" if value == PR else value for key, value in event.items()}


def test_the_bankers_list_writes_money_as_v22_does(tmp_path):
    """The same game and correction in v2.2 (Jupiter for Prussian Railway), whose rulebook writes
    money with $: the preview's, the Log's and going back's banker's lists."""
    store = Store(str(tmp_path / "v22.sqlite3"))
    events = [_in_v22(event) for event in hand.EVENTS]
    gid = store.import_transcript(transcript.build(hand.PLAYERS, [], None, events, "v22", game="rolling-stock-v2.2"))
    timeline = store.timeline(gid)
    dollars = [
        "Amy's money $21 → $17",
        "Amy's cards: + WT",
        "Jupiter's cards: − WT",
        "Jupiter's share price $13 → $11",
        "turn 4·1 → 3·9",
    ]
    assert timeline.correction(hand.DIVIDEND, _in_v22(hand.CORRECTED))["changes"] == dollars
    assert timeline.go_back_preview(40)["changes"][:2] == ["Crystal's money $30 → $29", "Amy's money $21 → $22"]
    store.amend(gid, 52, hand.DIVIDEND, _in_v22(hand.CORRECTED))
    assert store.timeline(gid).latest_correction()["changes"] == dollars
    store.close()


def test_a_state_is_saved_once_ten_rows_are_read_since_the_last(tmp_path, monkeypatch):
    """A state saved every 10 rows (only the rows read since the last state that the rows after it
    leave in place count): the import saves rows 10 to 50; four undos and redos (rows 53 to 60)
    make ten since row 50: a state at row 60 with the 52 entries; an undo (row 61) takes back an
    entry that state holds, so the game is built from row 50's, 11 rows back: saved at row 61 with
    51 entries; a redo and an undo after it are 2 rows since."""
    import sqlite3

    monkeypatch.setattr(saved, "KEEP", 8)
    path, gid = _game(tmp_path, True)

    def states():
        conn = sqlite3.connect(path)
        try:
            return conn.execute(
                "SELECT seq, events FROM saved_states WHERE game_id = ? ORDER BY seq", (gid,)
            ).fetchall()
        finally:
            conn.close()

    imported = [(10, 10), (20, 20), (30, 30), (40, 40), (50, 50)]
    assert states() == imported
    store = Store(path, save_every=EVERY)
    assert store.timeline(gid).unsaved == 2
    for seq in range(52, 60, 2):
        store.append(gid, seq, {"type": "undo"})
        store.append(gid, seq + 1, {"type": "redo"})
    assert states() == [*imported, (60, 52)] and store.timeline(gid).unsaved == 0
    store.append(gid, 60, {"type": "undo"})
    assert states() == [*imported, (60, 52), (61, 51)] and store.timeline(gid).unsaved == 0
    store.append(gid, 61, {"type": "redo"})
    store.append(gid, 62, {"type": "undo"})
    assert states() == [*imported, (60, 52), (61, 51)] and store.timeline(gid).unsaved == 2
    store.close()
    fresh = Store(path, save_every=EVERY)  # a new worker: from the state at row 61, 2 rows since
    assert (fresh.timeline(gid).seq, fresh.timeline(gid).unsaved) == (63, 2)
    fresh.close()


def test_a_correction_of_an_entry_the_walk_holds(tmp_path, trimmed):
    """Turn 3's dividend (entry 50 from 1) corrected from 0 to 1 per share: Prussian Railway pays
    2 (13 → 11), Amy 1 for her share (21 → 22); 11 in cash still makes 5★ (KME, MHE, WT 2, cash),
    double up to 13; the share not issued and the BSE staying private are kept."""
    path, gid = _game(tmp_path, trimmed)
    store, timeline = _timeline(path, gid, trimmed)
    store.amend(gid, 52, 0, hand.EVENTS[0])  # a stale timeline (row 52) asked after a row 53
    out = timeline.correction(49, {"type": "dividend", "corporation": PR, "amount": 1})
    assert out["kept_words"] == ["Prussian Railway issues no share", "The BSE stays private"]
    assert out["set_aside_words"] == []
    assert out["changes"] == ["Amy's money 21 → 22", "Prussian Railway's treasury 13 → 11"]
    again = timeline.correction(hand.DIVIDEND, hand.CORRECTED)  # before the walk's base: the log read again
    assert (again["kept_words"], again["set_aside_words"], again["changes"]) == (KEPT, SET_ASIDE, CHANGES)
    store.close()


def test_a_timeline_moved_on_by_an_undo_counts_its_rows_since_the_saved_state(tmp_path, monkeypatch):
    """From the state at row 50: 2 rows read; an undo of the BSE's entry (which that state does not
    hold) moves it on to row 53 with 3 rows read."""
    monkeypatch.setattr(saved, "KEEP", 8)
    path, gid = _game(tmp_path, True)
    store, timeline = _timeline(path, gid, True)
    assert timeline.unsaved == 2
    undone = timeline.advance([{"type": "undo"}])
    assert (undone.seq, undone.unsaved, undone.walk.count) == (53, 3, 51)
    entered = undone.advance([hand.EVENTS[-1]])
    assert (entered.seq, entered.unsaved, entered.walk.count) == (54, 4, 52)
    store.close()


def test_the_entries_in_effect_from_the_logs_start(tmp_path, trimmed):
    """Every entry in effect, also when the walk holds only the latest: the 52 imported; after the
    correction the 33 before it, the corrected dividend and the 16 kept; a stale timeline, its own."""
    path, gid = _game(tmp_path, trimmed)
    store, timeline = _timeline(path, gid, trimmed)
    assert timeline.effective() == hand.EVENTS
    store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)
    assert timeline.effective() == hand.EVENTS  # asked of row 52's timeline after row 53
    corrected = hand.EVENTS[: hand.DIVIDEND] + [hand.CORRECTED] + [hand.LATER[p] for p in hand.KEPT]
    assert store.timeline(gid).effective() == corrected
    store.close()


def test_a_done_for_a_phase_that_ended_by_itself_is_no_entry(tmp_path):
    """tests/web/test_phase_done.py's position: nobody can buy in phase 3, so after Amy's and
    Brian's passes it ends by itself; its "I'm done" then enters nothing, and no row is written."""
    from assistant.log.timeline import NothingEntered
    from tests.rules.test_position_refusals import PLAYERS as SEATS
    from tests.rules.test_position_refusals import nobody_can_buy_position

    store = Store(str(tmp_path / "done.sqlite3"))
    gid = store.import_transcript(transcript.build(SEATS, [], None, [], "done", position=nobody_can_buy_position()))
    assert store.append(gid, 0, {"type": "pass", "player": "Amy"}) == 1
    assert store.append(gid, 1, {"type": "pass", "player": "Brian"}) == 2
    with pytest.raises(NothingEntered) as nothing:
        store.timeline(gid).advance([{"type": "done", "phase": 3}])
    assert nothing.value.message == "That phase has already ended by itself: nobody could act in it."
    assert store.append(gid, 2, {"type": "done", "phase": 3}) == 2 and store.seq(gid) == 2
    store.close()
