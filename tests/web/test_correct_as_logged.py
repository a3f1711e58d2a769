"""The correction page opens on the entry as logged (issue 37): a purchase at 9 opened on a
list of buttons, none filled in or marked.  Now the entry's own choice comes first, its figure
filled in with what was logged and its button marked; every other choice is folded away."""

from __future__ import annotations

import random
import re

from assistant.log import transcript
from assistant.rules import events_of, registry

from .browser import NEEDS_CHROMIUM, PHONE

PLAYERS = ["Amy", "Brian", "Crystal"]


def purchase_game():
    """A seeded game of Stars with a purchase (acquisition) among at least 12 possible ones, at a
    price above the lowest of its span, and a few entries after it: (events, index of that purchase)."""
    for seed in range(400):
        rng = random.Random(seed)
        game = registry.STARS.create(PLAYERS)
        found = None
        while not game.game_over and len(game.events) < 800:
            menu = [{**m, "type": "acquire"} if m["type"] == "announce" else m for m in game.legal_actions()]
            item = rng.choice([m for m in menu if m["type"] != "player_done"])
            many = sum(m["type"] == "acquire" for m in menu) >= 12  # the page: 12 choices
            if found is None and many and item["type"] == "acquire" and item.get("max", 0) > item.get("min", 0) + 1:
                item = {**item, "min": item["min"] + 1}  # enter a price above the lowest
                found = len(game.events)
            game.apply(events_of(item, lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0])))
            if found is not None and len(game.events) > found + 5:
                return list(game.events), found
    raise LookupError("no seeded game has such a purchase")


def test_the_correction_page_opens_on_the_purchase_as_logged_and_folds_the_other_choices(client):
    events, index = purchase_game()
    logged = events[index]
    resp = client.post("/games/import", json=transcript.build(PLAYERS, [], None, events, "as logged"))
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{gid}/correct/{index}").text
    first = page.index('<form class="act as-logged"')
    fold = page.index('<details class="other-choices">')
    form = page[first : page.index("</form>", first)]
    assert first < fold and page.count("as-logged") == 1
    assert f'name="e.company" value="{logged["company"]}"' in form
    assert f'name="e.corporation" value="{logged["corporation"]}"' in form
    assert re.search(rf'name="e.price"[^>]*value="{logged["price"]}"', form), form
    # every other choice the rules gave is in the fold, the logged one not again
    rest = page[fold : page.index("</details>", fold)]
    assert rest.count('<form class="act"') >= 1
    assert f"<summary>Something else happened: {rest.count('<form class=')} other choice" in rest
    # the logged figure, sent as it is, previews the entry unchanged
    preview = client.get(
        f"/games/{gid}/correct/{index}/preview",
        query_string={f"e.{k}": str(v) for k, v in logged.items()},
    )
    assert preview.status_code == 200


@NEEDS_CHROMIUM
def test_the_purchase_correction_page_fits_two_phone_screens_light_and_dark(browser, live):
    import json
    import urllib.request

    from .test_accessibility import _problems, axe_sync

    events, index = purchase_game()
    body = json.dumps(transcript.build(PLAYERS, [], None, events, "as logged")).encode()
    req = urllib.request.Request(live + "/games/import", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        gid = resp.url.rsplit("/", 1)[1]
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{live}/games/{gid}/correct/{index}")
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"\npurchase correction page at 360 px: {height} px")
    assert height <= 2 * PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("form.as-logged input[name='e.price']").input_value() == str(events[index]["price"])
    axe = axe_sync.Axe()
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert _problems(page, axe) == [], scheme
    page.click("details.other-choices summary")  # the other choices unfold
    assert page.locator("details.other-choices form.act").first.is_visible()
