"""Every game the assistant plays through the web app: each registered ruleset and the example
fourth game of docs/rulesets.md (tests/rulesets.py), so that "a fourth game is a folder" is tested
through the new-game form, the JSON door, every page, the export and the replay command."""

from __future__ import annotations

import io
import json
import random
import re

from assistant.cli import replay
from assistant.rules import events_of, registry
from tests import rulesets

# the table's pages, each answering in the game's own words (the views of the navigation, the
# board of the shared screen, the rules)
PAGES = (
    "/games/{gid}",
    "/games/{gid}/v/table",
    "/games/{gid}/v/corporations",
    "/games/{gid}/v/players",
    "/games/{gid}/v/log",
    "/games/{gid}/v/log?history=all",
    "/games/{gid}/v/more",
    "/games/{gid}/board",
    "/rules?game={gid}",
    "/games/{gid}/help/standings",
    "/games/{gid}/help/banker",
    "/games/{gid}/help/outlook",
    "/games/{gid}/help/closing",
)
EVENTS = 40  # into the first turn's later phases (the example game is over by then)


def _title_of(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1)


def test_every_game_is_created_by_the_form_played_at_the_json_door_shown_exported_and_replayed(
    client, table, store, every_ruleset, tmp_path, capsys
):
    ruleset = every_ruleset
    key = ruleset.key
    # the form offers it, and creates it
    form = client.get("/games/new").text
    assert f'name="ruleset" value="{key}"' in form and ruleset.title in form
    players = rulesets.players_for(ruleset)
    fields = {"csrf_token": table.csrf(), "name": players, "ruleset": key}
    offered = [t for t in ruleset.game_types if t.offered]
    if offered:
        fields[f"game_type-{key}"] = offered[0].key
    resp = client.post("/games/new", data=fields)
    assert resp.status_code == 303, resp.text
    gid = resp.headers["Location"].rsplit("/", 1)[1]
    assert store.get_game(gid).ruleset == key and store.get_game(gid).players == players

    # the JSON door takes events from the game's menu, one row each, and refuses one in words
    rng = random.Random(3)
    seq = 0
    while seq < EVENTS and not store.state(gid)[1].game_over:
        menu = rulesets.table_menu(store.state(gid)[1])
        if not menu:
            break
        event = events_of(rng.choice(menu), lambda *a: a[0] if len(a) == 2 else rng.choice(a[0]))
        answer = table.post_json(gid, {"seq": seq, "token": f"e{seq}", "event": event})
        assert answer.status_code == 200, (event, answer.get_json())
        assert answer.get_json() == {"seq": seq + 1}
        seq += 1
    assert seq >= 20, "the table's menu ran dry"
    refused = table.post_json(gid, {"seq": seq, "event": {"type": "pass", "player": "Nobody"}})
    assert refused.status_code == 422 and refused.get_json()["error"]
    assert table.state(gid)["seq"] == seq

    # every page answers, in the game's own name
    others = [r.title for r in registry.RULESETS.values() if r.title not in ruleset.title]
    for page in PAGES:
        resp = client.get(page.format(gid=gid))
        assert resp.status_code == 200, page
        assert ruleset.title in _title_of(resp.text), page
        assert not [t for t in others if t in _title_of(resp.text)], page
    history = client.get(f"/games/{gid}/history").get_json()
    assert history["game"] == key and [r["seq"] for r in history["rows"]] == list(range(1, seq + 1))

    # the export names the game and replays (python -m assistant replay) to the state the app shows
    exported = client.get(f"/games/{gid}/export")
    assert exported.status_code == 200 and key in exported.headers["Content-Disposition"]
    data = exported.get_json()
    assert data["game"] == key and data["players"] == players
    data["events"].append({"type": "expect"})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert replay.main(str(path)) == 0
    lines = [json.loads(line) for line in io.StringIO(capsys.readouterr().out)]
    state = table.state(gid)
    assert state.pop("seq") == seq
    assert lines == [{"index": len(data["events"]) - 1, "state": state}]
