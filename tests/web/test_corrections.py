"""Correcting an entry made long ago (issue 16): the corrected entry in its place, later entries
kept while they fit, the rest set aside (not lost), one log row undone whole; through the store,
the JSON door and the phone's pages."""

from __future__ import annotations

import random
import re

import pytest

from assistant.log import corrections, transcript
from assistant.rules import events_of, registry
from tests import corrected_game as hand

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


@pytest.fixture(scope="module")
def dividend():
    return dividend_game()


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


def test_the_engine_keeps_what_fits_and_sets_aside_the_rest_of_a_hand_laid_game():
    """tests/corrected_game.py: turn 2's dividend of 0 corrected to 3 two turns back; by hand, 16 of
    the 18 later entries still fit and the other 2 are set aside (Prussian Railway's purchase of
    the WT for 10 with 6 left; the BSE staying private while it is the WT's turn)."""
    game = registry.STARS.create(PLAYERS)
    for earlier in hand.EVENTS[: hand.DIVIDEND]:
        game.apply(earlier)
    out = corrections.correct(game, hand.LATER, hand.DIVIDEND, hand.CORRECTED)
    assert out["kept"] == hand.KEPT and out["set_aside"] == hand.SET_ASIDE
    assert len(out["kept"]) + len(out["set_aside"]) == len(hand.LATER) == 18
    assert out["row"] == {
        "type": "amend",
        "index": hand.DIVIDEND,
        "event": hand.CORRECTED,
        "kept": hand.KEPT,
        "set_aside": hand.SET_ASIDE,
    }
    # Prussian Railway 12 - 6 (the dividend) + 7 (turn 3's income without the WT); Amy 22 + 3 - 11 + 3
    # (the WT's income, hers now); the WT's turn to go public in phase 9
    state = out["game"].snapshot()
    assert (state["turn"], state["phase"], state["next"]) == (3, 9, {"player": "Amy", "for": "ipo", "company": "WT"})
    assert state["corporations"][hand.PR]["cash"] == 13 and state["corporations"][hand.PR]["companies"] == [
        "KME",
        "MHE",
    ]
    assert (state["players"]["Amy"]["cash"], state["players"]["Amy"]["companies"]) == (17, ["WT"])


def test_set_aside_entries_are_shown_with_their_reasons_and_entered_again_once_they_fit(client, store):
    """The hand-laid correction through the store: the effective entries, the two set aside listed
    with their reasons, and the BSE's "stays private" entered again once the WT's decision is made."""
    gid = _import(client, hand.EVENTS)
    out = store.amend(gid, store.seq(gid), hand.DIVIDEND, hand.CORRECTED)
    assert (out["kept"], out["set_aside"]) == (16, hand.SET_ASIDE)
    assert store.events(gid) == [
        *hand.EVENTS[: hand.DIVIDEND],
        hand.CORRECTED,
        *(hand.LATER[p] for p in hand.KEPT),
    ]
    shown = store.set_aside(gid)
    assert shown == [
        {
            "event": hand.SET_ASIDE[0],
            "fits": False,
            "reason": "Companies are bought in phase 3 (acquisition); it is phase 9 now.",
            "text": "Prussian Railway buys the WT from Amy for 10",
        },
        {
            "event": hand.SET_ASIDE[1],
            "fits": False,
            "reason": "It is the WT's turn to go public or not (descending face value order), not the BSE's.",
            "text": "The BSE stays private",
        },
    ]
    log = client.get(f"/games/{gid}/v/log").text
    assert "Set aside by a correction" in log
    for s in shown:
        assert s["reason"].replace("'", "&#39;") in log
    # Amy keeps the WT private: the BSE's decision is next, and the entry set aside fits again
    store.append(gid, store.seq(gid), {"type": "skip_ipo", "company": "WT"})
    assert [s["fits"] for s in store.set_aside(gid)] == [False, True]
    store.append(gid, store.seq(gid), hand.SET_ASIDE[1])  # entered again (the Log's one tap)
    assert [s["event"] for s in store.set_aside(gid)] == [hand.SET_ASIDE[0]]
    assert store.state(gid)[1].snapshot()["turn"] == 4


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
