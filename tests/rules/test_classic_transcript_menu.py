"""The public classic transcript, event by event: every event the table entered is one the menu
offered at that moment (with its amount in range), and every event marked to be refused is not."""

from __future__ import annotations

import json

import pytest

from assistant.cli.replay import new_game

from .conftest import CONFORMANCE

SAMPLES = sorted((CONFORMANCE / "classic").glob("*.json")) if (CONFORMANCE / "classic").is_dir() else []


def as_settled_aloud(menu: list[dict]) -> list[dict]:
    """The menu with each announced purchase from the foreign investor also in the forms a
    transcript writes it: the announcer's plain ``acquire`` and each intervention in it."""
    out = list(menu)
    for item in menu:
        if item["type"] == "announce":
            out.append({**item, "type": "acquire"})
            out += [
                {
                    **item,
                    "type": "acquire",
                    "corporation": c,
                    "announced_by": item["corporation"],
                    "min": 0,
                    "max": 10**6,
                }
                for c in item["may_intervene"]
            ]
    return out


def offered(menu: list[dict], ev: dict) -> bool:
    for item in as_settled_aloud(menu):
        if item["type"] != ev["type"]:
            continue
        if ev["type"] == "reveal":
            return ev["company"] in item["choices"]
        if ev["type"] == "ipo":
            return (
                any(o["corporation"] == ev["corporation"] and o["price"] == ev["price"] for o in item["options"])
                and item["company"] == ev["company"]
            )
        keys = [k for k in ("player", "company", "corporation", "phase", "announced_by") if k in ev and k in item]
        if any(item[k] != ev[k] for k in keys):
            continue
        if ev["type"] == "acquire" and item.get("announced_by") != ev.get("announced_by"):
            continue
        amount = ev.get("amount", ev.get("price"))
        if "min" in item and not item["min"] <= amount <= item["max"]:
            continue
        return True
    return False


@pytest.mark.parametrize("path", SAMPLES or [None], ids=[p.name for p in SAMPLES] or ["absent"])
def test_every_table_event_was_on_the_menu(path):
    if path is None:
        pytest.skip(f"no classic transcripts at {CONFORMANCE / 'classic'} (../shared is not beside the repository)")
    data = json.loads(path.read_text(encoding="utf-8"))
    game = new_game(data)
    checked = 0
    for index, ev in enumerate(data["events"]):
        if ev["type"] == "expect":
            continue
        menu = game.legal_actions()
        if ev.get("reject"):
            assert not offered(menu, ev), (index, ev)
            continue
        assert offered(menu, ev), (index, ev, menu)
        game.apply(ev)
        checked += 1
    assert game.game_over and checked >= 400
