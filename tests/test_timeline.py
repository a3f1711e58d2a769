"""One timeline for the log (issue 27): corrections that keep every later entry that still fits,
old correction rows that replay as before, their words in the preview and the Log, and going back
to any earlier state; through the store and the JSON door, on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import json
import re

import pytest

from assistant import transcript
from assistant.rules import RuleError, registry
from assistant.store import Refused, Store
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
            game.apply(entry)
        except RuleError:
            aside.append(entry)
        else:
            kept.append(place)
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
    assert client.get(f"/games/{gid}/export").get_json()["events"] == [
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
    assert store.tables.append(gid, len(events), json.dumps(row), None, "2026-01-01T00:00:00+00:00")[0] == "written"
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
