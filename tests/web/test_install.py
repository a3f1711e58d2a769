"""The web app manifest and icons (issue 19): "Add to Home Screen" gives the app its own icon,
and from a game's page an icon that opens that game."""

from __future__ import annotations

import re
import struct


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def _get(client, url):
    resp = client.get(url)
    if resp.status_code in (301, 302):
        resp = client.get(resp.headers["Location"])
    assert resp.status_code == 200, url
    return resp


def test_every_page_names_the_manifest_and_the_icons(client, table):
    gid = table.started_game()
    for url, manifest in (("/", "/manifest.webmanifest"), (f"/games/{gid}", f"/games/{gid}/manifest.webmanifest")):
        page = client.get(url).text
        assert f'<link rel="manifest" href="{manifest}">' in page
        assert re.search(r'<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon\.\w+\.png">', page)
        assert '<meta name="theme-color"' in page


def test_the_manifests_and_their_icons(client, table):
    gid = table.started_game()
    app = _get(client, "/manifest.webmanifest")
    assert app.mimetype == "application/manifest+json"
    game = _get(client, f"/games/{gid}/manifest.webmanifest").get_json()
    assert app.get_json()["start_url"] == "/" and game["start_url"] == f"/games/{gid}"
    assert game["display"] == "standalone" and "Amy, Brian, Crystal" in game["name"]
    purposes = set()
    for icon in game["icons"]:
        data = _get(client, icon["src"]).data
        if icon["type"] == "image/png":
            w, h = _png_size(data)
            assert icon["sizes"] == f"{w}x{h}"
        else:
            assert b"<svg" in data
        purposes.add(icon.get("purpose", "any"))
    assert {"any", "maskable"} <= purposes
    assert {"192x192", "512x512"} <= {i["sizes"] for i in game["icons"]}
    assert _png_size(_get(client, "/apple-touch-icon.png").data) == (180, 180)
    # an unknown game still gets the app's manifest, not an error page
    assert _get(client, "/games/no-such-game/manifest.webmanifest").get_json()["start_url"] == "/"
