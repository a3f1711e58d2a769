"""One timeline for the log (issue 27): corrections that keep every later entry that still fits,
old correction rows that replay as before, their words in the preview and the Log, and going back
to any earlier state; through the store and the JSON door, on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import json
import re

import pytest

from assistant.log import transcript
from assistant.rules import RuleError, events_of, registry
from assistant.store import Refused, Store
from tests import corrected_game as hand
from tests.project_games import one_per_row
from tests.web.conftest import make_app
from tests.web.test_corrections import PLAYERS, dividend_game

SEED = 22  # (tests/web/test_corrections.py's seeds, 7 apart) a correction that sets aside an entry and keeps later ones


@pytest.fixture(scope="module")
def corrected():
    """(events, index, the corrected entry) whose correction sets aside an entry and keeps one after it."""
    events, index, amount = dividend_game(seed_from=SEED)
    return events, index, dict(events[index], amount=amount)


def by_hand(events, index, event):
    """The correction as the rules say it: the corrected entry in its place, then each later entry
    kept if the rules accept it there, set aside if they refuse it. (kept places, game, set aside)."""
    game = registry.STARS.create(PLAYERS)
    for earlier in events[:index]:
        game.apply(earlier)
    game.apply(event)
    kept, aside = [], []
    for place, entry in enumerate(events[index + 1 :]):
        try:
            entered = game.apply(entry)
        except RuleError:
            aside.append(entry)
        else:  # a done that is now a no-op (its phase ends by itself) is no entry to keep
            (kept.append(place) if entered else aside.append(entry))
    return kept, game, aside


def replayed(events):
    game = registry.STARS.create(PLAYERS)
    for event in events:
        game.apply(event)
    return game


def _app(target, tmp_path):
    """The web app on ``target`` (an SQLite file or a PostgreSQL URL)."""
    return make_app(target, INSTANCE_PATH=str(tmp_path / "instance"))


def _import(client, events) -> str:
    resp = client.post("/games/import", json=transcript.build(PLAYERS, [], None, events, "timeline"))
    assert resp.status_code == 303, resp.text
    return resp.headers["Location"].rsplit("/", 1)[1]


def _state(client, gid) -> dict:
    body = client.get(f"/games/{gid}/state").get_json()
    body.pop("seq")
    return body


def test_a_correction_keeps_every_later_entry_that_still_fits(store_target, corrected, tmp_path):
    events, index, event = corrected
    kept, game, aside = by_hand(events, index, event)
    first_aside = min(set(range(len(events) - index - 1)) - set(kept))
    assert aside and any(place > first_aside for place in kept), (
        "the game shows the point: an entry kept after one set aside"
    )
    app = _app(store_target, tmp_path)
    client = app.test_client()
    gid = _import(client, events)
    before = _state(client, gid)
    resp = client.post(f"/games/{gid}/amend", json={"seq": len(events), "index": index, "event": event})
    assert resp.status_code == 200, resp.text
    assert resp.get_json() == {"seq": len(events) + 1, "kept": len(kept), "set_aside": aside}
    store = app.extensions["rss_store"]
    assert store.rows(gid)[-1].event["kept"] == kept  # the row names the kept entries by their place
    assert _state(client, gid) == game.snapshot()
    later = events[index + 1 :]
    # the entries in effect (the export also writes the done of a phase that ended by itself)
    assert one_per_row(client.get(f"/games/{gid}/export").get_json()) == [
        *events[:index],
        event,
        *(later[k] for k in kept),
    ]
    # a fresh server on the same database serves the same game
    again = _app(store_target, tmp_path)
    try:
        assert _state(again.test_client(), gid) == game.snapshot()
    finally:
        again.extensions["rss_store"].close()
    # one undo takes the correction back whole
    undo = client.post(f"/games/{gid}/events", json={"seq": len(events) + 1, "event": {"type": "undo"}})
    assert undo.status_code == 200 and _state(client, gid) == before
    store.close()


def test_an_old_correction_row_with_a_kept_count_replays_as_before(store_target, corrected):
    """Rows written before: ``kept`` is how many entries right after the corrected one stayed."""
    events, index, event = corrected
    kept, _game, _aside = by_hand(events, index, event)
    first_aside = min(set(range(len(events) - index - 1)) - set(kept))
    later = events[index + 1 :]
    store = Store(store_target)
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "old row"))
    row = {"type": "amend", "index": index, "event": event, "kept": first_aside, "set_aside": later[first_aside:]}
    assert store.backend.append(gid, len(events), json.dumps(row), None, "2026-01-01T00:00:00+00:00")[0] == "written"
    store.close()
    fresh = Store(store_target)
    try:
        expected = [*events[:index], event, *later[:first_aside]]  # the prefix, as it was replayed then
        assert fresh.events(gid) == expected
        assert fresh.state(gid)[1].snapshot() == replayed(expected).snapshot()
        assert fresh.append(gid, len(events) + 1, {"type": "undo"}) == len(events) + 2
        assert fresh.events(gid) == events
    finally:
        fresh.close()


def _texts(events) -> list[str]:
    return [entry["text"] for entry in replayed(events).journal]


def _visible(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_preview_and_the_log_name_kept_and_set_aside_entries_in_words(tmp_path, corrected):
    events, index, event = corrected
    kept, game, aside = by_hand(events, index, event)
    app = make_app(tmp_path / "words.sqlite3")
    client = app.test_client()
    gid = _import(client, events)
    old = _texts(events)  # the entries' words before the correction
    aside_words = [old[index + 1 + p] for p in range(len(events) - index - 1) if p not in kept]
    kept_words = [game.journal[index + 1 + n]["text"] for n in range(len(kept))]
    query = "&".join(f"e.{k}={v}" for k, v in event.items())
    page = client.get(f"/games/{gid}/correct/{index}/preview?{query}").text
    shown = _visible(page)
    for words in [*aside_words, *kept_words]:
        assert words in shown
    assert f"{len(kept)} later entries kept" in shown and f"{len(aside)} set aside" in shown
    if len(kept) > 3:  # the first three shown, the rest one tap away
        assert f"<summary>and {len(kept) - 3} more</summary>" in page
    assert not re.search(r"\b(dividend|skip_ipo|buy_share|sell_share|player_done)\b", shown)
    resp = client.post(f"/games/{gid}/amend", json={"seq": len(events), "index": index, "event": event})
    assert resp.status_code == 200
    log = _visible(client.get(f"/games/{gid}/v/log").text)
    assert f"Corrected entry {index + 1}" in log and "The banker moves" in log
    assert "Set aside by a correction" in log
    for words in aside_words:
        assert words in log
    assert not re.search(r"\b(dividend|skip_ipo|buy_share|sell_share|player_done)\b", log)
    # the undo prompt names the correction, not the latest entry
    prompt = _visible(client.get(f"/games/{gid}/undo").text)
    assert re.search(rf"Undo\s+the correction of entry {index + 1}\s*\?", prompt)
    app.extensions["rss_store"].close()


def test_a_correction_refused_where_it_stands_writes_nothing(tmp_path, corrected):
    events, index, event = corrected
    store = Store(str(tmp_path / "refused.sqlite3"))
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events, "refused"))
    with pytest.raises(Refused):
        store.amend(gid, len(events), index, dict(event, amount=10**6))
    assert store.seq(gid) == len(events)
    store.close()


def _changed(effective: list[dict], index: int) -> dict:
    """Another entry than ``effective[index]`` that fits in its place (a correction that changes
    the game), or that entry itself where nothing else fits."""
    try:
        return _other_event(replayed(effective[:index]), effective[index])
    except LookupError:
        return effective[index]


def _other_event(game, usual: dict) -> dict:
    """A legal event of ``game`` other than ``usual`` (the table changed its mind)."""
    for item in game.legal_actions():
        event = events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])
        if event != usual:
            try:
                game.preview(event)
            except RuleError:
                continue
            return event
    raise LookupError("no other event fits here")


def test_go_back_brings_back_any_earlier_state_and_an_undo_returns(store_target, tmp_path, corrected):
    """Entries, undos past a new entry (where redo no longer reaches), a correction, a going back:
    going back to any of their rows gives exactly the state /state answered there."""
    events = corrected[0][:30]
    app = _app(store_target, tmp_path)
    client = app.test_client()
    gid = _import(client, events)
    seen = {n: replayed(events[:n]).snapshot() for n in range(1, len(events) + 1)}  # the imported rows
    assert _state(client, gid) == seen[len(events)]

    def post(event, **extra):
        seq = client.get(f"/games/{gid}/state").get_json()["seq"]
        resp = client.post(f"/games/{gid}/events", json={"seq": seq, "event": event, **extra})
        assert resp.status_code == 200, resp.text
        seen[resp.get_json()["seq"]] = _state(client, gid)
        return resp.get_json()["seq"]

    for _ in range(5):
        post({"type": "undo"}, confirm=True)
    other = _other_event(replayed(events[:25]), events[25])
    new_entry = post(other)  # redo no longer reaches the five undone entries
    assert client.post(f"/games/{gid}/events", json={"seq": new_entry, "event": {"type": "redo"}}).status_code == 422
    store = app.extensions["rss_store"]
    seq = store.seq(gid)
    changed = _other_event(replayed(events[:3]), events[3])  # a correction that changes the game
    fix = client.post(f"/games/{gid}/amend", json={"seq": seq, "index": 3, "event": changed})
    assert fix.status_code == 200 and _state(client, gid) != seen[seq]
    seen[seq + 1] = _state(client, gid)
    for to in (len(events), len(events) + 3, new_entry, seq + 1, 7):  # an entry, an undo, a new entry, a correction
        now = store.seq(gid)
        before = _state(client, gid)
        at = post({"type": "go_back", "to": to})
        assert _state(client, gid) == seen[to], to
        assert store.rows(gid)[-1].event["type"] == "go_back"
        exported = client.get(f"/games/{gid}/export").get_json()["events"]
        assert replayed(exported).snapshot() == seen[to]  # the export: the entries in effect only
        if to == 7:  # an undo of it returns to the state before it
            post({"type": "undo"})
            assert _state(client, gid) == before
            assert store.seq(gid) == at + 1 == now + 2
    # going back to a going back
    last_go = max(s for s in seen if store.rows(gid)[s - 1].event["type"] == "go_back")
    post({"type": "go_back", "to": last_go})
    assert _state(client, gid) == seen[last_go]
    # a fresh server on the same database serves the same game
    again = _app(store_target, tmp_path)
    try:
        assert _state(again.test_client(), gid) == _state(client, gid)
    finally:
        again.extensions["rss_store"].close()
    # refused: nothing written
    seq = store.seq(gid)
    for to in (0, seq, seq + 4, -1):
        resp = client.post(f"/games/{gid}/events", json={"seq": seq, "event": {"type": "go_back", "to": to}})
        assert resp.status_code == 422 and "to must be the seq of an earlier row" in resp.get_json()["error"]
    resp = client.post(f"/games/{gid}/events", json={"seq": seq, "event": {"type": "go_back", "to": "3"}})
    assert resp.status_code in (400, 422)
    assert store.seq(gid) == seq
    # the history's words name it
    words = [r["text"] for r in client.get(f"/games/{gid}/history").get_json()["rows"]]
    assert words[-1] == f"Went back to the game as it was after row {last_go}"
    assert "Undone: going back to row 7" in words
    store.close()


def test_going_back_past_a_correction_to_another_value_brings_back_the_original_game(store_target, tmp_path):
    """tests/corrected_game.py: turn 2's dividend corrected from 0 to 3 (a different game: the
    purchase of the WT and the BSE's decision set aside), then going back to row 52, the row
    before the correction: exactly the 52 entries imported, the state /state answered then."""
    app = _app(store_target, tmp_path)
    client = app.test_client()
    gid = _import(client, hand.EVENTS)
    original = _state(client, gid)
    assert (original["turn"], original["phase"]) == (4, 1)
    resp = client.post(
        f"/games/{gid}/amend", json={"seq": 52, "index": hand.DIVIDEND, "event": hand.CORRECTED, "token": "d3"}
    )
    assert resp.status_code == 200 and resp.get_json() == {"seq": 53, "kept": 16, "set_aside": hand.SET_ASIDE}
    corrected = _state(client, gid)
    assert (corrected["turn"], corrected["phase"], corrected["players"]["Amy"]["companies"]) == (3, 9, ["WT"])
    back = client.post(f"/games/{gid}/events", json={"seq": 53, "event": {"type": "go_back", "to": 52}})
    assert back.status_code == 200 and back.get_json()["seq"] == 54
    assert client.get(f"/games/{gid}/export").get_json()["events"] == hand.EVENTS
    assert _state(client, gid) == original
    # the row names only what differs: from the corrected dividend on, the 19 entries as they were
    store = app.extensions["rss_store"]
    row = store.rows(gid)[-1].event
    assert (row["index"], row["events"]) == (hand.DIVIDEND, hand.EVENTS[hand.DIVIDEND :])
    store.close()


def test_go_back_through_the_logs_full_history(tmp_path, corrected):
    """The Log's full history offers "Go back to here…", whose confirmation names what changes."""
    events = corrected[0][:20]
    app = make_app(tmp_path / "back.sqlite3")
    client = app.test_client()
    gid = _import(client, events)
    texts = _texts(events)
    log = client.get(f"/games/{gid}/v/log?history=everything").text
    assert f'href="/games/{gid}/back/15"' in log and f'href="/games/{gid}/back/20"' not in log  # not the latest
    page = client.get(f"/games/{gid}/back/15").text
    shown = _visible(page)
    assert "5 entries in effect now taken out" in shown and "0 entries brought back" in shown
    for words in texts[15:18]:
        assert words in shown
    assert "<summary>and 2 more</summary>" in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post(f"/games/{gid}/back/15", data={"csrf_token": csrf, "seq": "20"})
    assert resp.status_code == 303
    assert _state(client, gid) == replayed(events[:15]).snapshot()
    prompt = _visible(client.get(f"/games/{gid}/undo").text)
    assert re.search(r"Undo\s+going back to row 15\s*\?", prompt)
    assert client.get(f"/games/{gid}/back/21").status_code == 404
    app.extensions["rss_store"].close()


# the words of rows 47 to 61 of the hand-laid log below, written out by hand (tests/corrected_game.py)
HAND_WORDS = [
    "Prussian Railway buys the WT from Amy for 10",  # 47
    "Acquisitions done",
    # Prussian Railway 2 (KME) + 2 (MHE) + 3 (WT) + 1 (KME-MHE) + 3 (one per company); BME 1 + BY 3 + 5
    "Closing done (then: Income: Crystal +1, foreign investor +9, Prussian Railway +11)",
    "Prussian Railway pays 0 per share; 5★ for 2 required: double up: 11 → 13",  # 1+1+2 stars, +1 for its 13
    "Prussian Railway issues no share",
    "The BSE stays private",  # 52: the last entry imported
    # 53: entry 34 from 1; KME and MHE 1 star each, 12 - 6 = 6 is no 10: 2 stars, the 2 required at 10
    "Corrected entry 34: Prussian Railway pays 3 per share; 2★ for 2 required: stays at 10 "
    "(16 later entries kept, 2 set aside)",
    "The WT stays private",
    "Undone: The WT stays private",
    "Restored: The WT stays private",
    "Went back to the game as it was after row 52",
    "Undone: going back to row 52",
    "Undone: The WT stays private",
    "Undone: the correction of entry 34",
    "Restored: the correction of entry 34",  # 61
]


def test_the_words_since_each_row_of_a_hand_laid_log_with_a_correction(tmp_path):
    """A stale post's words, against words written by hand: the hand-laid game, its dividend
    corrected to 3, Amy keeping the WT private, an undo and a redo, going back to before the
    correction and taking it all back, then the correction restored."""
    store = Store(str(tmp_path / "hand.sqlite3"))
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, hand.EVENTS, "hand"))
    assert store.amend(gid, 52, hand.DIVIDEND, hand.CORRECTED)["seq"] == 53
    rows = [{"type": "skip_ipo", "company": "WT"}, {"type": "undo"}, {"type": "redo"}]
    rows += [{"type": "go_back", "to": 52}, {"type": "undo"}, {"type": "undo"}, {"type": "undo"}, {"type": "redo"}]
    for seq, event in enumerate(rows, start=53):
        assert store.append(gid, seq, event) == seq + 1
    timeline = store.timeline(gid)
    for seq in range(46, 62):
        assert timeline.words_since(seq, limit=10**6) == HAND_WORDS[seq - 46 :], seq
    assert timeline.words_since(52, limit=3) == ["(6 earlier changes)", *HAND_WORDS[-3:]]
    store.close()


@pytest.mark.parametrize("seed", [3, 4])
def test_the_words_since_any_row_are_the_words_of_the_whole_log(tmp_path, corrected, seed):
    """A stale post's words start where the rows after it reach back to; with corrections and going
    back among the rows, or taken back by them, they are the same as the words of the whole log."""
    import random

    rng = random.Random(seed)
    events = corrected[0]
    store = Store(str(tmp_path / "words.sqlite3"))
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, events[:20], "words"))
    changed = 0  # corrections to another entry than the one in place
    for step in range(70):
        seq, game = store.state(gid)
        effective = store.events(gid)
        late = step >= 40  # the last rows: entries, undos and redos only, reaching back to what came before
        kind = rng.choices(
            ["entry", "undo", "redo", "amend", "go_back"], [5, 4, 2, 0 if late else 2, 0 if late else 1]
        )[0]
        if kind == "undo" and effective:
            store.append(gid, seq, {"type": "undo"})
        elif kind == "redo" and store.undone(gid):
            store.append(gid, seq, {"type": "redo"})
        elif kind == "amend" and effective:
            index = rng.randrange(len(effective))
            event = _changed(effective, index)
            changed += event != effective[index]
            store.amend(gid, seq, index, event)
        elif kind == "go_back":
            store.append(gid, seq, {"type": "go_back", "to": rng.randrange(1, seq)})
        elif len(effective) < len(events) and events[: len(effective)] == effective:
            store.append(gid, seq, events[len(effective)])
        else:
            store.append(gid, seq, _other_event(game, {}))
    print(f"seed {seed}: {changed} corrections to another entry")
    assert changed, "no correction changed the game: the test did not test them"
    timeline = store.timeline(gid)
    whole = timeline.row_words(0)
    assert len(whole) == timeline.seq
    for seq in range(timeline.seq + 1):
        expected = [text for text in whole[seq:] if text is not None]
        assert timeline.words_since(seq, limit=10**6) == expected, seq
    store.close()


def test_what_a_redo_would_restore_in_words(tmp_path):
    """The hand-laid game's last two entries undone: the next to restore first, each in its words
    (HAND_WORDS); a correction undone is named by its row."""
    store = Store(str(tmp_path / "undone.sqlite3"))
    gid = store.import_transcript(transcript.build(PLAYERS, [], None, hand.EVENTS, "hand"))
    store.append(gid, 52, {"type": "undo"})
    store.append(gid, 53, {"type": "undo"})
    assert store.timeline(gid).undone_words() == [
        {"n": 1, "text": "Prussian Railway issues no share"},
        {"n": 2, "text": "The BSE stays private"},
    ]
    store.append(gid, 54, {"type": "redo"})
    store.append(gid, 55, {"type": "redo"})
    assert store.timeline(gid).undone_words() == []
    assert store.amend(gid, 56, hand.DIVIDEND, hand.CORRECTED)["seq"] == 57
    store.append(gid, 57, {"type": "undo"})
    assert store.timeline(gid).undone_words() == [{"n": 1, "text": "the correction of entry 34"}]
    store.close()
