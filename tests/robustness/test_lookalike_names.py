"""Names that look identical are one name: invisible characters and look-alike letters are refused.

The rule lives in ``assistant.store.names``; it applies to new games (store and form), to imports and to
the two persons of the two-handed variant.
"""

from __future__ import annotations

import sqlite3

import pytest

from assistant.store import ImportRefused, Refused, Store
from assistant.store.names import check_names, is_invisible, skeleton

from .conftest import csrf_of, header, load_transcript, rename_players

INVISIBLE = {
    "zero width space": "A\u200bmy",
    "zero width joiner": "Am\u200dy",
    "word joiner": "Amy\u2060",
    "byte order mark": "\ufeffAmy",
    "soft hyphen": "A\u00admy",
    "right-to-left override": "A\u202emy",
    "Hangul filler": "Amy\u3164",
    "combining grapheme joiner": "Am\u034fy",
}
LOOKALIKE = {
    "Cyrillic A": ("Amy", "\u0410my"),
    "Cyrillic e and o": ("Joe", "J\u043e\u0435"),
    "Cyrillic P and a": ("Paul", "\u0420\u0430ul"),
    "Greek omicron": ("Tom", "T\u03bfm"),
    "capital I and small l": ("Il", "ll"),
    "digit one and small l": ("Al", "A1"),
    "em space and space": ("Mary Ann", "Mary\u2003Ann"),
    "decomposed accent": ("Zo\u00eb", "Zoe\u0308"),
    "emoji with and without its variation selector": ("Amy \u2764\ufe0f", "Amy \u2764"),
    "Cyrillic in lower case": ("amy", "\u0410MY"),
}
DIFFERENT = [
    ["Tom", "Torn"],
    ["Zo\u00eb", "Zoe"],
    ["Ann", "Anne"],
    ["Amy", "Brian", "Crystal"],
    ["\u041e\u043b\u044f", "Olga"],
]


def count_games(db) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "names.sqlite3")
    yield s
    s.close()


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_with_an_invisible_character_is_refused(store, name):
    with pytest.raises(Refused) as err:
        store.create_game([name, "Brian"], ruleset="rolling-stock-stars")
    assert "invisible character" in err.value.message
    assert "U+" in err.value.message  # says which one, since it cannot be seen
    assert count_games(store.path) == 0


@pytest.mark.parametrize("pair", LOOKALIKE.values(), ids=LOOKALIKE.keys())
def test_names_that_look_the_same_are_refused(store, pair):
    with pytest.raises(Refused) as err:
        store.create_game([pair[0], "Brian", pair[1]], ruleset="rolling-stock-stars")
    message = err.value.message
    assert "looks the same as" in message or "needs a different name" in message, message
    assert count_games(store.path) == 0


@pytest.mark.parametrize("names", DIFFERENT)
def test_names_that_only_resemble_each_other_are_accepted(store, names):
    assert check_names(names) is None
    store.create_game(names + ["Dirk"] * (len(names) < 2), ruleset="rolling-stock-stars")
    assert count_games(store.path) == 1


def test_the_skeleton_is_the_unicode_one():
    # facts from Unicode's confusables.txt (UTS #39): Cyrillic A, capital I and digit 1 have Latin prototypes
    assert skeleton("\u0410my") == skeleton("Amy")
    assert skeleton("paypaI") == skeleton("paypal") == skeleton("paypa1")
    assert skeleton("Ann") != skeleton("Anne")
    assert not is_invisible("\ufe0f") and is_invisible("\u200b") and is_invisible("\u00ad")


def test_the_two_persons_of_the_two_handed_variant(store):
    with pytest.raises(Refused) as err:
        store.create_game(
            ["Amy (right hand)", "\u0410my (left hand)", "\u0410my (right hand)", "Amy (left hand)"],
            options=["two_handed"],
            persons=["Amy", "\u0410my"],
            ruleset="rolling-stock-stars",
        )
    assert "person name" in err.value.message and "looks the same as" in err.value.message
    with pytest.raises(Refused) as err:
        store.create_game(
            ["Amy (right hand)", "B\u200bob (left hand)", "B\u200bob (right hand)", "Amy (left hand)"],
            options=["two_handed"],
            persons=["Amy", "B\u200bob"],
            ruleset="rolling-stock-stars",
        )
    assert "invisible character" in err.value.message
    assert count_games(store.path) == 0


def test_an_import_with_look_alike_players_is_refused(store):
    data = load_transcript()
    first, second = data["players"][:2]
    spoof = "\u0410" + first[1:] if first[0] == "A" else first + "\u200b"
    bad = rename_players(header(data), {second: spoof})
    with pytest.raises(ImportRefused) as err:
        store.import_transcript(bad)
    assert "looks the same as" in err.value.message or "invisible" in err.value.message
    invisible = rename_players(header(data), {second: second + "\u2060"})
    with pytest.raises(ImportRefused) as err:
        store.import_transcript(invisible)
    assert "invisible character" in err.value.message
    assert count_games(store.path) == 0


# a name must not add lines to a shared result (issue 26): every line break is refused, the Unicode
# line and paragraph separators (categories Zl and Zp) as the control characters line feed and return
LINE_BREAKS = {
    "line feed": ("Amy\n1. Mallory: 412", "control character"),
    "carriage return": ("Amy\r1. Mallory: 412", "control character"),
    "line separator U+2028": ("Amy\u20281. Mallory: 412", "line break"),
    "paragraph separator U+2029": ("Amy\u20291. Mallory: 412", "line break"),
}


@pytest.mark.parametrize("name, why", LINE_BREAKS.values(), ids=LINE_BREAKS.keys())
def test_a_name_with_a_line_break_is_refused(client, app, name, why):
    assert check_names([name, "Brian"]) == f"a player name contains a {why}"
    resp = client.post("/games/new", data={"csrf_token": csrf_of(client), "name": [name, "Brian"]})
    assert resp.status_code == 422 and f"contains a {why}" in resp.get_data(as_text=True)
    assert count_games(app.config["DATABASE"]) == 0


def test_the_new_game_form_refuses_look_alikes(client, app):
    db = app.config["DATABASE"]
    token = csrf_of(client)
    resp = client.post("/games/new", data={"csrf_token": token, "name": ["Amy", "Brian", "\u0410my"]})
    page = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert "looks the same as" in page and "“Amy”" in page
    resp = client.post("/games/new", data={"csrf_token": token, "name": ["Amy", "Bri\u200ban"]})
    assert resp.status_code == 422 and "invisible character" in resp.get_data(as_text=True)
    resp = client.post("/games/new", data={"csrf_token": token, "name": ["Amy", "\u0410my"], "option": "two_handed"})
    assert resp.status_code == 422 and "looks the same as" in resp.get_data(as_text=True)
    assert count_games(db) == 0
    resp = client.post("/games/new", data={"csrf_token": token, "name": ["Amy", "Brian"]})
    assert resp.status_code == 303
    assert count_games(db) == 1


def test_the_import_form_and_json_door_refuse_look_alikes(client, app):
    data = load_transcript()
    second = data["players"][1]
    bad = rename_players(header(data), {second: second + "\u00ad"})
    resp = client.post("/games/import", json=bad)
    assert resp.status_code == 422 and "invisible character" in resp.get_json()["error"]
    assert count_games(app.config["DATABASE"]) == 0


def test_each_name_rule_says_which_one_a_name_breaks():
    """The rules of assistant/store/names.py in order, each with its own words, for players and
    persons alike; the edges of each range (60 characters; the surrogates U+D800 to U+DFFF; the
    variation selectors, let through inside the default-ignorable block U+E0000 to U+E0FFF)."""
    assert check_names("Amy") == "the player names must be a list"
    assert check_names(("Amy", "Brian")) is None
    assert check_names(["Amy", 3]) == check_names(["Amy", " \t"]) == "every player needs a name"
    assert check_names(["A" * 60, "Brian"]) is None
    assert check_names(["A" * 61, "Brian"]) == "a player name can have at most 60 characters"
    assert (
        check_names(["Am\ud800y", "Brian"])
        == check_names(["Am\udfffy", "B"])
        == "a player name is not valid Unicode text"
    )
    assert check_names(["Am\ud7ffy", "Brian"]) is None  # just below the surrogates
    assert check_names(["Amy", "Br\x7fian"], "person") == "a person name contains a control character"
    assert check_names(["Amy", "Br\u2029ian"], "person") == "a person name contains a line break"
    # an invisible character is named by its code point (and its Unicode name when it has one)
    assert check_names(["A\u200bmy", "Brian"]) == (
        "a player name contains an invisible character (U+200B ZERO WIDTH SPACE); type the name again"
    )
    assert check_names(["A\U000e0001my", "Brian"]) == (
        "a player name contains an invisible character (U+E0001 LANGUAGE TAG); type the name again"
    )
    assert check_names(["A\u2065my", "Brian"]) == (  # unassigned, default-ignorable: no name
        "a player name contains an invisible character (U+2065); type the name again"
    )
    assert check_names(["Amy\ufe0f", "Brian\U000e0100"]) is None  # variation selectors
    # a format character (category Cf) outside the default-ignorable ranges
    assert check_names(["A\ufff9my", "Brian"]) == (
        "a player name contains an invisible character (U+FFF9 INTERLINEAR ANNOTATION ANCHOR); type the name again"
    )
    # the same name (case and spaces around aside) and a look-alike, each named without its spaces around
    assert check_names(["Amy", "amy "]) == "every player needs a different name"
    assert check_names(["Amy", " \u0410my"], "person") == (
        "the person name “\u0410my” looks the same as “Amy” (letters from another alphabet or look-alike "
        "characters): choose a different name"
    )
