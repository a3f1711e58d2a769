"""Sharing a result (issue 19): a finished game's final scoring as a PNG (scores, ranking, the
wealth chart, drawn with the bundled font), as text for a chat and as a printable page; a score
check's result as a PNG and text, without the chart. All made on the server."""

from __future__ import annotations

import re

import resvg_py

from assistant.web import share

from .board_positions import finished
from .pngread import dark_pixels, read
from .test_score_check import FIELDS, _url


def _finished(client) -> str:
    resp = client.post("/games/import", json=finished())
    assert resp.status_code == 303
    return resp.get_json()["id"]


def test_a_finished_game_shares_its_result_as_an_image_text_and_a_printable_page(client, store):
    gid = _finished(client)
    final = store.state(gid)[1].snapshot()["final"]
    ranking = final["ranking"]
    text = client.get(f"/games/{gid}/result.txt")
    assert text.mimetype == "text/plain"
    lines = text.text.splitlines()
    assert lines[0] == "Rolling Stock Stars: final scoring"
    for n, name in enumerate(ranking, 1):
        assert any(line.startswith(f"{n}. {name}: {final['scores'][name]}") for line in lines)
    page = client.get(f"/games/{gid}/result").text
    assert f'href="/games/{gid}/result.png"' in page and 'class="share-text"' in page and 'class="line-chart"' in page
    png = client.get(f"/games/{gid}/result.png")
    assert png.mimetype == "image/png"
    width, height, rows = read(png.data)
    with client.application.test_request_context():
        from assistant.web.context import TableView

        box = share.of_game(TableView(store, gid, view="players")).layout()
    assert (width, height) == (box["width"], box["height"]) and width == 1200
    assert dark_pixels(rows, 40, 90) > 2000, "the title is not drawn"
    assert dark_pixels(rows, box["chart_top"], box["legend_top"]) > 2000, "the chart's labels are not drawn"
    # the phones' final scoring links the ways to share
    scoring = client.get(f"/games/{gid}/c/scoring").text
    assert f'href="/games/{gid}/result.png"' in scoring and f'href="/games/{gid}/result"' in scoring


def test_the_image_is_drawn_with_the_bundled_font(client, store):
    gid = _finished(client)
    with client.application.test_request_context():
        from assistant.web.context import TableView

        result = share.of_game(TableView(store, gid, view="players"))
        svg, png = result.svg(), result.png()
    bare = bytes(resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=[]))
    assert dark_pixels(read(bare)[2], 40, 90) == 0  # with no font, no text at all
    assert dark_pixels(read(png)[2], 40, 90) > 2000


def test_an_unfinished_game_has_no_result_yet(client, table):
    gid = table.started_game()
    for suffix in ("", ".png", ".txt"):
        resp = client.get(f"/games/{gid}/result{suffix}")
        assert resp.status_code == 404 and "not over yet" in resp.text


def test_a_score_check_shares_its_result_without_the_chart(client):
    page = client.get(_url(**FIELDS)).text
    png_link = re.search(r'href="(/scores/check\.png\?[^"]+)"', page).group(1).replace("&amp;", "&")
    png = client.get(png_link)
    assert png.status_code == 200 and png.mimetype == "image/png"
    width, height, rows = read(png.data)
    assert width == 1200 and height == 160 + 4 * share.ROW + 40  # four rows, no chart below
    assert dark_pixels(rows, 40, 90) > 2000
    text = client.get(png_link.replace("check.png", "check.txt")).text
    assert text.startswith("Rolling Stock Stars: final scores\n") and "1. Dirk: 210" in text
    assert client.get("/scores/check.png?game=rolling-stock-stars&name=A&name=B").status_code == 422
