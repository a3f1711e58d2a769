"""Live sync: a cheap version poll; a changed seq triggers the components to re-fetch."""


def test_version_unchanged_is_204(client, table):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/version?seq=3")
    assert resp.status_code == 204
    assert resp.headers["X-RSS-Seq"] == "3"
    assert resp.data == b""


def test_version_changed_returns_new_poller_and_trigger(client, table):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/version?seq=2")
    assert resp.status_code == 200
    assert resp.headers["HX-Trigger"] == "rss-changed"
    assert resp.headers["X-RSS-Seq"] == "3"
    assert f'hx-get="/games/{gid}/version?seq=3"' in resp.text
    assert 'hx-trigger="every 1s"' in resp.text


def test_version_without_seq_reports_current(client, table):
    gid = table.new_game()
    resp = client.get(f"/games/{gid}/version")
    assert resp.status_code == 200 and resp.headers["X-RSS-Seq"] == "0"


def test_version_of_unknown_game_is_404(client):
    assert client.get("/games/nope/version?seq=0").status_code == 404


def test_page_polls_every_second_from_its_seq(client, table):
    gid = table.started_game()
    page = client.get(f"/games/{gid}").text
    assert f'hx-get="/games/{gid}/version?seq=3" hx-trigger="every 1s"' in page


def test_another_phone_sees_the_change_on_its_next_poll(app, table):
    gid = table.started_game()
    phone = app.test_client()
    assert phone.get(f"/games/{gid}/version?seq=3").status_code == 204
    table.act(gid, {"type": "pass", "player": "Amy"})
    poll = phone.get(f"/games/{gid}/version?seq=3")
    assert poll.status_code == 200 and poll.headers["HX-Trigger"] == "rss-changed"
    banner = phone.get(f"/games/{gid}/c/banner").text
    assert "Brian: bid or pass" in banner
