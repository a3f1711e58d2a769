"""Announcements that wait, on the phones and through the JSON door (issue 17).

A president announces buying from the foreign investor; each president whose corporation may
intervene is asked "Intervene: … instead of …?" with Intervene and Let it go; the announcer's
phone says whom it waits for; any phone can say nobody intervenes, after a confirmation."""

import html
import random
import re

import pytest

from assistant.rules import events_of, registry
from assistant.rules.registry import STARS

from .htmlforms import forms

PLAYERS = ["Amy", "Brian", "Crystal"]


def _import(client, events, players=PLAYERS, game="rolling-stock-stars"):
    transcript = {
        "format": "rss-table-transcript",
        "version": 1,
        "game": game,
        "players": players,
        "options": [],
        "events": events,
    }
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.text
    return resp.get_json()["id"]


def _reach(client, wanted, ruleset=STARS, players=PLAYERS, seeds=300):
    """Play engine-chosen events (no live ones) until the menu holds what ``wanted`` looks for;
    import that game.  Returns (game id, menu)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        game = ruleset.create(players)

        def pick(*args, rng=rng):
            if len(args) == 2:
                return args[0] if rng.random() < 0.5 else rng.randint(*args)
            return rng.choice(args[0])

        while not game.game_over:
            menu = game.legal_actions()
            if wanted(menu):
                return _import(client, game.events, players, ruleset.key), menu
            quiet = [m for m in menu if m["type"] not in ("announce", "player_done")] or menu
            game.apply(events_of(rng.choice(quiet), pick))
    raise AssertionError("no game reached the wanted situation")


def _seat(client, table, gid, player):
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": player})
    assert resp.status_code == 303


def _phone(client, table, gid, player):
    """Another phone (its own cookies) seated as ``player``."""
    other = client.application.test_client()
    page = other.get(f"/games/{gid}").text  # a token is bound to its game
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert other.post(f"/games/{gid}/seat", data={"csrf_token": token, "player": player}).status_code == 303
    return other


def _panel(client, gid, corp=None):
    return client.get(f"/games/{gid}/c/actions", query_string={"corp": corp} if corp else {}).text


def _post(client, table, gid, form, button=0):
    seq = table.state(gid)["seq"]
    resp = client.post(form.action, data=form.submission(button))
    assert resp.status_code == 303, resp.text[-1500:]
    assert table.state(gid)["seq"] == seq + 1


def _hot(menu):
    return next(i for i in menu if i["type"] == "announce" and i["may_intervene"])


def test_a_president_announces_and_the_intervener_is_asked(client, table, store):
    gid, menu = _reach(client, lambda m: any(i["type"] == "announce" and i["may_intervene"] for i in m))
    item = _hot(menu)
    announcer, company, president = item["corporation"], item["company"], item["president"]
    game = store.state(gid)[1]
    interveners = [game.corps[c] for c in item["may_intervene"]]
    mine = _phone(client, table, gid, president)
    panel = _panel(mine, gid, announcer)
    form = next(f for f in forms(panel) if f.fields.get("e.type") == "announce" and f.fields["e.company"] == company)
    assert "Announce:" in form.buttons[0][2]
    _post(mine, table, gid, form)
    state = table.state(gid)
    assert state["next"] == {"for": "intervention", "company": company, "announced_by": announcer}
    # the announcer's phone says whom the table waits for
    first = interveners[0]
    bar = mine.get(f"/games/{gid}/c/banner").text
    whom = "you" if first.president == president else first.president  # this phone's own seat is "you"
    verb = "answer" if whom == "you" else "answers"
    assert f"{company}: {whom} ({first.name}) {verb} first" in html.unescape(bar)
    if len(interveners) > 1:  # and who answers after, in order
        second = "you" if interveners[1].president == president else interveners[1].president
        assert f"first, then {second}" in html.unescape(bar)
    # the intervener's president is asked, with Intervene and Let it go
    theirs = _phone(client, table, gid, first.president)
    panel = html.unescape(_panel(theirs, gid))
    price = game.fi_price(first.name, company)
    question = f"Intervene: {first.name} buys {company} for {price} instead of {announcer}?"
    assert question in panel
    assert panel.index("Your decisions") < panel.index(question)
    asked = [f for f in forms(panel) if f.fields.get("e.corporation") == first.name]
    assert sorted(f.buttons[0][2][-9:] for f in asked) == ["Intervene", "Let it go"]  # after the colour mark
    let_go = next(f for f in asked if f.buttons[0][2] == "Let it go")
    _post(theirs, table, gid, let_go)
    log = store.state(gid)[1].journal[-1]["text"]
    assert f"{first.name} lets" in log
    # the others let it go too: the announcer buys, and the export holds the plain acquire
    while table.state(gid)["next"].get("for") == "intervention":
        nxt = store.state(gid)[1].undecided()[0]
        phone = _phone(client, table, gid, nxt.president)
        f = next(
            f
            for f in forms(_panel(phone, gid))
            if f.fields.get("e.corporation") == nxt.name and f.fields.get("e.type") == "no_intervention"
        )
        _post(phone, table, gid, f)
    assert table.state(gid)["corporations"][announcer]["companies"].count(company) == 1
    exported = client.get(f"/games/{gid}/export").get_json()["events"]
    assert exported[-1] == {
        "type": "acquire",
        "corporation": announcer,
        "company": company,
        "price": game.fi_price(announcer, company),
    }
    assert not {"announce", "no_intervention"} & {e["type"] for e in exported[-3:]}


def test_nobody_intervenes_for_the_table_after_a_confirmation(client, table, store):
    gid, menu = _reach(client, lambda m: any(i["type"] == "announce" and i["may_intervene"] for i in m))
    item = _hot(menu)
    resp = table.act(gid, {"type": "announce", "corporation": item["corporation"], "company": item["company"]})
    assert resp.status_code == 303
    panel = html.unescape(_panel(client, gid))  # a phone without a seat
    fold = re.search(
        r'<details class="confirm-close"[^>]*>\s*<summary class="button">(Nobody intervenes[^<]*)…</summary>(.*?)</details>',
        panel,
        re.S,
    )
    assert fold, "nobody intervenes sits behind a fold"
    assert "Every corporation that could has let it go?" in fold.group(2)
    (form,) = [f for f in forms(fold.group(2))]
    assert "corporation" not in " ".join(form.fields)
    _post(client, table, gid, form)
    assert table.state(gid)["next"]["for"] == "acquisition"


def test_receivers_purchase_asks_whether_anyone_intervenes(client, table, store):
    gid, menu = _reach(client, lambda m: any(i["type"] == "no_intervention" for i in m))
    assert table.state(gid)["next"]["for"] == "intervention"
    banner = html.unescape(client.get(f"/games/{gid}/c/banner").text)
    assert " first" in banner and ": " in banner
    panel = html.unescape(_panel(client, gid))
    for item in menu:
        if item["type"] == "acquire":
            assert f"Intervene: {item['corporation']} buys {item['company']} for {item['min']}" in panel
    form = next(
        f for f in forms(panel) if f.fields.get("e.type") == "no_intervention" and "e.corporation" not in f.fields
    )
    _post(client, table, gid, form)


def test_a_purchase_nobody_may_intervene_in_goes_through_at_once(client, table, store):
    gid, menu = _reach(client, lambda m: any(i["type"] == "announce" and not i["may_intervene"] for i in m))
    item = next(i for i in menu if i["type"] == "announce" and not i["may_intervene"])
    panel = "".join(_panel(client, gid, c) for c in {item["corporation"]})
    form = next(
        f for f in forms(panel) if f.fields.get("e.type") == "announce" and f.fields["e.company"] == item["company"]
    )
    assert not form.buttons[0][2].startswith("Announce")
    assert "Nobody may intervene: it is bought at once." in html.unescape(panel)
    _post(client, table, gid, form)
    state = table.state(gid)
    assert item["company"] in state["corporations"][item["corporation"]]["companies"]
    assert state["next"].get("for") != "intervention"  # nothing waits (the phase may then end by itself)


@pytest.mark.parametrize("key", list(registry.RULESETS))
def test_the_json_door_announces_intervenes_and_declines(client, table, store, key):
    ruleset = registry.get(key)
    players = ["P1", "P2", "P3", "P4"]
    gid, menu = _reach(
        client, lambda m: any(i["type"] == "announce" and i["may_intervene"] for i in m), ruleset, players
    )
    item = _hot(menu)
    announce = {"type": "announce", "corporation": item["corporation"], "company": item["company"]}

    def post(event):
        seq = table.state(gid)["seq"]
        return table.post_json(gid, {"seq": seq, "event": event})

    # announce, then the first intervener intervenes
    resp = post(announce)
    assert resp.status_code == 200, resp.text
    assert table.state(gid)["next"]["for"] == "intervention"
    # while it waits, other events are refused with a reason
    refused = post({"type": "done", "phase": table.state(gid)["phase"]})
    assert refused.status_code == 422 and "First settle" in refused.get_json()["error"]
    first = item["may_intervene"][0]
    price = store.state(gid)[1].fi_price(first, item["company"])
    event = {"type": "acquire", "corporation": first, "company": item["company"], "price": price}
    resp = post({**event, "announced_by": item["corporation"]})
    assert resp.status_code == 200, resp.text
    assert item["company"] in table.state(gid)["corporations"][first]["companies"]
    # undo the intervention, and every intervener declines: the announcer buys
    assert post({"type": "undo"}).status_code == 200
    assert table.state(gid)["next"]["for"] == "intervention"
    for corp in item["may_intervene"]:
        resp = post({"type": "no_intervention", "company": item["company"], "corporation": corp})
        assert resp.status_code == 200, resp.text
    assert item["company"] in table.state(gid)["corporations"][item["corporation"]]["companies"]
    exported = client.get(f"/games/{gid}/export").get_json()
    assert exported["events"][-1]["type"] == "acquire" and exported["events"][-1]["corporation"] == item["corporation"]
    assert "announce" not in {e["type"] for e in exported["events"]}
    again = client.post("/games/import", json=exported)
    assert again.status_code == 303
    assert table.state(again.get_json()["id"])["corporations"] == table.state(gid)["corporations"]


def test_the_phones_ask_the_interveners_in_priority_order(client, table, store):
    """Issue 25: Junkyard Scrappers (13, Brian) announces the WT; Overseas Trading (10, Brian, first
    by its ability), Doppler AG (16, Crystal), Vintage Machinery (14, Amy) may intervene, in that
    order.  Amy's phone may only let it go until Brian and Crystal have; the turn bar names them
    in order; the JSON door refuses her intervention with the rule's words and stores nothing."""
    from .test_games_stored_before import POSITION

    pos = {
        **POSITION,
        "state": {**POSITION["state"], "offering": {"available": ["HE", "OL", "DSB"], "unavailable": []}},
    }
    events = [{"type": "pass", "player": p} for p in PLAYERS]
    transcript = {"format": "rss-table-transcript", "version": 1, "game": "rolling-stock-stars", "players": PLAYERS,
                  "options": [], "position": pos, "events": events}  # fmt: skip
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.text
    gid = resp.get_json()["id"]
    amy, brian = _phone(client, table, gid, "Amy"), _phone(client, table, gid, "Brian")
    seq = table.state(gid)["seq"]
    announce = {"type": "announce", "corporation": "Junkyard Scrappers", "company": "WT"}
    assert client.post(f"/games/{gid}/events", json={"seq": seq, "event": announce}).get_json() == {"seq": seq + 1}
    bar = html.unescape(amy.get(f"/games/{gid}/c/banner").text)
    assert "WT: Brian (Overseas Trading) answers first, then Crystal, you" in bar
    panel = html.unescape(_panel(amy, gid))
    assert (
        "Vintage Machinery may intervene in Junkyard Scrappers' purchase of WT after Overseas Trading and "
        "Doppler AG let it go. Let it go now?"
    ) in panel
    mine = [f for f in forms(panel) if f.fields.get("e.corporation") == "Vintage Machinery"]
    assert [f.buttons[0][2] for f in mine] == ["Let it go"]  # no Intervene button yet
    # Brian's phone is asked first, with both buttons
    asked = [f for f in forms(html.unescape(_panel(brian, gid))) if f.fields.get("e.corporation") == "Overseas Trading"]
    assert sorted(f.buttons[0][2][-9:] for f in asked) == ["Intervene", "Let it go"]
    # the JSON door refuses Amy's intervention out of turn, and stores nothing
    seq = table.state(gid)["seq"]
    event = {"type": "acquire", "corporation": "Vintage Machinery", "company": "WT", "price": 14,
             "announced_by": "Junkyard Scrappers"}  # fmt: skip
    resp = client.post(f"/games/{gid}/events", json={"seq": seq, "event": event})
    assert resp.status_code == 422
    assert "Overseas Trading and Doppler AG answer first" in resp.get_json()["error"]
    assert table.state(gid)["seq"] == seq
