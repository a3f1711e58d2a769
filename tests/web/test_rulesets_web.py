"""Rulesets in the app: the new-game form, the store, export/import, the rules page, and a
Rolling Stock v2.2 game played through the web client (issue 10)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from assistant.rules import registry
from assistant.store import Store
from tests.project_games import played_game
from tests.renaming import name_map, rename_transcript

STARS_NAMES = list(registry.STARS.corporations)
V22_NAMES = list(registry.V22.corporations)


def _create(client, table, ruleset, players=("Amy", "Brian", "Crystal"), **extra):
    data = {"csrf_token": table.csrf(), "name": list(players), "ruleset": ruleset, **extra}
    return client.post("/games/new", data=data)


# ------------------------------------------------------------------ the form
def test_form_offers_every_ruleset_with_what_differs_stars_preselected(client):
    page = client.get("/games/new").text
    for key, r in registry.RULESETS.items():
        assert f'name="ruleset" value="{key}"' in page
        assert r.differs.replace("“", "&#8220;") in page or r.differs in page
    assert re.search(r'name="ruleset" value="rolling-stock-stars" checked', page)
    assert page.count(" checked") == 1 + sum(1 for r in registry.RULESETS.values() if r.game_types)
    # the variants belong to Stars
    stars_block = page[page.index('id="ruleset-rolling-stock-stars"') : page.index('id="ruleset-rolling-stock-v2.2"')]
    assert 'value="open_companies"' in stars_block and 'value="two_handed"' in stars_block


# (the form creates a game of every ruleset, the JSON door plays it, every page shows it, the export
# replays: tests/web/test_every_game.py)
@pytest.mark.parametrize(
    "key, waits",
    [
        ("rolling-stock-stars", "the wrap-up"),
        ("rolling-stock-v2.2", "the end of phase 2"),
        ("rolling-stock", "the next turn"),
    ],
)
def test_a_company_drawn_in_play_waits_in_each_games_words(client, table, key, waits):
    """A company drawn in phase 1 waits: Stars calls it the wrap-up, v2.2 numbers the phase,
    classic's Guide says "until next turn"."""
    extra = {"game_type-rolling-stock": "full"} if key == "rolling-stock" else {}
    resp = _create(client, table, key, ["Amy", "Brian", "Crystal", "Dirk"], **extra)
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{gid}/v/table").text  # the Table view: offering, deck, prices
    assert f"Unavailable (until {waits})" in page


def test_form_creates_a_classic_game_of_each_type(client, table, store):
    classic = registry.get("rolling-stock")
    offered = [t for t in classic.game_types if t.offered]
    assert [t.key for t in offered] == ["full", "short", "training"]
    page = client.get("/games/new").text
    for game_type in classic.game_types:
        shown = f'name="game_type-rolling-stock" value="{game_type.key}"' in page
        assert shown == game_type.offered
    for game_type in offered:
        resp = _create(
            client, table, "rolling-stock", ["Amy", "Brian", "Crystal"], **{"game_type-rolling-stock": game_type.key}
        )
        assert resp.status_code == 303, resp.text
        info = store.get_game(resp.headers["Location"].rsplit("/", 1)[1])
        assert info.ruleset == "rolling-stock" and info.options == list(game_type.options)


def test_form_checks_player_counts_per_ruleset(client, table, store):
    resp = _create(client, table, "rolling-stock-v2.2", ["Amy", "Brian"])
    assert resp.status_code == 422
    assert "Rolling Stock v2.2 is for 3 to 6 players, not 2." in resp.text
    # the choice survives the refusal
    assert re.search(r'name="ruleset" value="rolling-stock-v2.2" checked', resp.text)
    assert _create(client, table, "rolling-stock-stars", ["Amy", "Brian"]).status_code == 303
    assert len(list(store.backend._db().query("SELECT id FROM games"))) == 1


def test_form_refuses_a_variant_the_ruleset_does_not_have(client, table, store):
    resp = _create(client, table, "rolling-stock-v2.2", ["Amy", "Brian"], option="two_handed")
    assert resp.status_code == 422
    assert "Rolling Stock v2.2 has no variant" in resp.text and "Two-handed" in resp.text
    resp = _create(client, table, "no-such-game")
    assert resp.status_code == 422 and "Choose one of the games offered" in resp.text
    assert not list(store.backend._db().query("SELECT id FROM games"))


# ------------------------------------------------------------------ the store
def test_store_keeps_the_ruleset_across_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    v22 = store.create_game(["Amy", "Brian", "Crystal"], ruleset="rolling-stock-v2.2")
    stars = store.create_game(["Amy", "Brian"], ruleset="rolling-stock-stars")
    store.close()
    again = Store(path)
    assert again.get_game(v22).ruleset == "rolling-stock-v2.2"
    assert again.get_game(stars).ruleset == "rolling-stock-stars"
    assert again.state(v22)[1].ruleset is registry.V22
    assert again.export(v22)["game"] == "rolling-stock-v2.2"
    again.close()


def test_a_database_from_before_rulesets_opens_its_games_as_stars(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, players TEXT NOT NULL, options TEXT NOT NULL, deck TEXT,
                            created TEXT NOT NULL, persons TEXT);
        CREATE TABLE events (game_id TEXT REFERENCES games(id), seq INTEGER, event TEXT NOT NULL, token TEXT,
                             created TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        INSERT INTO games VALUES ('old-game-0123456789abcdef', '["Amy", "Brian", "Crystal"]', '[]', NULL,
                                  '2026-01-01T00:00:00+00:00', NULL);
        INSERT INTO events VALUES ('old-game-0123456789abcdef', 1, '{"type": "reveal", "company": "BME"}', NULL,
                                   '2026-01-01T00:00:00+00:00');
        """
    )
    conn.commit()
    conn.close()
    store = Store(path)
    info = store.get_game("old-game-0123456789abcdef")
    assert info.ruleset == "rolling-stock-stars"
    seq, game = store.state(info.id)
    assert seq == 1 and game.ruleset is registry.STARS and game.snapshot()["offering"]["available"] == ["BME"]
    assert store.export(info.id)["game"] == "rolling-stock-stars"
    store.close()


def test_export_and_import_carry_the_game_and_options(client, table, store):
    names = name_map(registry.STARS, registry.V22)
    data = rename_transcript(played_game(limit=120), registry.V22)
    resp = client.post("/games/import", json=data)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    gid = resp.get_json()["id"]
    assert store.get_game(gid).ruleset == "rolling-stock-v2.2"
    exported = client.get(f"/games/{gid}/export").get_json()
    assert exported["game"] == "rolling-stock-v2.2" and exported["options"] == []
    assert exported["events"] == data["events"]
    again = client.post("/games/import", json=exported)
    assert again.status_code == 303
    snap = table.state(again.get_json()["id"])
    assert set(snap["corporations"]) <= set(names.values()) and snap["corporations"]


def test_import_refuses_an_unknown_game_and_variants_of_another_ruleset(client, store):
    data = played_game(limit=10)
    resp = client.post("/games/import", json=dict(data, game="rolling-stock-v9"))
    assert resp.status_code == 422
    assert "unknown game 'rolling-stock-v9'" in resp.get_json()["error"]
    for odd in (["rolling-stock"], {"game": 1}, 7, None):
        resp = client.post("/games/import", json=dict(data, game=odd))
        assert resp.status_code == 422 and "unknown game" in resp.get_json()["error"]
    resp = client.post("/games/import", json=dict(data, game="rolling-stock-v2.2", options=["two_handed"]))
    assert resp.status_code == 422 and "two_handed" in resp.get_json()["error"]
    assert not list(store.backend._db().query("SELECT id FROM games"))


# ------------------------------------------------------------------ the rules page
def test_rules_page_of_a_v22_game_is_v22s_own(client, table):
    """Issue 37: a v2.2 game links to v2.2's own rules, not to the Stars text under a note mapping the names."""
    resp = _create(client, table, "rolling-stock-v2.2")
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/games/{gid}/v/more").text  # the navigation's More view links the rules
    rules_url = f"/rules?game={gid}"
    assert f'href="{rules_url}"' in page
    rules = client.get(rules_url).text
    assert "Rules of Rolling Stock v2.2" in rules and "Prussian Railway" not in rules
    # "3. In ANY ORDER, CORPORATIONS buy COMPANIES ...", anchored as the Stars section refusals name
    section = rules[rules.index('id="phase-3-acquisition"') :].split("</section>")[0]
    assert '<h3><a href="#phase-3-acquisition">Phase 3</a></h3>' in section
    assert "In ANY ORDER, CORPORATIONS buy COMPANIES from other CORPORATIONS" in section
    assert client.get("/rules?ruleset=nope").status_code == 404


# ------------------------------------------------------------------ a v2.2 game through the web client
def test_a_v22_game_is_played_through_the_forms_with_v22_names(client, table, store):
    """The project's game, entered form by form into a v2.2 game: every page names v2.2 corporations."""
    data = rename_transcript(played_game(limit=160), registry.V22)
    resp = _create(client, table, "rolling-stock-v2.2", data["players"])
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    corporations_seen = set()
    seq = 0
    for i, event in enumerate(data["events"]):
        resp = table.act(gid, event, seq=seq)
        assert resp.status_code == 303, (i, event, resp.text[:500])
        # one row per entry; the ``done`` of a phase that ended by itself (nobody could act) writes none
        seq = table.state(gid)["seq"]
        if event["type"] in ("ipo", "dividend", "acquire") or i % 25 == 0:
            page = client.get(f"/games/{gid}").text
            assert not [n for n in STARS_NAMES if n in page], (i, event)
            corporations_seen |= {n for n in V22_NAMES if n in page}
    snap = table.state(gid)
    # every entry is in the log, and the phases that ended by themselves write their ``done``s back
    assert client.get(f"/games/{gid}/export").get_json()["events"] == data["events"]
    assert snap["corporations"] and set(snap["corporations"]) <= set(V22_NAMES)
    assert corporations_seen
    # a refusal names the v2.2 corporation
    name = next(iter(snap["corporations"]))
    bad = table.post_json(gid, {"seq": snap["seq"], "event": {"type": "dividend", "corporation": name, "amount": 999}})
    assert bad.status_code == 422
    helpers = [
        client.get(f"/games/{gid}/help/{h}") for h in ("standings", "banker", "outlook", "closing", "dividend", "ipo")
    ]
    for h in helpers:
        assert h.status_code in (200, 404)
        assert not [n for n in STARS_NAMES if n in h.text]
    why = client.get(f"/games/{gid}/why/stars", query_string={"corporation": name})
    assert why.status_code == 200 and name in why.text
    exported = client.get(f"/games/{gid}/export").get_json()
    assert exported["game"] == "rolling-stock-v2.2"
    assert json.dumps(exported["events"]) == json.dumps(data["events"])


# ------------------------------------------------------------------ a classic game through the web client
PAGES = ("banner", "actions", "offering", "deck", "corporations", "players", "prices", "foreign", "history", "scoring")
HELPERS = ("standings", "banker", "outlook", "closing", "dividend", "ipo")


def test_a_classic_game_is_played_through_the_json_door_and_every_page_shows_it(client, table, store):
    import random

    from assistant.rules import events_of

    resp = _create(client, table, "rolling-stock", ["Amy", "Brian", "Crystal"], **{"game_type-rolling-stock": "short"})
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    assert store.get_game(gid).options == ["short"]
    # Guide: "Newly drawn companies are not available for auction in the same turn. They have to wait until next turn."
    assert "Unavailable (until the next turn)" in client.get(f"/games/{gid}/c/offering").text
    rng = random.Random(7)
    shown_corporations = set()
    for i in range(400):
        seq, game = store.state(gid)
        if game.game_over:
            break
        item = rng.choice(game.legal_actions())
        event = events_of(item, lambda *a: a[0] if len(a) == 2 else rng.choice(a[0]))
        answer = table.post_json(gid, {"seq": seq, "event": event})
        assert answer.status_code == 200, (i, event, answer.get_json())
        if i % 15:
            continue
        page = client.get(f"/games/{gid}")
        assert page.status_code == 200
        assert "Rolling Stock" in page.text and "Rolling Stock Stars" not in page.text
        assert "purple" not in client.get(f"/games/{gid}/c/deck").text  # the short game has no purple
        shown_corporations |= {n for n in registry.CLASSIC.corporations if f"</span> {n} " in page.text}
        for name in PAGES:
            assert client.get(f"/games/{gid}/c/{name}").status_code == 200, name
        for name in HELPERS:
            assert client.get(f"/games/{gid}/help/{name}").status_code in (200, 404), name
    assert store.state(gid)[1].game_over
    assert shown_corporations, "some corporation should have been formed and shown"
    rules = client.get(f"/rules?game={gid}").text
    assert "Players Guide" in rules and "Rules of Rolling Stock" in rules
    exported = client.get(f"/games/{gid}/export").get_json()
    assert exported["game"] == "rolling-stock" and exported["options"] == ["short"]
    again = client.post("/games/import", json=exported)
    assert again.status_code == 303 and store.get_game(again.get_json()["id"]).ruleset == "rolling-stock"


def test_form_offers_each_ruleset_its_own_variants_and_open_deck(client, table, store):
    from assistant.rules.classic import rules as classic_rules
    from assistant.rules.classic.cards import CARDS as classic_cards

    page = client.get("/games/new").text
    classic_block = page[page.index('id="ruleset-rolling-stock"') :]
    assert 'value="share_redemption"' in classic_block and 'value="two_handed"' in classic_block  # Guide 3.7
    assert 'name="deck-rolling-stock" value="OPC"' in classic_block  # a purple company: classic cards
    counts = classic_rules.deck_counts("full", 3)
    deck = [a for color, n in counts.items() for a in classic_cards.companies_by_color[color][:n]]
    resp = _create(
        client,
        table,
        "rolling-stock",
        **{
            "game_type-rolling-stock": "full",
            "option": ["open_companies", "share_redemption"],
            "deck-rolling-stock": deck,
            "deck": ["BME"],  # ticked in the Stars block: not this game's
        },
    )
    assert resp.status_code == 303, resp.text
    info = store.get_game(resp.headers["Location"].rsplit("/", 1)[1])
    assert info.ruleset == "rolling-stock" and sorted(info.deck) == sorted(deck)
    assert set(info.options) == {"open_companies", "share_redemption"}
    bad = _create(client, table, "rolling-stock-v2.2", **{"option": "share_redemption"})
    assert bad.status_code == 422 and "Rolling Stock v2.2 has no variant “Share redemption”" in bad.text


def test_dividend_effect_of_reaching_the_top_card_names_each_games_top_and_end_phase():
    from assistant.web.helpers_context import _effect

    stars = registry.STARS.create(["Amy", "Brian"])
    assert _effect(stars, "75") == ("★", "reaches 75: the game ends in phase 7")
    assert _effect(stars, "raise") == ("▲", "price rises")
    if "rolling-stock" in registry.RULESETS:
        classic = registry.get("rolling-stock").create(["Amy", "Brian"])
        assert _effect(classic, "100") == ("★", "reaches 100: the game ends in phase 10")
