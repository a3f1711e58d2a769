"""The JSON door: GET state (snapshot + seq), POST events (200/409/422/400/415), idempotent."""


def test_state_is_the_snapshot_plus_seq(client, table, store):
    gid = table.started_game()
    body = client.get(f"/games/{gid}/state").get_json()
    seq, game = store.state(gid)
    assert body.pop("seq") == seq == 3
    assert body == game.snapshot()


def test_post_event_200_returns_new_seq(table):
    gid = table.started_game()
    resp = table.post_json(gid, {"seq": 3, "token": "t1", "event": {"type": "pass", "player": "Amy"}})
    assert resp.status_code == 200
    assert resp.get_json() == {"seq": 4}
    assert table.state(gid)["next"]["player"] == "Brian"


def test_post_event_is_idempotent_on_token(table, store):
    gid = table.started_game()
    body = {"seq": 3, "token": "same", "event": {"type": "pass", "player": "Amy"}}
    assert table.post_json(gid, body).get_json() == {"seq": 4}
    again = table.post_json(gid, body)
    assert again.status_code == 200 and again.get_json() == {"seq": 4}
    assert store.seq(gid) == 4


def test_post_event_409_when_stale(table):
    gid = table.started_game()
    table.post_json(gid, {"seq": 3, "event": {"type": "pass", "player": "Amy"}})
    resp = table.post_json(gid, {"seq": 3, "event": {"type": "pass", "player": "Amy"}})
    assert resp.status_code == 409
    body = resp.get_json()
    assert body["seq"] == 4 and len(body["changes"]) == 1 and "Amy" in body["changes"][0]


def test_post_event_422_with_engine_message(table, store):
    gid = table.started_game()
    resp = table.post_json(gid, {"seq": 3, "event": {"type": "pass", "player": "Crystal"}})
    assert resp.status_code == 422
    body = resp.get_json()
    assert body["error"] and "Amy" in body["error"]
    assert store.seq(gid) == 3


def test_post_event_400_when_malformed(client, table):
    gid = table.started_game()
    for body in (
        [],
        {"event": {"type": "pass"}},
        {"seq": "3", "event": {"type": "pass"}},
        {"seq": True, "event": {"type": "pass"}},
        {"seq": 3},
        {"seq": 3, "event": "pass"},
        {"seq": 3, "event": {"player": "Amy"}},
        {"seq": 3, "token": 7, "event": {"type": "pass"}},
        {"seq": -1, "event": {"type": "pass"}},
    ):
        resp = table.post_json(gid, body)
        assert resp.status_code == 400, body
        assert resp.get_json()["error"]
    broken = client.post(f"/games/{gid}/events", data="{not json", content_type="application/json")
    assert broken.status_code == 400


def test_post_event_needs_json_content_type(client, table):
    gid = table.started_game()
    resp = client.post(f"/games/{gid}/events", data={"seq": "3"})
    assert resp.status_code == 415
    assert "application/json" in resp.get_json()["error"]


def test_unknown_game_is_404_as_json(client):
    state = client.get("/games/nope/state")
    assert state.status_code == 404 and state.get_json()["error"]
    resp = client.post("/games/nope/events", json={"seq": 0, "event": {"type": "pass"}})
    assert resp.status_code == 404 and resp.get_json()["error"]


def test_undo_through_the_json_door(table):
    gid = table.started_game()
    table.post_json(gid, {"seq": 3, "event": {"type": "pass", "player": "Amy"}})
    resp = table.post_json(gid, {"seq": 4, "event": {"type": "undo"}})
    assert resp.get_json() == {"seq": 5}
    assert table.state(gid)["next"]["player"] == "Amy"
