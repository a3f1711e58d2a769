"""assistant/log/transcript.py: a table transcript built, written as text, and its header read
(FORMAT.md "File layout"), each refusal with its words.  The texts below are written out by hand
from the format: the header indented by one space, the events one per line."""

from __future__ import annotations

import json

import pytest

from assistant.log import transcript
from assistant.log.transcript import TranscriptError
from assistant.rules import registry
from tests.project_games import bidding_war

AMY, BO = {"type": "pass", "player": "Amy"}, {"type": "pass", "player": "Bo"}


def header(**fields) -> dict:
    return {"format": "rss-table-transcript", "version": 1, "players": ["Amy", "Bo"], "events": [], **fields}


def test_a_transcript_is_built_with_its_header_first():
    out = transcript.build(("Amy", "Bo"), ("short",), None, (AMY,), "a test", game="rolling-stock")
    assert out == {
        "format": "rss-table-transcript",
        "version": 1,
        "game": "rolling-stock",
        "players": ["Amy", "Bo"],
        "options": ["short"],
        "source": {"description": "a test", "notes": [], "warnings": []},
        "events": [AMY],
    }
    assert list(out) == ["format", "version", "game", "players", "options", "source", "events"]
    assert transcript.build(["Amy"], [], None, [], "d")["game"] == "rolling-stock-stars"


def test_a_transcript_holds_a_deck_persons_and_a_position_only_when_given():
    out = transcript.build(["A", "B", "C", "D"], [], ("BY", "WT"), [], "d", persons=("Amy", "Bo"), position={"p": 1})
    assert list(out) == [
        "format",
        "version",
        "game",
        "players",
        "options",
        "source",
        "position",
        "events",
        "deck",
        "persons",
    ]
    assert (out["deck"], out["persons"], out["position"]) == (["BY", "WT"], ["Amy", "Bo"], {"p": 1})
    bare = transcript.build(["Amy"], [], None, [], "d", persons=[])
    assert "deck" not in bare and "persons" not in bare and "position" not in bare
    assert transcript.build(["Amy"], [], [], [], "d")["deck"] == []  # an empty deck is a deck


def test_a_transcript_as_text_has_its_events_one_per_line():
    text = transcript.dumps(transcript.build(["Amy", "Bo"], [], None, [AMY, BO], "d"))
    assert text == (
        "{\n"
        ' "format": "rss-table-transcript",\n'
        ' "version": 1,\n'
        ' "game": "rolling-stock-stars",\n'
        ' "players": [\n  "Amy",\n  "Bo"\n ],\n'
        ' "options": [],\n'
        ' "source": {\n  "description": "d",\n  "notes": [],\n  "warnings": []\n },\n'
        ' "events": [\n'
        '  {"type": "pass", "player": "Amy"},\n'
        '  {"type": "pass", "player": "Bo"}\n'
        " ]\n"
        "}\n"
    )
    assert json.loads(text) == transcript.build(["Amy", "Bo"], [], None, [AMY, BO], "d")


def test_a_transcript_without_events_or_header_as_text():
    assert transcript.dumps({}) == '{\n "events": []\n}\n'
    assert transcript.dumps({"events": []}) == '{\n "events": []\n}\n'
    assert transcript.dumps({"a": "é"}) == '{\n "a": "é",\n "events": []\n}\n'  # not escaped
    assert transcript.dumps({"events": [{"player": "Zoë"}]}) == '{\n "events": [\n  {"player": "Zoë"}\n ]\n}\n'


def test_checkpoints_and_refused_events_are_no_table_events():
    assert transcript.is_table_event(AMY) and transcript.is_table_event({"type": "bid", "reject": False})
    assert not transcript.is_table_event({"type": "expect", "state": {}})
    assert not transcript.is_table_event({"type": "bid", "reject": True})
    assert transcript.is_table_event({})


def test_the_persons_of_a_two_handed_transcript():
    assert transcript.read_persons({"persons": ["Amy", "Bo"]}) == ["Amy", "Bo"]
    assert transcript.read_persons({}) is None and transcript.read_persons(["Amy", "Bo"]) is None
    assert transcript.read_persons({"persons": None}) is None
    for persons in (["Amy"], ["Amy", "Bo", "Cy"], ["Amy", "Amy"], ["Amy", " "], ["Amy", 3], "AB", {"Amy": 1, "Bo": 2}):
        with pytest.raises(TranscriptError) as err:
            transcript.read_persons({"persons": persons})
        assert err.value.message == "persons must be a list of two different names" == str(err.value)


def test_the_position_a_resumed_transcript_starts_from():
    pos, _events = bidding_war(2, cash=100, players=["Amy", "Bo"])
    assert transcript.read_position({"position": pos}) == pos
    assert transcript.read_position({}) is None and transcript.read_position([pos]) is None
    for bad in ([], {"state": []}, {"state": None}, {"turn": 1}):
        with pytest.raises(TranscriptError, match=r"^a position needs the state of the table \(position.state\)$"):
            transcript.read_position({"position": bad})
    with pytest.raises(TranscriptError) as err:
        transcript.read_position({"position": {**pos, "after": {"turn": "two"}}})
    assert err.value.message == "position.after.turn must be a whole number from 1 to 99, not 'two'."


def test_the_game_a_transcript_names():
    assert transcript.read_game({}) is registry.get("rolling-stock-stars")
    assert transcript.read_game([]) is registry.get("rolling-stock-stars")
    assert transcript.read_game({"game": "rolling-stock"}) is registry.get("rolling-stock")
    games = "rolling-stock-stars, rolling-stock-v2.2, rolling-stock"
    with pytest.raises(TranscriptError) as err:
        transcript.read_game({"game": "chess"})
    assert err.value.message == f"unknown game 'chess': this assistant plays {games}"
    with pytest.raises(TranscriptError) as err:
        transcript.read_game({"game": "x" * 70})
    assert err.value.message == f"unknown game '{'x' * 60}': this assistant plays {games}"
    with pytest.raises(TranscriptError, match=r"^unknown game '7': "):
        transcript.read_game({"game": 7})


def test_a_header_is_read():
    assert transcript.read_header(header(options=["short"], game="rolling-stock", deck=["BY"], events=[AMY])) == (
        ["Amy", "Bo"],
        ["short"],
        ["BY"],
        [AMY],
    )
    assert transcript.read_header(header()) == (["Amy", "Bo"], [], None, [])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a transcript must be a JSON object"),
        (header(format="other"), "not a transcript: format must be 'rss-table-transcript' version 1"),
        (header(version=2), "not a transcript: format must be 'rss-table-transcript' version 1"),
        ({"version": 1}, "not a transcript: format must be 'rss-table-transcript' version 1"),
        (
            header(game="go"),
            "unknown game 'go': this assistant plays rolling-stock-stars, rolling-stock-v2.2, rolling-stock",
        ),
        (header(players="Amy"), "players must be a list of distinct names"),
        (header(players=["Amy", "Amy"]), "players must be a list of distinct names"),
        (header(players=["Amy", ""]), "players must be a list of distinct names"),
        (header(players=["Amy", " "]), "players must be a list of distinct names"),
        (header(players=["Amy", 1]), "players must be a list of distinct names"),
        (header(players=None), "players must be a list of distinct names"),
        (header(options="short"), "options must be a list of strings"),
        (header(options=[1]), "options must be a list of strings"),
        (header(options=["short"]), "unknown option 'short' for Rolling Stock Stars"),
        (header(options=["open_companies", "nope", "x"]), "unknown option 'nope' for Rolling Stock Stars"),
        (header(deck="BY"), "deck must be a list of company abbreviations"),
        (header(deck=["BY", 2]), "deck must be a list of company abbreviations"),
        (header(events={}), "events must be a list"),
        ({"format": "rss-table-transcript", "version": 1, "players": []}, "events must be a list"),
    ],
)
def test_a_header_is_refused_with_its_reason(data, message):
    with pytest.raises(TranscriptError) as err:
        transcript.read_header(data)
    assert err.value.message == message


def test_the_options_of_each_game():
    assert transcript.read_header(header(options=["two_handed", "open_companies"]))[1] == [
        "two_handed",
        "open_companies",
    ]
    classic = header(game="rolling-stock", options=["share_redemption", "training"])
    assert transcript.read_header(classic)[1] == ["share_redemption", "training"]
    with pytest.raises(TranscriptError, match="^unknown option 'short' for Rolling Stock v2.2$"):
        transcript.read_header(header(game="rolling-stock-v2.2", options=["short"]))
