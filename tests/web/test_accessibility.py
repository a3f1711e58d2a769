"""Accessibility in chromium: axe-core finds no violation of WCAG 2.1 A and AA on the home page,
the new-game form, the table page in every kind of position (setup, phase 1, acquisition,
closing, dividend, IPO, game over; a classic Rolling Stock game; a v2.2 game) and each of its views, every decision helper and "Why?" page they link to, the
rules page and an error page; in light and dark, on 360 and 320 px wide phones.  On each of
these: no sideways scroll, body text of at least 16 px, buttons and form controls at least
44 px tall and wide."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from urllib.parse import urlsplit

import pytest

from assistant.log import transcript
from assistant.rules import events_of, registry
from tests.project_games import played_game

from . import helper_positions
from .browser import NEEDS_CHROMIUM

pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
pytestmark = NEEDS_CHROMIUM

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
WIDTHS = (360, 320)
SCHEMES = ("light", "dark")
TAP = 44
# buttons and form controls; text links inside sentences are exempt from the target size (WCAG 2.5.5)
CONTROLS = (
    "button, .button, select, summary, label.radio, input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
)


def _import(live, players, events, game: str = transcript.GAME_NAME, options=()) -> str:
    body = transcript.build(list(players), list(options), None, list(events), "accessibility test", game=game)
    body = json.dumps(body).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return resp.url


def _problems(page, axe) -> list[str]:
    """Everything wrong with the page as it is now (viewport and colour scheme already set)."""
    out = []
    results = axe.run(page, options={"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]})
    for v in results.response["violations"]:
        nodes = "; ".join(
            " ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"]) for n in v["nodes"][:4]
        )
        out.append(f"axe {v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])}: {nodes}]")
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    if width > viewport:
        wide = page.evaluate(
            """w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 0.5)
                 .slice(0, 4).map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : ''))""",
            viewport,
        )
        out.append(f"sideways scroll: {width} px wide at {viewport} px ({', '.join(wide)})")
    body = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    if body < 16:
        out.append(f"body text is {body} px")
    small = page.evaluate(
        """([sel, tap]) => [...document.querySelectorAll(sel)].filter(e => {
             const r = e.getBoundingClientRect();
             return r.width > 0 && r.height > 0 && (r.height < tap - 0.5 || r.width < tap - 0.5);
           }).slice(0, 4).map(e => { const r = e.getBoundingClientRect();
             return `${e.tagName.toLowerCase()} "${(e.innerText || e.value || e.name || '').trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`; })""",
        [CONTROLS, TAP],
    )
    if small:
        out.append("tap targets under 44 px: " + "; ".join(small))
    return out


def _check(page, axe, url, report):
    page.goto(url)
    page.wait_for_load_state("load")
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 740})
            for problem in _problems(page, axe):
                report.append(f"{urlsplit(url).path}?{urlsplit(url).query} {scheme} {width}px: {problem}")


@pytest.fixture
def checker(browser):
    page = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    axe = axe_sync.Axe()
    report: list[str] = []

    def check(url):
        check.checked.append(re.sub(r"/games/[\w-]{20,}", "/games/<id>", url.split("//", 1)[1].split("/", 1)[1]))
        _check(page, axe, url, report)

    check.checked = []

    check.report = report
    check.page = page
    yield check
    page.context.close()


def _assert_clean(checker):
    report = checker.report
    print("checked:", ", ".join("/" + c for c in checker.checked))
    print("\n".join(report) or "no accessibility problems")
    assert report == [], "\n" + "\n".join(report)


def test_pages_outside_a_game(live, checker):
    rules = ("/rules", "/rules?ruleset=rolling-stock-v2.2", "/rules?ruleset=rolling-stock")  # each game's own text
    for path in ("/", "/games/new", *rules, "/games/no-such-game"):
        checker(live + path)
    _assert_clean(checker)


@pytest.fixture(scope="module")
def kinds_seen() -> set:
    """The helper and "Why?" kinds already checked by an earlier position of this module."""
    return set()


def _helper_links(page, base, kinds: set) -> list[str]:
    """The decision helpers and "Why?" pages the page links to, one per kind not checked yet."""
    hrefs = page.eval_on_selector_all("a.helper-link, a.why, .helper-links a", "els => els.map(e => e.href)")
    out = []
    for href in hrefs:
        m = re.search(r"/(help|why)/(\w+)", href)
        if m and m.groups() not in kinds and href.startswith(base):
            kinds.add(m.groups())
            out.append(href)
    return out


def _view_links(page, url) -> list[str]:
    """The table's other views (``/games/<id>/v/<name>``) the page links to."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href.split('#')[0])")
    return sorted({h for h in hrefs if re.fullmatch(re.escape(url) + r"/v/\w+", h)})


# every view of the table is checked in these positions; the others check the page a phone opens on
ALL_VIEWS = {"setup", "investment", "final", "classic", "v2.2"}


SEATED = {"dividend", "investment"}


def _take_seat(page, url) -> None:
    with urllib.request.urlopen(url + "/state", timeout=10) as resp:
        player = json.load(resp)["next"]["player"]
    for where in (url, url + "/v/more"):
        page.goto(where)
        button = page.get_by_role("button", name=f"I am {player}", exact=True)
        if button.count():
            button.click()
            page.wait_for_load_state("load")
            return
    raise AssertionError(f"no 'I am {player}' button")


def _classic_events(turns: int = 3, key: str = "rolling-stock", options=("short",)) -> list[dict]:
    """A seeded menu-driven classic Rolling Stock (or v2.2) game, a few turns in."""
    rng = random.Random(7)
    game = registry.get(key).create(list(helper_positions.PLAYERS), list(options))
    while not game.game_over and game.turn <= turns:
        item = rng.choice(game.legal_actions())
        game.apply(events_of(item, lambda *a: a[0] if len(a) == 2 else rng.choice(a[0])))
    return list(game.events)


@pytest.mark.parametrize(
    "position", ["setup", "investment", "acquisition", "closing", "dividend", "ipo", "final", "classic", "v2.2"]
)
def test_table_page_its_views_and_helpers(live, checker, kinds_seen, position):
    if position == "setup":
        url = _import(live, helper_positions.PLAYERS, [])
    elif position == "final":
        t = played_game()
        url = _import(live, t["players"], t["events"])
    elif position == "classic":
        url = _import(live, helper_positions.PLAYERS, _classic_events(), "rolling-stock", ["short"])
    elif position == "v2.2":  # its own words, phase names and colour marks (◇ green, ○ blue)
        url = _import(
            live, helper_positions.PLAYERS, _classic_events(3, "rolling-stock-v2.2", ()), "rolling-stock-v2.2"
        )
    else:
        url = _import(live, *helper_positions.position(position))
    checker(url)
    if position in SEATED:  # the same page on the phone of the player who must act (highlighted)
        _take_seat(checker.page, url)
        checker(url)
        assert checker.page.locator("#turn.mine").count() == 1, "the seat was not taken"
    helpers = _helper_links(checker.page, live, kinds_seen)
    for view in _view_links(checker.page, url) if position in ALL_VIEWS else []:
        checker(view)
        helpers += _helper_links(checker.page, live, kinds_seen)
    for link in helpers:
        checker(link)
    _assert_clean(checker)
