"""Each game in its own words (issue 28): the figures of classic and v2.2 were right, the words were
Stars'.  Through Flask's test client; the expected words are the rulebooks' own (../shared/seeds:
rolling-stock-rules-v2.2.txt, rolling-stock-players-guide.txt), written out here by hand."""

from __future__ import annotations

import random
import re

import pytest

from assistant.rules import events_of, registry
from assistant.rules.core import vocabulary
from assistant.web import action_forms as web_menu

from .conftest import CSRF_RE

STARS_NAMES = list(registry.STARS.corporations)


def _create(client, table, ruleset, players=("Amy", "Brian", "Crystal")) -> str:
    data = {"csrf_token": table.csrf(), "name": list(players), "ruleset": ruleset, f"game_type-{ruleset}": "full"}
    resp = client.post("/games/new", data=data)
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


def _body(html: str) -> str:
    """The rules page's sections (without the note above them, which maps the names on purpose)."""
    return html[html.index("<h2>") :]


def test_the_v22_rules_page_speaks_v22(client):
    html = client.get("/rules?ruleset=rolling-stock-v2.2").text
    body = _body(html)
    assert [n for n in STARS_NAMES if n in body] == []
    assert "●" not in body
    # v2.2, Collect income: "*Jupiter* adds \$1 per COMPANY it owns"; Setup: "receives \$30 from the BANK"
    assert "Jupiter adds $1 per Company it owns" in body
    assert "Each Player receives $30 from the Bank" in body
    assert "symbol card" in body and "charter card" not in body
    assert "variant" not in body.lower()  # v2.2 has no variants
    # the Stars page keeps Stars' own words
    stars = _body(client.get("/rules").text)
    assert "Prussian Railway adds 1● per Company it owns" in stars and "charter card" in stars


def test_a_v22_refusal_links_to_the_v22_rules(client, table):
    gid = _create(client, table, "rolling-stock-v2.2")
    table.reveal_all(gid)
    nxt = table.state(gid)["next"]
    resp = table.act(gid, {"type": "bid", "player": nxt["player"], "company": "BME", "price": 999})
    assert resp.status_code == 422
    href = re.search(r'class="rule-link" href="([^"]+)"', resp.text).group(1).replace("&amp;", "&")
    assert href.startswith(f"/rules?game={gid}#")
    page = client.get(href.split("#")[0]).text
    assert "<h1>Rules of Rolling Stock v2.2</h1>" in page and f'id="{href.split("#")[1]}"' in page
    assert "Prussian Railway" not in _body(page)


def test_the_classic_rules_page_has_no_page_break_slips(client):
    body = _body(client.get("/rules?ruleset=rolling-stock").text)
    # Guide 1.3: "... easily reachable for everybody. This central area is the bank."
    assert "This central area is the bank" in body and "cen6" not in body
    assert "the player that takes the next action after the auction is the one" in body.lower()


def test_classic_draws_wait_for_the_next_turn_not_the_wrap_up():
    """Guide 1.10: "Newly drawn companies are not available for auction in the same turn. They have
    to wait until next turn."  Stars' wrap-up is no classic phase."""
    rng = random.Random(3)
    game = registry.CLASSIC.create(["Amy", "Brian", "Crystal"])
    texts = []
    for _ in range(400):
        menu = game.legal_actions()
        if not menu or any("unavailable" in t for t in texts):
            break
        game.apply(events_of(rng.choice(menu), lambda *a: a[0] if len(a) == 2 else rng.choice(a[0])))
        texts = [e["text"] for e in game.journal]
    drawn = [t for t in texts if "unavailable" in t]
    assert drawn and all(t.endswith("drawn (unavailable until the next turn)") for t in drawn), drawn
    assert not [t for t in texts if "wrap-up" in t]


@pytest.mark.parametrize(
    ("key", "corporation", "word"),
    [
        ("rolling-stock-stars", "Doppler AG", "Charter"),
        ("rolling-stock-v2.2", "Eagle", "Symbol card"),
        ("rolling-stock", "Eagle", "Symbol card"),
    ],
)
def test_the_ipo_form_names_the_card_as_the_game_does(key, corporation, word):
    """Stars forms a corporation with a charter; v2.2 ("The PLAYER selects an unused symbol card") and
    the Guide ("Set the ten symbol cards aside") with a symbol card."""
    ruleset = registry.get(key)
    option = {"price": 10, "corporation": corporation, "owner_shares": 1, "bank_shares": 1, "payment": 0}
    item = {"type": "ipo", "player": "Amy", "company": "KME", "options": [dict(option, treasury=10)]}
    form = web_menu.build([item], {}, ruleset)[0].forms[0]
    assert [g.legend for g in form.radios] == ["1. Share price (and what it costs)", f"2. {word}"]
    item["options"].append(dict(option, price=12, treasury=12, owner_shares=2))  # not every price with every card
    item["options"].append(dict(option, price=14, treasury=14, corporation=list(ruleset.corporations)[0]))
    form = web_menu.build([item], {}, ruleset)[0].forms[0]
    assert [g.legend for g in form.radios] == [f"{word} and share price"]


def test_the_home_page_names_the_family_and_a_game_its_own_name(client, table):
    home = client.get("/").text
    assert "Mirrors your physical game of Rolling Stock:" in home
    assert '<a href="/" class="brand">Rolling Stock</a>' in home and "Rolling Stock Stars" not in home
    assert "<title>Rolling Stock</title>" in home
    gid = _create(client, table, "rolling-stock-v2.2")
    page = client.get(f"/games/{gid}").text
    assert "<title>Setup · Phase 1 · Rolling Stock v2.2</title>" in page and "Rolling Stock Stars" not in page
    helper = client.get(f"/games/{gid}/help/standings").text  # a whole page with the header
    assert 'class="brand">Rolling Stock v2.2</a>' in helper and "Rolling Stock Stars" not in helper
    missing = client.get(f"/games/{gid}/why/nonsense")  # a 404 inside the game: the game's own name
    assert missing.status_code == 404
    assert 'class="brand">Rolling Stock v2.2</a>' in missing.text and "· Rolling Stock v2.2</title>" in missing.text
    nowhere = client.get("/games/no-such-game")  # outside any game: the family
    assert nowhere.status_code == 404 and 'class="brand">Rolling Stock</a>' in nowhere.text
    classic = _create(client, table, "rolling-stock")
    assert 'class="brand">Rolling Stock</a>' in client.get(f"/games/{classic}/help/standings").text


def test_the_new_game_form_shows_each_games_own_variants(client):
    page = client.get("/games/new").text
    blocks = {
        key: page[page.index(f'id="ruleset-{key}"') :].split('<div class="ruleset"', 1)[0] for key in registry.RULESETS
    }
    # Stars: "Two-handed"; classic (Guide 3.7): "Two players", the app's "Two-player variant"
    assert "<strong>Two-handed</strong>" in blocks["rolling-stock-stars"]
    assert "<strong>Two-player variant</strong>" in blocks["rolling-stock"]
    assert "Two-handed" not in blocks["rolling-stock"]
    assert 'name="option"' not in blocks["rolling-stock-v2.2"]
    # and only the chosen game's show: a style sheet of the form's own hides the others'
    css = re.search(r'<link rel="stylesheet" href="(/static/new_game\.[0-9a-f]{12}\.css)">', page).group(1)
    sheet = client.get(css).get_data(as_text=True)
    assert ":has(>label input[name=ruleset]:not(:checked)) fieldset" in sheet.replace("> ", ">")  # sent minified
    assert CSRF_RE.search(page)


def test_every_game_brings_its_own_words():
    for ruleset in registry.RULESETS.values():
        assert set(ruleset.words) == set(vocabulary.WORD_KEYS), ruleset.key
    assert registry.STARS.money(4) == "4●" and registry.V22.money(4) == "$4" and registry.CLASSIC.money(4) == "$4"
    with pytest.raises(ValueError, match="no words for"):
        vocabulary.load("assistant.rules.classic", "rolling-stock-stars")
