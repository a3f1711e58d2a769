"""Join: the unguessable link as a QR code with the LAN address; taking a seat."""

import re


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


def test_lan_ip_detection_without_config(tmp_path):
    from assistant.web.lan import lan_ip

    ip = lan_ip()
    assert ip is None or not ip.startswith("127.")


def test_take_a_seat_highlights_my_turn(client, table):
    gid = table.started_game()
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(), "player": "Amy"})
    assert resp.status_code == 303
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "my-turn" in banner and "Your turn" in banner and "you are <strong>Amy</strong>" in banner
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(), "player": "Brian"})
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "Your turn" not in banner and "you are <strong>Brian</strong>" in banner


def test_leave_seat_gives_the_table_view(client, table):
    gid = table.started_game()
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(), "player": "Amy"})
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(), "player": ""})
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "you are" not in banner


def test_seat_of_a_stranger_is_refused(client, table):
    gid = table.new_game()
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(), "player": "Mallory"})
    assert resp.status_code == 400
    assert "not a player" in resp.text


def test_seat_buttons_for_every_player(client, table):
    gid = table.new_game()
    join = client.get(f"/games/{gid}/c/join").text
    assert re.findall(r"I am (\w+)", join) == ["Amy", "Brian", "Crystal"]
