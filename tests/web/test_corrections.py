"""Correcting an entry made long ago (issue 16): the corrected entry in its place, later entries
kept while they fit, the rest set aside (not lost), one log row undone whole; through the store,
the JSON door and the phone's pages."""

from __future__ import annotations

import random
import re

import pytest

from assistant.log import corrections, transcript
from assistant.rules import events_of, registry

PLAYERS = ["Amy", "Brian", "Crystal"]


def dividend_game(turns_after: int = 3, seed_from: int = 1):
    """A seeded game with a dividend that could have been different, and ``turns_after`` turns played
    after it: (events, index of that dividend, another allowed amount)."""
    for seed in range(seed_from, seed_from + 200):
        rng = random.Random(seed)
        game = registry.STARS.create(PLAYERS)
        found = None
        while not game.game_over and len(game.events) < 1500:
            # the table's events only (as a transcript has them): a purchase from the foreign
            # investor settled aloud, phases ended by the table's done
            menu = [{**m, "type": "acquire"} if m["type"] == "announce" else m for m in game.legal_actions()]
            item = rng.choice([m for m in menu if m["type"] != "player_done"])
            if found is None and item["type"] == "dividend" and item["max"] - item["min"] >= 2:
                found = (len(game.events), game.turn, item)
            game.apply(events_of(item, lambda *a, r=rng: r.randint(*a) if len(a) == 2 else r.choice(a[0])))
            if found and game.turn >= found[1] + turns_after:
                index, _, item = found
                chosen = game.events[index]["amount"]
                other = item["max"] if chosen != item["max"] else item["min"]
                return list(game.events), index, other
    raise LookupError("no seeded game has such a dividend")


def _correct(events, index, event):
    """The correction worked out by the engine alone, from the game's start."""
    game = registry.STARS.create(PLAYERS)
    for earlier in events[:index]:
        game.apply(earlier)
    return corrections.correct(game, events[index + 1 :], index, event)


@pytest.fixture(scope="module")
def dividend():
    return dividend_game()


@pytest.fixture(scope="module")
def dividend_with_set_aside():
    """A dividend whose correction leaves later entries that no longer fit."""
    seed = 1
    for _ in range(60):
        events, index, amount = dividend_game(seed_from=seed)
        out = _correct(events, index, dict(events[index], amount=amount))
        if out["set_aside"]:
            return events, index, amount
        seed += 7
    raise LookupError("no correction sets entries aside")


def _import(client, events) -> str:
    resp = client.post("/games/import", json=transcript.build(PLAYERS, [], None, events, "corrections"))
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


def test_a_dividend_three_turns_back_is_corrected_and_one_undo_restores_everything(client, store, dividend):
    events, index, amount = dividend
    gid = _import(client, events)
    before = client.get(f"/games/{gid}/export").get_json()
    seq = store.seq(gid)
    corrected = dict(events[index], amount=amount)
    out = store.amend(gid, seq, index, corrected, token="fix-1")
    assert out["seq"] == seq + 1
    effective = store.events(gid)
    assert effective[index] == corrected
    later, kept = events[index + 1 :], store.rows(gid)[-1].event["kept"]  # the row names the kept entries
    assert effective[index + 1 :] == [later[i] for i in kept] and len(kept) == out["kept"]
    assert out["set_aside"] == [e for i, e in enumerate(later) if i not in kept]
    # the correction is one entry: one undo restores the game exactly as it was
    assert store.append(gid, seq + 1, {"type": "undo"}) == seq + 2
    assert client.get(f"/games/{gid}/export").get_json() == before
    # nothing in the log is lost: every row is still there, the correction and its undo included
    kinds = [r.event["type"] for r in store.rows(gid)]
    assert kinds[-2:] == ["amend", "undo"] and len(kinds) == len(events) + 2
    assert store.amend(gid, seq + 2, index, corrected, token="fix-1")["seq"] == seq + 1  # the token's first answer


def test_set_aside_entries_are_shown_with_their_reasons_and_entered_again_once_they_fit(
    client, store, dividend_with_set_aside
):
    events, index, amount = dividend_with_set_aside
    gid = _import(client, events)
    out = store.amend(gid, store.seq(gid), index, dict(events[index], amount=amount))
    shown = store.set_aside(gid)
    assert [s["event"] for s in shown] == out["set_aside"]
    assert all(s["reason"] for s in shown)
    assert out["set_aside"] and not shown[0]["fits"]  # the first one is why the rest were set aside
    log = client.get(f"/games/{gid}/v/log").text
    assert "Set aside by a correction" in log and shown[0]["reason"].replace("'", "&#39;") in log
    fits = [s for s in shown if s["fits"]]
    if fits:  # entered again with one tap (the Log's form posts the event as the table's entry)
        store.append(gid, store.seq(gid), fits[0]["event"])
        assert len(store.set_aside(gid)) == len(shown) - 1


def test_the_json_door_corrects_refuses_and_answers_stale_posts(client, store, dividend):
    events, index, amount = dividend
    gid = _import(client, events)
    seq = store.seq(gid)
    body = {"seq": seq, "token": "j1", "index": index, "event": dict(events[index], amount=amount)}
    ok = client.post(f"/games/{gid}/amend", json=body)
    assert ok.status_code == 200 and set(ok.get_json()) == {"seq", "kept", "set_aside"}
    assert ok.get_json()["seq"] == seq + 1
    stale = client.post(f"/games/{gid}/amend", json=dict(body, token="j2"))
    assert stale.status_code == 409 and stale.get_json()["seq"] == seq + 1
    refused = client.post(
        f"/games/{gid}/amend", json={"seq": seq + 1, "index": index, "event": dict(events[index], amount=999)}
    )
    assert refused.status_code == 422 and "at most" in refused.get_json()["error"]
    bad = client.post(f"/games/{gid}/amend", json={"seq": seq + 1, "index": -1, "event": events[index]})
    assert bad.status_code == 400
    undo = client.post(f"/games/{gid}/events", json={"seq": seq + 1, "event": {"type": "undo"}})
    assert undo.status_code == 200 and store.events(gid) == events


def test_the_phone_shows_what_will_change_before_the_correction_is_applied(client, store, table, dividend):
    events, index, amount = dividend
    gid = _import(client, events)
    log = client.get(f"/games/{gid}/v/log").text
    assert f'href="/games/{gid}/correct/{index}"' in log
    choose = client.get(f"/games/{gid}/correct/{index}").text
    assert "Correct entry" in choose and "pays" in choose
    corp = events[index]["corporation"]
    preview = client.get(
        f"/games/{gid}/correct/{index}/preview",
        query_string={"e.type": "dividend", "e.corporation": corp, "e.amount": str(amount)},
    )
    assert preview.status_code == 200
    text = re.sub(r"<[^>]+>", " ", preview.text)
    assert f"{corp} pays {amount} per share" in text and "later entr" in text and "set aside" in text
    assert "→" in text  # a figure that changes, before and after
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', preview.text).group(1)
    seq = re.search(r'name="seq" value="(\d+)"', preview.text).group(1)
    resp = client.post(
        f"/games/{gid}/correct/{index}",
        data={"csrf_token": csrf, "seq": seq, "e.type": "dividend", "e.corporation": corp, "e.amount": str(amount)},
    )
    assert resp.status_code == 303 and store.events(gid)[index]["amount"] == amount
