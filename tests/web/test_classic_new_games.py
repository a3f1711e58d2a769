"""Classic Rolling Stock's training game (Players Guide 1.3) and two-player variant (3.7), from the
new-game form to the engine, as the Guide's text sets them up."""

from __future__ import annotations

from assistant.rules.registry import CLASSIC

from .htmlforms import forms


def test_the_form_offers_the_training_game_the_guide_recommends_for_a_first_game(client):
    page = client.get("/games/new").text
    form = next(f for f in forms(page) if f.action.endswith("/games/new"))
    assert "training" in form.selects["game_type-rolling-stock"]
    assert "Training game: red to green companies, for a first game (Guide 1.3)" in page


def test_a_four_player_training_game_is_set_up_as_guide_1_3_says(table, store):
    gid = table.new_game(
        players=["Amy", "Brian", "Crystal", "Dirk"], ruleset="rolling-stock", **{"game_type-rolling-stock": "training"}
    )
    assert store.get_game(gid).options == ["training"]
    game = store.state(gid)[1]
    # 3. each player $30; 10.-13.: green, yellow and red one more than players, orange six with four
    assert {p.cash for p in game.players.values()} == {30}
    assert game.deck_left == {"red": 5, "orange": 6, "yellow": 5, "green": 5}
    # 8. no blue or purple companies; 9. the training end card, its $3 side up
    assert game.colors == ("red", "orange", "yellow", "green")
    assert game.cost_shown_by("end_front") == {"red": 3, "orange": 3}
    # 14. four companies drawn for the offering
    assert game.next["for"] == "reveal" and game.pending_reveals == 4


def test_the_two_player_variant_seats_two_persons_in_a_four_player_game_as_guide_3_7_says(table, store):
    gid = table.new_game(
        players=["Amy", "Brian"],
        ruleset="rolling-stock",
        option="two_handed",
        **{"game_type-rolling-stock": "short"},
    )
    info = store.get_game(gid)
    assert info.persons == ["Amy", "Brian"]
    # "Player A starts with his simulated right hand player in position 1. Player B starts with his
    # simulated left hand player in position 2 and his right hand player in position 3. Finally,
    # player A starts with his simulated left hand player in position 4."
    assert info.players == ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]
    assert info.options == ["two_handed", "short"]
    game = store.state(gid)[1]
    # "set up the game as if you were playing with four players"
    assert game.deck_left == CLASSIC.create(["A", "B", "C", "D"], ["short"]).deck_left
    assert {p.cash for p in game.players.values()} == {30}


def test_in_the_two_player_variant_the_lower_ranked_simulated_player_decides(store):
    """ "To win, your lower ranked simulated player must be better than the lower ranked simulated
    player of your opponent": the Guide's example, Alice's right hand first by far and her left hand
    a close last; Bob's seats second and third: Bob wins."""
    seats = ["Alice (right hand)", "Bob (left hand)", "Bob (right hand)", "Alice (left hand)"]
    game = CLASSIC.create(seats, ["two_handed"], persons=["Alice", "Bob"])
    for seat, cash in zip(seats, (400, 120, 118, 110), strict=True):
        game.players[seat].cash = cash
    game._finish_game()
    assert game.final["ranking"] == seats
    assert game.final["two_handed"]["lower_rank"] == {"Alice": 4, "Bob": 3}
    assert game.final["two_handed"]["winner"] == "Bob"


def test_the_two_player_variant_needs_four_seats(store):
    import pytest

    from assistant.rules import RuleError

    with pytest.raises(RuleError, match="four seats"):
        CLASSIC.create(["Amy", "Brian", "Crystal"], ["two_handed"], persons=["Amy", "Brian"])
