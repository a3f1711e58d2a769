"""Property-based fuzzing of every route: random, malformed, oversize and odd-Unicode input.

Every answer is a 2xx/3xx or a 4xx with a message, never a 5xx; a refused request leaves
the game exactly as it was (GET /state: snapshot and seq), and an accepted one moved it by
exactly one log row.  Bounded: at most ``EXAMPLES`` examples per route, no deadline;
``RSS_FUZZ_EXAMPLES`` raises it for a long run by hand (e.g. 3000, 30 times as many).
"""

from __future__ import annotations

import io
import json
import os
import re
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from assistant.web import create_app

from .conftest import header, load_transcript, table_events

EXAMPLES = int(os.environ.get("RSS_FUZZ_EXAMPLES") or 100)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
PREFIX = 42  # events of the project's game (tests/project_games.py): turn 2, two corporations, P1 to act

PLAYERS = ["P1", "P2", "P3", "P4"]
NAMES = PLAYERS + ["Amy", "nobody", "Bank", "Prussian Railway", "BME", "MHE", "Doppler AG", ""]
COMPANIES = ["BME", "BSE", "KME", "AKE", "BPM", "MHE", "WT", "BY", "PR", "CDG", "XX"]
CORPS = ["Prussian Railway", "Overseas Trading", "Vintage Machinery", "Stars, Inc.", "Nope"]
TYPES = [
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
    "undo",
    "expect",
    "",
    "PASS",
]

odd_text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
    st.sampled_from(
        [
            "<img src=x onerror=alert(1)>",
            "\u202eevil",
            "a\x00b",
            "\ufeff",
            "e\u0301",
            "🚂" * 30,
            "x" * 5000,
            "../../etc/passwd",
            "%00",
            "{{7*7}}",
            "' OR 1=1 --",
            "\r\nSet-Cookie: a=b",
        ]
    ),
)
numberish = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.sampled_from(["0", "-1", "1e9", "9" * 5000, "0x10", " 12 ", "1_000", "NaN", "∞", "١٢", ""]),
)
field_value = st.one_of(odd_text, numberish, st.sampled_from(NAMES + COMPANIES + CORPS + TYPES))
# JSON may carry what a form cannot: lone surrogates (not valid Unicode text), huge numbers, NaN
json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    odd_text,
    st.sampled_from(NAMES + COMPANIES + CORPS + TYPES + ["\ud800", "P1\udfff"]),
)
json_value = st.recursive(
    json_scalar,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.one_of(
                st.sampled_from(
                    [
                        "type",
                        "player",
                        "company",
                        "corporation",
                        "price",
                        "amount",
                        "phase",
                        "announced_by",
                        "reject",
                        "seq",
                        "token",
                        "event",
                    ]
                ),
                st.text(max_size=8),
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=15,
)
event_like = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "player": st.one_of(st.sampled_from(NAMES), json_scalar),
        "company": st.one_of(st.sampled_from(COMPANIES), json_scalar),
        "corporation": st.one_of(st.sampled_from(CORPS), json_scalar),
        "price": st.one_of(st.integers(-5, 100), json_scalar),
        "amount": st.one_of(st.integers(-5, 40), json_scalar),
        "phase": st.one_of(st.integers(0, 10), json_scalar),
        "reject": st.booleans(),
    },
)


class Env:
    """One app with its own temporary database and one mid-game game to aim at."""

    def __init__(self, tmp_path):
        self.app = create_app(
            {
                "DATABASE": str(tmp_path / "fuzz.sqlite3"),
                "TESTING": False,
                "SECRET_KEY": "fuzz",
                "LAN_IP": "192.168.7.7",
                "INSTANCE_PATH": str(tmp_path / "instance"),
            }
        )
        self.store = self.app.extensions["rss_store"]
        self.client = self.app.test_client()
        self.csrf = CSRF_RE.search(self.client.get("/games/new").text).group(1)
        data = load_transcript()  # the project's own game, mid-game
        self.transcript = header(data, table_events(data)[:PREFIX])
        resp = self.client.post("/games/import", json=self.transcript)
        assert resp.status_code == 303, resp.text
        self.gid = resp.get_json()["id"]
        while self.state()["next"].get("for") == "reveal":
            snap = self.state()
            self.store.append(self.gid, snap["seq"], {"type": "reveal", "company": snap["next"]["choices"][0]})
        # the token for posts to this game (a token is bound to its game; the home pages' is self.csrf)
        self.game_csrf = CSRF_RE.search(self.client.get(f"/games/{self.gid}").text).group(1)

    def state(self) -> dict:
        resp = self.client.get(f"/games/{self.gid}/state")
        assert resp.status_code == 200
        return resp.get_json()

    def games(self) -> int:
        return self.store.backend._db().conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def check(self, resp, before: dict, allowed: set[int], accepted: set[int] = frozenset()):
        """The answer is allowed and clear; a refusal changed nothing, an acceptance one row."""
        assert resp.status_code < 500, (resp.status_code, resp.get_data(as_text=True)[:500])
        assert resp.status_code in allowed, (resp.status_code, resp.get_data(as_text=True)[:500])
        if resp.status_code >= 400 and resp.request.method != "HEAD":
            if resp.mimetype == "application/json":
                assert resp.get_json()["error"]
            else:
                assert 'role="alert"' in resp.get_data(as_text=True)
        after = self.state()
        if resp.status_code in accepted:
            assert after["seq"] in (before["seq"], before["seq"] + 1)
        else:
            assert after == before, "a refused request changed the game"


@pytest.fixture
def env(tmp_path):
    e = Env(tmp_path)
    yield e
    e.store.close()


csrf_choice = st.sampled_from(["valid", "valid", "valid", "missing", "wrong"])


def _csrf(env, choice, game=False):
    valid = env.game_csrf if game else env.csrf
    return {"valid": {"csrf_token": valid}, "missing": {}, "wrong": {"csrf_token": "forged"}}[choice]


def _seq(env, before, choice):
    return str(before["seq"]) if choice is None else choice


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
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
                "e.reject",
                "x",
            ]
        ),
        field_value,
        max_size=8,
    ),
    seq=st.one_of(st.none(), numberish),
    csrf=csrf_choice,
    htmx=st.booleans(),
)
def test_act(env, fields, seq, csrf, htmx):
    before = env.state()
    data = dict(fields, seq=_seq(env, before, seq), **_csrf(env, csrf, game=True))
    resp = env.client.post(f"/games/{env.gid}/act", data=data, headers={"HX-Request": "true"} if htmx else {})
    env.check(resp, before, {200, 303, 400, 409, 422}, accepted={200, 303})


@FUZZ
@given(
    seq=st.one_of(st.just("current-1"), numberish),
    token=st.one_of(st.none(), odd_text),
    csrf=csrf_choice,
    htmx=st.booleans(),
)
def test_undo(env, seq, token, csrf, htmx):
    before = env.state()
    # the right seq only rarely (an undo is then accepted); otherwise stale or nonsense
    seq = str(before["seq"] - 1) if seq == "current-1" else seq
    data = {"seq": seq, **_csrf(env, csrf, game=True), **({"token": token} if token is not None else {})}
    resp = env.client.post(f"/games/{env.gid}/undo", data=data, headers={"HX-Request": "true"} if htmx else {})
    env.check(resp, before, {200, 303, 400, 409, 422}, accepted={200, 303})


@FUZZ
@given(
    player=st.one_of(st.none(), st.sampled_from(PLAYERS), odd_text),
    csrf=csrf_choice,
    gid=st.one_of(st.just(None), odd_text),
)
def test_seat(env, player, csrf, gid):
    before = env.state()
    data = {**_csrf(env, csrf, game=True), **({"player": player} if player is not None else {})}
    target = env.gid if gid is None else quote(gid, safe="")
    resp = env.client.post(f"/games/{target}/seat", data=data)
    env.check(resp, before, {303, 308, 400, 404, 405})


@FUZZ
@given(
    names=st.lists(st.one_of(odd_text, st.sampled_from(NAMES)), max_size=8),
    options=st.lists(st.sampled_from(["open_companies", "two_handed", "x", ""]), max_size=3),
    deck=st.lists(st.sampled_from(COMPANIES), max_size=12),
    shuffle=st.booleans(),
    csrf=csrf_choice,
)
def test_new_game(env, names, options, deck, shuffle, csrf):
    before, games = env.state(), env.games()
    data = {"name": names, "option": options, "deck": deck, **_csrf(env, csrf), **({"shuffle": "1"} if shuffle else {})}
    resp = env.client.post("/games/new", data=data)
    env.check(resp, before, {200, 303, 400, 422})
    assert env.games() == games + (resp.status_code == 303)
    if resp.status_code == 303:
        assert env.client.get(resp.headers["Location"]).status_code == 200


def _transcript(env):
    """Transcripts near a real one: a header change, some events changed, dropped or added."""
    base = env.transcript
    return st.builds(
        lambda h, evs, extra: {**base, **h, "events": evs + extra},
        st.dictionaries(
            st.sampled_from(["format", "version", "game", "players", "options", "deck", "persons"]),
            json_value,
            max_size=2,
        ),
        st.lists(st.sampled_from(base["events"]), max_size=12).map(lambda evs: evs) | st.just(base["events"]),
        st.lists(st.one_of(event_like, json_value), max_size=3),
    )


@FUZZ
@given(data=st.data(), how=st.sampled_from(["json", "file", "raw-file", "text", "form"]), csrf=csrf_choice)
def test_import(env, data, how, csrf):
    before, games = env.state(), env.games()
    body = data.draw(st.one_of(_transcript(env), json_value), label="transcript")
    if how == "json":
        raw = data.draw(st.sampled_from(["dump", "deep", "cut"]), label="encoding")
        text = {"dump": json.dumps(body), "deep": "[" * 20000 + "]" * 20000, "cut": json.dumps(body)[:-3]}[raw]
        resp = env.client.post("/games/import", data=text, content_type="application/json")
    elif how in ("file", "raw-file"):
        content = json.dumps(body).encode() if how == "file" else data.draw(st.binary(max_size=300), label="bytes")
        name = data.draw(st.sampled_from(["game.json", "", "<b>.json", "a" * 300]), label="filename")
        resp = env.client.post(
            "/games/import",
            data={**_csrf(env, csrf), "transcript": (io.BytesIO(content), name)},
            content_type="multipart/form-data",
        )
    elif how == "text":
        resp = env.client.post("/games/import", data=json.dumps(body), content_type="text/plain")
    else:
        resp = env.client.post("/games/import", data={**_csrf(env, csrf), "transcript": json.dumps(body)})
    env.check(resp, before, {303, 400, 413, 415, 422})
    assert env.games() == games + (resp.status_code == 303)
    if resp.status_code == 303:
        assert env.client.get(resp.headers["Location"]).status_code == 200


DOOR_BODY = st.fixed_dictionaries(
    {"seq": st.one_of(st.just("current"), json_scalar), "event": st.one_of(event_like, event_like, json_value)},
    optional={"token": st.one_of(odd_text, json_scalar, st.just("t\udc80"))},
)


@FUZZ
@given(
    body=st.one_of(DOOR_BODY, DOOR_BODY, DOOR_BODY, json_value),
    broken=st.integers(0, 9),
    content_type=st.sampled_from(
        ["application/json"] * 4
        + ["application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", None]
    ),
)
@example(
    body={"seq": "current", "token": "t\udc80", "event": {"type": "pass", "player": "P1"}},
    broken=1,
    content_type="application/json",
)  # a lone surrogate in the token: not storable text
@example(
    body={"seq": "current", "event": {"type": "pass", "player": "P1", "x": "\ud800"}},
    broken=1,
    content_type="application/json",
)  # ... in an ignored field, which the export would write
@example(
    body={"seq": "current", "event": {"type": "pass", "player": "P1", "reject": True}},
    broken=1,
    content_type="application/json",
)  # a transcript annotation, not a decision
def test_json_door(env, body, broken, content_type):
    before = env.state()
    if isinstance(body, dict) and body.get("seq") == "current":
        body["seq"] = before["seq"]
    raw = json.dumps(body) if broken else json.dumps(body)[1:]
    headers = {"Content-Type": content_type} if content_type else {}
    resp = env.client.post(f"/games/{env.gid}/events", data=raw, headers=headers)
    env.check(resp, before, {200, 400, 409, 415, 422}, accepted={200})
    assert resp.mimetype == "application/json"
    if isinstance(body, dict) and isinstance(body.get("event"), dict) and body["event"].get("reject"):
        assert resp.status_code != 200, "an event marked reject was entered"
    if resp.status_code == 200:
        assert resp.get_json()["seq"] in (before["seq"], before["seq"] + 1)
    if content_type is None or not content_type.startswith("application/json"):
        assert resp.status_code == 415


@FUZZ
@given(
    body=st.one_of(DOOR_BODY, DOOR_BODY, json_value),
    index=st.one_of(st.integers(0, PREFIX + 5), json_scalar),
    content_type=st.sampled_from(["application/json"] * 4 + ["text/plain", None]),
)
@example(
    body={"seq": "current", "event": {"type": "pass", "player": 7}}, index=3, content_type="application/json"
)  # a field of the wrong type (tests/robustness/test_wrong_types.py)
def test_amend(env, body, index, content_type):
    """The correction door (/amend): a correction of entry ``index``, or nonsense."""
    before = env.state()
    if isinstance(body, dict):
        body = dict(body, index=index)
        if body.get("seq") == "current":
            body["seq"] = before["seq"]
    headers = {"Content-Type": content_type} if content_type else {}
    resp = env.client.post(f"/games/{env.gid}/amend", data=json.dumps(body), headers=headers)
    env.check(resp, before, {200, 400, 409, 415, 422}, accepted={200})
    assert resp.mimetype == "application/json"


ROUTES = [
    "",
    "/state",
    "/export",
    "/version",
    "/undo",
    "/c/banner",
    "/c/actions",
    "/c/history",
    "/c/{text}",
    "/seat",
    "/act",
    "/events",
    "/{text}",
]


@FUZZ
@given(
    gid=st.one_of(st.just(None), odd_text, st.sampled_from(["", "new", "import", "..", "%2e%2e"])),
    route=st.sampled_from(ROUTES),
    text=odd_text,
    query=st.dictionaries(st.sampled_from(["seq", "history", "x"]), st.one_of(numberish, odd_text), max_size=2),
    method=st.sampled_from(["GET", "GET", "GET", "HEAD", "PUT", "DELETE", "PATCH"]),
)
def test_reads_and_odd_paths(env, gid, route, text, query, method):
    before = env.state()
    target = env.gid if gid is None else quote(gid, safe="")
    path = "/games/" + target + route.replace("{text}", quote(text, safe=""))
    resp = env.client.open(path, method=method, query_string=query)
    env.check(resp, before, {200, 204, 303, 308, 400, 404, 405, 409})
    if method == "GET" and gid is not None and resp.status_code == 200:
        assert env.gid not in resp.get_data(as_text=True)  # nothing leads from a wrong id to a game


QUERY_KEYS = [
    "seq",
    "history",
    "game",
    "company",
    "corporation",
    "player",
    "price",
    "amount",
    "buying",
    "entity",
    "kind",
    "owner",
    "seller",
    "president",
    "x",
]


@FUZZ
@given(
    data=st.data(),
    query=st.dictionaries(
        st.sampled_from(QUERY_KEYS),
        st.one_of(numberish, odd_text, st.sampled_from(PLAYERS + COMPANIES + CORPS + ["1", "0", "true"])),
        max_size=4,
    ),
    htmx=st.booleans(),
)
def test_every_get_route_with_odd_parameters(env, data, query, htmx):
    """Every GET route of the app (helpers and rules pages included), with random query parameters."""
    rules = sorted(
        (r for r in env.app.url_map.iter_rules() if "GET" in r.methods and r.endpoint != "static"), key=lambda r: r.rule
    )
    rule = data.draw(st.sampled_from(rules), label="route")
    path = rule.rule
    for arg in rule.arguments:
        value = (
            env.gid
            if arg == "gid"
            else data.draw(
                st.one_of(
                    st.sampled_from(["banner", "actions", "history", "income", "stars", "score", "dividend", "price"]),
                    odd_text,
                ),
                label=arg,
            )
        )
        path = path.replace(f"<{arg}>", quote(value, safe="") or "x")
    before = env.state()
    resp = env.client.get(path, query_string=query, headers={"HX-Request": "true"} if htmx else {})
    env.check(resp, before, {200, 204, 303, 308, 400, 404, 409, 422})
