"""CSRF on every form POST, escaping, CSP, secret key handling, 4xx (never 500) on bad input."""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import make_app

EVIL = "<img src=x onerror=alert(1)>"


def test_form_posts_without_or_with_a_wrong_csrf_token_are_refused(client, table, store):
    gid = table.started_game()
    posts = [
        ("/games/new", {"name": ["X", "Y"]}),
        (f"/games/{gid}/act", {"seq": "3", "e.type": "pass", "e.player": "Amy"}),
        (f"/games/{gid}/undo", {"seq": "3"}),
        (f"/games/{gid}/seat", {"player": "Amy"}),
        ("/games/import", {"transcript": "x"}),
    ]
    for url, data in posts:
        for token in (None, "forged"):
            body = dict(data, **({"csrf_token": token} if token else {}))
            resp = client.post(url, data=body)
            assert resp.status_code == 400, url
            assert "CSRF" in resp.text
    assert store.seq(gid) == 3
    assert len(list(store.backend._db().query("SELECT id FROM games"))) == 1


def test_csrf_token_is_per_session(app, table, store):
    other = app.test_client()
    gid = table.started_game()
    before = table.state(gid)
    data = {"csrf_token": table.csrf(gid), "seq": str(before["seq"]), "e.type": "pass", "e.player": "Amy"}
    resp = other.post(f"/games/{gid}/act", data=data)
    assert resp.status_code == 400 and "CSRF" in resp.text
    assert table.state(gid) == before and store.seq(gid) == before["seq"]  # nothing changed
    # the very same form from the session the token belongs to is accepted: only the session differed
    assert table.client.post(f"/games/{gid}/act", data=data).status_code == 303
    assert store.seq(gid) == before["seq"] + 1 and store.state(gid)[1].journal[-1]["event"]["type"] == "pass"


def test_player_names_are_escaped_everywhere(client, table):
    gid = table.new_game(["Amy", EVIL])
    table.reveal_all(gid)
    table.act(gid, {"type": "pass", "player": "Amy"})
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": EVIL})
    pages = [client.get(f"/games/{gid}").text]
    pages += [client.get(f"/games/{gid}/c/{c}").text for c in ("banner", "actions", "players", "history", "join")]
    for html in pages:
        assert EVIL not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[0]


def test_content_security_policy_allows_only_self(client, table):
    gid = table.started_game()
    for url in ("/", "/games/new", f"/games/{gid}", f"/games/{gid}/c/actions", f"/games/{gid}/state"):
        csp = client.get(url).headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "style-src 'self'" in csp
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_pages_have_no_inline_scripts_or_styles(client, table):
    gid = table.started_game()
    for url in ("/", "/games/new", f"/games/{gid}", f"/games/{gid}/undo"):
        html = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert "<style" not in html and " style=" not in html and "onclick" not in html, url
        assert "https://" not in html, url  # no CDN


def test_secret_key_is_generated_once_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("RSS_SECRET_KEY", raising=False)
    first = make_app(tmp_path / "a.sqlite3", SECRET_KEY=None)
    second = make_app(tmp_path / "a.sqlite3", SECRET_KEY=None)
    key = first.config["SECRET_KEY"]
    assert key and len(key) >= 32 and key == second.config["SECRET_KEY"]
    monkeypatch.setenv("RSS_SECRET_KEY", "from-the-environment")
    assert make_app(tmp_path / "a.sqlite3", SECRET_KEY=None).config["SECRET_KEY"] == "from-the-environment"


def test_game_ids_are_unguessable(table):
    ids = {table.new_game() for _ in range(5)}
    assert len(ids) == 5
    assert all(len(i) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", i) for i in ids)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                "seq",
                "token",
                "e.type",
                "e.player",
                "e.company",
                "e.corporation",
                "e.price",
                "e.amount",
                "e.phase",
                "e.choice",
                "e.announced_by",
            ]
        ),
        st.one_of(
            st.text(max_size=30),
            st.integers(-5, 100).map(str),
            st.sampled_from(["bid", "pass", "ipo", "acquire", "dividend", "Amy", "3", "BME", "12|Doppler AG", "|", ""]),
        ),
    )
)
def test_any_form_input_gets_a_4xx_or_success_never_a_500(client, table, fields):
    gid = table._fuzz_gid if hasattr(table, "_fuzz_gid") else None
    if gid is None:
        gid = table._fuzz_gid = table.started_game()
    resp = client.post(f"/games/{gid}/act", data=dict(fields, csrf_token=table.csrf(gid)))
    assert resp.status_code in (303, 400, 409, 422), (fields, resp.status_code)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(
                st.sampled_from(["seq", "token", "event", "type", "player", "price", "company"]), inner, max_size=4
            )
        ),
        max_leaves=12,
    )
)
def test_any_json_body_gets_a_clear_answer(client, table, body):
    gid = table._fuzz_gid if hasattr(table, "_fuzz_gid") else None
    if gid is None:
        gid = table._fuzz_gid = table.started_game()
    resp = table.post_json(gid, body)
    assert resp.status_code in ((415,) if body is None else (200, 400, 409, 422))
    assert resp.get_json()
    imp = table.client.post("/games/import", json=body)
    assert imp.status_code in (303, 400, 422)


def test_a_csrf_token_is_bound_to_its_game(table, store):
    """A token from game B's page does not post to game A (issue 18); game A's own does."""
    game_a, game_b = table.started_game(), table.started_game()
    before = table.state(game_a)
    data = {"seq": str(before["seq"]), "e.type": "pass", "e.player": "Amy"}
    resp = table.client.post(f"/games/{game_a}/act", data={**data, "csrf_token": table.csrf(game_b)})
    assert resp.status_code == 400 and "CSRF" in resp.text
    assert store.seq(game_a) == before["seq"]
    home = table.client.post(f"/games/{game_a}/act", data={**data, "csrf_token": table.csrf()})
    assert home.status_code == 400  # nor does the home page's
    ok = table.client.post(f"/games/{game_a}/act", data={**data, "csrf_token": table.csrf(game_a)})
    assert ok.status_code == 303 and store.seq(game_a) == before["seq"] + 1
