"""Sharing a result (issue 19): a finished game's final scoring as a PNG (scores, ranking, the
wealth chart, drawn with the bundled font), as text for a chat and as a printable page; a score
check's result as a PNG and text, without the chart. All made on the server."""

from __future__ import annotations

import re

import resvg_py

from assistant.web import share

from .board_positions import ended_with_holdings, finished
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
        from assistant.web.context import TablePage

        box = share.of_game(TablePage(store, gid, tab="players")).layout()
    assert (width, height) == (box["width"], box["height"]) and width == 1200
    assert dark_pixels(rows, 40, 90) > 2000, "the title is not drawn"
    assert dark_pixels(rows, box["chart_top"], box["legend_top"]) > 2000, "the chart's labels are not drawn"
    # the phones' final scoring links the ways to share
    scoring = client.get(f"/games/{gid}/c/scoring").text
    assert f'href="/games/{gid}/result.png"' in scoring and f'href="/games/{gid}/result"' in scoring


def test_the_image_is_drawn_with_the_bundled_font(client, store):
    gid = _finished(client)
    with client.application.test_request_context():
        from assistant.web.context import TablePage

        result = share.of_game(TablePage(store, gid, tab="players"))
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


def test_a_score_check_with_a_tie_says_the_tie_break_on_its_image_too(client):
    """Crystal and Amy both end with 50; Crystal is earlier in the final player order and ranks
    higher.  The image has a line of text under the two rows that a tie-less check lacks."""
    tied = _url(names=("Crystal", "Amy"), cash_0="50", cash_1="50")
    plain = _url(names=("Crystal", "Amy"), cash_0="50", cash_1="40")
    text = client.get(tied.replace("/scores/check?", "/scores/check.txt?")).text
    assert "Crystal and Amy tie at 50: Crystal ranks higher, being earlier in the final player order" in text
    width, height, rows = read(client.get(tied.replace("/scores/check?", "/scores/check.png?")).data)
    _, plain_height, _ = read(client.get(plain.replace("/scores/check?", "/scores/check.png?")).data)
    notes_top = 160 + 2 * share.ROW
    assert plain_height == notes_top + 40  # two rows, nothing under them
    assert height == plain_height + 2 * share.NOTE_ROW  # the tie-break: two lines of 24 px text
    assert dark_pixels(rows, notes_top, notes_top + 2 * share.NOTE_ROW + 10) > 1000, "the tie-break is not drawn"


def test_each_players_make_up_is_their_money_companies_and_shares(client, store):
    """A game resumed after turn 9 with the deck and the offering empty and the end card flipped
    ends at phase 7 of turn 10.  Amy holds the CDG (face value 60) and 2 Doppler AG shares,
    Crystal the HH (45), Brian 1 share.  Doppler AG earns 7 × 2 (its ability) less the green
    cost of 10 on the end card's back: 14 in its treasury, 1 star, plus 4 for the green E: 5 stars
    against the 12 its card requires for 4 shares at 30 (4 × 30 / 10), so with no dividend its
    price falls two steps down the row: 30 → 27 → 24."""
    transcript = ended_with_holdings()
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    gid = resp.get_json()["id"]
    lines = client.get(f"/games/{gid}/result.txt").text.splitlines()
    # phase 5 income: the CDG and the HH each pay 10 (blue costs nothing to own, even on the end
    # card's back): Amy 20 + 10 = 30, Crystal 5 + 10 = 15, Brian 15
    assert "1. Amy: 138 (cash 30 · companies 60 · shares 48)" in lines  # 30 + 60 + 2 × 24
    assert "2. Crystal: 60 (cash 15 · companies 45 · shares 0)" in lines
    assert "3. Brian: 39 (cash 15 · companies 0 · shares 24)" in lines
