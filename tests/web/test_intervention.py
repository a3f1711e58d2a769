"""Intervention questions in phase 3 (purchases from the foreign investor)."""

import html
import random
import re
from urllib.parse import unquote_plus

from assistant.rules import events_of
from assistant.rules.registry import STARS

from .htmlforms import forms


def _reach(client, wanted, seeds=300):
    """Play engine-chosen events until the menu holds what ``wanted`` looks for; import that game."""
    players = ["Amy", "Brian", "Crystal"]
    for seed in range(seeds):
        rng = random.Random(seed)
        game = STARS.create(players)

        def pick(*args, rng=rng):
            if len(args) == 2:
                return args[0] if rng.random() < 0.5 else rng.randint(*args)
            return rng.choice(args[0])

        while not game.game_over:
            menu = game.legal_actions()
            if wanted(menu):
                transcript = {
                    "format": "rss-table-transcript",
                    "version": 1,
                    "game": "rolling-stock-stars",
                    "players": players,
                    "options": [],
                    "events": game.events,
                }
                resp = client.post("/games/import", json=transcript)
                assert resp.status_code == 303
                return resp.get_json()["id"], menu
            game.apply(events_of(rng.choice(menu), pick))
    raise AssertionError("no game reached the wanted situation")


def _submit(client, table, gid, predicate):
    panel = client.get(f"/games/{gid}/c/actions").text
    for corp in re.findall(r'<a class="button pick[^"]*" href="[^"]*\?corp=([^"]+)"', panel):  # phase 3: each buyer
        corp = html.unescape(unquote_plus(corp))
        panel += client.get(f"/games/{gid}/c/actions", query_string={"corp": corp}).text
    form = next(f for f in forms(panel) if predicate(f.submission()))
    seq = table.state(gid)["seq"]
    resp = client.post(form.action, data=form.submission())
    assert resp.status_code == 303, resp.text[-1500:]
    assert table.state(gid)["seq"] == seq + 1
    return form


def test_receivers_purchase_asks_whether_anyone_intervenes(client, table, store):
    gid, menu = _reach(client, lambda m: any(i["type"] == "no_intervention" for i in m))
    assert table.state(gid)["next"]["for"] == "intervention"
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "Does a corporation intervene?" in banner
    panel = client.get(f"/games/{gid}/c/actions").text
    for item in menu:
        if item["type"] == "acquire":
            assert f"{item['corporation']} intervenes: buys {item['company']} for {item['min']}" in panel
    _submit(client, table, gid, lambda d: d.get("e.type") == "no_intervention")


def test_a_corporation_with_priority_may_intervene_in_an_announced_purchase(client, table, store):
    gid, menu = _reach(client, lambda m: any(i.get("may_intervene") for i in m))
    item = next(i for i in menu if i.get("may_intervene"))
    # the engine lists each intervention as its own item; the panel shows each exactly once, next to
    # the announcer's purchase (phase 3: tap the announcing corporation, then the company)
    listed = [i for i in menu if i.get("announced_by")]
    assert [i["corporation"] for i in listed if i["announced_by"] == item["corporation"]] == item["may_intervene"]
    for i in listed:
        panel = client.get(f"/games/{gid}/c/actions", query_string={"corp": i["announced_by"]}).text
        label = (
            f"{i['corporation']} intervenes when {i['announced_by']} announces {i['company']}: buys it for {i['min']}"
        )
        assert panel.count(label) == 1, label
    form = _submit(
        client,
        table,
        gid,
        lambda d: d.get("e.announced_by") == item["corporation"] and d.get("e.company") == item["company"],
    )
    assert form.fields["e.corporation"] in item["may_intervene"]
    journal = store.state(gid)[1].journal[-1]
    assert journal["event"]["announced_by"] == item["corporation"]
