"""New game: names in player order, shuffle, variants; then the setup reveals."""

import re


def test_new_game_form(client):
    page = client.get("/games/new")
    assert page.status_code == 200
    assert page.text.count('name="name"') == 6
    assert 'value="open_companies"' in page.text and 'value="two_handed"' in page.text
    assert 'name="shuffle"' in page.text


def test_create_three_player_game_asks_for_the_initial_offering(client, table):
    gid = table.new_game(["Amy", "Brian", "Crystal"])
    assert len(gid) >= 22  # >= 128 random bits, URL-safe
    snap = table.state(gid)
    assert snap["seq"] == 0
    assert snap["player_order"] == ["Amy", "Brian", "Crystal"]
    assert snap["next"]["for"] == "reveal"
    page = client.get(f"/games/{gid}")
    assert "Setup: initial offering" in page.text
    for company in snap["next"]["choices"]:
        assert f'name="e.company" value="{company}"' in page.text


def test_setup_reveals_then_first_player_invests(table):
    gid = table.new_game()
    snap = table.reveal_all(gid)
    assert snap["seq"] == 3
    assert len(snap["offering"]["available"]) == 3
    assert snap["next"] == {"player": "Amy", "for": "investment"}


def test_too_few_players_is_refused_with_a_message(client, table):
    resp = client.post("/games/new", data={"csrf_token": table.csrf(), "name": ["Amy", "", ""]})
    assert resp.status_code == 422
    assert "at least 2 player names" in resp.text


def test_duplicate_names_are_refused(client, table):
    resp = client.post("/games/new", data={"csrf_token": table.csrf(), "name": ["Amy", "amy"]})
    assert resp.status_code == 422
    assert "different name" in resp.text


def test_shuffle_keeps_the_names_and_creates_nothing(client, table, store):
    names = ["Amy", "Brian", "Crystal", "Dirk", "Emma"]
    resp = client.post("/games/new", data={"csrf_token": table.csrf(), "name": names, "shuffle": "1"})
    assert resp.status_code == 200
    shown = re.findall(r'name="name" value="([^"]*)"', resp.text)
    assert sorted(n for n in shown if n) == sorted(names)
    assert not list(store.backend._db().query("SELECT id FROM games"))


def test_two_handed_variant_takes_two_persons_and_makes_four_seats(client, table, store):
    """Rulebook: "Player A starts with their simulated right hand player in position 1. Player B
    starts with their simulated left hand player in position 2 and their right hand player in
    position 3. Finally, player A starts with their left hand player in position 4."
    """
    gid = table.new_game(["Amy", "Brian"], option="two_handed")
    seats = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]
    assert table.state(gid)["player_order"] == seats
    info = store.get_game(gid)
    assert info.players == seats and info.persons == ["Amy", "Brian"]
    _, game = store.state(gid)
    assert game.persons == ["Amy", "Brian"]  # handed to the engine, which decides the two-handed winner
    assert "persons" not in table.state(gid)  # the snapshot schema is unchanged


def test_two_handed_variant_refuses_other_than_two_persons(client, table, store):
    for names in (["Amy"], ["Amy", "Brian", "Crystal"], ["Amy R", "Brian L", "Brian R", "Amy L"]):
        bad = client.post("/games/new", data={"csrf_token": table.csrf(), "name": names, "option": "two_handed"})
        assert bad.status_code == 422
        assert "2 persons" in bad.text or "at least 2" in bad.text
    assert not list(store.backend._db().query("SELECT id FROM games"))


def test_new_game_form_explains_the_two_handed_seats(client):
    page = client.get("/games/new").text
    assert "<strong>Two-handed</strong>: 2 persons play 4 seats" in page
    assert "A&#39;s right hand 1st, B&#39;s left hand 2nd, B&#39;s right hand 3rd and A&#39;s left hand 4th" in page


def test_open_companies_variant_takes_the_deck_from_the_table(client, table, store):
    from assistant.rules.stars.cards import CARDS

    deck = [a for color, abbrs in CARDS.companies_by_color.items() for a in abbrs[-CARDS.deck_counts[3][color] :]]
    gid = table.new_game(option="open_companies", deck=deck)
    assert store.get_game(gid).deck == deck
    choices = table.state(gid)["next"]["choices"]
    assert set(choices) <= set(deck)


def test_open_companies_with_a_wrong_deck_shows_the_engine_message(client, table):
    resp = client.post(
        "/games/new",
        data={
            "csrf_token": table.csrf(),
            "name": ["Amy", "Brian", "Crystal"],
            "option": "open_companies",
            "deck": ["BME", "KME"],
        },
    )
    assert resp.status_code == 422
    assert "companies, not" in resp.text


def test_open_companies_without_deck_is_refused(client, table):
    resp = client.post(
        "/games/new", data={"csrf_token": table.csrf(), "name": ["Amy", "Brian"], "option": "open_companies"}
    )
    assert resp.status_code == 422
    assert "open deck" in resp.text
