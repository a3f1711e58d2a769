"""Phases that end together (issue 17): in acquisitions and closings each player who could still
act says "I'm done" on their own phone; the last one ends the phase.  Any phone may still end it
for the table, after a confirmation that names who has not said it; the log says who ended it."""

import html
import re

from .htmlforms import forms
from .test_intervention import _phone, _post, _reach


def _done_items(menu):
    return [m for m in menu if m["type"] == "player_done"]


def test_each_player_says_done_and_the_last_one_ends_the_phase(client, table, store):
    gid, menu = _reach(client, lambda m: len(_done_items(m)) >= 2 and m[0]["type"] != "no_intervention")
    phase = table.state(gid)["phase"]
    who = [m["player"] for m in _done_items(menu)]
    first, rest = who[0], who[1:]
    mine = _phone(client, table, gid, first)
    page = html.unescape(mine.get(f"/games/{gid}").text)
    assert "▶ Your turn" in page
    own = f'<div class="group mine">\n  <h3>{first}: done with phase {phase}?</h3>'
    assert own in page, "this phone's own I'm done is among its own decisions"
    form = next(f for f in forms(page) if f.fields.get("e.type") == "player_done" and f.fields.get("e.player") == first)
    # the button names its phase (issue 37: "I'm done" of two phases in a row were the same button)
    assert form.buttons[0][2] == f"I'm done with phase {phase} ({ {3: 'Acquisition', 4: 'Closing'}[phase] })"
    _post(mine, table, gid, form)
    game = store.state(gid)[1]
    assert game.journal[-1]["text"] == f"{first} is done; waiting for {', '.join(rest)}"
    # this phone now waits for the others, and says so; the phase is still open
    banner = html.unescape(mine.get(f"/games/{gid}/c/banner").text)
    assert "Your turn" not in banner and f"waiting for {', '.join(rest)}" in banner
    assert table.state(gid)["phase"] == phase
    # another phone may end the phase for everyone: the confirmation names who has not said it
    other = _phone(client, table, gid, rest[0])
    panel = html.unescape(other.get(f"/games/{gid}/c/actions").text)
    names = " and ".join([", ".join(rest[:-1]), rest[-1]]) if len(rest) > 1 else rest[0]
    have = "has" if len(rest) == 1 else "have"
    assert f"{names} {have} not said they are done. End phase {phase} for everyone anyway?" in panel
    # the others say it too: the phase ends by itself, and the export writes it as the table's done
    for name in rest:
        phone = _phone(client, table, gid, name)
        f = next(
            f
            for f in forms(phone.get(f"/games/{gid}/c/actions").text)
            if f.fields.get("e.type") == "player_done" and f.fields.get("e.player") == name
        )
        _post(phone, table, gid, f)
        if table.state(gid)["phase"] != phase:
            break
    assert table.state(gid)["phase"] != phase
    game = store.state(gid)[1]
    assert any("Everyone who could act is done" in a for a in game.journal[-1]["auto"])
    exported = client.get(f"/games/{gid}/export").get_json()["events"]
    assert exported[-1] == {"type": "done", "phase": phase}
    assert "player_done" not in {e["type"] for e in exported}
    log = html.unescape(client.get(f"/games/{gid}/v/log").text)
    assert "Everyone who could act is done" in log


def test_ending_the_phase_for_the_table_is_logged_with_the_phone_that_did_it(client, table, store):
    gid, menu = _reach(client, lambda m: len(_done_items(m)) >= 2 and m[0]["type"] != "no_intervention")
    phase = table.state(gid)["phase"]
    name = _done_items(menu)[0]["player"]
    phone = _phone(client, table, gid, name)
    panel = phone.get(f"/games/{gid}/c/actions").text
    fold = re.search(
        r'<details class="confirm-close"[^>]*>\s*<summary class="button">End phase \d+ for the whole table…</summary>(.*?)</details>',
        panel,
        re.S,
    )
    assert fold
    (form,) = forms(fold.group(1))
    _post(phone, table, gid, form)
    assert table.state(gid)["phase"] != phase
    texts = [j["text"] for j in store.state(gid)[1].journal]
    assert any(t.endswith(f"done (ended by {name} for the table)") for t in texts)


def test_a_phase_nobody_can_act_in_ends_by_itself_and_its_late_done_is_a_no_op(client, store):
    """Issue 25: Doppler AG (Amy, 5 in its treasury) could pay the minimum of Vintage Machinery's
    BSE (1), so phase 3 is open by FORMAT.md's test, yet nothing can be bought: the BSE is
    Vintage Machinery's only company ("a corporation keeps at least one"), the foreign investor's
    AKE costs 8, no player owns a company.  The phase ends by itself; the table's ``done`` for it
    afterwards changes nothing and stores nothing; a ``done`` for another phase is refused."""
    gid, events = _acquisitions_end_by_themselves(client)
    state = client.get(f"/games/{gid}/state").get_json()
    assert (state["turn"], state["phase"], state["seq"]) == (5, 6, 2)  # on to the dividends
    assert "Nobody can act any more in this phase: Acquisitions done" in store.state(gid)[1].journal[-1]["auto"]
    # the table's done for phase 3, as a transcript holds it: accepted, nothing written
    resp = client.post(f"/games/{gid}/events", json={"seq": 2, "event": {"type": "done", "phase": 3}})
    assert resp.status_code == 200 and resp.get_json() == {"seq": 2}
    assert store.seq(gid) == 2
    # the export writes the phase's done where it ended: the transcript replays to the same game
    assert client.get(f"/games/{gid}/export").get_json()["events"] == [*events, {"type": "done", "phase": 3}]
    # phase 4 did not open (no company to close): its done is refused as any late done
    resp = client.post(f"/games/{gid}/events", json={"seq": 2, "event": {"type": "done", "phase": 4}})
    assert resp.status_code == 422 and "It is phase 6, not phase 4" in resp.get_json()["error"]
    assert store.seq(gid) == 2


def _acquisitions_end_by_themselves(client):
    """A game whose phase 3 ends by itself after two passes (the position of the test below)."""
    from tests.rules.test_position_refusals import PLAYERS, nobody_can_buy_position

    pos = nobody_can_buy_position()
    events = [{"type": "pass", "player": "Amy"}, {"type": "pass", "player": "Brian"}]
    transcript = {"format": "rss-table-transcript", "version": 1, "game": "rolling-stock-stars", "players": PLAYERS,
                  "options": [], "position": pos, "events": events}  # fmt: skip
    resp = client.post("/games/import", json=transcript)
    assert resp.status_code == 303, resp.get_data(as_text=True)
    gid = resp.get_json()["id"]
    return gid, events


def test_a_done_tapped_for_a_phase_already_over_enters_nothing_without_javascript(client, table, store):
    """Issue 37: a tap meant for the acquisitions' "I'm done" must not be entered once they are over,
    whatever comes after.  The plain form (no JavaScript, at the current seq) names its phase, and the
    server refuses it in words; the table's done for the phase that ended by itself stays a no-op."""
    gid, _ = _acquisitions_end_by_themselves(client)
    assert table.state(gid)["phase"] == 6 and store.seq(gid) == 2
    amy = _phone(client, table, gid, "Amy")
    token = re.search(r'name="csrf_token" value="([^"]+)"', amy.get(f"/games/{gid}").text).group(1)
    fields = {"csrf_token": token, "seq": "2", "e.type": "player_done", "e.player": "Amy", "e.phase": "3"}
    resp = amy.post(f"/games/{gid}/act", data=fields)
    assert resp.status_code == 422
    assert "It is phase 6, not phase 3" in html.unescape(resp.get_data(as_text=True))
    assert store.seq(gid) == 2 and table.state(gid)["phase"] == 6
    resp = amy.post(f"/games/{gid}/act", data={"csrf_token": token, "seq": "2", "e.type": "done", "e.phase": "3"})
    assert resp.status_code in (200, 303), resp.get_data(as_text=True)
    assert store.seq(gid) == 2 and table.state(gid)["phase"] == 6
    # without its phase, a done is refused too: it cannot be told which decision it answers
    resp = amy.post(f"/games/{gid}/act", data={"csrf_token": token, "seq": "2", "e.type": "done"})
    assert resp.status_code in (400, 422) and store.seq(gid) == 2
