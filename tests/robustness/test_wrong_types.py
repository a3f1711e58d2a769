"""A declared field of the wrong type is refused at every door with a 4xx naming the field, and
nothing is stored (the fuzz test's findings, kept as explicit examples).

``{"type": "reveal", "player": false}`` and its kin answered 500 on the JSON door, the correction
door and the import (JSON and file): the store's check raised an error those doors do not catch.
The messages are the project's own wording for a field (``assistant/rules/core/events.py``):
"The <field> must be a name / a whole number, not <value>."
"""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys

import pytest

from assistant.web import create_app
from tests.project_games import bidding_war

from .conftest import ROOT, Http, header, load_transcript, table_events

PREFIX = 42  # events of the project's game: turn 2, under way
CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')

# (the event, the refusal naming its field): the fuzz test's two draws and the example
WRONG = [
    (
        {"type": "reveal", "player": None, "reject": False, "phase": False},
        "The phase must be a whole number, not False.",
    ),
    ({"type": "reveal", "player": False}, "The player must be a name, not False."),
    ({"type": "pass", "player": 7}, "The player must be a name, not 7."),
]
IDS = ["phase-false", "player-false", "player-7"]


class Table:
    """The app on its own SQLite file, with one game under way."""

    def __init__(self, tmp_path):
        self.app = create_app(
            {
                "DATABASE": str(tmp_path / "types.sqlite3"),
                "TESTING": False,
                "SECRET_KEY": "types",
                "INSTANCE_PATH": str(tmp_path / "instance"),
            }
        )
        self.store = self.app.extensions["rss_store"]
        self.client = self.app.test_client()
        self.csrf = CSRF_RE.search(self.client.get("/games/new").text).group(1)
        data = load_transcript()
        self.transcript = header(data, table_events(data)[:PREFIX])
        resp = self.client.post("/games/import", json=self.transcript)
        assert resp.status_code == 303, resp.text
        self.gid = resp.get_json()["id"]

    def seq(self) -> int:
        return self.client.get(f"/games/{self.gid}/state").get_json()["seq"]

    def stored(self) -> tuple:
        """Everything stored: the games and every row of every log."""
        conn = self.store.backend._db().conn
        return (
            conn.execute("SELECT id FROM games ORDER BY id").fetchall(),
            conn.execute("SELECT game_id, seq, event, token FROM events ORDER BY game_id, seq").fetchall(),
        )


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.store.close()


@pytest.mark.parametrize(("event", "message"), WRONG, ids=IDS)
def test_the_json_door_refuses_a_field_of_the_wrong_type(table, event, message):
    before = table.stored()
    resp = table.client.post(f"/games/{table.gid}/events", json={"seq": table.seq(), "token": "t1", "event": event})
    assert resp.status_code == 422, resp.text
    assert resp.get_json()["error"] == message
    assert table.stored() == before
    # the token was not spent: the right event with it is entered
    right = {"seq": table.seq(), "token": "t1", "event": {"type": "undo"}}
    assert table.client.post(f"/games/{table.gid}/events", json=right).status_code == 200


@pytest.mark.parametrize(("event", "message"), WRONG, ids=IDS)
def test_the_correction_door_refuses_a_field_of_the_wrong_type(table, event, message):
    before = table.stored()
    body = {"seq": table.seq(), "index": 5, "event": event}
    resp = table.client.post(f"/games/{table.gid}/amend", json=body)
    assert resp.status_code == 422, resp.text
    assert resp.get_json()["error"] == message
    assert table.stored() == before


@pytest.mark.parametrize(("event", "message"), WRONG, ids=IDS)
def test_a_json_import_refuses_a_field_of_the_wrong_type(table, event, message):
    before = table.stored()
    body = dict(table.transcript, events=[*table.transcript["events"], event])
    resp = table.client.post("/games/import", json=body)
    assert resp.status_code == 422, resp.text
    assert resp.get_json()["error"] == f"event {PREFIX}: {message}"
    assert resp.get_json()["index"] == PREFIX
    assert table.stored() == before


@pytest.mark.parametrize(("event", "message"), WRONG, ids=IDS)
def test_an_uploaded_transcript_with_a_field_of_the_wrong_type_is_refused(table, event, message):
    before = table.stored()
    content = json.dumps(dict(table.transcript, events=[event, *table.transcript["events"]])).encode()
    resp = table.client.post(
        "/games/import",
        data={"csrf_token": table.csrf, "transcript": (io.BytesIO(content), "game.json")},
        content_type="multipart/form-data",
    )
    assert resp.status_code == 422, resp.text[:300]
    page = html.unescape(resp.text)
    assert f'role="alert">event 0: {message}<' in page
    assert table.stored() == before


@pytest.mark.parametrize(("event", "message"), WRONG, ids=IDS)
def test_a_resumed_game_with_a_field_of_the_wrong_type_after_its_position_is_refused(table, event, message):
    pos, events = bidding_war(6)
    before = table.stored()
    body = {
        "format": "rss-table-transcript",
        "version": 1,
        "game": "rolling-stock-stars",
        "players": ["Amy", "Brian"],
        "options": [],
        "position": pos,
        "events": [*events, event],
    }
    resp = table.client.post("/games/import", json=body)
    assert resp.status_code == 422, resp.text
    assert resp.get_json()["error"] == f"event 6: {message}"
    assert table.stored() == before
    body["events"] = events  # the same without it is a game
    assert table.client.post("/games/import", json=body).status_code == 303


def _run(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "assistant", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def test_the_replay_command_says_each_field_of_the_wrong_type(tmp_path):
    data = load_transcript()
    events = table_events(data)[:PREFIX]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(header(data, [*events[:10], *(e for e, _ in WRONG), *events[10:]])))
    run = _run("replay", str(path))
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines == [{"index": 10 + i, "rejected": True, "error": message} for i, (_, message) in enumerate(WRONG)]


def test_the_score_command_names_a_field_of_the_wrong_type(tmp_path):
    players = ["Amy", "Brian", "Crystal"]
    state = {
        "player_order": players,
        "players": {p: {"cash": 10, "companies": [], "shares": {}} for p in players},
        "corporations": {},
    }
    state["players"]["Brian"]["cash"] = False
    path = tmp_path / "check.json"
    path.write_text(json.dumps({"format": "rss-score-check", "version": 1, "players": players, "state": state}))
    run = _run("score", str(path))
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "cash" in run.stderr and "Brian" in run.stderr and "not False" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.server
def test_on_the_real_server_another_addresss_wrong_types_are_refused_and_log_no_traceback(server_factory):
    """Issue 38 §3 on the real server, the attacker at 127.0.0.2 and a phone at 127.0.0.1: 200 posts
    of each wrong-typed event to the JSON door and the correction door, and an import of each, are
    each a 422 naming the field (before: 500s, each writing a 1.6 KB traceback); the server's log
    gains no traceback, and the phone's own game is imported and played on."""
    srv = server_factory(env={"RSS_WORKERS": "1"})
    attacker, phone = Http(srv.base, source="127.0.0.2"), Http(srv.base)
    data = load_transcript()
    transcript = header(data, table_events(data)[:PREFIX])
    status, body = attacker.json("POST", "/games/import", transcript)
    assert status == 303, body
    gid = body["id"]
    status, state = attacker.json("GET", f"/games/{gid}/state")
    seq = state["seq"]
    logged = len(srv.output())
    answers = []
    for _ in range(200 // len(WRONG) + 1):
        for event, message in WRONG:
            for path, body in (
                ("events", {"seq": seq, "event": event}),
                ("amend", {"seq": seq, "index": 5, "event": event}),
            ):
                status, answer = attacker.json("POST", f"/games/{gid}/{path}", body)
                answers.append((status, answer.get("error")))
                assert (status, answer.get("error")) == (422, message), (path, event, status, answer)
    for event, message in WRONG:
        status, answer = attacker.json("POST", "/games/import", dict(transcript, events=[*transcript["events"], event]))
        assert (status, answer.get("error")) == (422, f"event {PREFIX}: {message}"), answer
    assert len(answers) >= 400
    grown = srv.output()[logged:]
    assert "Traceback" not in grown and len(grown) < 1000, grown[-2000:]
    assert attacker.json("GET", f"/games/{gid}/state")[1]["seq"] == seq, "nothing was written"
    status, body = phone.json("POST", "/games/import", transcript)
    assert status == 303, body
    mine = body["id"]
    status, answer = phone.json("POST", f"/games/{mine}/events", {"seq": seq, "event": {"type": "undo"}})
    assert status == 200 and answer["seq"] == seq + 1, answer
