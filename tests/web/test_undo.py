"""Undo: an event in the log that takes back the latest effective event, after a confirmation."""


def test_undo_asks_for_confirmation_naming_the_event(client, table, store):
    gid = table.started_game()
    table.act(gid, {"type": "pass", "player": "Amy"})
    last = store.state(gid)[1].journal[-1]["text"]
    page = client.get(f"/games/{gid}/undo")
    assert page.status_code == 200
    assert "Undo the last event" in page.text and last in page.text
    assert f'action="/games/{gid}/undo"' in page.text
    assert table.state(gid)["seq"] == 4  # asking changes nothing


def test_undo_takes_back_the_last_event_and_is_logged(client, table, store):
    gid = table.started_game()
    before = table.state(gid)
    table.act(gid, {"type": "pass", "player": "Amy"})
    assert table.state(gid)["next"]["player"] == "Brian"
    resp = client.post(f"/games/{gid}/undo", data={"csrf_token": table.csrf(gid), "seq": "4"})
    assert resp.status_code == 303
    after = table.state(gid)
    assert after["seq"] == 5  # the undo is a row of the log too
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}
    assert [r.event["type"] for r in store.rows(gid)][-2:] == ["pass", "undo"]


def test_two_undos_take_back_two_events(client, table):
    gid = table.started_game()
    for seq in (3, 4):
        client.post(f"/games/{gid}/undo", data={"csrf_token": table.csrf(gid), "seq": str(seq)})
    snap = table.state(gid)
    assert snap["seq"] == 5
    assert snap["next"]["for"] == "reveal" and len(snap["offering"]["available"]) == 1


def test_undo_from_a_stale_view_is_refused(client, table):
    gid = table.started_game()
    table.act(gid, {"type": "pass", "player": "Amy"})
    resp = client.post(f"/games/{gid}/undo", data={"csrf_token": table.csrf(gid), "seq": "3"})
    assert resp.status_code == 409
    assert "changed while you were deciding" in resp.text
    assert table.state(gid)["seq"] == 4


def test_nothing_to_undo(client, table):
    gid = table.new_game()
    resp = client.post(f"/games/{gid}/undo", data={"csrf_token": table.csrf(gid), "seq": "0"})
    assert resp.status_code == 422
    assert "nothing to undo" in resp.text


def test_htmx_undo_confirmation_is_the_action_panel(client, table):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/undo", headers={"HX-Request": "true"})
    assert resp.text.lstrip().startswith('<section id="c-actions"')
    assert "Yes, undo it" in resp.text
