"""Fixtures for the web tests: each test gets its own app and SQLite file.

``table`` drives the app through its HTTP routes the way the pages do (forms with the
session's CSRF token and the seq they were rendered at).
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest

from assistant.web import create_app
from tests import ASSETS_DIR

PLAYERS = ["Amy", "Brian", "Crystal"]
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


class CompiledTemplates(jinja2.BytecodeCache):
    """The templates compiled once for the whole test run, instead of once in every test's app
    (Jinja keys them by name and the source's checksum).  Every app of the tests is made by
    ``make_app``, so all have the same Jinja settings."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def url_builders_compiled_once() -> None:
    """Werkzeug writes and compiles (through ``ast``) two URL builders for each route of every
    app, and every test makes an app of its own: a fifth of the web tests' time.  All the tests'
    apps have the same routes, so each builder is compiled once, for the first rule of its kind,
    and shared: a builder reads the rest (its converters) from the rule it is bound to, and the key
    holds all it is written from (the rule's text, parts and defaults).  Werkzeug's own function
    is kept; without it the apps compile their own builders, only slower."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None or getattr(compile_builder, "shared", False):
        return
    builders = {}

    def shared(rule, *args, **kwargs):
        defaults = tuple(sorted((rule.defaults or {}).items(), key=repr))
        key = (
            type(rule),
            rule.rule,
            rule.subdomain,
            rule.host,
            tuple(rule._trace),
            defaults,
            args,
            tuple(kwargs.items()),
        )
        if key not in builders:
            builders[key] = compile_builder(rule, *args, **kwargs)
        return builders[key]

    shared.shared = True
    Rule._compile_builder = shared


url_builders_compiled_once()


def make_app(db_path, **extra):
    config = {
        "DATABASE": str(db_path),
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "LAN_IP": "192.168.7.7",
        "INSTANCE_PATH": str(Path(db_path).parent / "instance"),
        "ASSETS_DIR": ASSETS_DIR,
    }
    config.update(extra)
    app = create_app(config)
    app.jinja_env.bytecode_cache = COMPILED
    return app


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path / "rss.sqlite3")
    yield app
    app.extensions["rss_store"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(app):
    return app.extensions["rss_store"]


class Table:
    def __init__(self, client):
        self.client = client
        self._csrf: dict[str | None, str] = {}

    def csrf(self, gid: str | None = None) -> str:
        """The session's CSRF token as the pages hand it out: a game's own for posts to that game
        (a token is bound to its game), the home pages' otherwise; each fetched once (a token
        holds for the session)."""
        if gid not in self._csrf:
            page = self.client.get("/games/new" if gid is None else f"/games/{gid}/v/more")
            self._csrf[gid] = CSRF_RE.search(page.text).group(1)
        return self._csrf[gid]

    def new_game(self, players=PLAYERS, **extra) -> str:
        data = {"csrf_token": self.csrf(), "name": list(players), **extra}
        resp = self.client.post("/games/new", data=data)
        assert resp.status_code == 303, resp.text
        return resp.headers["Location"].rsplit("/", 1)[1]

    def state(self, gid) -> dict:
        resp = self.client.get(f"/games/{gid}/state")
        assert resp.status_code == 200
        return resp.get_json()

    def act(self, gid, event: dict, seq=None, headers=None, token=None):
        """Post one event through the HTML form route, as the action panel's forms do."""
        if seq is None:
            seq = self.state(gid)["seq"]
        data = {"csrf_token": self.csrf(gid), "seq": str(seq), **{f"e.{k}": str(v) for k, v in event.items()}}
        if token:
            data["token"] = token
        return self.client.post(f"/games/{gid}/act", data=data, headers=headers or {})

    def reveal_all(self, gid) -> dict:
        """Answer every pending reveal with the first company the engine offers."""
        while True:
            snap = self.state(gid)
            nxt = snap["next"]
            if not nxt or nxt.get("for") != "reveal":
                return snap
            resp = self.act(gid, {"type": "reveal", "company": nxt["choices"][0]}, seq=snap["seq"])
            assert resp.status_code == 303, resp.text

    def started_game(self, players=PLAYERS) -> str:
        gid = self.new_game(players)
        self.reveal_all(gid)
        return gid

    def post_json(self, gid, body, **kw):
        return self.client.post(f"/games/{gid}/events", json=body, **kw)


@pytest.fixture
def table(client):
    return Table(client)


# the browser tests' fixtures (browser.py imports make_app from here, so this comes last)
from .browser import browser, live, live_server  # noqa: E402, F401, I001
