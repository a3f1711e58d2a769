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
