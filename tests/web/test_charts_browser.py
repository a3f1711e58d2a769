"""The charts in chromium on a 360 px phone, light and dark: drawn (lines with a size), coloured
by the stylesheet (different colours in dark mode), no sideways scroll; screenshots kept in
tests/artifacts/charts-*.png."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.project_games import played_game

from .browser import ARTIFACTS, NEEDS_CHROMIUM, PHONE

pytest.importorskip("playwright.sync_api")
pytestmark = NEEDS_CHROMIUM


def _imported(live) -> str:
    body = json.dumps(played_game()).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url


def test_charts_are_drawn_readable_in_light_and_dark(live, browser):
    url = _imported(live)
    ARTIFACTS.mkdir(exist_ok=True)
    strokes = {}
    for scheme in ("light", "dark"):
        page = browser.new_context(viewport=PHONE, color_scheme=scheme).new_page()
        problems = []
        page.on("console", lambda m, problems=problems: problems.append(m.text) if m.type == "error" else None)
        for where, path in (("standings", url + "/help/standings"), ("final", url)):
            page.goto(path)
            charts = page.locator(".charts")
            charts.scroll_into_view_if_needed()
            lines = page.locator(".charts g.series .line")
            assert lines.count() >= 4 + 2, where
            for i in range(lines.count()):
                box = lines.nth(i).bounding_box()
                assert box and box["width"] > 50, (where, i, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], where
            label = page.locator(".charts text").first
            assert float(label.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 14
            charts.screenshot(path=str(ARTIFACTS / f"charts-{where}-{scheme}.png"))
        strokes[scheme] = lines.first.evaluate("e => getComputedStyle(e).stroke")
        assert problems == [], problems
        page.context.close()
    assert strokes["light"] != strokes["dark"], strokes


def test_the_players_view_shows_the_charts_during_the_game(live, browser):
    from assistant.log import transcript
    from tests.rules.test_history import TURN_1, TURN_2

    body = json.dumps(transcript.build(["Amy", "Brian"], [], None, TURN_1 + TURN_2, "charts")).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        url = resp.url
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(url + "/v/players")
    charts = page.locator("#c-charts")
    charts.scroll_into_view_if_needed()
    assert page.locator("#c-charts svg.chart-svg").count() == 2
    assert page.locator("#c-charts ul.legend li").all_inner_texts()[:2] == ["Amy: 32", "Brian: 34"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    charts.screenshot(path=str(ARTIFACTS / "charts-players-view-light.png"))
    page.context.close()
