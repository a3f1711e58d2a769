"""Join: the unguessable link as a QR code with the LAN address; taking a seat."""

import re

import pytest


def test_join_shows_lan_link_and_inline_svg_qr(client, table):
    gid = table.new_game()
    join = client.get(f"/games/{gid}/c/join", base_url="http://localhost:5000").text
    assert f"http://192.168.7.7:5000/games/{gid}" in join
    assert "localhost" not in join
    assert f'<img class="qr" src="/games/{gid}/qr.svg"' in join
    qr = client.get(f"/games/{gid}/qr.svg", base_url="http://localhost:5000")
    assert qr.mimetype == "image/svg+xml" and b'class="qr"' in qr.data and "max-age" in qr.headers["Cache-Control"]


def test_join_keeps_a_real_host_name(client, table):
    gid = table.new_game()
    join = client.get(f"/games/{gid}/c/join", base_url="http://table.example:8080").text
    assert f"http://table.example:8080/games/{gid}" in join


def test_lan_ip_is_an_address_of_this_machine_and_never_loopback():
    import ipaddress
    import socket

    from assistant.web.lan import lan_ip

    ip = lan_ip()
    if ip is not None:
        assert not ipaddress.ip_address(ip).is_loopback
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind((ip, 0))  # only an address of one of this machine's interfaces can be bound


def test_lan_ip_is_none_on_a_machine_with_loopback_only():
    """In a network namespace of its own (only a loopback interface, down) there is no LAN address."""
    import shutil
    import subprocess
    import sys

    if not shutil.which("unshare"):
        pytest.skip("needs unshare (util-linux) for a network namespace")
    code = "from assistant.web.lan import lan_ip; print(lan_ip())"
    run = subprocess.run(["unshare", "-rn", sys.executable, "-c", code], capture_output=True, text=True)
    if run.returncode != 0 and "Operation not permitted" in run.stderr:
        pytest.skip("this machine allows no network namespaces: " + run.stderr.strip())
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "None"


def test_take_a_seat_highlights_my_turn(client, table):
    gid = table.started_game()
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Amy"})
    assert resp.status_code == 303
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "my-turn" in banner and "Your turn" in banner and "you are <strong>Amy</strong>" in banner
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Brian"})
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "Your turn" not in banner and "you are <strong>Brian</strong>" in banner


def test_leave_seat_gives_the_table_view(client, table):
    gid = table.started_game()
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Amy"})
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": ""})
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "you are" not in banner


def test_seat_of_a_stranger_is_refused(client, table):
    gid = table.new_game()
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Mallory"})
    assert resp.status_code == 400
    assert "not a player" in resp.text


def test_seat_buttons_for_every_player(client, table):
    gid = table.new_game()
    join = client.get(f"/games/{gid}/c/join").text
    assert re.findall(r"I am (\w+)", join) == ["Amy", "Brian", "Crystal"]


# ---------------------------------------------------------------- the link: an address the server answers on
@pytest.mark.parametrize("bound", ["127.0.0.1", "localhost", "::1"])
def test_a_server_bound_to_this_machine_links_where_it_answers_and_says_phones_cannot_reach_it(tmp_path, bound):
    from .conftest import Table, make_app

    app = make_app(tmp_path / "rss.sqlite3", BIND_HOST=bound)
    try:
        client = app.test_client()
        gid = Table(client).new_game()
        join = client.get(f"/games/{gid}/c/join", base_url="http://127.0.0.1:5000").text
        assert f'<a href="http://127.0.0.1:5000/games/{gid}">' in join  # not the LAN address it does not listen on
        assert "192.168.7.7" not in join
        assert f"Phones cannot reach this address: the server listens on this machine only ({bound})." in join
    finally:
        app.extensions["rss_store"].close()


@pytest.mark.parametrize(
    ("bound", "shown"), [("0.0.0.0", "192.168.7.7"), ("::", "192.168.7.7"), ("10.1.2.3", "10.1.2.3")]
)
def test_a_server_reachable_from_the_network_links_its_network_address(tmp_path, bound, shown):
    from .conftest import Table, make_app

    app = make_app(tmp_path / "rss.sqlite3", BIND_HOST=bound)
    try:
        client = app.test_client()
        gid = Table(client).new_game()
        join = client.get(f"/games/{gid}/c/join", base_url="http://127.0.0.1:5000").text
        assert f'<a href="http://{shown}:5000/games/{gid}">' in join
        assert "Phones cannot reach" not in join
    finally:
        app.extensions["rss_store"].close()


def test_the_bound_address_comes_from_serve(monkeypatch, tmp_path):
    from .conftest import make_app

    monkeypatch.setenv("RSS_HOST", "127.0.0.1")
    app = make_app(tmp_path / "rss.sqlite3")
    assert app.config["BIND_HOST"] == "127.0.0.1"
    app.extensions["rss_store"].close()


# ---------------------------------------------------------------- the code steps aside once phones join
def _play(client, gid) -> str:
    return client.get(f"/games/{gid}/v/play").text


def _seat_phone(app, gid, player):
    phone = app.test_client()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(f"/games/{gid}").text).group(1)
    assert phone.post(f"/games/{gid}/seat", data={"csrf_token": csrf, "player": player}).status_code == 303
    return phone


FOLDED = re.compile(
    r'<details class="other" data-k="join"><summary><span aria-hidden="true">▸&nbsp;</span><span id="join-h">Join this table</span>: (\d) of 3'
)


def test_the_join_code_folds_to_one_line_once_another_phone_has_joined(client, app, table):
    gid = table.new_game()  # this phone created the game: it shows the join code
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Amy"})
    play = _play(client, gid)
    assert '<h2 id="join-h">Join this table</h2>' in play and "1 of 3 seats taken: scan this code" in play
    assert not FOLDED.search(play)  # the host's own seat is not a phone that joined
    _seat_phone(app, gid, "Brian")
    play = _play(client, gid)
    assert FOLDED.search(play).group(1) == "2"  # Amy and Brian
    assert '<h2 id="join-h">' not in play
    assert f'src="/games/{gid}/qr.svg"' in play  # still there, behind the one line
    more = client.get(f"/games/{gid}/v/more").text  # the More view keeps the whole of it
    assert '<h2 id="join-h">Join this table</h2>' in more


def test_a_seat_played_for_someone_else_counts_as_taken(client, app, table):
    gid = table.started_game()
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Amy"})
    _seat_phone(app, gid, "Brian")
    assert FOLDED.search(_play(client, gid)).group(1) == "2"  # Crystal has no phone
    # the players pass in turn; Amy's phone enters Crystal's pass for her
    for _ in range(3):
        nxt = table.state(gid)["next"]
        resp = table.act(gid, {"type": "pass", "player": nxt["player"]})
        assert resp.status_code in (200, 303), resp.text
        if nxt["player"] == "Crystal":
            break
    assert 'id="c-join"' not in _play(client, gid)  # 3 of 3: the code is gone from the Play view
    assert "3 of 3 seats taken" in client.get(f"/games/{gid}/v/more").text
