"""Checking the final scores of a game played on paper, from the home page (issue 16): the players
in final order, then only what scoring needs; the engine's final scoring, its make-up and the
tie-break in words, text to copy; impossible positions refused with the problem named."""

from __future__ import annotations

import re
import threading
from urllib.parse import urlencode

from assistant.rules import registry
from assistant.rules.core import final_score
from assistant.web import costly


def _url(game="rolling-stock-stars", names=("Amy", "Brian", "Crystal", "Dirk"), raw=(), **fields) -> str:
    params = [("game", game), *[("name", n) for n in names], *raw]
    for key, value in fields.items():
        key = key.replace("__", " ").replace("_", "-")
        params += [(key, v) for v in value] if isinstance(value, list) else [(key, value)]
    return "/scores/check?" + urlencode(params)


def _ranking(html: str) -> list[tuple[str, int]]:
    block = re.search(r'<ol class="ranking">(.*?)</ol>', html, re.S).group(1)
    return [(p, int(s)) for p, s in re.findall(r"<strong>(.*?)</strong> (\d+)", block)]


def test_the_home_page_leads_to_the_score_check(client):
    home = client.get("/").text
    assert 'href="/scores"' in home and "Check final scores" in home
    start = client.get("/scores").text
    assert 'name="game" value="rolling-stock"' in start and start.count('name="name"') == 6


# Amy, Brian, Crystal and Dirk at the end of a game of Stars (the form's fields; Dirk wins with 210)
FIELDS = {
    "cash_0": "30", "cash_1": "20", "cash_2": "45", "cash_3": "0",
    "co_0": ["BME", "DR"], "co_3": ["CDG"],
    "sh_1_Doppler__AG": "3", "sh_2_Doppler__AG": "1", "sh_3_Stock__Masters": "2",
    "price_Doppler__AG": "16", "price_Stock__Masters": "75",
}  # fmt: skip


def test_the_scores_are_the_engines_final_scoring_with_each_make_up(client):
    resp = client.get(_url(**FIELDS))
    assert resp.status_code == 200, resp.text
    state = {
        "player_order": ["Amy", "Brian", "Crystal", "Dirk"],
        "players": {
            "Amy": {"cash": 30, "companies": ["BME", "DR"], "shares": {}},
            "Brian": {"cash": 20, "companies": [], "shares": {"Doppler AG": 3}},
            "Crystal": {"cash": 45, "companies": [], "shares": {"Doppler AG": 1}},
            "Dirk": {"cash": 0, "companies": ["CDG"], "shares": {"Stock Masters": 2}},
        },
        "corporations": {"Doppler AG": {"share_price": 16}, "Stock Masters": {"share_price": 75}},
    }
    expected = final_score.final_scores(registry.STARS, list(state["player_order"]), state)
    assert _ranking(resp.text) == [(p, expected["scores"][p]) for p in expected["ranking"]]
    assert _ranking(resp.text)[0] == ("Dirk", 60 + 150)
    assert "2 × Stock Masters at 75 = 150." in resp.text and "BME: face value 1." in resp.text
    share = re.search(r"<textarea readonly[^>]*>(.*?)</textarea>", resp.text, re.S).group(1)
    assert share.startswith("Rolling Stock Stars: final scores\n1. Dirk: 210\n")


def test_a_tie_is_broken_by_the_final_player_order_and_said_in_words(client):
    resp = client.get(_url(names=("Crystal", "Amy"), cash_0="50", cash_1="50"))
    assert _ranking(resp.text) == [("Crystal", 50), ("Amy", 50)]
    assert "Crystal and Amy tie at 50: Crystal ranks higher, being earlier in the final player order" in resp.text


def test_impossible_positions_are_refused_naming_the_problem_and_the_figures_stay(client):
    stars = "Stars, Inc."
    more = client.get(
        _url(cash_0="1", cash_1="1", raw=[(f"sh-0-{stars}", "3"), (f"sh-1-{stars}", "2"), (f"price-{stars}", "20")])
    )
    assert more.status_code == 422 and "it has only 4" in more.text
    assert 'name="sh-0-Stars, Inc." value="3"' in more.text.replace("&#39;", "'")  # what was entered is shown again
    twice = client.get(_url(cash_0="1", cash_1="1", co_0=["KME"], co_1=["KME"]))
    assert twice.status_code == 422 and "The KME is in two places: Amy and Brian." in twice.text
    no_price = client.get(_url(cash_0="1", sh_0_Doppler__AG="2"))
    assert no_price.status_code == 422 and "choose its share price" in no_price.text
    one = client.get(_url(names=("Amy",)))
    assert one.status_code == 422 and "at least two players" in one.text


def test_several_corporations_at_the_top_price_are_legal_at_the_end_in_classic(client):
    resp = client.get(
        _url(
            game="rolling-stock",
            names=("Amy", "Brian"),
            cash_0="0",
            cash_1="0",
            sh_0_Bear="1",
            sh_1_Eagle="2",
            price_Bear="100",
            price_Eagle="100",
        )  # fmt: skip
    )
    assert resp.status_code == 200 and _ranking(resp.text) == [("Brian", 200), ("Amy", 100)]


def test_a_two_handed_check_names_the_person_whose_lower_ranked_seat_is_better(client):
    # Rulebook, "Two-player, two-handed variant": Amy plays seats 1 and 4, Brian 2 and 3.  Amy's
    # right hand first by far, her left hand a close last: Brian wins (his lower seat is 3rd).
    seats = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]
    final = [seats[1], seats[2], seats[3], seats[0]]  # the final player order, not the first one
    url = _url(
        names=("Amy", "Brian"), option="two_handed", order=final, cash_0="200", cash_1="60", cash_2="55", cash_3="50"
    )
    resp = client.get(url)
    assert resp.status_code == 200, resp.text
    assert _ranking(resp.text) == [(seats[0], 200), (seats[1], 60), (seats[2], 55), (seats[3], 50)]
    assert (
        "<strong>Brian wins</strong> the two-handed game: Amy's lower-ranked seat is 4th; Brian's lower-ranked seat is 3rd."
        in resp.text
    )
    assert "Brian wins the two-handed game." in resp.text  # the text to copy
    shared = client.get(url.replace("/scores/check?", "/scores/check.txt?")).text
    assert "checked with the table assistant · Brian wins the two-handed game" in shared
    # the final player order breaks a tie: Amy's left hand, earlier in it, ranks above her right hand
    tie = client.get(
        _url(
            names=("Amy", "Brian"), option="two_handed", order=final, cash_0="50", cash_1="10", cash_2="10", cash_3="50"
        )
    )
    assert _ranking(tie.text)[:2] == [(seats[3], 50), (seats[0], 50)]
    three = client.get(_url(names=("Amy", "Brian", "Crystal"), option="two_handed"))
    assert three.status_code == 422 and "for 2 persons" in three.text and 'value="two_handed" checked' in three.text
    v22 = client.get(_url(game="rolling-stock-v2.2", names=("Amy", "Brian"), option="two_handed"))
    assert v22.status_code == 422 and "no two-handed variant" in v22.text
    odd = client.get(_url(names=("Amy", "Brian"), option="two_handed", order=[seats[0]] * 4, cash_0="1"))
    assert odd.status_code == 422 and "must name every seat once" in odd.text


# -- the form's figures and names, one by one (assistant/web/scorecheck.py) ---------------------
def _refused(call, *args, **kwargs) -> tuple[str, int]:
    from assistant.web.scorecheck import FormError

    try:
        call(*args, **kwargs)
    except FormError as err:
        return str(err), err.status
    raise AssertionError("not refused")


def test_a_typed_figure_is_a_whole_number_within_what_a_game_can_hold():
    from assistant.web.scorecheck import _number

    assert [_number(t, "Amy's money") for t in ("", None, "0", " 12 ", "+7", "007", "-0", "99999")] == [
        0,
        0,
        0,
        12,
        7,
        7,
        0,
        99_999,
    ]
    assert _refused(_number, "1.5", "Amy's money") == ("Amy's money: a whole number, not '1.5'.", 400)
    assert _refused(_number, "twelve dollars and more", "Amy's money") == (
        "Amy's money: a whole number, not 'twelve dollars and m'.",
        400,
    )
    assert _refused(_number, "-1", "Amy's money") == ("Amy's money cannot be below 0.", 422)
    assert _refused(_number, "100000", "Amy's money") == (
        "Amy's money cannot be above 99,999: no game has that many.",
        422,
    )
    # a number of any length is refused by its sign, never turned into an int of that length
    assert (
        _refused(_number, "9" * 4000, "Amy's money")[0] == "Amy's money cannot be above 99,999: no game has that many."
    )
    assert _refused(_number, "-" + "9" * 4000, "Amy's money")[0] == "Amy's money cannot be below 0."
    assert _number("123456789", "Turn", high=10**10) == 123_456_789  # nine digits are read as they are
    assert _number("1234567890", "Turn", high=10**10) == 10**9  # a tenth digit: past any range, 10**9 stands in
    assert _number("-1234567890", "Turn", low=-(10**10)) == -(10**9)
    assert _number("4", "Amy's shares", high=4) == 4
    assert _refused(_number, "5", "Amy's shares", high=4)[0] == "Amy's shares cannot be above 4: no game has that many."
    assert _number("2", "Turn", low=2) == 2
    assert _refused(_number, "1", "Turn", low=2)[0] == "Turn cannot be below 2."


def test_a_share_price_is_a_card_of_the_games_price_row():
    from assistant.web.scorecheck import _price

    stars = registry.get("rolling-stock-stars")
    assert [_price(t, "Doppler AG's share price", stars) for t in ("", "5", "14", "16", "75")] == [0, 5, 14, 16, 75]
    # the price row goes 13, 14, 16: no card shows 15
    assert _refused(_price, "15", "Doppler AG's share price", stars) == (
        "Doppler AG's share price 15 is not a card of the share price row (5 to 75).",
        422,
    )
    assert _refused(_price, "x", "Doppler AG's share price", stars) == (
        "Doppler AG's share price: a whole number, not 'x'.",
        400,
    )


def test_the_game_and_its_players_in_order_as_the_form_names_them():
    from werkzeug.datastructures import MultiDict

    from assistant.web.scorecheck import game_and_players

    def form(*names, game="rolling-stock-stars"):
        return MultiDict([("game", game), *[("name", n) for n in names]])

    ruleset, players = game_and_players(form(" Amy ", "", "Brian", "  "))
    assert ruleset.key == "rolling-stock-stars" and players == ["Amy", "Brian"]
    assert game_and_players(MultiDict([("name", "Amy"), ("name", "Brian")]))[0].key == registry.DEFAULT
    names = ["Amy", "Brian", "Crystal", "Dirk", "Emma", "Fred", "Gina"]
    assert game_and_players(form(*names))[1] == names[:6]  # six players at most
    assert _refused(game_and_players, form("Amy")) == ("Enter at least two players, in the player order.", 422)
    assert _refused(game_and_players, form("Amy", "Brian"), 3)[0] == "Enter at least 3 players, in the player order."
    assert game_and_players(form("A" * 30, "Brian"))[1] == ["A" * 30, "Brian"]
    assert _refused(game_and_players, form("A" * 31, "Brian"))[0] == "Names can have at most 30 characters."
    assert _refused(game_and_players, form("Amy", "Amy"))[0] == "Two players have the same name."
    # the name rules of every name a person types (assistant/store/names.py), as a sentence
    assert _refused(game_and_players, form("Am\x07y", "Brian"))[0] == "A player name contains a control character."
    message, status = _refused(game_and_players, form("Amy", "Brian", game="nope"))
    assert message.startswith("Unknown game 'nope'") and status == 422


def test_each_figure_refused_is_named_by_whose_it_is_and_the_figures_stay_as_entered(client):
    stars = "Stars, Inc."
    too_many = client.get(_url(cash_0="1", raw=[(f"sh-1-{stars}", "5"), (f"price-{stars}", "20")]))
    # a corporation's charter has its number of shares: Stars, Inc. has 4
    assert too_many.status_code == 422
    assert "Brian&#39;s Stars, Inc. shares cannot be above 4: no game has that many." in too_many.text
    assert 'name="sh-0-Doppler AG" value=""' in too_many.text  # a field left empty stays empty
    money = client.get(_url(cash_0="1", cash_1="x"))
    assert money.status_code == 400 and "Brian&#39;s money: a whole number, not &#39;x&#39;." in money.text
    price = client.get(_url(cash_0="1", sh_0_Doppler__AG="1", price_Doppler__AG="15"))
    assert price.status_code == 422
    assert "Doppler AG&#39;s share price 15 is not a card of the share price row (5 to 75)." in price.text
    two = client.get(_url(names=("Amy", "Brian", "Crystal"), raw=[("option", "two_handed")]))
    assert two.status_code == 422
    assert "The two-handed variant is for 2 persons: enter just their two names, person A first." in two.text


def test_the_form_offers_each_company_of_the_game_to_each_player_and_a_known_result_is_not_worked_out_again(
    client, app
):
    page = client.get(_url(names=("Amy", "Brian"), co_0=["BME"]))
    assert 'name="co-0" value="BME" checked' in page.text and 'name="co-1" value="BME">' in page.text
    assert 'name="co-1" value="CDG">' in page.text  # the Stars cards (../shared/cards) hold BME and CDG
    checked = _url(names=("Amy", "Brian"), cash_0="30", cash_1="20")
    assert client.get(checked).status_code == 200
    holding, release = threading.Event(), threading.Event()

    def busy_drawing():  # the render gate's slot taken, and its one waiting place
        with app.app_context(), costly.turn("render"):
            holding.set()
            release.wait(10)

    thread = threading.Thread(target=busy_drawing, daemon=True)
    thread.start()
    assert holding.wait(5)
    try:
        again = client.get(checked)  # the same figures: answered from what was kept, no turn needed
        assert again.status_code == 200 and _ranking(again.text) == [("Amy", 30), ("Brian", 20)]
        other = client.get(_url(names=("Amy", "Brian"), cash_0="31", cash_1="20"))
        assert other.status_code == 503  # new figures wait for the turn (one second), then hear busy
    finally:
        release.set()
        thread.join(5)


def test_the_final_order_and_the_two_handed_variant_are_read_from_the_form():
    from werkzeug.datastructures import MultiDict

    from assistant.web.scorecheck import ScoreForm, final_order

    assert final_order([], ["Amy", "Brian"]) == ["Amy", "Brian"]  # entered in the final order
    assert final_order(["Brian", "Amy"], ["Amy", "Brian"]) == ["Brian", "Amy"]
    assert _refused(final_order, ["Amy", "Amy"], ["Amy", "Brian"]) == (
        "The final player order must name every seat once.",
        422,
    )
    three = MultiDict([("game", "rolling-stock-stars"), ("option", "two_handed")] + [("name", n) for n in "ABC"])
    assert _refused(ScoreForm.read, three) == (
        "The two-handed variant is for 2 persons: enter just their two names, person A first.",
        422,
    )


def test_the_text_to_share_has_a_blank_line_between_the_ranking_and_the_make_up(client):
    page = client.get(_url(**FIELDS)).text
    share = re.search(r"<textarea readonly[^>]*>(.*?)</textarea>", page, re.S).group(1).split("\n")
    assert share[0] == "Rolling Stock Stars: final scores" and share[1] == "1. Dirk: 210"
    assert [line[:3] for line in share[1:5]] == ["1. ", "2. ", "3. ", "4. "] and share[5] == "" and share[6]
