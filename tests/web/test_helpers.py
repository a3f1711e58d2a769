"""Decision helpers, "Why?" explanations and the rules page through the Flask test client.

Every test has its own app and SQLite file (conftest).  Positions are seeded playouts imported
through ``POST /games/import`` (helper_positions); figures are checked against the engine, and
the helper's own forms are submitted to check that a preview equals what then happens.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import pytest

from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.rules.core.phases.closing import preview_closing
from assistant.rules.core.phases.dividends import dividend_chart, explain_dividend_limit, explain_price_after_dividend
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.phases.investment import explain_share_price, share_trade
from assistant.rules.core.phases.ipo import ipo_calculator
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.records import banker_sheet
from assistant.rules.core.scores import explain_score, standings
from assistant.rules.stars import rulebook
from assistant.rules.stars.cards import CARDS
from tests.renaming import SAID_WITH_AN

from .helper_positions import game_of, import_position
from .htmlforms import forms

COMPANIES = CARDS.companies

HX = {"HX-Request": "true"}
HELPERS = ("dividend", "ipo", "trade", "acquisition", "closing", "standings", "banker", "outlook", "close")


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def rows_of(html: str, attr: str) -> dict[str, str]:
    """``<tbody … data-<attr>="x">…</tbody>`` blocks by their value."""
    return dict(re.findall(rf'<tbody[^>]*data-{attr}="([^"]+)"[^>]*>(.*?)</tbody>', html, re.DOTALL))


def cell(html: str, cls: str) -> str:
    m = re.search(rf'<td class="{cls}">(.*?)</td>', html, re.DOTALL)
    assert m, (cls, html)
    return text_of(m.group(1))


def links(html: str) -> set[tuple]:
    """The helper links of a page: (path, sorted query items)."""
    out = set()
    for href in re.findall(r'class="(?:helper-link|why[^"]*)" href="([^"]+)"', html):
        parts = urlsplit(unescape(href))
        out.add((parts.path, tuple(sorted(parse_qsl(parts.query)))))
    return out


def link(path: str, **query) -> tuple:
    return path, tuple(sorted((k, str(v)) for k, v in query.items()))


def state(client, gid):
    return client.get(f"/games/{gid}/state").get_json()


def no_inline_code(html: str) -> None:
    """The CSP allows no inline script or style: none is rendered."""
    assert " style=" not in html and "<style" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert not re.search(r"\son[a-z]+=", html)
    assert "hx-on" not in html


# ---------------------------------------------------------------------- rules page and refusals
def test_rules_page_has_every_section_with_its_anchor(client, table):
    resp = client.get("/rules")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    for sec in rulebook.sections():
        assert f'id="{sec["anchor"]}"' in html
    assert "Back to the table" not in html
    gid = table.started_game()
    html = client.get(f"/rules?game={gid}").get_data(as_text=True)
    assert f'href="/games/{gid}"' in html and "Back to the table" in html
    html = client.get('/rules?game="><script>x</script>').get_data(as_text=True)
    assert "<script>x" not in html and "Back to the table" not in html
    no_inline_code(html)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refusal_links_to_the_rule_it_applies(client, table, htmx):
    gid = table.started_game()
    nxt = state(client, gid)["next"]
    resp = table.act(
        gid, {"type": "bid", "player": nxt["player"], "company": "BME", "price": 999}, headers=HX if htmx else None
    )
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    m = re.search(r'class="rule-link" href="([^"]+)"', html)
    assert m, html
    href = m.group(1).replace("&amp;", "&")
    assert href.startswith(f"/rules?game={gid}#")
    anchor = href.split("#", 1)[1]
    assert rulebook.section(anchor) is not None
    assert f'id="{anchor}"' in client.get(href.split("#")[0]).get_data(as_text=True)


# ---------------------------------------------------------------------- dividend chart
def test_dividend_chart_matches_the_engine_and_its_rows_pay(client, store):
    gid = import_position(client, "dividend")
    game = game_of("dividend")
    chart = dividend_chart(game)
    page = client.get(f"/games/{gid}")
    assert f'href="/games/{gid}/help/dividend"' in page.get_data(as_text=True)  # one tap from the form
    html = client.get(f"/games/{gid}/help/dividend", headers=HX).get_data(as_text=True)
    assert "<html" not in html
    no_inline_code(html)
    rows = rows_of(html, "amount")
    assert [int(a) for a in rows] == [r["amount"] for r in chart["rows"]]
    for r in chart["rows"]:
        row = rows[str(r["amount"])]
        assert cell(row, "cash") == str(r["cash_left"])
        assert cell(row, "stars") == f"{r['stars']} / {r['required']}"
        assert cell(row, "new-price").split()[0] == str(r["new_price"])
        assert f"fx-{r['effect']}" in html
        for who, amount in r["payouts"].items():
            if r["amount"]:
                assert f"{who} {amount}" in text_of(row)
    # tapping the row of the largest amount pays it: the game then shows the chart's figures
    top = chart["rows"][-1]
    pay = [f for f in forms(html) if f.fields.get("e.amount") == str(top["amount"])]
    assert len(pay) == 1 and pay[0].attrs["hx-post"] == f"/games/{gid}/act"
    resp = client.post(pay[0].action, data=pay[0].submission())
    assert resp.status_code == 303
    after = state(client, gid)["corporations"].get(chart["corporation"])
    if top["effect"] == "bankrupt":
        assert after is None
    else:
        assert after["share_price"] == top["new_price"]


def test_dividend_chart_when_no_dividend_is_due(client, table):
    gid = table.started_game()
    html = client.get(f"/games/{gid}/help/dividend").get_data(as_text=True)
    assert "No dividend is due now" in html and "Back to the table" in html  # a whole page without htmx


# ---------------------------------------------------------------------- IPO calculator
def test_ipo_calculator_matches_the_engine_and_forms_the_corporation(client):
    gid = import_position(client, "ipo")
    game = game_of("ipo")
    calc = ipo_calculator(game)
    assert f'href="/games/{gid}/help/ipo"' in client.get(f"/games/{gid}/c/actions").get_data(as_text=True)
    html = client.get(f"/games/{gid}/help/ipo", headers=HX).get_data(as_text=True)
    no_inline_code(html)
    rows = rows_of(html, "price")
    by_price = {}
    for r in calc["rows"]:
        by_price.setdefault(r["price"], r)
    assert sorted(int(p) for p in rows) == sorted(by_price)
    for price, r in by_price.items():
        row = rows[str(price)]
        assert cell(row, "payment").split()[0] == str(r["payment"])
        assert cell(row, "treasury") == str(r["treasury"])
        assert cell(row, "shares") == f"{r['owner_shares']}/{r['bank_shares']}"
        assert cell(row, "value") == str(r["value_after"])
        assert ("cannot afford" in row) == (not r["affordable"])
    go = [f for f in forms(html) if f.fields.get("e.type") == "ipo"]
    assert go, "no affordable price"
    choice = go[0].selects["e.choice"][0]
    price, corporation = choice.split("|")
    row = next(r for r in calc["rows"] if r["price"] == int(price) and r["corporation"] == corporation)
    owner_cash = game.players[calc["owner"]].cash
    resp = client.post(go[0].action, data=go[0].submission())
    assert resp.status_code == 303
    snap = state(client, gid)
    corp = snap["corporations"][corporation]
    assert corp["share_price"] == row["price"] and corp["bank_shares"] == row["bank_shares"]
    assert snap["players"][calc["owner"]]["shares"][corporation] == row["owner_shares"]
    assert snap["players"][calc["owner"]]["cash"] == owner_cash - row["payment"]
    assert corp["cash"] == row["treasury"]


# ---------------------------------------------------------------------- share trade
@pytest.mark.parametrize("position", ["investment", "investment_an"])
def test_share_trade_preview_for_every_buy_and_sell(client, position):
    gid = import_position(client, position)
    game = game_of(position)
    menu = [m for m in game.legal_actions() if m["type"] in ("buy_share", "sell_share")]
    actions = links(client.get(f"/games/{gid}/c/actions").get_data(as_text=True))
    for m in menu:
        side = "buy" if m["type"] == "buy_share" else "sell"
        q = {"player": m["player"], "corporation": m["corporation"], "side": side}
        assert link(f"/games/{gid}/help/trade", **q) in actions  # one tap from each buy / sell form
        html = client.get(f"/games/{gid}/help/trade", query_string=q, headers=HX).get_data(as_text=True)
        no_inline_code(html)
        t = share_trade(game, m["player"], m["corporation"], side == "buy")
        said = "an" if m["corporation"] in SAID_WITH_AN else "a"  # "Amy buys an Overseas Trading share"
        assert f"<h3>{m['player']} {side}s {said} {m['corporation']} share</h3>" in html
        assert re.search(rf'class="price">{m["price"]}<', html), html
        assert t["price"] == m["price"]
        if t["presidency_changes"] and not t["receivership"]:
            assert f"→ <strong>{t['president_after']}</strong>" in html
        assert ("receivership</strong>" in html) == t["receivership"]
        assert ("bankrupt</strong>" in html) == t["bankrupt"]
    # the preview's own button enters the trade at the previewed price
    m = menu[0]
    side = "buy" if m["type"] == "buy_share" else "sell"
    html = client.get(
        f"/games/{gid}/help/trade", query_string={"player": m["player"], "corporation": m["corporation"], "side": side}
    ).get_data(as_text=True)
    cash = game.players[m["player"]].cash
    form = next(f for f in forms(html) if f.fields.get("e.type") == m["type"])
    assert client.post(form.action, data=form.submission()).status_code == 303
    snap = state(client, gid)
    assert snap["players"][m["player"]]["cash"] == cash + (m["price"] if side == "sell" else -m["price"])


def test_share_trade_preview_of_an_illegal_trade_is_a_refusal_with_its_rule(client):
    gid = import_position(client, "investment")
    game = game_of("investment")
    player = game.legal_actions()[0]["player"]
    other = next(p for p in game.players if p != player)
    corp = next(iter(game.corps))
    html = client.get(
        f"/games/{gid}/help/trade", query_string={"player": other, "corporation": corp}, headers=HX
    ).get_data(as_text=True)
    assert 'class="refusal"' in html and 'class="rule-link"' in html
    assert (
        client.get(f"/games/{gid}/help/trade", query_string={"player": "Nobody", "corporation": corp}).status_code
        == 404
    )
    assert (
        client.get(f"/games/{gid}/help/trade", query_string={"player": player, "corporation": "Nope Inc."}).status_code
        == 404
    )
    assert (
        client.get(
            f"/games/{gid}/help/trade", query_string={"player": player, "corporation": corp, "side": "steal"}
        ).status_code
        == 400
    )


# ---------------------------------------------------------------------- acquisition what-if
def test_acquisition_what_if(client):
    gid = import_position(client, "acquisition")
    game = game_of("acquisition")
    item = next(
        m
        for m in game.legal_actions()
        if m["type"] == "acquire" and m["min"] < m["max"] and game.owner[m["company"]].kind == "player"
    )
    corp, company = item["corporation"], item["company"]
    actions = links(client.get(f"/games/{gid}/c/actions").get_data(as_text=True))
    assert link(f"/games/{gid}/help/acquisition", corporation=corp, company=company, price=item["min"]) in actions
    q = {"corporation": corp, "company": company, "price": item["max"]}
    html = client.get(f"/games/{gid}/help/acquisition", query_string=q, headers=HX).get_data(as_text=True)
    no_inline_code(html)
    out = preview_purchase(game, corp, company, item["max"])
    eff = out["effects"][corp]
    block = re.search(rf'data-corporation="{re.escape(corp)}">(.*?)</table>', html, re.DOTALL).group(1)
    assert f"<strong>{eff['after']['income']}</strong>" in block
    assert f"<strong>{eff['after']['stars']}</strong> / {eff['after']['required']}" in block
    assert f"<strong>{eff['after']['zero_dividend_price']}</strong>" in block
    assert f"price span <strong>{item['min']}–{item['max']}</strong>" in html
    # the what-if form is a GET (no CSRF token) that replaces the box
    whatif = next(f for f in forms(html) if f.method == "get")
    assert "csrf_token" not in whatif.fields and whatif.attrs["hx-target"] == "closest .helper-box"
    # the figures are what happens when the purchase is entered
    body = {
        "seq": state(client, gid)["seq"],
        "event": {"type": "acquire", "corporation": corp, "company": company, "price": item["max"]},
    }
    assert client.post(f"/games/{gid}/events", json=body).status_code == 200
    after = state(client, gid)["corporations"][corp]
    assert (after["income"], after["stars"]) == (eff["after"]["income"], eff["after"]["stars"])


def test_acquisition_what_if_refusals_and_bad_input(client):
    gid = import_position(client, "acquisition")
    game = game_of("acquisition")
    item = next(
        m
        for m in game.legal_actions()
        if m["type"] == "acquire" and m["min"] < m["max"] and game.owner[m["company"]].kind == "player"
    )
    url = f"/games/{gid}/help/acquisition"
    q = {"corporation": item["corporation"], "company": item["company"]}
    html = client.get(url, query_string=dict(q, price=item["min"] - 1)).get_data(as_text=True)
    assert 'class="refusal"' in html and 'class="rule-link"' in html and "Back to the table" in html
    html = client.get(url, query_string=q, headers=HX).get_data(as_text=True)  # no price: the lowest allowed
    assert f'value="{item["min"]}"' in html and 'class="refusal"' not in html
    seq = state(client, gid)["seq"]
    for query, status, message in (
        (dict(q, price="lots"), 400, "The price must be a whole number, not 'lots'."),
        (dict(q, corporation="Nope"), 404, "'Nope' is not a corporation in this game now."),
        (dict(q, company="ZZZ"), 404, "'ZZZ' is not a company owned by anybody now."),
    ):
        resp = client.get(url, query_string=query)
        assert resp.status_code == status and message in unescape(resp.get_data(as_text=True)), query
    # without a question: just the form, offering the buyers and every company owned, no figures
    resp = client.get(url)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and 'class="refusal"' not in html and "data-corporation=" not in html
    whatif = next(f for f in forms(html) if f.method == "get")
    assert item["corporation"] in whatif.selects["corporation"]
    assert sorted(whatif.selects["company"]) == sorted(game.owner)
    assert state(client, gid)["seq"] == seq  # asking changes nothing


# ---------------------------------------------------------------------- closing what-if
def test_closing_what_if_for_each_company_and_the_overview(client):
    gid = import_position(client, "closing")
    game = game_of("closing")
    items = [m for m in game.legal_actions() if m["type"] == "close"]
    panel = client.get(f"/games/{gid}/c/actions").get_data(as_text=True)
    actions = links(panel)
    assert link(f"/games/{gid}/help/closing") in actions
    assert len(items) > 1 and panel.count(">Who must close?<") == 1  # once per panel, at its first closing
    second = panel.index("Yes, close", panel.index("Yes, close") + 1)
    assert panel.index("Yes, close") < panel.index(">Who must close?<") < second
    for m in items:
        assert link(f"/games/{gid}/help/closing", company=m["company"]) in actions
        html = client.get(f"/games/{gid}/help/closing", query_string={"company": m["company"]}, headers=HX).get_data(
            as_text=True
        )
        out = preview_closing(game, m["company"])
        income = re.search(r'<tr class="income">.*?</tr>', html, re.DOTALL).group(0)
        assert f"<td>{out['before']['income']}</td><td><strong>{out['after']['income']}</strong>" in income
        if game.owner[m["company"]].kind == "corporation":
            stars = re.search(r'<tr class="stars">.*?</tr>', html, re.DOTALL).group(0)
            assert f"<strong>{out['after']['stars']}</strong> / {out['after']['required']}" in stars
    m = items[0]
    out = preview_closing(game, m["company"])
    body = {"seq": state(client, gid)["seq"], "event": {"type": "close", "company": m["company"]}}
    assert client.post(f"/games/{gid}/events", json=body).status_code == 200
    snap = state(client, gid)
    owner = out["owner"]
    now = snap["players"][owner]["income"] if owner in snap["players"] else snap["corporations"][owner]["income"]
    assert now == out["after"]["income"]
    html = client.get(f"/games/{gid}/help/closing", headers=HX).get_data(as_text=True)
    assert "Who must close?" in html and "<table" in html
    assert client.get(f"/games/{gid}/help/closing", query_string={"company": "ZZZ"}).status_code == 404


# ---------------------------------------------------------------------- standings, banker, outlook
def test_standings_now(client):
    gid = import_position(client, "dividend")
    game = game_of("dividend")
    players = client.get(f"/games/{gid}/c/players").get_data(as_text=True)
    assert f'href="/games/{gid}/help/standings"' in players
    html = client.get(f"/games/{gid}/help/standings", headers=HX).get_data(as_text=True)
    found = re.findall(r'<tr data-player="([^"]+)">.*?class="total"><strong>(\d+)</strong>', html, re.DOTALL)
    assert found == [(r["player"], str(r["total"])) for r in standings(game)]
    assert [int(t) for _, t in found] == sorted((int(t) for _, t in found), reverse=True)
    for r in standings(game):
        assert link(f"/games/{gid}/why/score", player=r["player"]) in links(html)


def test_bankers_sheet_in_the_history_and_its_panel(client):
    gid = import_position(client, "dividend")
    game = game_of("dividend")
    latest = [i for i, e in enumerate(game.journal) if e["moves"]][-10:]
    html = client.get(f"/games/{gid}/help/banker", headers=HX).get_data(as_text=True)
    for i in latest:
        for line in banker_sheet(game.journal[i]):
            assert line.replace("&", "&amp;") in html
    history = client.get(f"/games/{gid}/c/history").get_data(as_text=True)
    assert f'href="/games/{gid}/help/banker"' in history
    # paying the dividend: its sheet appears in the history at once
    chart = dividend_chart(game)
    top = chart["rows"][-1]
    body = {
        "seq": state(client, gid)["seq"],
        "event": {"type": "dividend", "corporation": chart["corporation"], "amount": top["amount"]},
    }
    assert client.post(f"/games/{gid}/events", json=body).status_code == 200
    game.apply(body["event"])
    history = client.get(f"/games/{gid}/c/history").get_data(as_text=True)
    for line in banker_sheet(game.journal[-1]):
        assert line.replace("&", "&amp;") in history
    assert 'class="banker"' in history


def test_cost_of_ownership_outlook(client):
    # a position where a company will lose money once green is on top (red then costs 2)
    gid = import_position(client, "acquisition")
    game = game_of("acquisition")
    deck = client.get(f"/games/{gid}/c/deck").get_data(as_text=True)
    assert f'href="/games/{gid}/help/outlook"' in deck
    html = client.get(f"/games/{gid}/help/outlook", headers=HX).get_data(as_text=True)
    out = cost_outlook(game)
    # by hand: the cost changes when green is on top, after the orange and yellow cards left
    top = game.top_color()
    assert top in ("red", "orange", "yellow") and not game.end_flipped
    draws = sum(game.deck_left[c] for c in ("red", "orange", "yellow"))
    assert (out["draws"], out["next"]) == (draws, {"red": 2})
    assert f'<strong class="draws">{draws}</strong>' in html
    owned_red = [(a, e.name) for a, e in game.owner.items() if COMPANIES[a].color == "red" and COMPANIES[a].income < 2]
    assert owned_red, "the position holds a red company earning less than 2"
    assert [(r["company"], r["owner"], r["income_then"]) for r in out["losing"]] == [
        (a, owner, COMPANIES[a].income - 2) for a, owner in owned_red
    ]
    text = text_of(html)
    for abbr, owner in owned_red:
        assert abbr in text and owner in text
        assert f"<strong>{COMPANIES[abbr].income - 2}</strong>" in html


# ---------------------------------------------------------------------- Why?
def test_why_explains_every_kind_of_figure(client):
    gid = import_position(client, "dividend")
    game = game_of("dividend")
    corp = game.next["corporation"]
    player = game.order[0]
    cases = {
        ("income", (("entity", player),)): explain_income(game, player),
        ("income", (("entity", corp),)): explain_income(game, corp),
        ("income", (("entity", "foreign_investor"),)): explain_income(game, "foreign_investor"),
        ("stars", (("corporation", corp),)): explain_rating(game, corp),
        ("price", (("corporation", corp), ("amount", 1))): explain_price_after_dividend(game, corp, 1),
        ("share_price", (("corporation", corp), ("side", "sell"))): explain_share_price(game, corp, False),
        ("dividend_limit", (("corporation", corp),)): explain_dividend_limit(game, corp),
        ("score", (("player", player),)): explain_score(game, player),
    }
    for (kind, args), ex in cases.items():
        html = client.get(f"/games/{gid}/why/{kind}", query_string=dict(args), headers=HX).get_data(as_text=True)
        assert html.startswith('<span class="why-box"'), html
        assert f"<strong>{ex['total']}</strong>" in html
        for line in ex["lines"]:
            assert line.replace("&", "&amp;") in html
        page = client.get(f"/games/{gid}/why/{kind}", query_string=dict(args))
        assert page.status_code == 200 and "Back to the table" in page.get_data(as_text=True)
    players = links(client.get(f"/games/{gid}/c/players").get_data(as_text=True))
    assert link(f"/games/{gid}/why/income", entity=player) in players
    assert link(f"/games/{gid}/why/score", player=player) in players


def test_why_refuses_unknown_figures_and_bad_arguments(client):
    gid = import_position(client, "dividend")
    game = game_of("dividend")
    corp = game.next["corporation"]
    url = f"/games/{gid}/why"
    assert client.get(f"{url}/magic").status_code == 404
    assert client.get(f"{url}/income", query_string={"entity": "Nobody"}).status_code == 404
    assert client.get(f"{url}/stars", query_string={"corporation": "Nope"}).status_code == 404
    assert client.get(f"{url}/score", query_string={"player": "Nobody"}).status_code == 404
    assert client.get(f"{url}/price", query_string={"corporation": corp, "amount": "x"}).status_code == 400
    assert client.get(f"{url}/price", query_string={"corporation": corp, "amount": 999}).status_code == 400
    assert client.get(f"{url}/share_price", query_string={"corporation": corp, "side": "up"}).status_code == 400


# ---------------------------------------------------------------------- every route: 404, escaping
@pytest.mark.parametrize("path", [f"help/{h}" for h in HELPERS] + ["why/income?entity=Amy", "why/score?player=Amy"])
def test_unknown_game_is_404(client, path):
    resp = client.get(f"/games/no-such-game-id-0123456789/{path}")
    assert resp.status_code == 404
    resp = client.get(f"/games/no-such-game-id-0123456789/{path}", headers=HX)
    assert resp.status_code == 404


def test_names_and_arguments_are_escaped(client):
    players = ("<b>Amy</b>", 'Bo"&<i>', "<script>x</script>")
    gid = import_position(client, "dividend", players)
    game = game_of("dividend", players)
    for path in ("help/dividend", "help/standings", "help/banker", "help/outlook", "help/closing"):
        html = client.get(f"/games/{gid}/{path}").get_data(as_text=True)
        assert "<b>Amy</b>" not in html and "<script>x" not in html and "<i>" not in html, path
        no_inline_code(html)
    html = client.get(f"/games/{gid}/help/standings").get_data(as_text=True)
    assert "&lt;b&gt;Amy&lt;/b&gt;" in html
    for p in game.players:
        html = client.get(f"/games/{gid}/why/score", query_string={"player": p}).get_data(as_text=True)
        assert "<b>Amy</b>" not in html and "<script>x" not in html
    resp = client.get(f"/games/{gid}/why/income", query_string={"entity": "<img src=x>"})
    assert resp.status_code == 404 and "<img src=x>" not in resp.get_data(as_text=True)
    resp = client.get(f"/games/{gid}/help/acquisition", query_string={"corporation": "<svg>", "company": "BME"})
    assert resp.status_code == 404 and "<svg>" not in resp.get_data(as_text=True)
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert "<b>Amy</b>" not in page and "<script>x" not in page


def test_close_link_empties_the_slot(client, table):
    gid = table.started_game()
    resp = client.get(f"/games/{gid}/help/close", headers=HX)
    assert resp.status_code == 200 and resp.get_data(as_text=True) == ""


def _same_player_twice_in_one_phase_1():
    """(players, events up to a trade decision, the events until the same player's next one in the same
    phase 1), from the first seeded playout that has it."""
    import random

    from assistant.rules import events_of
    from assistant.rules.registry import STARS

    def trade(g):
        return (g.next or {}).get("for") == "investment" and {"buy_share", "sell_share"} & {
            m["type"] for m in g.legal_actions()
        }

    for seed in range(300):
        rng = random.Random(seed)
        g = STARS.create(["Amy", "Brian", "Crystal"])
        events, mark = [], None
        for _ in range(900):
            if trade(g):
                where = (g.turn, g.phase, g.next["player"])
                if mark and mark[0] == where and len(events) > mark[1]:
                    return list(g.players), events[: mark[1]], events[mark[1] :]
                if not mark or mark[0][:2] != where[:2]:
                    mark = (where, len(events))
            menu = g.legal_actions()
            if not menu:
                break
            event = events_of(rng.choice(menu), lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0]))
            g.apply(event)
            events.append(event)
    raise LookupError("no playout gives one player two trade decisions in one phase 1")


def test_a_decision_helper_belongs_to_one_turn_of_its_player(client, table):
    """Phase 1 comes round to the same player again: that is a new decision, so the slot of its trade
    preview has a new key (static/table.js carries an open helper over within one decision only)."""
    from assistant.log import transcript

    players, head, rest = _same_player_twice_in_one_phase_1()
    resp = client.post("/games/import", json=transcript.build(players, [], None, head, "same player twice"))
    gid = resp.headers["Location"].rsplit("/", 1)[1]

    def decisions():
        html = client.get(f"/games/{gid}/c/actions").get_data(as_text=True)
        return set(re.findall(r'class="helper-slot" data-decision="([^"]+)"', html))

    before = decisions()
    for event in rest:
        assert table.post_json(gid, {"seq": table.state(gid)["seq"], "event": event}).status_code == 200
    after = decisions()
    assert len(before) == len(after) == 1
    # the same turn and phase, the same player's investment: only the decision's own count differs
    assert next(iter(before)).rsplit("|", 1)[0] == next(iter(after)).rsplit("|", 1)[0]
    assert after != before
