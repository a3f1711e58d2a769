"""The variants of the rulebook: open companies and the two-player, two-handed game.

Open companies: "Build the deck as usual, but then declare it open for inspection" - the
table tells the engine which companies are in the deck (``STARS.create(players,
options=["open_companies"], deck=[...])``), so a reveal must be one of those.

Two-handed: "set up the game as if you were playing with four players ... Player A starts
with their simulated "right hand" player in player order position 1. Player B starts with
their simulated "left hand" player in position 2 and their simulated "right hand" player
in position 3. Finally, player A starts with their simulated "left hand" player in position
4 ... To win, your lower ranked simulated player must be better than the lower ranked
simulated player of your opponent."  (``options=["two_handed"], persons=[A, B]``.)
"""

from __future__ import annotations

import random

import pytest

from assistant.rules import RuleError, events_of
from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS

from .builders import drawn_until, enter_phase, table

COLORS = CARDS.colors
COMPANIES_BY_COLOR = CARDS.companies_by_color
DECK_COUNTS = CARDS.deck_counts
HIGHEST_OF_COLOR = CARDS.highest_of_color

PLAYERS3 = ["Amy", "Brian", "Crystal"]


def open_deck(n: int, skip_lowest: int = 0) -> list[str]:
    """A legal deck for n players: per colour the highest plus the others from the top."""
    deck = []
    for color in COLORS:
        want = DECK_COUNTS[n][color]
        others = [a for a in COMPANIES_BY_COLOR[color] if a != HIGHEST_OF_COLOR[color]]
        others = others[skip_lowest:] + others[:skip_lowest]
        deck += others[: want - 1] + [HIGHEST_OF_COLOR[color]]
    return deck


# ---------------------------------------------------------------------------- open companies


def test_open_deck_reveals_must_be_in_the_deck():
    deck = open_deck(3, skip_lowest=1)  # reds: BSE, KME, AKE and the MHE; not the BME
    g = STARS.create(PLAYERS3, ["open_companies"], deck=deck)
    assert g.next == {"for": "reveal", "color": "red", "choices": ["BSE", "KME", "AKE", "MHE"]}
    before = g.snapshot()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "reveal", "company": "BME"})
    assert "BME" in err.value.message
    assert g.snapshot() == before
    for abbr in ("MHE", "AKE", "BSE"):
        g.apply({"type": "reveal", "company": abbr})
    assert sorted(g.snapshot()["offering"]["available"]) == ["AKE", "BSE", "MHE"]
    # the highest may come early in an open deck too
    assert g.deck_size() == sum(DECK_COUNTS[3].values()) - 3


def test_open_deck_last_card_is_the_one_left():
    deck = open_deck(2)  # reds BME, BSE and the MHE
    g = STARS.create(["Amy", "Brian"], ["open_companies"], deck=deck)
    g.apply({"type": "reveal", "company": "MHE"})
    g.apply({"type": "reveal", "company": "BME"})
    g.apply({"type": "bid", "player": "Amy", "company": "BME", "price": 1})
    g.apply({"type": "leave", "player": "Brian"})
    assert g.next == {"for": "reveal", "color": "red", "choices": ["BSE"]}


@pytest.mark.parametrize(
    "deck, why",
    [
        (None, "needs the list"),
        (open_deck(3)[:-1], "blue"),
        (open_deck(3) + ["XYZ"], "XYZ"),
        ([a for a in open_deck(3) if a != "MHE"] + ["AKE"], "MHE"),
        (open_deck(3)[:1] + open_deck(3), "twice"),
    ],
    ids=["no deck", "a blue card short", "unknown company", "highest red missing", "duplicate"],
)
def test_open_deck_must_be_a_legal_deck(deck, why):
    with pytest.raises(RuleError) as err:
        STARS.create(PLAYERS3, ["open_companies"], deck=deck)
    assert why in err.value.message


def test_deck_list_only_with_the_open_variant():
    with pytest.raises(RuleError):
        STARS.create(PLAYERS3, [], deck=open_deck(3))


def test_unknown_variant_is_refused():
    with pytest.raises(RuleError) as err:
        STARS.create(PLAYERS3, ["house_rules"])
    assert "house_rules" in err.value.message


def test_open_deck_game_replays_and_undoes():
    deck = open_deck(4, skip_lowest=2)
    players = ["A", "B", "C", "D"]
    rng = random.Random(5)
    g = STARS.create(players, ["open_companies"], deck=deck)

    def pick(*args):
        return rng.randint(*args) if len(args) == 2 else rng.choice(args[0])

    snaps = [g.snapshot()]
    while not g.game_over and len(g.events) < 250:
        menu = g.legal_actions()
        if menu[0]["type"] == "reveal":
            assert set(menu[0]["choices"]) <= set(deck)
        g.apply(events_of(rng.choice(menu), pick))
        snaps.append(g.snapshot())
    assert g.seen <= set(deck)
    for k in range(0, len(g.events), 25):
        assert STARS.replay(players, ["open_companies"], g.events[:k], deck=deck).snapshot() == snaps[k]


# ---------------------------------------------------------------------------- two-handed

SEATS = ["A-right", "B-left", "B-right", "A-left"]  # positions 1 to 4


def test_two_handed_needs_four_seats():
    with pytest.raises(RuleError):
        STARS.create(["Amy", "Brian"], ["two_handed"], persons=["Amy", "Brian"])
    g = STARS.create(SEATS, ["two_handed"], persons=["Amy", "Brian"])
    assert g.snapshot()["player_order"] == SEATS
    assert all(p["cash"] == 30 for p in g.snapshot()["players"].values())  # as in a 4-player game
    assert g.deck_size() == sum(DECK_COUNTS[4].values())


def finish_with_scores(cash: dict[str, int], order=None):
    """Game over by the end card with only money to score: phase 7 flips it (nothing is left
    to buy), nobody can do anything in the next turn, and the next phase 7 ends the game."""
    g = table(SEATS, cash=cash, order=order, turn=12, options=["two_handed"], persons=["Amy", "Brian"])
    drawn_until(g, None)  # the deck and the offering are empty
    enter_phase(g, 7)
    assert g.game_over and (g.turn, g.phase) == (13, 7)
    return g.snapshot()["final"]


def test_two_handed_rulebook_example():
    """Amy's right hand wins by far, her left hand is last; Brian's hands are 2nd and 3rd:
    Brian wins, his lower ranked hand (3rd) beats Amy's (4th)."""
    final = finish_with_scores({"A-right": 200, "B-left": 61, "B-right": 60, "A-left": 59})
    assert final["ranking"] == ["A-right", "B-left", "B-right", "A-left"]
    assert final["two_handed"]["winner"] == "Brian"
    assert final["two_handed"]["seats"] == {"Amy": ["A-right", "A-left"], "Brian": ["B-left", "B-right"]}
    assert final["two_handed"]["lower_rank"] == {"Amy": 4, "Brian": 3}


def test_two_handed_winner_is_decided_by_the_weaker_hand_not_the_total():
    final = finish_with_scores({"A-right": 50, "B-left": 100, "B-right": 40, "A-left": 45})
    # ranking: B-left, A-right, A-left, B-right: Amy's weaker hand is 3rd, Brian's 4th
    assert final["ranking"] == ["B-left", "A-right", "A-left", "B-right"]
    assert final["two_handed"]["winner"] == "Amy"


def test_two_handed_ties_broken_by_player_order():
    """Equal values: the lower position in the player order ranks higher."""
    final = finish_with_scores({s: 30 for s in SEATS}, order=["A-left", "B-left", "A-right", "B-right"])
    assert final["ranking"] == ["A-left", "B-left", "A-right", "B-right"]
    assert final["two_handed"]["winner"] == "Amy"  # Amy's weaker hand is 3rd, Brian's 4th


def test_two_handed_game_to_the_end():
    rng = random.Random(8)
    g = STARS.create(SEATS, ["two_handed"], persons=["Amy", "Brian"])

    def pick(*args):
        return rng.randint(*args) if len(args) == 2 else rng.choice(args[0])

    while not g.game_over:
        g.apply(events_of(rng.choice(g.legal_actions()), pick))
    final = g.snapshot()["final"]
    rank = {seat: i + 1 for i, seat in enumerate(final["ranking"])}
    weaker = {"Amy": max(rank["A-right"], rank["A-left"]), "Brian": max(rank["B-left"], rank["B-right"])}
    assert final["two_handed"]["winner"] == min(weaker, key=weaker.get)
    again = STARS.replay(SEATS, ["two_handed"], g.events, persons=["Amy", "Brian"])
    assert again.snapshot() == g.snapshot()
