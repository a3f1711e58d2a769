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
