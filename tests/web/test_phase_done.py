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
    assert form.buttons[0][2] == "I'm done"
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
