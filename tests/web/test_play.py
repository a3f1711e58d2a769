"""Event forms: every form the action panel offers is accepted; refusals and stale views."""

import html
import random
import re
from urllib.parse import unquote_plus

from .htmlforms import forms

ALL_TYPES = {
    "reveal",
    "pass",
    "bid",
    "leave",
    "buy_share",
    "sell_share",
    "acquire",
    "no_intervention",
    "done",
    "close",
    "dividend",
    "issue",
    "skip_issue",
    "ipo",
    "skip_ipo",
}


def _action_forms(client, gid, panel=None):
    panel = panel if panel is not None else client.get(f"/games/{gid}/c/actions").text
    return [f for f in forms(panel) if f.action == f"/games/{gid}/act"]


def _panel(client, gid) -> str:
    """The action panel; in phase 3 with every corporation's purchases (one tap on it each)."""
    panel = client.get(f"/games/{gid}/c/actions").text
    corps = re.findall(r'<a class="button pick[^"]*" href="[^"]*\?corp=([^"]+)"', panel)
    for corp in corps:
        panel += client.get(f"/games/{gid}/c/actions", query_string={"corp": html.unescape(unquote_plus(corp))}).text
    return panel


def _check_panel_shows_the_menu(menu, panel):
    """Prices and ranges of the menu appear on the buttons and inputs."""
    for m in menu:
        if m["type"] in ("buy_share", "sell_share"):
            verb = "Buy" if m["type"] == "buy_share" else "Sell"
            assert f"{verb} a {m['corporation']} share for {m['price']}" in panel
        elif m["type"] in ("bid", "acquire") and m["min"] != m["max"]:
            assert f'min="{m["min"]}" max="{m["max"]}" value="{m["min"]}"' in panel
        elif m["type"] == "acquire":
            if m.get("announced_by"):
                question = f"Intervene: {m['corporation']} buys {m['company']} for {m['min']} instead of"
                assert question in html.unescape(panel)
            else:
                assert f"buys {m['company']} from {m['seller']} for {m['min']}" in panel
        elif m["type"] == "ipo":
            for o in m["options"]:  # each price with the payment it implies; each charter
                assert f"{o['price']}: {m['player']} pays {o['payment']}<small>treasury {o['treasury']}," in panel
                assert (
                    f'name="e.corporation" value="{o["corporation"]}"' in panel
                    or f'name="e.choice" value="{o["price"]}|{o["corporation"]}"' in panel
                )
        elif m["type"] == "reveal":
            for c in m["choices"]:
                assert f'name="e.company" value="{c}"' in panel


def _play_through_forms(client, table, store, seed, covered, max_steps=400):
    """Play a whole game by tapping random buttons of the action panel, as a person would."""
    rng = random.Random(seed)
    gid = table.new_game()
    for _ in range(max_steps):
        panel = _panel(client, gid)
        _check_panel_shows_the_menu(store.state(gid)[1].legal_actions(), panel)
        options = list({f.fields.get("token"): f for f in _action_forms(client, gid, panel)}.values())
        if not options:
            break
        form = rng.choice(options)
        number = None
        for _name, lo, hi, _value in form.numbers:
            number = rng.choice([lo, hi, rng.randint(lo, hi)])
        button = rng.randrange(len(form.buttons))
        option = rng.randrange(10_000) if form.selects else 0  # taken modulo each list of choices
        data = form.submission(button=button, number=number, option=option)
        before = table.state(gid)["seq"]
        resp = client.post(form.action, data=data)
        assert resp.status_code == 303, (data, resp.text[-2000:])
        assert table.state(gid)["seq"] == before + 1
        covered.add(data["e.type"])
    return gid


def test_every_event_form_is_accepted_by_the_engine(client, table, store):
    covered: set[str] = set()
    for seed in range(12):
        gid = _play_through_forms(client, table, store, seed, covered)
        if covered >= ALL_TYPES and table.state(gid)["game_over"]:
            break
    assert covered >= ALL_TYPES - {"no_intervention"}, ALL_TYPES - covered


def test_final_scoring_appears_at_the_end(client, table, store):
    gid = _play_through_forms(client, table, store, 1, set(), max_steps=2000)
    snap = table.state(gid)
    assert snap["game_over"] and snap["next"] is None
    scoring = client.get(f"/games/{gid}/c/scoring").text
    assert "Final scoring" in scoring
    for name in snap["final"]["ranking"]:
        assert name in scoring
    assert "The game is over" in client.get(f"/games/{gid}/c/banner").text
    # a finished game opens on the final scoring, with no empty Actions card
    page = client.get(f"/games/{gid}").text
    assert 'id="c-scoring"' in page and 'id="c-actions"' not in page
    assert page.index('id="c-scoring"') < page.index('id="c-last"')


def test_a_bid_over_the_money_is_refused_with_the_engine_message(client, table):
    gid = table.started_game()
    before = table.state(gid)
    resp = table.act(
        gid,
        {"type": "bid", "player": "Amy", "company": before["offering"]["available"][0], "price": 31},
        seq=before["seq"],
    )
    assert resp.status_code == 422
    assert 'class="refusal"' in resp.text
    assert "31" in resp.text
    assert table.state(gid) == before
    # the message stands right before the form that was refused
    refusal = resp.text.index('class="refusal"')
    form_at = resp.text.index(f'name="e.company" value="{before["offering"]["available"][0]}"', refusal)
    assert "<form" not in resp.text[refusal : resp.text.rindex("<form", 0, form_at)]


def test_acting_out_of_turn_is_refused(client, table, store):
    gid = table.started_game()
    before = table.state(gid)
    resp = table.act(gid, {"type": "pass", "player": "Brian"}, seq=before["seq"])
    assert resp.status_code == 422
    assert "Amy" in resp.text
    assert table.state(gid) == before
    assert store.seq(gid) == before["seq"]


def test_stale_view_is_refused_with_what_happened_meanwhile(client, app, table):
    gid = table.started_game()
    seen = table.state(gid)["seq"]
    other = app.test_client()  # another phone
    assert (
        other.post(f"/games/{gid}/events", json={"seq": seen, "event": {"type": "pass", "player": "Amy"}}).status_code
        == 200
    )
    resp = table.act(gid, {"type": "pass", "player": "Amy"}, seq=seen)
    assert resp.status_code == 409
    assert "changed while you were deciding" in resp.text
    assert "Amy passes" in resp.text or "Amy pass" in resp.text
    assert f'name="seq" value="{seen + 1}"' in resp.text  # the fresh view
    assert table.state(gid)["seq"] == seen + 1


def test_double_submit_of_one_form_is_applied_once(client, table):
    gid = table.started_game()
    seq = table.state(gid)["seq"]
    first = table.act(gid, {"type": "pass", "player": "Amy"}, seq=seq, token="tap-1")
    second = table.act(gid, {"type": "pass", "player": "Amy"}, seq=seq, token="tap-1")
    assert first.status_code == second.status_code == 303
    assert table.state(gid)["seq"] == seq + 1


def test_malformed_forms_are_4xx_with_a_message(client, table):
    gid = table.started_game()
    seq = table.state(gid)["seq"]
    bad_price = table.act(gid, {"type": "bid", "player": "Amy", "company": "X", "price": "lots"}, seq=seq)
    assert bad_price.status_code == 400 and "whole number" in bad_price.text  # malformed: 400 (issue 26)
    no_type = client.post(f"/games/{gid}/act", data={"csrf_token": table.csrf(gid), "seq": str(seq)})
    assert no_type.status_code == 400 and "which action" in no_type.text
    no_seq = client.post(f"/games/{gid}/act", data={"csrf_token": table.csrf(gid), "e.type": "pass", "e.player": "Amy"})
    assert no_seq.status_code == 422 and "seq" in no_seq.text
    unknown = table.act(gid, {"type": "teleport"}, seq=seq)
    assert unknown.status_code == 400
    assert table.state(gid)["seq"] == seq
    # a game that does not exist: no page of it handed out a token (400), or it is not found (404)
    assert client.post("/games/nope/act", data={"csrf_token": table.csrf()}).status_code in (400, 404)


def test_htmx_submission_answers_with_the_fresh_view_in_one_response(client, table):
    """With htmx the answer is the phone's view, the turn bar and the poller: nothing else to fetch."""
    gid = table.started_game()
    seq = table.state(gid)["seq"]
    hx = {"HX-Request": "true"}
    ok = table.act(gid, {"type": "pass", "player": "Amy"}, seq=seq, headers=hx)
    assert ok.status_code == 200
    assert "HX-Trigger" not in ok.headers  # no re-fetch of anything: the answer is complete
    assert 'id="c-actions"' in ok.text and 'id="turn"' in ok.text and "Brian: bid" in ok.text
    assert "Entered:" in ok.text  # the result of the tap, where the player looks
    assert ok.text.count('hx-swap-oob="true"') == 2 and f"seq={seq + 1}" in ok.text
    refused = table.act(gid, {"type": "pass", "player": "Amy"}, seq=seq + 1, headers=hx)
    assert refused.status_code == 422 and 'class="refusal"' in refused.text
    assert "HX-Trigger" not in refused.headers
    stale = table.act(gid, {"type": "pass", "player": "Brian"}, seq=seq, headers=hx)
    assert stale.status_code == 409 and "HX-Trigger" not in stale.headers
    assert "changed while you were deciding" in stale.text


def test_forms_carry_csrf_seq_and_token(client, table):
    gid = table.started_game()
    for form in _action_forms(client, gid):
        assert form.method == "post"
        # the same session's token: a signed token embeds the time it was signed, so compare what it signs
        assert form.fields["csrf_token"].split(".")[0] == table.csrf(gid).split(".")[0]
        assert form.fields["seq"] == "3"
        assert form.fields["token"]
        assert form.attrs["hx-post"] == form.action
        assert "hx-target" not in form.attrs  # inherited: the answer replaces the view (#region's hx-target)
    assert 'id="region"' in client.get(f"/games/{gid}").text.split('hx-target="#tab"')[0].rsplit("<div", 1)[1]
