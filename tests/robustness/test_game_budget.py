"""One client's game cannot fill the database for every table (issue 38 §5), on the real server, the
attacker at 127.0.0.2 and the phones at 127.0.0.1 as a table's wifi would have them: the attacker's
go-backs stop at its game's budget with a 507 that says so, nothing past it is written, and a phone
still starts and plays a game of its own."""

from __future__ import annotations

import http.client
import json
import sqlite3

import pytest

from tests.project_games import one_per_row, played_game

from .conftest import header

pytestmark = pytest.mark.server

BUDGET_MB = 0.01  # RSS_GAME_MAX_MB: 10,485 bytes for a game's rows and saved states
BUDGET = int(BUDGET_MB * 1024 * 1024)


class From:
    """A keep-alive client whose connections leave from ``address`` (another device on the wifi)."""

    def __init__(self, port: int, address: str):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))

    def json(self, method: str, path: str, body=None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        self.conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = self.conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data) if data else {}


def _game_bytes(db, gid: str) -> int:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT COALESCE(SUM(length(CAST(event AS BLOB))), 0) FROM events WHERE game_id = ?", [gid])
        states = conn.execute("SELECT COALESCE(SUM(length(data)), 0) FROM saved_states WHERE game_id = ?", [gid])
        return rows.fetchone()[0] + states.fetchone()[0]
    finally:
        conn.close()


def test_one_clients_go_backs_stop_at_its_games_budget_and_the_phones_play_on(server_factory, tmp_path):
    db = tmp_path / "games.sqlite3"
    srv = server_factory(db=db, env={"RSS_GAME_MAX_MB": str(BUDGET_MB), "RSS_WORKERS": "1"})
    attacker, phone = From(srv.port, "127.0.0.2"), From(srv.port, "127.0.0.1")
    data = played_game(limit=80)
    events = one_per_row(data)
    status, body = attacker.json("POST", "/games/import", header(data, events))
    assert status == 303, body
    gid = body["id"]
    assert _game_bytes(db, gid) < BUDGET
    seq, answers, refusal = len(events), [], None
    for n in range(400):  # each about 40 bytes: the budget is passed long before
        status, body = attacker.json(
            "POST",
            f"/games/{gid}/events",
            {"seq": seq, "event": {"type": "go_back", "to": 1 if n % 2 == 0 else seq - 1}},
        )
        answers.append(status)
        if status != 200:
            refusal = body
            break
        seq = body["seq"]
    assert set(answers[:-1]) == {200} and answers[-1] == 507, answers
    assert "This game's log is full" in refusal["error"] and "Export its transcript and import it" in refusal["error"]
    held = _game_bytes(db, gid)
    assert held <= BUDGET, "nothing past the budget was written"
    status, body = attacker.json("GET", f"/games/{gid}/state")
    assert status == 200 and body["seq"] == seq, "the refused go-back wrote nothing"
    # the phone's table is not touched
    status, body = phone.json("POST", "/games/import", header(data))
    assert status == 303, body
    mine = body["id"]
    for n, event in enumerate(events[:10]):
        status, body = phone.json("POST", f"/games/{mine}/events", {"seq": n, "event": event})
        assert status == 200 and body["seq"] == n + 1, body
