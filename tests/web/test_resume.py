"""A game resumed from the table as it lies is a game like any other: its position is its first
entry (undo stops there), export writes the position back, import reads it, and the replay command
replays the export (issue 16)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.log import transcript
from assistant.rules import registry
from assistant.rules.core import position
from tests.rules.test_positions import PLAYERS, _play

from ..rules.conftest import REPO


@pytest.fixture(
    scope="module", params=[("rolling-stock-stars", []), ("rolling-stock", ["short"])], ids=["stars", "classic"]
)
def cut_game(request):
    """A seeded game, the position at the end of one of its turns and the events after it."""
    key, options = request.param
    game, ends, marks = _play(registry.get(key), options, 3)
    turn = sorted(t for t in ends if t in marks)[1]
    return key, options, ends[turn], game.events[marks[turn] : marks[turn] + 12]


def _import(client, key, options, pos, events) -> str:
    body = transcript.build(PLAYERS, options, None, events, "resumed", game=key, position=pos)
    resp = client.post("/games/import", json=body)
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


def test_a_resumed_game_plays_on_and_exports_its_position_back(client, store, cut_game):
    key, options, pos, events = cut_game
    gid = _import(client, key, options, pos, events[:6])
    assert store.get_game(gid).position == pos
    for seq, event in enumerate(events[6:], 6):
        resp = client.post(f"/games/{gid}/events", json={"seq": seq, "event": event})
        assert resp.status_code == 200, resp.text
    exported = client.get(f"/games/{gid}/export").get_json()
    # the events as a transcript writes them (the live "I'm done" and announcements as the table's)
    played = position.resume(registry.get(key), PLAYERS, options, pos)
    for event in events:
        played.apply(event)
    assert exported["position"] == pos and exported["events"] == played.transcript_events()
    again = _import(client, key, options, exported["position"], exported["events"])
    assert store.state(again)[1].snapshot() == store.state(gid)[1].snapshot()
    for view in ("play", "table", "corporations", "players", "log", "more"):
        page = client.get(f"/games/{gid}/v/{view}" if view != "play" else f"/games/{gid}")
        assert page.status_code == 200, view


def test_undo_stops_at_the_position(client, store, cut_game):
    key, options, pos, events = cut_game
    gid = _import(client, key, options, pos, events[:1])
    start = client.get(f"/games/{gid}/state").get_json()
    assert client.post(f"/games/{gid}/events", json={"seq": 1, "event": {"type": "undo"}}).status_code == 200
    after_undo = client.get(f"/games/{gid}/state").get_json()
    assert after_undo["turn"] == pos["after"]["turn"] + 1 and start["seq"] == 1
    resp = client.post(f"/games/{gid}/events", json={"seq": 2, "event": {"type": "undo"}})
    assert resp.status_code == 422 and "nothing to undo" in resp.get_json()["error"]
    assert client.get(f"/games/{gid}/export").get_json()["position"] == pos


def test_a_position_that_cannot_be_is_refused_at_import_and_nothing_is_stored(client, store, cut_game):
    key, options, pos, events = cut_game
    bad = json.loads(json.dumps(pos))
    name = next(iter(bad["state"]["corporations"]), None)
    if name is None:
        pytest.skip("no corporation in this position")
    bad["state"]["corporations"][name]["share_price"] = 4
    body = transcript.build(PLAYERS, options, None, events, "resumed", game=key, position=bad)
    resp = client.post("/games/import", json=body)
    assert resp.status_code == 422 and "the position cannot be" in resp.get_json()["error"]
    assert "is not a card of the share price row" in resp.get_json()["error"]


def test_the_replay_command_replays_an_exported_resumed_game(tmp_path, client, cut_game):
    key, options, pos, events = cut_game
    gid = _import(client, key, options, pos, events)
    exported = client.get(f"/games/{gid}/export").get_json()
    exported["events"].append({"type": "expect"})
    path = tmp_path / "resumed.json"
    path.write_text(json.dumps(exported))
    run = subprocess.run(
        [sys.executable, "-m", "assistant", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    last = json.loads(run.stdout.splitlines()[-1])["state"]
    shown = client.get(f"/games/{gid}/state").get_json()
    assert last == {k: v for k, v in shown.items() if k != "seq"}


def test_the_json_door_lists_every_problem_of_a_position_that_cannot_be(client, store):
    """Issue 25, through the JSON door in every ruleset: the end card flipped while the deck holds
    cards, and a corporation at the top price (75; classic $100), both named, nothing stored."""
    from tests.rules.test_position_refusals import PLAYERS, classic_position, stars_position

    for key, pos, options, top in (
        ("rolling-stock-stars", stars_position(), [], 75),
        ("rolling-stock-v2.2", _v22(stars_position()), [], 75),
        ("rolling-stock", classic_position(), ["short"], 100),
    ):
        name = next(iter(pos["state"]["corporations"]))
        pos["state"]["corporations"][name]["share_price"] = top
        pos["state"]["end_card_flipped"] = True
        data = {"format": "rss-table-transcript", "version": 1, "game": key, "players": PLAYERS, "options": options,
                "position": pos, "events": []}  # fmt: skip
        resp = client.post("/games/import", json=data)
        assert resp.status_code == 422, key
        body = resp.get_json()
        assert [p["field"] for p in body["problems"]] == [f"corporations.{name}.share_price", "end_card_flipped"]
        assert f"{name} is at {top}, the top of the share price row" in body["error"]
    assert not store.backend.game_ids()


def _v22(pos: dict) -> dict:
    """The Stars position with v2.2's names for its corporations."""
    from tests.rules.test_position_refusals import _v22 as name

    state = pos["state"]
    state["corporations"] = {name(c): v for c, v in state["corporations"].items()}
    for p in state["players"].values():
        p["shares"] = {name(c): n for c, n in p["shares"].items()}
    return pos
