"""The parts of assistant/log/corrections.py that need no log: which entry may be corrected, and the
banker's list of a correction (what to move on the real table), from two snapshots laid out by
hand.  Every line expected below is written out from the snapshots, in the order the list gives
them: each player's money, cards and shares, the foreign investor's money and cards, each
corporation (formed, gone, treasury, cards, share price), then the turn."""

from __future__ import annotations

import pytest

from assistant.log.corrections import changes, check_index, correct, why_set_aside
from assistant.rules import RuleError, registry
from assistant.rules.core import position
from tests import corrected_game as hand

BEFORE = {
    "players": {
        "Amy": {"cash": 14, "companies": ["BY", "WT"], "shares": {"Doppler AG": 2, "KRS": 1}},
        "Ross": {"cash": 5, "companies": ["KME"]},  # no shares: nothing to say about them
        "Ben": {"cash": 7, "shares": {"KRS": 1}},  # no cards: nothing either
    },
    "foreign_investor": {"cash": 20, "companies": ["BSE", "AKE"]},
    "corporations": {
        "Doppler AG": {"cash": 10, "companies": ["MHE"], "share_price": 11},
        "KRS": {"cash": 3, "companies": [], "share_price": 5},
    },
    "turn": 2,
    "phase": 5,
}
AFTER = {
    "players": {
        "Amy": {"cash": 15, "companies": ["WT", "OBB"], "shares": {"Doppler AG": 1, "Hermes": 2}},
        "Ross": {"cash": 5, "companies": ["KME"]},
        "Ben": {"cash": 7, "shares": {"KRS": 1}},
    },
    "foreign_investor": {"cash": 20, "companies": ["AKE"]},
    "corporations": {
        "Doppler AG": {"cash": 12, "companies": ["MHE", "BY"], "share_price": 14},
        "Hermes": {"cash": 30, "companies": [], "share_price": 10},
    },
    "turn": 2,
    "phase": 6,
}
LINES = [
    "Amy's money $14 → $15",
    "Amy's cards: + OBB, − BY",
    "Amy's Doppler AG shares 2 → 1",  # her shares, in the order she held them, then the new ones
    "Amy's KRS shares 1 → 0",
    "Amy's Hermes shares 0 → 2",
    "the foreign investor's cards: − BSE",
    "Doppler AG's treasury $10 → $12",
    "Doppler AG's cards: + BY",
    "Doppler AG's share price $11 → $14",
    "KRS is gone",
    "Hermes is formed",
    "turn 2·5 → 2·6",
]


def dollars(amount) -> str:
    return f"${amount}"


def test_the_bankers_list_names_every_move_in_its_order():
    assert changes(BEFORE, AFTER, money=dollars) == LINES


def test_the_bankers_list_writes_amounts_as_it_is_told():
    assert changes(BEFORE, AFTER)[0] == "Amy's money 14 → 15"  # plain numbers unless told
    assert changes(BEFORE, AFTER)[6] == "Doppler AG's treasury 10 → 12"
    assert changes(BEFORE, AFTER)[8] == "Doppler AG's share price 11 → 14"


def test_the_bankers_list_is_cut_after_its_limit():
    assert changes(BEFORE, AFTER, limit=3, money=dollars) == [*LINES[:3], "and 9 more"]
    assert changes(BEFORE, AFTER, limit=11, money=dollars) == [*LINES[:11], "and 1 more"]
    assert changes(BEFORE, AFTER, limit=12, money=dollars) == LINES  # all of them fit: no "more"
    assert changes(BEFORE, AFTER, limit=0, money=dollars) == ["and 12 more"]


def test_the_foreign_investors_money_and_the_turn_alone():
    before = {"foreign_investor": {"cash": 20}, "turn": 3, "phase": 9}
    assert changes(before, {"foreign_investor": {"cash": 25}, "turn": 3, "phase": 9}, money=dollars) == [
        "the foreign investor's money $20 → $25"
    ]
    assert changes(before, {"foreign_investor": {"cash": 20}, "turn": 4, "phase": 9}) == ["turn 3·9 → 4·9"]
    assert changes(before, {"foreign_investor": {"cash": 20, "companies": ["BY"]}, "turn": 3, "phase": 9}) == [
        "the foreign investor's cards: + BY"
    ]


def test_nothing_moved_says_nothing():
    assert changes(BEFORE, BEFORE) == []
    assert changes({}, {}) == []  # snapshots without players, investor or corporations


def test_a_player_or_a_corporation_without_cards_or_shares_on_one_side():
    before = {"players": {"Amy": {"cash": 1}}, "corporations": {"KRS": {"cash": 3, "share_price": 5}}}
    after = {
        "players": {"Amy": {"cash": 1, "companies": ["BY"], "shares": {"KRS": 1}}},
        "corporations": {"KRS": {"cash": 3, "companies": ["WT"], "share_price": 5}},
    }
    assert changes(before, after) == ["Amy's cards: + BY", "Amy's KRS shares 0 → 1", "KRS's cards: + WT"]
    assert changes(after, before) == ["Amy's cards: − BY", "Amy's KRS shares 1 → 0", "KRS's cards: − WT"]


def test_no_share_and_a_count_of_none_are_the_same():
    before = {"players": {"Amy": {"cash": 1, "shares": {"KRS": 0}}}}
    after = {"players": {"Amy": {"cash": 1, "shares": {"Hermes": 0}}}}
    assert changes(before, after) == [] and changes(after, before) == []


def test_a_player_missing_on_one_side_has_no_figures_there():
    assert changes({"players": {"Amy": {"cash": 3}}}, {}) == ["Amy's money 3 → None"]
    assert changes({"players": {"Amy": {"cash": 3}}}, {"players": {}}) == ["Amy's money 3 → None"]


@pytest.mark.parametrize("index", [0, 1, 4])
def test_any_of_the_entries_may_be_corrected(index):
    check_index(index, 5)  # 5 entries: 0 to 4


@pytest.mark.parametrize("index", [-1, 5, 6, True, 2.0, "2", None])
def test_no_other_entry_may_be(index):
    with pytest.raises(RuleError) as err:
        check_index(index, 5)
    assert err.value.message == f"There is no entry {index!r} to correct: the game has 5 entries (0 to 4)."


def test_a_game_without_entries_has_none_to_correct():
    with pytest.raises(RuleError, match=r"^There is no entry 0 to correct: the game has 0 entries \(0 to -1\)\.$"):
        check_index(0, 0)


def _acquisitions_over():
    """tests/web/test_phase_done.py's position: nobody can buy in phase 3 (no cash), so after Amy's
    and Brian's passes the acquisitions end by themselves and the game is in phase 6."""
    from tests.rules.test_position_refusals import PLAYERS, nobody_can_buy_position

    pos = nobody_can_buy_position()
    game = position.resume(registry.STARS, PLAYERS, [], pos)
    for event in ({"type": "pass", "player": "Amy"}, {"type": "pass", "player": "Brian"}):
        game.apply(event)
    assert game.snapshot()["phase"] == 6
    return game


def test_a_correction_to_a_done_that_enters_nothing_is_refused():
    """The ``done`` of the phase that ended by itself is accepted as a no-op: as a correction it
    would be no entry, so it is refused in words."""
    with pytest.raises(RuleError) as err:
        correct(_acquisitions_over(), [], 2, {"type": "done", "phase": 3})
    assert err.value.message == (
        "That phase has already ended by itself (nobody could act in it): there is nothing to end."
    )


def test_each_entry_set_aside_says_whether_it_fits_now():
    """tests/corrected_game.py after its correction: phase 9 of turn 3, the WT's turn to go public
    or not (descending face value), so the BSE's "stays private" does not fit yet and the WT's does."""
    game = registry.STARS.create(hand.PLAYERS)
    for earlier in hand.EVENTS[: hand.DIVIDEND]:
        game.apply(earlier)
    after = correct(game, hand.LATER, hand.DIVIDEND, hand.CORRECTED)["game"]
    wt = {"type": "skip_ipo", "company": "WT"}
    assert why_set_aside(after, [hand.SET_ASIDE[1], wt]) == [
        {
            "event": hand.SET_ASIDE[1],
            "fits": False,
            "reason": "It is the WT's turn to go public or not (descending face value order), not the BSE's.",
        },
        {"event": wt, "fits": True, "reason": "It fits now: it can be entered again."},
    ]
    assert after.snapshot()["phase"] == 9, "a preview only: the game is as it was"
    assert why_set_aside(after, []) == []
