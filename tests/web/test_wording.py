"""Words that said what was not so (issue 37): the turn-1 prompt offered to buy or sell a share
before any share existed, and the marks after a figure ("income 0? · value 30?") read as doubt
about it."""

from __future__ import annotations

import re

from assistant.web.labels import next_text

from .helper_positions import import_position


def test_the_investment_prompt_offers_only_what_the_menu_has():
    nxt = {"player": "Amy", "for": "investment"}
    assert next_text(nxt, {"bid", "pass"}) == "Amy: bid or pass"  # turn 1: no corporation, no share
    assert next_text(nxt, {"bid", "buy_share", "pass"}) == "Amy: bid, buy a share, or pass"
    assert next_text(nxt, {"bid", "buy_share", "sell_share", "pass"}) == "Amy: bid, buy or sell a share, or pass"
    assert next_text(nxt, {"sell_share", "pass"}) == "Amy: sell a share or pass"
    assert next_text(nxt, {"pass"}) == "Amy: pass"


def test_the_turn_one_banner_does_not_offer_shares(client, table):
    gid = table.started_game()
    banner = client.get(f"/games/{gid}/c/banner").text
    assert "Amy: bid or pass" in banner and "share" not in banner


def test_a_figures_help_mark_is_an_information_sign_not_a_question_mark(client):
    gid = import_position(client, "investment")
    page = client.get(f"/games/{gid}/v/players").text
    marks = re.findall(r'<a class="why[^"]*"[^>]*>([^<]*)</a>', page)
    assert marks and set(marks) == {"i"}, marks
    assert re.search(r"income -?\d+ <a class=\"why info\"", page)  # apart from the figure
