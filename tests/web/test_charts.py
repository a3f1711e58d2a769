"""The turn-by-turn charts: scaling to SVG coordinates (assistant.web.charts), and the charts on
the standings helper and at the final scoring, from games played with real events."""

from __future__ import annotations

import json
import re

import pytest

from assistant.web import charts
from tests.project_games import played_game
from tests.rules.test_history import TURN_1, TURN_2


def _import(client, players, events) -> str:
    body = {"format": "rss-table-transcript", "version": 1, "players": players, "events": events}
    resp = client.post("/games/import", data=json.dumps(body), content_type="application/json")
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "hi, ticks",
    [
        (1, [0, 1]),
        (4, [0, 1, 2, 3, 4]),
        (34, [0, 10, 20, 30, 40]),
        (61, [0, 20, 40, 60, 80]),
        (75, [0, 20, 40, 60, 80]),
    ],
)
def test_nice_ticks(hi, ticks):
    assert charts.nice_ticks(hi) == ticks


def test_values_are_scaled_to_the_plot_area_and_gaps_break_the_line():
    c = charts.line_chart("t", "u", ["start", "1", "2", "now"], {"A": [0, 20, None, 40], "B": [None, 10, 30, 40]})
    assert [t["label"] for t in c["yticks"]] == [0, 10, 20, 30, 40]
    a, b = c["series"]
    left, right, bottom, top = charts.LEFT, charts.WIDTH - charts.RIGHT, charts.HEIGHT - charts.BOTTOM, charts.TOP
    third = (right - left) / 3
    assert a["path"] == f"M{left:.1f},{bottom:.1f}L{left + third:.1f},{(bottom + top) / 2:.1f}M{right:.1f},{top:.1f}"
    assert b["path"].startswith(f"M{left + third:.1f},") and b["path"].count("M") == 1 and b["path"].count("L") == 2
    assert a["markers"].count("M") == 3 and b["markers"].count("M") == 3
    assert (a["first"], a["last"], b["first"]) == (("start", 0), ("now", 40), ("1", 10))
    assert c["desc"] == "A: 0 at the start, 40 now; B: 10 at the end of turn 1, 40 now"
    assert (a["cls"], b["cls"]) == ("s1", "s2") and (a["dash"], b["dash"]) != (None, None)


def test_a_line_of_one_point_is_described_once():
    """A corporation formed in the last turn has one price: "Jupiter: 60 at the end", not twice."""
    c = charts.line_chart("t", "u", ["start", "1", "end"], {"Horse": [10, 20, 30], "Jupiter": [None, None, 60]})
    assert c["desc"] == "Horse: 10 at the start, 30 at the end; Jupiter: 60 at the end"


@pytest.mark.parametrize("n", range(2, 40))
def test_x_axis_labels_never_touch_and_name_both_ends(n):
    labels = ["start", *map(str, range(1, n - 1)), "now"]
    c = charts.line_chart("t", "u", labels, {"A": list(range(n))})
    ticks = c["xticks"]
    assert ticks[0]["label"] == "start" and ticks[-1]["label"] == "now"
    spans = []
    for i, t in enumerate(ticks):
        width = charts.CHAR_WIDTH * len(t["label"])
        spans.append((t["x"], t["x"] + width) if i == 0 else (t["x"] - width / 2, t["x"] + width / 2))
    assert all(a[1] + charts.GAP <= b[0] for a, b in zip(spans, spans[1:], strict=False)), ticks
    assert spans[-1][1] <= charts.WIDTH


def test_every_line_looks_different_without_colour():
    looks = {(dash, shape, hollow) for dash, shape, hollow in charts.STYLES}
    assert len(looks) == len(charts.STYLES) >= 8 and len({(s, h) for _, s, h in charts.STYLES}) == 8


def test_standings_helper_shows_both_charts(client):
    gid = _import(client, ["Amy", "Brian"], TURN_1 + TURN_2)
    html = client.get(f"/games/{gid}/help/standings").text
    svgs = re.findall(r'<svg class="chart-svg"[^>]*role="img"[^>]*>', html)
    assert len(svgs) == 2
    assert '<title id="standings-chart-wealth-t">Each player&#39;s wealth by turn</title>' in html
    assert "Amy: 30 at the start, 32 at the end of turn 2; Brian: 30 at the start, 34 at the end of turn 2" in html
    assert "Prussian Railway: 10 at the end of turn 1, 12 at the end of turn 2" in html
    legend = re.findall(
        r"<li><svg class=\"key series (s\d)[^>]*>.*?</svg>\s*<span>([^:<]+): <strong>(\d+)</strong>", html, re.S
    )
    assert legend == [("s1", "Amy", "32"), ("s2", "Brian", "34"), ("s1", "Prussian Railway", "12")]
    assert not re.search(r"<[^>]+\sstyle=", html), "inline styles break the CSP"
    # three points per player line (start, turn 1, turn 2), two for the corporation (turn 1, 2)
    paths = re.findall(r'<g class="series (s\d)[^"]*" data-name="([^"]+)">\s*<path class="line" d="([^"]+)"', html)
    assert [(name, d.count("M") + d.count("L")) for _, name, d in paths] == [
        ("Amy", 3),
        ("Brian", 3),
        ("Prussian Railway", 2),
    ]


def test_no_chart_before_anything_happened(client, table):
    gid = table.new_game()
    assert "chart-svg" not in client.get(f"/games/{gid}/help/standings").text


def test_final_scoring_shows_the_charts_with_the_final_scores(client):
    t = played_game()
    gid = _import(client, t["players"], t["events"])
    html = client.get(f"/games/{gid}/c/scoring").text
    assert 'id="final-chart-wealth"' in html and 'id="final-chart-prices"' in html
    final = client.get(f"/games/{gid}/state").get_json()["final"]["scores"]
    wealth = html.split('id="final-chart-wealth"')[1].split("</figure>")[0]
    legend = dict(re.findall(r"<span>([^:<]+): <strong>(\d+)</strong>", wealth))
    assert {k: int(v) for k, v in legend.items()} == final
    assert "at the end" in wealth and not re.search(r"<[^>]+\sstyle=", html)


def test_the_players_view_template_shows_the_charts_until_the_final_scoring_does(app, client):
    from flask import render_template

    from assistant.web.context import TablePage

    playing = _import(client, ["Amy", "Brian"], TURN_1 + TURN_2)
    t = played_game()
    over = _import(client, t["players"], t["events"])
    with app.test_request_context():
        store = app.extensions["rss_store"]
        html = render_template("charts/players.html", v=TablePage(store, playing))
        assert 'id="players-chart-wealth"' in html and 'id="players-chart-prices"' in html
        assert render_template("charts/players.html", v=TablePage(store, over)).strip() == ""
