"""A database made before issue 25 opens every game (issue 25, "Done when"): a stored game that
the stricter arbitration would now refuse still opens and plays on, never "Unreplayable".

The database is made as the previous version made it: the schema without ``games.edition`` (its
migration not yet recorded) and a game written as that version wrote it: resumed from a position
with a card left unavailable at the end of a turn (refused now), then an intervention by Vintage
Machinery while Overseas Trading and Doppler AG, ahead of it in priority, had not answered
(refused now), then the table's ``done`` for phase 3.
"""

from __future__ import annotations

import json
import sqlite3

from assistant.rules import RuleError, registry
from assistant.rules.core import position
from assistant.store import Store

from .conftest import make_app

J, V, D, OT = "Junkyard Scrappers", "Vintage Machinery", "Doppler AG", "Overseas Trading"
PLAYERS = ["Amy", "Brian", "Crystal"]
POSITION = {
    "after": {"turn": 3, "phase": 9},
    "state": {
        "player_order": PLAYERS,
        "players": {
            "Amy": {"cash": 5, "companies": [], "shares": {V: 1}},
            "Brian": {"cash": 5, "companies": [], "shares": {J: 1, OT: 1}},
            "Crystal": {"cash": 5, "companies": [], "shares": {D: 1}},
        },
        "foreign_investor": {"cash": 0, "companies": ["WT"]},
        "corporations": {
            J: {"cash": 14, "share_price": 13, "companies": ["MHE"], "president": "Brian", "issued": 2, "bank_shares": 1},
            V: {"cash": 40, "share_price": 14, "companies": ["BPM"], "president": "Amy", "issued": 2, "bank_shares": 1},
            D: {"cash": 40, "share_price": 16, "companies": ["BY"], "president": "Crystal", "issued": 2, "bank_shares": 1},
            OT: {"cash": 40, "share_price": 10, "companies": ["BSE"], "president": "Brian", "issued": 2, "bank_shares": 1},
        },
        "offering": {"available": ["HE", "OL"], "unavailable": ["DSB"]},
        "end_card_flipped": False,
    },
    "deck": {"red": 0, "orange": 0, "yellow": 3, "green": 4, "blue": 4},
    "out_of_game": ["BME"],
}  # fmt: skip
EVENTS = [
    {"type": "pass", "player": "Amy"},
    {"type": "pass", "player": "Brian"},
    {"type": "pass", "player": "Crystal"},
    {"type": "announce", "corporation": J, "company": "WT"},
    {"type": "acquire", "corporation": V, "company": "WT", "price": 14, "announced_by": J},
    {"type": "done", "phase": 3},
]


def old_database(path) -> str:
    """A database as the version before editions left it, holding the game above."""
    Store(str(path)).close()  # today's schema, then back to what the previous version had
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE games DROP COLUMN edition")
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'games_keep_their_rules_edition'")
    gid = "oldgame0001"
    conn.execute(
        "INSERT INTO games (id, players, options, deck, created, persons, game, position) VALUES (?,?,?,?,?,?,?,?)",
        [gid, json.dumps(PLAYERS), "[]", None, "2026-11-01T20:00:00+00:00", None, "rolling-stock-stars",
         json.dumps(POSITION)],
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO events (game_id, seq, event, token, created) VALUES (?,?,?,?,?)",
        [(gid, i + 1, json.dumps(e), None, "2026-11-01T20:05:00+00:00") for i, e in enumerate(EVENTS)],
    )
    conn.commit()
    conn.close()
    return gid


def test_the_stricter_rules_refuse_this_game_when_entered_now():
    """So the test below can fail: today's arbitration refuses both the position and the intervention."""
    try:
        position.resume(registry.STARS, PLAYERS, [], POSITION)
    except RuleError as err:
        assert [f for f, _ in err.problems] == ["offering.unavailable"]
    else:
        raise AssertionError("the position is accepted")
    g = position.resume(registry.STARS, PLAYERS, [], {**POSITION, "state": {**POSITION["state"], "offering": {
        "available": ["HE", "OL", "DSB"], "unavailable": []}}})  # fmt: skip
    for event in EVENTS[:4]:
        g.apply(event)
    try:
        g.apply(EVENTS[4])
    except RuleError as err:
        assert err.message.startswith("Overseas Trading and Doppler AG answer first")
    else:
        raise AssertionError("the intervention out of order is accepted")


def test_a_game_stored_before_opens_and_plays_on(tmp_path):
    path = tmp_path / "old.sqlite3"
    gid = old_database(path)
    app = make_app(path)
    client = app.test_client()
    try:
        page = client.get(f"/games/{gid}")
        assert page.status_code == 200 and "Unreplayable" not in page.text
        state = client.get(f"/games/{gid}/state").get_json()
        snap = state["state"] if "state" in state else state
        assert snap["corporations"][V]["companies"] == ["BPM", "WT"]
        assert snap["corporations"][V]["cash"] == 40 - 14
        assert (snap["turn"], snap["phase"]) == (4, 4)
        store = app.extensions["rss_store"]
        assert store.get_game(gid).edition == 1
        # it plays on: phase 4 ends for the table, one more row
        seq = store.seq(gid)
        assert store.append(gid, seq, {"type": "done", "phase": 4}) == seq + 1
        # a fresh server on the same file serves the same game
        again = Store(str(path))
        try:
            assert again.state(gid)[1].snapshot() == store.state(gid)[1].snapshot()
        finally:
            again.close()
        # a game created now is played under today's edition
        new = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
        assert store.get_game(new).edition == 2
    finally:
        app.extensions["rss_store"].close()
