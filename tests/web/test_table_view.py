"""The table view, piece by piece: the IPO as two phone-sized questions, "phase done" held back in
phase 4 (and why), corporations with income and stars explained, the deck's outlook, the share
price row, the foreign investor, the players' values, the final scoring, the two-handed variant."""

from __future__ import annotations

import random
import re
from html import unescape

from assistant.rules import events_of
from assistant.rules.core.game import Game
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score
from assistant.rules.registry import STARS
from assistant.rules.stars.cards import CARDS
from assistant.web import action_forms as web_menu

from .htmlforms import forms
from .turn_one import AT_IPO, AT_PHASE_4, PLAYERS, TURN_ONE, play

COMPANIES = CARDS.companies

BLOCK = re.compile(
    r"</?(?:p|li|ul|ol|h\d|tr|td|th|table|article|section|div|label|fieldset|legend|small|form|button)"
    r"\b[^>]*>"
)


def _text(html: str) -> str:
    """The text of some HTML as a screen reader gets it: aria-hidden marks left out, whitespace
    collapsed (block elements separate words)."""
    html = re.sub(r'<span class="mark" aria-hidden="true">[^<]*</span>', "", html)
    return " ".join(unescape(re.sub(r"<[^>]+>", "", BLOCK.sub(" ", html))).split())


def _game_at(table, n: int) -> str:
    gid = table.new_game(PLAYERS)
    play(table, gid, TURN_ONE[:n])
    return gid


def _played_until(table, wanted, seeds=range(50)) -> tuple[str, Game]:
    """A game played by the engine's menu (seeded) until ``wanted(game)`` holds, entered at the
    table event by event: real events reach the position, nothing is set by hand."""
    weights = {"close": 0.01, "ipo": 0.05, "skip_ipo": 5, "bid": 3}  # private companies grow old
    for seed in seeds:
        rng = random.Random(seed)
        game = STARS.create(PLAYERS)
        while not game.game_over and len(game.events) < 600:
            if not game.pending_reveals and wanted(game):
                gid = table.new_game(PLAYERS)
                play(table, gid, game.events)
                return gid, game
            menu = game.legal_actions()
            item = rng.choices(menu, [weights.get(i["type"], 1.0) for i in menu])[0]
            game.apply(events_of(item, lambda *a, rng=rng: a[0] if len(a) == 2 else rng.choice(a[0])))
    raise AssertionError("no seeded game reached the wanted position")


# -- the IPO ---------------------------------------------------------------------------------------
def test_ipo_asks_for_the_price_with_its_payment_then_the_charter(client, table, store):
    gid = _game_at(table, AT_IPO)
    _, game = store.state(gid)
    item = next(m for m in game.legal_actions() if m["type"] == "ipo")
    panel = client.get(f"/games/{gid}/c/actions").text
    assert "<select" not in panel  # no dropdown whose long labels a phone cuts off
    form = next(f for f in forms(panel) if f.fields.get("e.type") == "ipo")
    prices = sorted({o["price"] for o in item["options"]})
    charters = list(dict.fromkeys(o["corporation"] for o in item["options"]))
    assert [int(p) for p in form.selects["e.price"]] == prices
    assert form.selects["e.corporation"] == charters
    for o in item["options"]:  # each price shows what it costs the owner and brings the treasury
        share = "share" if o["owner_shares"] == 1 else "shares"
        assert (
            f"{o['price']}: Amy pays {o['payment']}<small>treasury {o['treasury']}, "
            f"{o['owner_shares']} {share} each for Amy and the bank</small>"
        ) in panel
    assert "Collect income: +1 per company it owns." in panel  # the charter's ability beside its name
    text = _text(panel)
    assert text.index("1. Share price") < text.index("2. Charter") < text.index("Take KME public")
    data = dict(form.fields, **{"e.price": "12", "e.corporation": "Doppler AG"})
    resp = client.post(form.action, data=data)
    assert resp.status_code == 303
    corp = table.state(gid)["corporations"]["Doppler AG"]
    assert corp["share_price"] == 12 and corp["cash"] == 19 and corp["president"] == "Amy"


def test_ipo_options_that_are_not_every_price_with_every_charter_are_one_list():
    item = {
        "type": "ipo",
        "player": "Amy",
        "company": "KME",
        "options": [
            {
                "corporation": "Doppler AG",
                "price": 10,
                "owner_shares": 1,
                "bank_shares": 1,
                "payment": 5,
                "treasury": 15,
            },
            {
                "corporation": "Synergistic",
                "price": 12,
                "owner_shares": 1,
                "bank_shares": 1,
                "payment": 7,
                "treasury": 19,
            },
        ],
    }
    [group] = web_menu.build([item], {}, STARS)
    [radios] = group.forms[0].radios
    assert radios.name == "choice"
    assert [(r.value, r.label) for r in radios.options] == [
        ("10|Doppler AG", "Doppler AG at 10: Amy pays 5"),
        ("12|Synergistic", "Synergistic at 12: Amy pays 7"),
    ]
    event = web_menu.event_from_form({"e.type": "ipo", "e.company": "KME", "e.choice": "12|Synergistic"})
    assert event == {"type": "ipo", "company": "KME", "price": 12, "corporation": "Synergistic"}


def test_radio_choices_are_large_touch_rows(client):
    css = client.get("/static/app.css").text
    rule = re.search(r"label\.radio \{([^}]*)\}", css).group(1)
    assert "min-height: 44px" in rule and "display: grid" in rule  # the circle beside the choice, its meaning below


# -- phase 4 -----------------------------------------------------------------------------------------
def test_phase_4_done_is_offered_when_nobody_must_close(client, table):
    gid = _game_at(table, AT_PHASE_4)
    panel = client.get(f"/games/{gid}/c/actions").text
    assert "End phase 4 for the whole table" in panel and "cannot end yet" not in panel
    assert "I&#39;m done" in panel or "I'm done" in panel
    assert "Close KME" in panel and "Close BSE" in panel


def _short_by_hand(game) -> list[tuple[str, int, int]]:
    """Players whose money cannot pay their coming income: printed incomes minus cost of ownership."""
    costs = game.costs()
    out = []
    for name in game.order:
        p = game.players[name]
        income = sum(COMPANIES[a].income - costs.get(COMPANIES[a].color, 0) for a in p.companies)
        if p.companies and p.cash + income < 0:
            out.append((name, p.cash, income))
    return out


def test_phase_4_without_done_says_which_player_must_close(client, table, store):
    gid, game = _played_until(table, lambda g: g.phase == 4 and _short_by_hand(g))
    [(name, cash, income)] = _short_by_hand(game)
    _, shown = store.state(gid)
    assert shown.snapshot() == game.snapshot()  # the served game is in that position
    panel = client.get(f"/games/{gid}/c/actions").text
    assert "Phase 4 done" not in panel  # the engine's menu holds it back
    assert f"Phase 4 cannot end yet: {name} has {cash} and a coming income of {income}." in _text(panel)
    for abbr in game.players[name].companies:
        assert f"Close {abbr}" in panel
    banner = _text(client.get(f"/games/{gid}/c/banner").text)
    assert f"{name} (money {cash}, income {income}) must close companies first" in banner


# -- corporations, prices, players, foreign investor, deck ----------------------------------------------
def test_corporation_shows_income_and_stars_with_their_parts(client, table, store):
    gid = _game_at(table, len(TURN_ONE))
    _, game = store.state(gid)
    html = client.get(f"/games/{gid}/c/corporations").text
    text = _text(html)
    income = explain_income(game, "Prussian Railway")
    stars = explain_rating(game, "Prussian Railway")
    assert f"Income {income['total']}" in text
    assert f"Stars {stars['total']} of {stars['required']} required" in text
    for line in income["lines"] + stars["lines"]:
        assert f"<li>{line}</li>" in html.replace("&#39;", "'")
    assert "President: Amy" in text and "Cash 15" in text
    assert "Shares: Amy 1 · bank 1 · unissued 3 (issued 2)" in text


def test_price_row_shows_the_cards_in_use_and_who_holds_them(client, table):
    gid = _game_at(table, len(TURN_ONE))
    html = client.get(f"/games/{gid}/c/prices").text
    assert re.search(
        r'<li class="used"><span class="p">10</span><span class="corp" title="Prussian Railway '
        r'\(president Amy\)">PRU</span></li>',
        html,
    )
    assert html.count('class="used"') == 1
    assert "In use: 10 Prussian Railway (Amy)" in _text(html)


def test_players_value_is_the_engines_score(client, table, store):
    gid = _game_at(table, len(TURN_ONE))
    _, game = store.state(gid)
    text = _text(client.get(f"/games/{gid}/c/players").text)
    for name in PLAYERS:
        p = table.state(gid)["players"][name]
        assert re.search(
            rf"{name} .*Cash {p['cash']} · income {p['income']}\b[^·]*· value "
            rf"{explain_score(game, name)['total']}\b",
            text,
        )


def test_foreign_investor_income_is_explained(client, table, store):
    gid = _game_at(table, len(TURN_ONE))
    _, game = store.state(gid)
    html = client.get(f"/games/{gid}/c/foreign").text
    why = explain_income(game, "foreign_investor")
    assert f"income <strong>{why['total']}</strong>" in html
    for line in why["lines"]:
        assert f"<li>{line}</li>" in html


def test_deck_tells_what_comes_next(client, table):
    gid = table.new_game(PLAYERS)
    text = _text(client.get(f"/games/{gid}/c/deck").text)
    assert "20 cards left" in text
    assert "On top: red (4 left). When the red cards run out: orange on top, cost of ownership unchanged." in text
    assert "The cost of ownership next changes after 12 more cards: red 2." in text  # green on top
    gid = _game_at(table, len(TURN_ONE))
    text = _text(client.get(f"/games/{gid}/c/deck").text)
    assert "On top: orange (2 left)" in text and "yellow on top" in text
    assert "Companies that will then lose money: BSE of Crystal (income -1), BME of the foreign investor" in text


def test_deck_when_blue_runs_out_shows_the_end_card_costs(client, table):
    gid, game = _played_until(table, lambda g: g.top_color() == "blue")
    left = game.deck_left["blue"]
    assert left and not any(game.deck_left[c] for c in ("red", "orange", "yellow", "green"))
    text = _text(client.get(f"/games/{gid}/c/deck").text)
    assert (
        f"On top: blue ({left} left). When the blue cards run out: the end card (front), cost of ownership "
        "becomes red 7, orange 7, yellow 7."
    ) in text


# -- the end of the game -----------------------------------------------------------------------------------
def _finished(players, options=(), persons=None, seed=3) -> Game:
    rng = random.Random(seed)
    game = STARS.create(players, options, persons=persons)
    while not game.game_over:
        menu = game.legal_actions()
        passes = [m for m in menu if m["type"] in ("pass", "leave", "skip_issue")]
        item = rng.choice(passes) if passes and rng.random() < 0.6 else rng.choice(menu)
        game.apply(events_of(item, lambda *a: rng.randint(*a) if len(a) == 2 else rng.choice(a[0])))
    return game


def _import(client, game: Game, players, options=(), persons=None) -> str:
    body = {
        "format": "rss-table-transcript",
        "version": 1,
        "players": list(players),
        "options": list(options),
        "events": game.events,
    }
    if persons:
        body["persons"] = persons
    resp = client.post("/games/import", json=body)
    assert resp.status_code == 303, resp.get_json()
    return resp.get_json()["id"]


def test_final_scoring_shows_the_ranking_and_each_players_breakdown(client):
    game = _finished(PLAYERS)
    gid = _import(client, game, PLAYERS)
    html = client.get(f"/games/{gid}/c/scoring").text
    text = _text(html)
    final = game.snapshot()["final"]
    assert "Final scoring" in text
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td>", html)
    assert [name for _, name in rows] == final["ranking"] and [int(r) for r, _ in rows] == [1, 2, 3]
    for name in PLAYERS:
        why = explain_score(game, name)
        assert why["total"] == final["scores"][name]
        assert f"{name}: {why['total']}" in text
        for line in why["lines"]:
            assert f"<li>{line}</li>" in html.replace("&#39;", "'")
    banner = _text(client.get(f"/games/{gid}/c/banner").text)
    assert f"The game is over: {final['ranking'][0]} wins" in banner


def test_two_handed_final_shows_the_persons_and_the_winner_by_the_lower_ranked_seat(client):
    seats = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]
    game = _finished(seats, ["two_handed"], ["Amy", "Brian"])
    th = game.snapshot()["final"]["two_handed"]
    gid = _import(client, game, seats, ["two_handed"], ["Amy", "Brian"])
    text = _text(client.get(f"/games/{gid}/c/scoring").text)
    assert f"{th['winner']} wins the two-handed game: the lower-ranked seat decides." in text
    for person in ("Amy", "Brian"):
        assert (
            f"{person}: {' and '.join(th['seats'][person])}; lower-ranked seat: rank {th['lower_rank'][person]}"
        ) in text
    banner = _text(client.get(f"/games/{gid}/c/banner").text)
    assert f"The game is over: {th['winner']} wins" in banner


# -- the two-handed variant at the table ---------------------------------------------------------------------
def test_two_handed_persons_are_kept_exported_and_imported(client, table, store):
    gid = table.new_game(["Amy", "Brian"], option="two_handed")
    exported = client.get(f"/games/{gid}/export").get_json()
    assert exported["persons"] == ["Amy", "Brian"]
    assert exported["players"] == ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]
    again = client.post("/games/import", json=exported).get_json()["id"]
    assert store.get_game(again).persons == ["Amy", "Brian"]
    bad = client.post("/games/import", json=dict(exported, persons=["Amy"]))
    assert bad.status_code == 422 and "persons" in bad.get_json()["error"]


def test_a_person_takes_both_seats_on_one_phone(client, table):
    gid = table.new_game(["Amy", "Brian"], option="two_handed")
    join = client.get(f"/games/{gid}/c/join").text
    assert "I am Amy (both seats)" in join and "I am Brian (both seats)" in join
    assert "I am Amy (right hand)" in join
    table.reveal_all(gid)
    assert table.state(gid)["next"]["player"] == "Amy (right hand)"
    resp = client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Amy"})
    assert resp.status_code == 303
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "my-turn" in banner and "you are <strong>Amy</strong>" in banner
    players = client.get(f"/games/{gid}/c/players").text
    assert players.count('<span class="tag">you</span>') == 2  # both of Amy's seats
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": "Brian"})
    assert "my-turn" not in client.get(f"/games/{gid}/c/banner").text
    table.act(gid, {"type": "pass", "player": "Amy (right hand)"})
    assert table.state(gid)["next"]["player"] == "Brian (left hand)"
    assert "my-turn" in client.get(f"/games/{gid}/c/banner").text
