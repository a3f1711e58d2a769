"""Bankruptcy ahead through the phones and the JSON door (issue 37): in the closing phase, the
action panel, "Who must close?" and ``GET /api/games/<id>/state`` name the corporation that will
go bankrupt in the income phase and the closing that avoids it, in every ruleset.

Each table resumes from a position at the end of a turn (FORMAT-position.md) with the deck and
the offering empty and the end card flipped (its back: red to green cost 10 in Stars and v2.2,
15 in classic's short game), one corporation owning the DSB (yellow, income 5; classic 6) and the
BSE (red, income 1), which have no synergy with each other; the players then pass to the closing
phase.  By hand:
  Stars, Synergistic (cash 6):  5 - 10 + 1 - 10 = -14;  closing the BSE leaves 5 - 10 = -5.
  v2.2, Horse (cash 6):         the same figures (no pair of synergy markers: no bonus).
  classic short, Horse (cash 10): 6 - 15 + 1 - 15 = -23; closing the BSE leaves 6 - 15 = -9.
"""

from __future__ import annotations

import re

import pytest

from assistant.log import transcript
from assistant.rules import events_of, registry
from assistant.rules.core import position

PLAYERS = ["Amy", "Brian", "Crystal"]
CASES = {  # ruleset: (options, corporation, cash, income, income after closing the BSE, income phase), as said
    "rolling-stock-stars": ([], "Synergistic", 6, "−14", "−5", "phase 5 (income)"),
    "rolling-stock-v2.2": ([], "Horse", 6, "−$14", "−$5", "phase 5 (collect income)"),
    "rolling-stock": (["short"], "Horse", 10, "−$23", "−$9", "phase 8 (collect income)"),
}


def _table(key: str) -> dict:
    options, corp, cash, *_ = CASES[key]
    ruleset = registry.get(key)
    colors = ruleset.create(PLAYERS, options).colors
    pos = {
        "after": {"turn": 8, "phase": len(ruleset.engine.PHASES)},
        "state": {
            "player_order": PLAYERS,
            "players": {
                "Amy": {"cash": 30, "companies": [], "shares": {corp: 1}},
                "Brian": {"cash": 30, "companies": [], "shares": {}},
                "Crystal": {"cash": 30, "companies": [], "shares": {}},
            },
            "foreign_investor": {"cash": 0, "companies": []},
            "corporations": {
                corp: {
                    "cash": cash,
                    "share_price": 20,
                    "companies": ["DSB", "BSE"],
                    "president": "Amy",
                    "issued": 2,
                    "bank_shares": 1,
                },
            },  # fmt: skip
            "offering": {"available": [], "unavailable": []},
            "deck_size": 0,
            "end_card_flipped": True,
        },
        "deck": dict.fromkeys(colors, 0),
        "out_of_game": [],
    }
    game = position.resume(ruleset, PLAYERS, options, pos)
    events = []
    while game.phase_kind != "closing":  # everyone passes: the events a table would enter
        item = next(m for m in game.legal_actions() if m["type"] in ("pass", "done", "player_done", "skip_issue"))
        events.append(events_of(item, lambda *a: a[0]))
        game.apply(events[-1])
    return transcript.build(PLAYERS, options, None, events, "bankruptcy ahead", game=key, position=pos)


@pytest.mark.parametrize("key", list(CASES))
def test_the_corporation_that_will_go_bankrupt_is_named_with_what_avoids_it(client, key):
    _, corp, cash, income, after, phase = CASES[key]
    resp = client.post("/games/import", json=_table(key))
    assert resp.status_code == 303, resp.get_data(as_text=True)
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    money = "" if key == "rolling-stock-stars" else "$"
    words = (
        f"{corp} will go bankrupt in {phase}: it has {money}{cash} and its income is {income}, its shares "
        f"then void. To avoid it, Amy closes BSE in this phase (its income then {after})."
    )
    panel = client.get(f"/games/{gid}/c/actions").get_data(as_text=True)
    assert re.search(
        r'<p class="blocked bankrupt-ahead" role="status">[^<]*<span aria-hidden="true">⚠</span> ' + re.escape(words),
        panel,
    )
    helper = client.get(f"/games/{gid}/help/closing").get_data(as_text=True)
    assert words in helper and "Nobody has to close" not in helper and "No player has to close a company" in helper
    state = client.get(f"/games/{gid}/state").get_json()
    (row,) = state["bankrupt_ahead"]
    assert (row["corporation"], row["cash"], row["close"], row["phase"]) == (corp, cash, ["BSE"], int(phase[6]))
    figures = (int(income.strip("−$")), int(after.strip("−$")))
    assert (row["income"], row["income_after"]) == (-figures[0], -figures[1])
