"""Every user string is escaped: player names made of markup show as text on every page, every
component, every helper page, in refusals and stale notices, in the export and the JSON state."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from assistant.web.views.table import COMPONENTS

from .conftest import csrf_of, load_transcript, rename_players, snapshot_and_seq

EVIL = {
    "P1": "<img src=x onerror=alert(1)>",
    "P2": '"><script>alert(1)</script>',
    "P3": "{{7*7}} & 'x' </textarea>",
    "P4": "<b onmouseover=alert(2)>B</b>",
}


class Markup(HTMLParser):
    """The elements, attributes and text of a page, as a browser would parse them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def assert_inert(html: str, where: str) -> Markup:
    for name in EVIL.values():
        assert name not in html, f"{where}: {name!r} is not escaped"
    page = Markup(html)
    for tag, attrs in page.tags:
        assert not any(a.startswith("on") for a in attrs), f"{where}: event handler attribute in <{tag}>"
        assert tag != "script" or attrs.get("src"), f"{where}: inline script"
        assert not (tag == "img" and attrs.get("src") == "x"), f"{where}: injected <img>"
        assert tag != "b", f"{where}: injected <b>"
    return page


def _import(client, transcript) -> str:
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    return resp.get_json()["id"]


def _get_routes(app, gid):
    """Every GET route of a game (table, components, helpers, the rules page), filled in."""
    urls = [f"/games/{gid}", f"/games/{gid}?history=all", f"/games/{gid}/undo", "/", "/games/new"]
    urls += [f"/games/{gid}/c/{name}" for name in COMPONENTS]
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in ("static",) or rule.endpoint.startswith(("api.", "table.")):
            continue
        args = set(rule.arguments)
        if args == {"gid"}:
            urls.append(rule.rule.replace("<gid>", gid))
        elif args == {"gid", "kind"}:
            for kind in ("income", "stars", "score", "dividend", "price"):
                urls.append(rule.rule.replace("<gid>", gid).replace("<kind>", kind))
        elif not args:
            urls.append(rule.rule + f"?game={gid}")
    return urls


@pytest.mark.parametrize("upto", [120, None], ids=["mid-game", "game-over"])
def test_markup_names_show_as_text_everywhere(app, client, upto):
    data = load_transcript()
    transcript = rename_players(data, EVIL)
    if upto is not None:
        transcript["events"] = transcript["events"][:upto]
    gid = _import(client, transcript)
    csrf = csrf_of(client, gid)
    assert client.post(f"/games/{gid}/seat", data={"csrf_token": csrf, "player": EVIL["P1"]}).status_code == 303

    seen_names = set()
    urls = _get_routes(app, gid)
    assert len(urls) > len(COMPONENTS) + 3
    for url in urls:
        resp = client.get(url)
        assert resp.status_code < 500, (url, resp.status_code)
        if resp.mimetype != "text/html":
            continue
        page = assert_inert(resp.get_data(as_text=True), url)
        text = "".join(page.text)
        seen_names |= {n for n in EVIL.values() if n in text}
    assert seen_names == set(EVIL.values()), "every name shows (as text) somewhere"

    if upto is not None:  # a refusal naming a player, and the stale notice listing what happened
        snap = snapshot_and_seq(client, gid)
        acting = snap["next"].get("player")
        idle = [name for name in EVIL.values() if name != acting]  # players who may not act now
        for data_ in (
            {"e.type": "pass", "e.player": idle[0], "seq": str(snap["seq"])},
            {"e.type": "bid", "e.player": idle[1], "e.company": "BME", "e.price": "999", "seq": str(snap["seq"])},
            {"e.type": "pass", "e.player": idle[2], "seq": "1"},
        ):
            for headers in ({}, {"HX-Request": "true"}):
                resp = client.post(f"/games/{gid}/act", data={"csrf_token": csrf, **data_}, headers=headers)
                assert resp.status_code in (409, 422)
                assert_inert(resp.get_data(as_text=True), f"refusal {data_}")
        assert snapshot_and_seq(client, gid) == snap

    export = client.get(f"/games/{gid}/export")
    assert export.mimetype == "application/json" and "attachment" in export.headers["Content-Disposition"]
    assert export.headers["X-Content-Type-Options"] == "nosniff"
    assert json.loads(export.get_data(as_text=True))["players"] == list(EVIL.values())
    state = client.get(f"/games/{gid}/state")
    assert state.mimetype == "application/json" and set(state.get_json()["players"]) == set(EVIL.values())


def test_error_pages_escape_what_the_url_says(client):
    for url in (
        "/games/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "/games/%3Cscript%3Ealert(1)%3C%2Fscript%3E/c/banner",
    ):
        resp = client.get(url)
        assert resp.status_code == 404
        assert "<script>alert" not in resp.get_data(as_text=True) and "<img src=x" not in resp.get_data(as_text=True)
    data = load_transcript()
    gid = client.post("/games/import", json=rename_players(data, EVIL) | {"events": []}).get_json()["id"]
    resp = client.get(f"/games/{gid}/c/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    assert resp.status_code == 404
    assert_inert(resp.get_data(as_text=True), "unknown component")


def test_names_typed_in_the_new_game_form_are_escaped(client):
    csrf = csrf_of(client)
    names = [EVIL["P1"], EVIL["P2"], EVIL["P4"]]
    resp = client.post("/games/new", data={"csrf_token": csrf, "name": names, "shuffle": "1"})
    assert resp.status_code == 200
    assert_inert(resp.get_data(as_text=True), "shuffled form")
    resp = client.post("/games/new", data={"csrf_token": csrf, "name": names + [names[0]]})
    assert resp.status_code == 422
    assert_inert(resp.get_data(as_text=True), "refused form")
    resp = client.post("/games/new", data={"csrf_token": csrf, "name": names})
    assert resp.status_code == 303
    assert_inert(client.get(resp.headers["Location"]).get_data(as_text=True), "table")
