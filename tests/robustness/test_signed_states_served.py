"""The real server signs the states it saves with a key from its secret (the one the servers sharing
a database share), and serves a game whose saved state was edited in the database from its log
(issue 38 §4: it served the edited cash, 60 where the log gives 10)."""

from __future__ import annotations

import sqlite3

import pytest

from assistant.log import saved
from tests.store.test_saved_states import _long_game

from .conftest import Http

pytestmark = pytest.mark.server

SECRET = "robustness-test"  # the servers' RSS_SECRET_KEY (conftest.Server)


def test_the_server_signs_its_states_and_never_serves_an_edited_one(server_factory, tmp_path):
    db = tmp_path / "games.sqlite3"
    srv = server_factory(db=db, env={"RSS_SAVE_EVERY": "20"})
    status, body = Http(srv.base).json("POST", "/games/import", _long_game(100))
    assert status == 303, body
    gid = body["id"]
    srv.stop()
    conn = sqlite3.connect(db, isolation_level=None)
    seq, stored = conn.execute(
        "SELECT seq, data FROM saved_states WHERE game_id = ? ORDER BY seq DESC LIMIT 1", [gid]
    ).fetchone()
    assert seq == 100
    data = saved.opened(saved.key_from_secret(SECRET), gid, seq, bytes(stored))  # signed with the shared secret
    state = saved.loads(seq, data)
    assert state.game.players["Amy"].cash == 10_000
    state.game.players["Amy"].cash = 10_050
    edited = bytes(stored)[:32] + saved.dumps(state.game, state.walk)
    conn.execute("UPDATE saved_states SET data = ? WHERE game_id = ? AND seq = ?", [edited, gid, seq])
    conn.close()
    srv = server_factory(db=db, env={"RSS_SAVE_EVERY": "20"})
    status, body = Http(srv.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and body["seq"] == 100
    assert body["players"]["Amy"]["cash"] == 10_000
    assert "its signature does not hold" in srv.output()
