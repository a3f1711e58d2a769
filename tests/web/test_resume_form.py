"""Start from the table as it lies, through the form (issue 16): the figures a table enters become
the position the engine resumes from, the issued shares, presidents and deck worked out where they
can be; a position that cannot be is refused with the problem named and the figures kept."""

from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from assistant.rules import registry
from assistant.rules.core import position
from tests.rules.test_positions import _play


def form_of(key: str, pos: dict, game_type: str = "") -> list[tuple[str, str]]:
    """What a table would enter for a position (the deck and presidents left to be worked out)."""
    state = pos["state"]
    out = [("game", key), ("game_type", game_type), ("turn", str(pos["after"]["turn"]))]
    out += [("name", p) for p in state["player_order"]]
    for i, name in enumerate(state["player_order"]):
        p = state["players"][name]
        out.append((f"cash-{i}", str(p["cash"])))
        out += [(f"co-{i}", a) for a in p["companies"]]
        out += [(f"sh-{i}-{c}", str(n)) for c, n in p["shares"].items()]
    for corp, c in state["corporations"].items():
        out += [(f"price-{corp}", str(c["share_price"])), (f"treasury-{corp}", str(c["cash"]))]
        out += [(f"bank-{corp}", str(c["bank_shares"]))] + [(f"co-corp-{corp}", a) for a in c["companies"]]
        if c["president"]:
            out.append((f"pres-{corp}", c["president"]))
    out.append(("fi-cash", str(state["foreign_investor"]["cash"])))
    out += [("co-fi", a) for a in state["foreign_investor"]["companies"]]
    out += [("co-offer", a) for a in state["offering"]["available"]]
    out += [("co-unavailable", a) for a in state["offering"]["unavailable"]]
    out += [("co-out", a) for a in pos["out_of_game"]]
    if state["end_card_flipped"]:
        out.append(("end_flipped", "1"))
    return out


def _csrf(client) -> str:
    return re.search(
        r'name="csrf_token" value="([^"]+)"', client.get("/resume/table?game=rolling-stock-stars&name=A&name=B").text
    ).group(1)


def test_the_home_page_offers_to_start_from_the_table_as_it_lies(client):
    assert 'href="/resume"' in client.get("/").text
    assert client.get("/resume").status_code == 200


def test_a_position_entered_in_the_form_resumes_the_game_the_engine_would(client, store):
    for key, options, game_type in (("rolling-stock-stars", [], ""), ("rolling-stock", ["short"], "short")):
        ruleset = registry.get(key)
        _, ends, _ = _play(ruleset, options, 5)
        turn = max(t for t in ends if ends[t]["state"]["corporations"])
        pos = ends[turn]
        page = client.get("/resume/table", query_string=MultiDict(form_of(key, pos, game_type)))
        assert page.status_code == 200 and "Start from here" in page.text
        resp = client.post(
            "/resume/table", data=MultiDict([*form_of(key, pos, game_type), ("csrf_token", _csrf(client))])
        )
        assert resp.status_code == 303, resp.text[-2000:]
        gid = resp.headers["Location"].rsplit("/", 1)[1]
        expected = position.resume(ruleset, list(pos["state"]["player_order"]), options, pos).snapshot()
        assert store.state(gid)[1].snapshot() == expected
        assert store.get_game(gid).position["deck"] == pos["deck"]  # worked out from what was entered


def test_a_position_that_cannot_be_is_refused_and_the_figures_stay(client, store):
    _, ends, _ = _play(registry.STARS, [], 5)
    pos = ends[max(t for t in ends if ends[t]["state"]["corporations"])]
    fields = form_of("rolling-stock-stars", pos)
    name = pos["state"]["player_order"][0]
    abbr = (
        next(iter(pos["state"]["offering"]["available"]), None)
        or next(iter(pos["state"]["corporations"].values()))["companies"][0]
    )
    fields.append(("co-0", abbr))  # the same company in front of a player too
    resp = client.post("/resume/table", data=MultiDict([*fields, ("csrf_token", _csrf(client))]))
    assert resp.status_code == 422 and f"The {abbr} is in two places" in resp.text and name in resp.text
    assert f'name="co-0" value="{abbr}" checked' in resp.text
    assert not store.backend.game_ids()


def test_every_problem_of_a_refused_position_is_shown_next_to_its_field(client, store):
    """Issue 25: all problems at once, each beside the field it is about (not one per submit)."""
    from tests.rules.test_position_refusals import stars_position

    pos = stars_position()
    pos["state"]["offering"]["unavailable"] = ["HE"]  # drawn cards are available at a turn's end
    pos["state"]["offering"]["available"] = ["WT", "BY"]
    pos["state"]["corporations"]["Doppler AG"]["share_price"] = 75  # the game would have ended
    pos["state"]["end_card_flipped"] = True  # the deck still has cards
    resp = client.post(
        "/resume/table", data=MultiDict([*form_of("rolling-stock-stars", pos), ("csrf_token", _csrf(client))])
    )
    assert resp.status_code == 422
    page = resp.text
    assert "This position cannot be, for 3 reasons, each shown at its field" in page
    # the summary on top lists them too, each a link to the problem beside its field
    for field in ("co-unavailable", "price-Doppler_AG", "end_flipped"):
        assert f'<li><a href="#pb-{field}-1">' in page
    # each message comes right after its own field, which points at it for screen readers
    for field, words in (
        ("co-unavailable", "HE cannot be unavailable at the end of a turn"),
        ("price-Doppler AG", "Doppler AG is at 75, the top of the share price row"),
        ("end_flipped", "The end card is flipped only once the deck and the offering are empty"),
    ):
        problem_id = f"pb-{field.replace(' ', '_')}-1"
        span = re.search(rf'<span class="refusal field-problem" id="{problem_id}">([^<]*)</span>', page)
        assert span and words in span.group(1), field
        if field == "co-unavailable":  # a group of boxes: the problem heads the group, under its title
            assert page.index("<summary>Offering: unavailable") < span.start() < page.index(f'name="{field}"')
        else:
            assert page.index(f'name="{field}"') < span.start()
            assert re.search(rf'name="{re.escape(field)}"[^>]*aria-describedby="{problem_id} "', page), field
    assert not store.backend.game_ids()


def test_every_problem_of_one_field_is_shown_beside_it(client, store):
    """Issue 36: a field with two problems shows both, not only the last.  The BY entered in Amy's
    companies and in the offering: Amy's comes first, so the offering's BY is the second place
    (players, then the foreign investor, corporations, the offering); without it the offering
    holds WT and HE, 2 cards where 3 seats hold 3 while the deck has its 12 (yellow, green and
    blue, four each, none of them entered)."""
    from tests.rules.test_position_refusals import stars_position

    pos = stars_position()
    pos["state"]["players"]["Amy"]["companies"].append("BY")
    resp = client.post(
        "/resume/table", data=MultiDict([*form_of("rolling-stock-stars", pos), ("csrf_token", _csrf(client))])
    )
    assert resp.status_code == 422
    shown = re.findall(r'<span class="refusal field-problem" id="pb-co-offer-(\d)">([^<]*)</span>', resp.text)
    assert shown == [
        ("1", "The BY is in two places: Amy and the offering."),
        (
            "2",
            "The offering holds 2 companies, but with 3 seats it holds 3 while the deck has cards (12 left): "
            "it is refilled after every purchase until the deck runs out.",
        ),
    ]
    assert "This position cannot be, for 2 reasons, each shown at its field" in resp.text
    assert not store.backend.game_ids()


def test_share_fields_are_shown_only_for_corporations_in_play(client):
    base = [("game", "rolling-stock-stars"), ("name", "Amy"), ("name", "Brian")]
    page = client.get("/resume/table", query_string=MultiDict(base)).text
    assert 'name="sh-0-Doppler AG"' not in page and "choose the share price of each corporation in play" in page
    # a share price chosen: the form comes back with that corporation's share fields only
    resp = client.post(
        "/resume/table",
        data=MultiDict([*base, ("price-Doppler AG", "16"), ("refresh", "1"), ("csrf_token", _csrf(client))]),
    )
    assert resp.status_code == 200
    assert 'name="sh-0-Doppler AG"' in resp.text and 'name="sh-1-Doppler AG"' in resp.text
    assert 'name="sh-0-Stars, Inc."' not in resp.text


def test_a_figure_that_cannot_be_read_and_a_corporations_problems_come_with_every_other_problem(client, store):
    """Issue 37: a company in two places was shown only once the other problems were fixed.  Here
    one submit names all five, each beside its field: a money that is not a number, Doppler AG's
    treasury below 0, its president holding fewer shares than another player, its company BSE also
    in front of Crystal, and its price at the top of the row (75: the game would have ended)."""
    from tests.rules.test_position_refusals import stars_position

    pos = stars_position()
    doppler = pos["state"]["corporations"]["Doppler AG"]
    doppler.update(president="Brian", share_price=75)
    typed = {"cash-1": "12x", "treasury-Doppler AG": "-3"}
    fields = [(k, typed.get(k, v)) for k, v in form_of("rolling-stock-stars", pos)]
    crystal = pos["state"]["player_order"].index("Crystal")
    fields.append((f"co-{crystal}", "BSE"))
    resp = client.post("/resume/table", data=MultiDict([*fields, ("csrf_token", _csrf(client))]))
    assert resp.status_code == 400  # a field that is not a number
    page = resp.text.replace("&#39;", "'")
    assert "This position cannot be, for 5 reasons, each shown at its field" in page
    for field, words in (
        ("cash-1", "a whole number, not '12x'"),
        ("treasury-Doppler AG", "Doppler AG's treasury cannot be below 0."),
        ("pres-Doppler AG", "Brian holds 0 Doppler AG shares, fewer than another player"),
        ("co-corp-Doppler AG", "The BSE is in two places: Crystal and Doppler AG."),
        ("price-Doppler AG", "Doppler AG is at 75, the top of the share price row"),
    ):
        span = re.search(
            rf'<span class="refusal field-problem" id="pb-{field.replace(" ", "_")}-1">([^<]*)</span>', page
        )
        assert span and words in span.group(1), (field, span and span.group(1))
    assert 'name="cash-1" value="12x"' in page  # the figures stay as entered
    assert not store.backend.game_ids()


def test_each_path_of_a_positions_problem_is_shown_at_its_form_field():
    """The engine names a problem by its path in the position (FORMAT-position.md: "players.Amy.cash",
    "corporations.Doppler AG.issued", ...); the form shows it beside the field a table types that
    figure in (the field names of templates/resume/table.html).  The issued shares are worked out from
    the bank's, so a problem of either is shown at the bank's field; a path of no field of its own
    goes to the nearest one (a player's row to their money, a corporation to its share price, the
    deck to its first colour, red: Stars deals red first), one of no player or corporation of the
    game to the form as a whole."""
    from assistant.web.resume import ResumeForm

    form = ResumeForm.read(MultiDict([("game", "rolling-stock-stars"), ("name", "Amy"), ("name", "Brian")]))
    doppler = "corporations.Doppler AG"
    expected = {
        "form:cash-1": "cash-1",
        "players.Amy": "cash-0",
        "players.Amy.cash": "cash-0",
        "players.Amy.companies": "co-0",
        "players.Brian.cash": "cash-1",
        "players.Brian.companies": "co-1",
        "players.Brian.shares.Doppler AG": "sh-1-Doppler AG",
        "players.Amyx.cash": None,
        "players.Crystal.cash": None,
        "players": None,
        f"{doppler}.share_price": "price-Doppler AG",
        f"{doppler}.cash": "treasury-Doppler AG",
        f"{doppler}.issued": "bank-Doppler AG",
        f"{doppler}.bank_shares": "bank-Doppler AG",
        f"{doppler}.president": "pres-Doppler AG",
        f"{doppler}.companies": "co-corp-Doppler AG",
        f"{doppler}.unissued": "price-Doppler AG",
        "corporations.Bear.cash": None,
        "foreign_investor.companies": "co-fi",
        "foreign_investor.cash": "fi-cash",
        "foreign_investor": "fi-cash",
        "offering.unavailable": "co-unavailable",
        "offering.available": "co-offer",
        "offering": "co-offer",
        "deck.green": "deck-green",
        "deck.blue": "deck-blue",
        "deck": "deck-red",
        "deck.purple": "deck-red",  # not a colour of Stars
        "turn": "turn",
        "out_of_game": "co-out",
        "end_card_flipped": "end_flipped",
        "player_order": None,
        "": None,
    }
    assert {path: form.field_of(path) for path in expected} == expected
    by_field, general = form.problems_by_field(
        [("players.Brian.cash", "one"), ("", "two"), ("players.Brian.cash", "three"), ("player_order", "four")]
    )
    assert by_field == {"cash-1": ["one", "three"]} and general == ["two", "four"]


def _position_refused(form):
    from assistant.web.scorecheck import FormError

    try:
        form.position()
    except FormError as err:
        return err
    raise AssertionError("the position was not refused")


def _form(*fields):
    from assistant.web.resume import ResumeForm

    return ResumeForm.read(MultiDict([("game", "rolling-stock-stars"), ("name", "Amy"), ("name", "Brian"), *fields]))


def test_shares_of_a_corporation_without_a_share_price_are_one_problem_at_its_price():
    """Both players hold Stars, Inc. shares but no share price is chosen: one problem, at its price
    field (not also one at each later holder's shares), 422 (a figure out of what can be, not one
    that cannot be read)."""
    err = _position_refused(
        _form(
            ("cash-0", "5"),
            ("cash-1", "5"),
            ("sh-0-Stars, Inc.", "1"),
            ("sh-1-Stars, Inc.", "2"),
            ("co-offer", "BME"),
            ("co-offer", "BSE"),
        )
    )
    message = "Players hold Stars, Inc. shares: choose its share price."
    assert (err.problems, err.status, str(err)) == ([("form:price-Stars, Inc.", message)], 422, message)


def test_every_figure_that_cannot_be_read_is_named_by_whose_it_is_all_at_once():
    """Two players (Stars: three cards of each colour, the deck given as empty but for its red
    cards); eight figures that are not numbers, each named with whose figure it is, in the form's
    order (players, corporations, deck, turn, foreign investor), 400.  Stars, Inc.'s share price
    cannot be read: Doppler AG, after it, is still read (Brian's 2 shares are in play).  Each figure
    that cannot be read counts as empty for the engine: the red cards as 0, so the offering's one
    company is no problem (the deck is empty)."""
    err = _position_refused(
        _form(
            ("turn", "t"),
            ("cash-0", "a"),
            ("cash-1", "7"),
            ("sh-0-Doppler AG", "s"),
            ("sh-1-Doppler AG", "2"),
            ("price-Stars, Inc.", "p"),
            ("price-Doppler AG", "16"),
            ("treasury-Doppler AG", "m"),
            ("bank-Doppler AG", "b"),
            ("co-corp-Doppler AG", "BSE"),
            ("co-offer", "BME"),
            ("fi-cash", "f"),
            ("deck-red", "r"),
            *[(f"deck-{color}", "0") for color in ("orange", "yellow", "green", "blue")],
        )
    )
    expected = [
        ("form:sh-0-Doppler AG", "Amy's Doppler AG shares: a whole number, not 's'."),
        ("form:cash-0", "Amy's money: a whole number, not 'a'."),
        ("form:price-Stars, Inc.", "Stars, Inc.'s share price: a whole number, not 'p'."),
        ("form:bank-Doppler AG", "Doppler AG's shares in the bank: a whole number, not 'b'."),
        ("form:treasury-Doppler AG", "Doppler AG's treasury: a whole number, not 'm'."),
        ("form:deck-red", "The red cards left: a whole number, not 'r'."),
        ("form:turn", "The turn that just ended: a whole number, not 't'."),
        ("form:fi-cash", "The foreign investor's money: a whole number, not 'f'."),
    ]
    assert err.problems == expected and err.status == 400
    assert str(err) == " ".join(m for _, m in expected)


def test_a_refusal_of_the_whole_position_is_a_problem_of_the_form_as_a_whole():
    """A position not of the format's shape is refused as a whole, with no field: here Amy's
    companies, the BME sent 101 times (a list holds at most 100 names; the value shown is cut
    after 37 characters); that comes after the figures that cannot be read."""
    form = _form(("cash-0", "x"), *[("co-0", "BME")] * 101)
    err = _position_refused(form)
    whole = (
        "position.state.players['Amy'].companies must be a list of at most 100 names, "
        "not ['BME', 'BME', 'BME', 'BME', 'BME', '...."
    )
    assert err.problems == [("form:cash-0", "Amy's money: a whole number, not 'x'."), ("", whole)]
    assert form.problems_by_field(err.problems) == ({"cash-0": ["Amy's money: a whole number, not 'x'."]}, [whole])


def test_the_engine_checks_the_rest_of_a_refused_form_in_the_game_type_chosen():
    """A classic training game (red to green companies, Players Guide 1.3): with one figure that
    cannot be read, the rest is checked as a training game, whose deck has no blue or purple cards
    (those of a full game would all still be in the deck under the red ones): one problem only."""
    from assistant.web.resume import ResumeForm

    fields = [("game", "rolling-stock"), ("game_type", "training")]
    fields += [("name", n) for n in ("Amy", "Brian", "Crystal")] + [("cash-0", "x")]
    fields += [("co-offer", a) for a in ("BME", "BSE", "KME")]
    err = _position_refused(ResumeForm.read(MultiDict(fields)))
    assert err.problems == [("form:cash-0", "Amy's money: a whole number, not 'x'.")]


def test_the_position_a_form_gives_with_what_is_worked_out():
    """The hand-laid Stars position (three players: four cards of each colour) with Brian holding a
    Doppler AG share too and no president chosen: Amy and Brian hold one each, so the president is
    the first of them in the player order (Crystal, Amy, Brian): Amy; the issued shares are the
    players' 2 and the bank's 1.  The deck left empty is worked out: red and orange all on the table
    or out, and the SZD, a green card, drawn (unavailable) leaves 3 green.  The position is after the
    last phase of the turn: Stars has nine."""
    from tests.rules.test_position_refusals import stars_position

    pos = stars_position()
    pos["state"]["players"]["Brian"]["shares"]["Doppler AG"] = 1
    pos["state"]["corporations"]["Doppler AG"]["president"] = None
    pos["state"]["offering"]["unavailable"] = ["SZD"]
    found = _form_of_position(pos).position()
    assert found["after"] == {"turn": 4, "phase": 9}
    assert found["state"]["player_order"] == ["Crystal", "Amy", "Brian"]
    doppler = found["state"]["corporations"]["Doppler AG"]
    assert (doppler["president"], doppler["issued"], doppler["bank_shares"]) == ("Amy", 3, 1)
    assert found["deck"] == {"red": 0, "orange": 0, "yellow": 4, "green": 3, "blue": 4}
    assert found["state"]["deck_size"] == 11 and found["out_of_game"] == ["KME"]
    # Brian alone holding the most: Brian, though last in the order; the turn left empty: turn 1
    pos["state"]["players"]["Brian"]["shares"]["Doppler AG"] = 2
    found = _form_of_position(pos, turn="").position()
    assert found["state"]["corporations"]["Doppler AG"]["president"] == "Brian"
    assert found["after"] == {"turn": 1, "phase": 9}


def _form_of_position(pos, **typed):
    from assistant.web.resume import ResumeForm

    fields = [(k, typed.get(k, v)) for k, v in form_of("rolling-stock-stars", pos)]
    return ResumeForm.read(MultiDict(fields))
