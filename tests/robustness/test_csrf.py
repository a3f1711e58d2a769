"""CSRF on every form POST: without the token, with a wrong one, with another session's, or
disguised as JSON, every POST route of the app (helpers included) answers 4xx and changes nothing."""

from __future__ import annotations

import io

from .conftest import csrf_of, snapshot_and_seq


def _game(client) -> str:
    csrf = csrf_of(client)
    resp = client.post("/games/new", data={"csrf_token": csrf, "name": ["Amy", "Brian", "Crystal"]})
    assert resp.status_code == 303
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    csrf = csrf_of(client, gid)  # a token is bound to its game
    for _ in range(3):
        snap = snapshot_and_seq(client, gid)
        resp = client.post(
            f"/games/{gid}/act",
            data={
                "csrf_token": csrf,
                "seq": str(snap["seq"]),
                "e.type": "reveal",
                "e.company": snap["next"]["choices"][0],
            },
        )
        assert resp.status_code == 303
    return gid


def _form_posts(app, gid, seq):
    """Every POST route except the JSON door, with form data that would otherwise be accepted."""
    known = {
        "home.create_game": {"name": ["Xena", "Yuri"]},
        "play.act": {"seq": str(seq), "e.type": "pass", "e.player": "Amy"},
        "play.undo": {"seq": str(seq)},
        "table.seat": {"player": "Amy"},
        "home.import_game": {
            "transcript": (
                io.BytesIO(b'{"format": "rss-table-transcript", "version": 1, "players": ["A", "B"], "events": []}'),
                "t.json",
            )
        },
    }
    out = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods or getattr(app.view_functions[rule.endpoint], "csrf_exempt", False):
            continue
        url = rule.rule.replace("<gid>", gid)
        for arg in rule.arguments - {"gid"}:
            url = url.replace(f"<{arg}>", "x")
        out.append((rule.endpoint, url, known.get(rule.endpoint, {"x": "1"})))
    assert {e for e, _, _ in out} >= set(known)
    return out


def _games(app) -> int:
    return app.extensions["rss_store"].backend._db().conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def test_every_form_post_needs_this_sessions_token(app, client):
    gid = _game(client)
    before, games = snapshot_and_seq(client, gid), _games(app)
    stranger = app.test_client()
    strangers_token = csrf_of(stranger)
    for endpoint, url, data in _form_posts(app, gid, before["seq"]):
        own = csrf_of(client, gid) if "<gid>" in endpoint_rule(app, endpoint) else csrf_of(client)
        for token in (None, "", "forged", strangers_token, own + "x"):
            body = dict(data)
            if "transcript" in body:
                body["transcript"] = (io.BytesIO(body["transcript"][0].getvalue()), "t.json")
            if token is not None:
                body["csrf_token"] = token
            resp = client.post(url, data=body)
            assert resp.status_code == 400, (endpoint, token, resp.status_code)
            assert "CSRF" in resp.get_data(as_text=True)
        # the same without cookies from the stranger's side, with the victim's token
        resp = stranger.post(url, data=dict(data, csrf_token=own) if "transcript" not in data else {})
        assert resp.status_code == 400, endpoint
    assert snapshot_and_seq(client, gid) == before
    assert _games(app) == games


def test_json_content_type_does_not_bypass_the_check_on_form_routes(app, client):
    gid = _game(client)
    before, games = snapshot_and_seq(client, gid), _games(app)
    for endpoint, url, _data in _form_posts(app, gid, before["seq"]):
        if endpoint == "home.import_game":
            continue  # takes a JSON body on purpose (the JSON door's import); tested below
        resp = client.post(url, data='{"seq": 3, "player": ""}', content_type="application/json")
        assert resp.status_code == 400 and "CSRF" in resp.get_data(as_text=True), endpoint
    # text/plain is what a cross-site form can send without a preflight
    resp = client.post(
        "/games/import",
        data='{"format": "rss-table-transcript", "version": 1, "players": ["A", "B"], "events": []}',
        content_type="text/plain",
    )
    assert resp.status_code == 400
    assert snapshot_and_seq(client, gid) == before
    assert _games(app) == games


def endpoint_rule(app, endpoint: str) -> str:
    return next(r.rule for r in app.url_map.iter_rules() if r.endpoint == endpoint)


def test_the_token_from_the_page_works(client):
    gid = _game(client)
    csrf = csrf_of(client, gid)
    resp = client.post(f"/games/{gid}/act", data={"csrf_token": csrf, "seq": "3", "e.type": "pass", "e.player": "Amy"})
    assert resp.status_code == 303
    resp = client.post(
        f"/games/{gid}/act", data={"seq": "4", "e.type": "pass", "e.player": "Brian"}, headers={"X-CSRF-Token": csrf}
    )
    assert resp.status_code == 303
