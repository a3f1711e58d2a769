"""A position's shape is checked once, before the engine reads it (issue 26, point 3): the malformed
shapes the probe found answer 4xx with the field named at every door (the JSON import, the file
import, the resume form, the score check), and nothing is stored; every figure a person types has
the range a real game can have (400 for what is not a number, 422 out of range).  A property test
over the position schema: no 5xx in thousands of generated positions, nothing stored when refused.
"""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from assistant.rules.core import position_shape

PLAYERS = ["Amy", "Brian", "Crystal"]
# A position at the end of turn 1, written by hand: the four red cards BME, BSE, KME and AKE and three
# orange ones, WT, BY and BD (the offering: one per seat), are out of the deck (3 players: 4 cards of
# each colour in the deck, rulebook set-up), the Prussian Railway floated by Amy (2 shares) with one
# share in the bank.
VALID = {
    "after": {"turn": 1, "phase": 9},
    "state": {
        "player_order": PLAYERS,
        "players": {
            "Amy": {"cash": 20, "companies": ["BME"], "shares": {"Prussian Railway": 2}},
            "Brian": {"cash": 25, "companies": ["BSE"], "shares": {}},
            "Crystal": {"cash": 30, "companies": ["KME"], "shares": {}},
        },
        "foreign_investor": {"cash": 4, "companies": []},
        "corporations": {
            "Prussian Railway": {
                "cash": 5,
                "share_price": 10,
                "companies": ["AKE"],
                "president": "Amy",
                "issued": 3,
                "bank_shares": 1,
            }
        },
        "offering": {"available": ["WT", "BY", "BD"], "unavailable": []},  # one per seat
        "deck_size": 13,
        "end_card_flipped": False,
    },
    "deck": {"red": 0, "orange": 1, "yellow": 4, "green": 4, "blue": 4},
    "out_of_game": [],
}


def transcript(position) -> dict:
    return {"format": "rss-table-transcript", "version": 1, "players": PLAYERS, "events": [], "position": position}


def changed(path: tuple, value) -> dict:
    """VALID with the value at ``path`` replaced (``DELETE``: removed)."""
    pos = copy.deepcopy(VALID)
    *head, last = path
    here = pos
    for key in head:
        here = here[key]
    if value is DELETE:
        del here[last]
    else:
        here[last] = value
    return pos


DELETE = object()
CORP = ("state", "corporations", "Prussian Railway")
MALFORMED = {  # the probe's shapes (issue 26), each a 500 before: (where, value, the field the message names)
    "after as a list": (("after",), [1], "position.after "),
    "offering as a name": (("state", "offering"), "CDG", "position.state.offering "),
    "president as a list": ((*CORP, "president"), ["P2"], ".president "),
    "no corporations": (("state", "corporations"), DELETE, "position.state.corporations "),
    "a corporation as a name": (CORP, "Prussian Railway", "corporations['Prussian Railway'] "),
    "money of 4,290 digits": (("state", "players", "Amy", "cash"), int("9" * 4290), "['Amy'].cash "),
    "money far out of range": (("state", "players", "Amy", "cash"), 100_000, "['Amy'].cash "),
    "a turn out of range": (("after", "turn"), 100, "position.after.turn "),
    "a share count as text": (("state", "players", "Amy", "shares", "Prussian Railway"), "2", ".shares["),
    "a share price as true": ((*CORP, "share_price"), True, ".share_price "),
    "companies as a name": (("state", "players", "Brian", "companies"), "BSE", "['Brian'].companies "),
    "the deck as a list": (("deck",), [0, 4, 4, 4, 4], "position.deck "),
    "the end card as a number": (("state", "end_card_flipped"), 1, ".end_card_flipped "),
}


def test_the_valid_position_imports(client, store):
    resp = client.post("/games/import", json=transcript(VALID))
    assert resp.status_code == 303, resp.get_json()
    assert len(store.backend.game_ids()) == 1


@pytest.mark.parametrize("case", MALFORMED)
def test_each_malformed_shape_is_refused_with_the_field_named_at_the_json_door(client, store, case):
    path, value, named = MALFORMED[case]
    resp = client.post("/games/import", json=transcript(changed(path, value)))
    assert resp.status_code == 422
    assert named in resp.get_json()["error"]
    assert not store.backend.game_ids()


def test_a_malformed_shape_is_refused_through_the_file_import_too(client, store):
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text).group(1)
    data = json.dumps(transcript(changed(("after",), [1]))).encode()
    resp = client.post(
        "/games/import",
        data={"transcript": (io.BytesIO(data), "game.json"), "csrf_token": csrf},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 422 and "position.after must be an object" in resp.text
    assert not store.backend.game_ids()


# -- figures a person types: the resume form and the score check ------------------------------------
def resume_fields(**figures) -> list[tuple[str, str]]:
    fields = [("game", "rolling-stock-stars"), ("turn", "1"), *[("name", p) for p in PLAYERS]]
    fields += [("cash-0", "20"), ("cash-1", "25"), ("cash-2", "30"), ("co-0", "BME"), ("co-1", "BSE"), ("co-2", "KME")]
    fields += [("price-Prussian Railway", "10"), ("sh-0-Prussian Railway", "2"), ("bank-Prussian Railway", "1")]
    fields += [("treasury-Prussian Railway", "5"), ("co-corp-Prussian Railway", "AKE")]
    fields += [("co-offer", "WT"), ("co-offer", "BY"), ("co-offer", "BD")]
    fields += [("fi-cash", "4")]
    given = dict(figures)
    return [(k, given.pop(k, v)) for k, v in fields] + list(given.items())


def post_resume(client, fields):
    page = client.get("/resume/table?game=rolling-stock-stars&name=A&name=B")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    return client.post("/resume/table", data=MultiDict([*fields, ("csrf_token", csrf)]))


def test_the_resume_form_takes_the_table_as_it_lies(client, store):
    assert post_resume(client, resume_fields()).status_code == 303
    assert len(store.backend.game_ids()) == 1


@pytest.mark.parametrize(
    "field, typed, status, said",
    [
        ("cash-0", "twenty", 400, "a whole number"),
        ("cash-0", "1e5", 400, "a whole number"),
        ("cash-0", "100000", 422, "cannot be above 99,999"),
        ("cash-0", "9" * 4290, 422, "cannot be above 99,999"),
        ("cash-0", "-1", 422, "cannot be below 0"),
        ("treasury-Prussian Railway", "100000", 422, "cannot be above 99,999"),
        ("fi-cash", "123456", 422, "cannot be above 99,999"),
        ("turn", "100", 422, "cannot be above 99"),
        ("price-Prussian Railway", "15", 422, "not a card of the share price row"),  # the row: ..., 14, 16, ...
        ("sh-0-Prussian Railway", "6", 422, "cannot be above 5"),  # the Prussian Railway has 5 shares
        ("bank-Prussian Railway", "8", 422, "cannot be above 5"),
        ("deck-orange", "5", 422, "cannot be above 4"),  # 3 players: 4 orange cards in the deck
    ],
    ids=lambda v: v if len(str(v)) < 20 else f"{len(v)} characters",
)
def test_the_resume_form_refuses_a_figure_no_game_can_have(client, store, field, typed, status, said):
    resp = post_resume(client, resume_fields(**{field: typed}))
    assert resp.status_code == status and said in resp.text
    assert not store.backend.game_ids()


def score_query(**figures) -> list[tuple[str, str]]:
    fields = [("game", "rolling-stock-stars"), *[("name", p) for p in PLAYERS]]
    fields += [("cash-0", "20"), ("cash-1", "25"), ("cash-2", "30"), ("co-0", "BME")]
    fields += [("sh-0-Prussian Railway", "2"), ("price-Prussian Railway", "10")]
    given = dict(figures)
    return [(k, given.pop(k, v)) for k, v in fields] + list(given.items())


@pytest.mark.parametrize("path", ["/scores/check", "/scores/check.png", "/scores/check.txt"])
@pytest.mark.parametrize(
    "field, typed, status",
    [
        ("cash-0", "lots", 400),
        ("cash-0", "9" * 4290, 422),
        ("cash-1", "100000", 422),
        ("price-Prussian Railway", "15", 422),
        ("sh-0-Prussian Railway", "6", 422),
    ],
    ids=lambda v: v if len(str(v)) < 20 else f"{len(v)} characters",
)
def test_the_score_check_refuses_a_figure_no_game_can_have(client, path, field, typed, status):
    assert client.get(path, query_string=MultiDict(score_query())).status_code == 200
    assert client.get(path, query_string=MultiDict(score_query(**{field: typed}))).status_code == status


# -- the property test ---------------------------------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.sampled_from([0, 1, 5, 10, 99, 100, 99_999, 100_000, -1])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(PLAYERS + ["Prussian Railway", "BME", "CDG", "red", "XX", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def paths(value, prefix=()):
    """Every path into a position (its keys and list indexes)."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, (*prefix, i))


ALL_PATHS = [p for p in paths(VALID) if p]
EXAMPLES = 1500  # thousands over a few runs; each is a whole import through the app (~50 ms)


@st.composite
def positions(draw):
    """VALID with one to four of its values replaced by any JSON value, or removed."""
    pos = copy.deepcopy(VALID)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(ALL_PATHS))
        here = pos
        try:
            for key in path[:-1]:
                here = here[key]
            if isinstance(here, dict) != isinstance(path[-1], str):
                continue  # an earlier change made this place something else
            if draw(st.booleans()) and isinstance(here, dict):
                here.pop(path[-1], None)
            else:
                here[path[-1]] = draw(json_values)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change took this place away
    return pos


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(pos=positions())
def test_no_generated_position_gets_a_5xx_and_a_refused_one_stores_nothing(client, store, pos):
    before = store.backend.game_ids()
    resp = client.post("/games/import", json=transcript(pos))
    assert resp.status_code in (303, 422), (resp.status_code, resp.get_data(as_text=True)[:300])
    after = store.backend.game_ids()
    assert len(after) == len(before) + (resp.status_code == 303)


def test_the_shape_module_names_the_field(tmp_path):
    with pytest.raises(position_shape.ShapeError, match=r"position.state.corporations\['Prussian Railway'\].president"):
        position_shape.check_position(changed((*CORP, "president"), ["P2"]))


# -- the shape module's own words, field by field (written out by hand) --------------------------
def refused(position) -> str:
    with pytest.raises(position_shape.ShapeError) as err:
        position_shape.check_position(position)
    assert err.value.rule is None  # no rule of the game: the format's shape
    return err.value.message


def test_a_shown_value_is_cut_to_forty_characters():
    x38, x39 = "x" * 38, "x" * 39  # their repr: 40 and 41 characters
    assert refused(changed(("after",), x38)) == f"position.after must be an object (a JSON {{...}}), not '{x38}'."
    assert (
        refused(changed(("after",), x39))
        == "position.after must be an object (a JSON {...}), not '" + "x" * 36 + "...."
    )
    assert refused([1]) == "position must be an object (a JSON {...}), not [1]."
    assert refused(changed(("state", "corporations"), [1])) == (
        "position.state.corporations must be an object (a JSON {...}), not [1]."
    )


def test_the_phase_the_flags_and_the_deck_are_checked_with_their_own_words():
    assert position_shape.check_position(changed(("after", "phase"), DELETE))  # the phase may be left out
    assert position_shape.check_position(changed(("after", "phase"), 1))
    assert refused(changed(("after", "phase"), 0)) == "position.after.phase must be from 1 to 99, not 0."
    assert refused(changed(("after", "phase"), 100)) == "position.after.phase must be from 1 to 99, not 100."
    assert (
        refused(changed(("after", "phase"), "9"))
        == "position.after.phase must be a whole number from 1 to 99, not '9'."
    )
    assert position_shape.check_position(changed(("after", "phase"), None))  # null: not given
    flipped = ("state", "end_card_flipped")
    assert refused(changed(flipped, "yes")) == "position.state.end_card_flipped must be true or false, not 'yes'."
    assert refused(changed(flipped, 1)) == "position.state.end_card_flipped must be true or false, not 1."
    assert position_shape.check_position(changed(flipped, True))
    assert (
        refused(changed(("deck", "red"), "x")) == "position.deck['red'] must be a whole number from 0 to 99, not 'x'."
    )
    assert refused(changed(("deck", "red"), 100)) == "position.deck['red'] must be from 0 to 99, not 100."


PR = "position.state.corporations['Prussian Railway']"


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("cash", "x", f"{PR}.cash must be a whole number from 0 to 99,999, not 'x'."),
        ("companies", "AKE", f"{PR}.companies must be a list of at most 100 names, not 'AKE'."),
        ("issued", "x", f"{PR}.issued must be a whole number from 0 to 99, not 'x'."),
        ("bank_shares", "x", f"{PR}.bank_shares must be a whole number from 0 to 99, not 'x'."),
        ("share_price", -1, f"{PR}.share_price must be from 0 to 99,999, not -1."),
        ("unissued", "x", f"{PR}.unissued must be a whole number from 0 to 99, not 'x'."),
        ("receivership", "yes", f"{PR}.receivership must be true or false, not 'yes'."),
    ],
)
def test_each_field_of_a_corporation_is_checked_and_named(field, value, said):
    assert refused(changed((*CORP, field), value)) == said


def test_what_a_corporation_may_leave_out_or_hold_at_zero():
    for field, value in [
        ("bank_shares", DELETE),
        ("bank_shares", None),
        ("bank_shares", 0),
        ("unissued", 0),
        ("unissued", None),
        ("issued", 0),
        ("share_price", 0),
        ("receivership", True),
    ]:
        assert position_shape.check_position(changed((*CORP, field), value))
    assert (
        refused(changed(("out_of_game",), "AKE"))
        == "position.out_of_game must be a list of at most 100 names, not 'AKE'."
    )
    assert position_shape.check_position(changed(("out_of_game",), ["AKE"] * 100))  # the shape allows 100
    assert refused(changed(("out_of_game",), ["AKE"] * 101)).startswith(
        "position.out_of_game must be a list of at most 100"
    )
    assert refused(changed(("out_of_game",), ["AKE", 1])) == (
        "position.out_of_game[1] must be a name of 1 to 100 characters, not 1."
    )


def test_a_score_check_reads_every_corporations_share_price():
    state = {
        "player_order": ["Amy", "Brian"],
        "players": {"Amy": {"cash": 1, "companies": []}, "Brian": {"cash": 2, "companies": []}},
        "corporations": {"Doppler AG": {"share_price": 10}, "Stars, Inc.": {"share_price": "x"}},
    }
    with pytest.raises(position_shape.ShapeError) as err:
        position_shape.check_state(state, final=True)
    assert err.value.message == (
        "state.corporations['Stars, Inc.'].share_price must be a whole number from 0 to 99,999, not 'x'."
    )


def test_the_players_rows_are_checked_and_named():
    players = ("state", "players")
    assert refused(changed(players, [1])) == "position.state.players must be an object (a JSON {...}), not [1]."
    assert refused(changed((*players, "Amy"), "x")) == (
        "position.state.players['Amy'] must be an object (a JSON {...}), not 'x'."
    )
    assert refused(changed((*players, "Amy", "shares"), [2])) == (
        "position.state.players['Amy'].shares must be an object (a JSON {...}), not [2]."
    )
    assert position_shape.check_position(changed((*players, "Amy", "shares"), DELETE))  # may be left out
    assert position_shape.check_position(changed((*players, "Amy", "shares", "Prussian Railway"), 0))
    assert refused(changed((*players, "Amy", "shares", "Prussian Railway"), -1)) == (
        "position.state.players['Amy'].shares['Prussian Railway'] must be from 0 to 99, not -1."
    )
    assert refused(changed(("state", "player_order"), "Amy")) == (
        "position.state.player_order must be a list of at most 100 names, not 'Amy'."
    )
    assert refused(changed(("state",), "x")) == "position.state must be an object (a JSON {...}), not 'x'."


def test_a_score_checks_end_position_may_have_no_corporation():
    state = {"players": {"Amy": {"cash": 1}, "Brian": {"cash": 2}}}
    assert position_shape.check_state(state, final=True) is state
    with pytest.raises(position_shape.ShapeError) as err:
        position_shape.check_state(state)  # a position to resume from lists them ({} for none)
    assert err.value.message == "state.corporations must give the corporations in play ({} when there are none)."


ST = "position.state"


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        (("foreign_investor",), [4], f"{ST}.foreign_investor must be an object (a JSON {{...}}), not [4]."),
        (
            ("foreign_investor", "cash"),
            "4",
            f"{ST}.foreign_investor.cash must be a whole number from 0 to 99,999, not '4'.",
        ),
        (("foreign_investor", "cash"), -1, f"{ST}.foreign_investor.cash must be from 0 to 99,999, not -1."),
        (
            ("foreign_investor", "companies"),
            "AKE",
            f"{ST}.foreign_investor.companies must be a list of at most 100 names, not 'AKE'.",
        ),
        (("offering",), ["WT"], f"{ST}.offering must be an object (a JSON {{...}}), not ['WT']."),
        (("offering", "available"), "WT", f"{ST}.offering.available must be a list of at most 100 names, not 'WT'."),
        (
            ("offering", "unavailable"),
            "WT",
            f"{ST}.offering.unavailable must be a list of at most 100 names, not 'WT'.",
        ),
        (("deck_size",), "13", f"{ST}.deck_size must be a whole number from 0 to 99, not '13'."),
        (("deck_size",), 100, f"{ST}.deck_size must be from 0 to 99, not 100."),
        (("game_over",), "no", f"{ST}.game_over must be true or false, not 'no'."),
    ],
)
def test_each_field_of_the_state_is_checked_and_named(path, value, said):
    assert refused(changed(("state", *path), value)) == said


def test_what_the_state_may_leave_out():
    for path in [
        ("foreign_investor",),
        ("foreign_investor", "cash"),
        ("foreign_investor", "companies"),
        ("offering",),
        ("offering", "available"),
        ("offering", "unavailable"),
        ("deck_size",),
        ("end_card_flipped",),
        ("player_order",),
    ]:
        assert position_shape.check_position(changed(("state", *path), DELETE)), path
        assert position_shape.check_position(changed(("state", *path), None)), path


def test_a_figure_at_the_edges_of_its_range():
    cash = ("state", "players", "Amy", "cash")
    at = "position.state.players['Amy'].cash"
    assert position_shape.check_position(changed(cash, 99_999)) and position_shape.check_position(changed(cash, 0))
    assert position_shape.check_position(changed(("deck", "red"), 99))
    assert refused(changed(cash, None)) == f"{at} must be a whole number from 0 to 99,999, not None."  # required
    assert refused(changed(cash, 10**12 - 1)) == f"{at} must be from 0 to 99,999, not 999999999999."
    assert refused(changed(cash, 10**12)) == f"{at} must be from 0 to 99,999, not 'a number that large'."
    assert refused(changed(cash, -(10**12))) == f"{at} must be from 0 to 99,999, not 'a number that large'."


def test_names_and_objects_at_the_edges_of_their_sizes():
    deck = {f"c{i}": 0 for i in range(100)}
    assert position_shape.check_position(changed(("deck",), deck))  # the shape allows 100 entries
    assert refused(changed(("deck",), {**deck, "c100": 0})) == (
        "position.deck must be an object of at most 100 entries, not '101 entries'."
    )
    assert (
        refused(changed(("deck",), {"": 0})) == "a name in position.deck must be a name of 1 to 100 characters, not ''."
    )
    assert refused(changed(("state", "players"), None)) == (
        "position.state.players must be an object (a JSON {...}), not None."
    )
    order = ("state", "player_order")
    assert position_shape.check_position(changed(order, ["A" * 100]))
    long = "A" * 101
    assert refused(changed(order, [long])) == (
        f"position.state.player_order[0] must be a name of 1 to 100 characters, not '{'A' * 36}...."
    )
    assert (
        refused(changed(order, [""])) == "position.state.player_order[0] must be a name of 1 to 100 characters, not ''."
    )
    assert (
        refused(changed((*CORP, "president"), 1))
        == f"{PR}.president must be a name of 1 to 100 characters or null, not 1."
    )
