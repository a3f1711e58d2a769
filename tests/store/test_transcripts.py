"""A store's games as transcripts (assistant/store/transcripts.py): the export of a game (its events
in effect, its header; a log the engine refuses taken away as stored; a long game restored from a
saved state whole), and a game imported from one: checked whole before anything is stored, each
refusal in words with the event it names, and stored row by row (a long one with saved states)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from assistant.log import transcript
from assistant.rules import RuleError
from assistant.rules.classic.cards import CARDS
from assistant.rules.registry import CLASSIC, STARS
from assistant.store import Store
from assistant.store.errors import Damaged, ImportRefused
from tests.project_games import bidding_war

PLAYERS = ["Amy", "Brian"]


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "transcripts.sqlite3")


def _transcript(entries: int, **more) -> tuple[dict, list[dict], dict]:
    pos, events = bidding_war(entries, cash=10_000, players=PLAYERS)
    return transcript.build(PLAYERS, [], None, events, "test", position=pos, **more), events, pos


def _header(**fields) -> dict:
    base = {"format": "rss-table-transcript", "version": 1, "game": "rolling-stock-stars", "players": PLAYERS}
    return {**base, "options": [], "events": [], **fields}


def _refused(store, data) -> ImportRefused:
    with pytest.raises(ImportRefused) as refused:
        store.import_transcript(data)
    return refused.value


def _count(path, table) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608 - a table of ours
    finally:
        conn.close()


def test_an_imported_game_is_stored_row_by_row_and_exported_as_it_came(path):
    store = Store(path)
    data, events, pos = _transcript(6)
    gid = store.import_transcript(data)
    info = store.get_game(gid)
    assert (info.players, info.options, info.deck, info.persons, info.position) == (PLAYERS, [], None, None, pos)
    assert info.ruleset == "rolling-stock-stars"
    rows = store.rows(gid)
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.event for r in rows] == events
    assert {r.token for r in rows} == {None}
    assert len({r.created for r in rows}) == 1
    assert store.seq(gid) == 6
    assert store.state(gid)[1].snapshot() == Store(path).state(gid)[1].snapshot()  # as a replay has it
    out = Store(path).export(gid)
    assert out == transcript.build(
        PLAYERS,
        [],
        None,
        events,
        f"exported by the Rolling Stock table assistant; game created {info.created}",
        game="rolling-stock-stars",
        position=pos,
    )


def test_the_export_holds_the_events_in_effect_only(path):
    store = Store(path)
    data, events, _pos = _transcript(4)
    gid = store.import_transcript(data)
    store.append(gid, 4, {"type": "undo"})
    assert store.export(gid)["events"] == events[:3]


def test_a_log_the_engine_refuses_is_exported_as_stored(path):
    store = Store(path)
    data, events, _pos = _transcript(3)
    gid = store.import_transcript(data)
    out_of_turn = {"type": "pass", "player": events[2]["player"]}  # the same player again: refused on replay
    assert store.backend.append(gid, 3, '{"type": "pass", "player": "Nobody"}', None, "2026-01-01T00:00:00+00:00")
    store.backend.append(gid, 4, '{"type": "undo"}', None, "2026-01-01T00:00:00+00:00")
    store.backend.append(gid, 5, json.dumps(out_of_turn), None, "2026-01-01T00:00:00+00:00")
    assert Store(path).export(gid)["events"] == [*events, out_of_turn]  # the undo applied, nothing replayed


def test_a_long_game_restored_from_a_saved_state_is_exported_whole(path):
    store = Store(path, save_every=4)
    data, events, _pos = _transcript(13)
    gid = store.import_transcript(data)
    assert _count(path, "saved_states") > 0
    again = Store(path, save_every=4)
    assert again.export(gid)["events"] == events
    again.append(gid, 13, {"type": "undo"})
    assert Store(path, save_every=4).export(gid)["events"] == events[:12]


def test_a_game_of_save_every_entries_is_imported_with_saved_states_and_one_fewer_without(path, tmp_path):
    store = Store(path, save_every=3)
    data, _events, _pos = _transcript(2)
    store.import_transcript(data)
    assert _count(path, "saved_states") == 0
    data, events, _pos = _transcript(3)
    gid = store.import_transcript(data)
    assert _count(path, "saved_states") > 0
    assert Store(path, save_every=3).events(gid) == events


def test_the_annotations_of_a_transcript_are_not_stored(path):
    store = Store(path)
    data, events, _pos = _transcript(3)
    data["events"] = [
        events[0],
        {"type": "expect", "state": {"turn": 1}},
        {**events[0], "reject": True, "why": "again"},
        *events[1:],
    ]
    gid = store.import_transcript(data)
    assert store.events(gid) == events


def test_a_header_the_transcript_refuses_is_said_in_its_words(path):
    store = Store(path)
    refused = _refused(store, _header(events={}))
    assert (refused.message, refused.index) == ("events must be a list", None)
    assert _refused(store, _header(players=["Amy", "Amy"])).message == "players must be a list of distinct names"
    assert _refused(store, _header(game="go")).message.startswith("unknown game 'go'")
    assert _count(path, "games") == 0


def test_names_and_set_ups_the_table_refuses_are_said(path):
    store = Store(path)
    assert _refused(store, _header(players=["Amy", "Br\x07ian"])).message == (
        "a player name contains a control character"
    )
    refused = _refused(store, _header(players=["Amy"]))
    assert "2 to 6" in refused.message and refused.index is None
    seats = ["A", "B", "C", "D"]
    two = _refused(store, _header(players=seats, options=["two_handed"], persons=["Amy", "Br\x07ian"]))
    assert two.message == "a person name contains a control character"
    assert _count(path, "games") == 0


def test_a_position_that_cannot_be_is_refused_with_its_problems(path):
    store = Store(path)
    data, _events, pos = _transcript(1)
    pos["state"]["offering"]["available"] = ["BME"]
    refused = _refused(store, data)
    assert refused.message.startswith("the position cannot be: ")
    assert "offering" in refused.message.lower()
    assert refused.problems and all(isinstance(p, tuple) and len(p) == 2 for p in refused.problems)
    assert _count(path, "games") == 0


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("pass", "an event must be an object with a type"),
        ({"player": "Amy"}, "an event must be an object with a type"),
        ({"type": 3}, "an event must be an object with a type"),
        ({"type": "pass", "player": 7}, "The player must be a name, not 7."),
        ({"type": "undo"}, "a transcript holds the events in effect; undo is not one of them"),
        ({"type": "go_back", "to": 1}, "a transcript holds the events in effect; go_back is not one of them"),
    ],
)
def test_an_event_that_is_not_one_in_effect_is_refused_by_its_place(path, event, message):
    store = Store(path)
    data, events, _pos = _transcript(3)
    data["events"] = [events[0], {"type": "expect", "state": {}}, event, *events[1:]]
    refused = _refused(store, data)
    assert (refused.reason, refused.index) == (message, 2)  # counted with the annotations
    assert refused.message == f"event 2: {message}"
    assert _count(path, "games") == 0


def test_an_event_the_rules_refuse_is_named_by_its_place(path):
    store = Store(path)
    data, events, _pos = _transcript(3)
    data["events"] = [*events, {"type": "pass", "player": events[2]["player"]}]
    refused = _refused(store, data)
    game = Store(path).state(store.import_transcript(_transcript(3)[0]))[1]
    with pytest.raises(RuleError) as rules:
        game.apply({"type": "pass", "player": events[2]["player"]})
    assert refused.index == 3
    assert refused.message == f"event 3: {rules.value.message}"  # the rules' own words
    assert _count(path, "games") == 1  # the one imported to see the rules refuse it


SEATS = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]


def _two_handed_position() -> dict:
    """Four seats at the start of turn 2, each with 30, the offering's four companies out of the deck."""
    deck = dict(STARS.create(SEATS, ["two_handed"], persons=["Amy", "Brian"]).deck_left)
    deck["red"] -= 4
    state = {
        "players": {p: {"cash": 30, "companies": [], "shares": {}} for p in SEATS},
        "corporations": {},
        "foreign_investor": {"cash": 4, "companies": []},
        "offering": {"available": ["BME", "BSE", "KME", "AKE"], "unavailable": []},
        "player_order": SEATS,
    }
    return {"after": {"turn": 1, "phase": 9}, "state": state, "deck": deck, "out_of_game": []}


def test_an_open_deck_is_imported_followed_and_exported(path):
    # the open companies variant (3.4): the deck, given, is followed (tests/rules/test_classic_game.py)
    counts = CARDS.deck_counts["short"][3]
    deck = [a for color, k in counts.items() for a in CARDS.companies_by_color[color][:k]]
    options = ["short", "open_companies"]
    data = transcript.build(
        ["A", "B", "C"], options, deck, [{"type": "reveal", "company": "AKE"}], "t", game=CLASSIC.key
    )
    store = Store(path)
    gid = store.import_transcript(data)
    assert store.get_game(gid).deck == deck
    assert store.state(gid)[1].reveal_choices() == ["BME", "BSE", "KME"]
    out = Store(path).export(gid)
    assert (out["options"], out["deck"], out["events"]) == (options, deck, [{"type": "reveal", "company": "AKE"}])


def test_the_persons_of_a_two_handed_game_are_imported_and_exported(path):
    store = Store(path)
    data = transcript.build(SEATS, ["two_handed"], None, [], "t", persons=["Amy", "Brian"], game=STARS.key)
    gid = store.import_transcript(data)
    assert store.get_game(gid).persons == ["Amy", "Brian"]
    assert store.state(gid)[1].persons == ["Amy", "Brian"]  # the game the import worked out
    assert Store(path).export(gid)["persons"] == ["Amy", "Brian"]
    # resumed from the table as it lay
    data = transcript.build(
        SEATS, ["two_handed"], None, [], "t", persons=["Amy", "Brian"], position=_two_handed_position()
    )
    gid = store.import_transcript(data)
    game = store.state(gid)[1]
    assert (game.two_handed, game.persons, game.turn) == (True, ["Amy", "Brian"], 2)
    assert Store(path).export(gid)["persons"] == ["Amy", "Brian"]


def test_a_position_the_variant_cannot_resume_from_is_refused_in_its_words(path):
    data, _events, _pos = _transcript(1)
    data["options"] = ["open_companies"]
    refused = _refused(Store(path), data)
    assert refused.message == (
        "the position cannot be: A game with the open companies variant cannot be resumed from a position: its "
        "deck is known card by card. Import its transcript instead."
    )
    assert refused.problems is None


def test_an_imported_game_is_kept_as_the_import_worked_it_out(path):
    store = Store(path)
    data, _events, _pos = _transcript(3)
    gid = store.import_transcript(data)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE events SET event = 'not a row {' WHERE game_id = ? AND seq = 1", [gid])
    conn.close()
    assert store.state(gid)[0] == 3  # not read again: the game the import worked out
    with pytest.raises(Damaged):
        Store(path).state(gid)
