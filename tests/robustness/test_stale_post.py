"""A post with an old seq: the "meanwhile" list it is answered with, and what it costs.

``reference_meanwhile`` is the list as the store computed it before answering a stale post got
cheaper (a full replay at every undo since the client's seq): the store must give exactly the
same list for every seq of a log full of undos, redos of the same event, other events in place
of undone ones, and undos reaching below the client's seq.  Against the real server, a stale
post after 300 undo/redo pairs is answered (409) with that list; its time is printed (the
figure belongs in benchmarks/stale_post.py, not in an assertion).
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

from assistant.log.meanwhile import entry_text
from assistant.rules import RuleError, events_of
from assistant.rules.core.game import Game
from assistant.rules.registry import STARS
from assistant.store import UNDO, Store, effective_events
from tests.project_games import one_per_row, played_game

from .conftest import Http, header, import_game, read_log


def _replay(info, events):
    return STARS.replay(info.players, info.options, events, deck=info.deck, persons=info.persons)


def reference_meanwhile(info, rows, seq: int, limit: int = 20) -> list[str]:
    """Today's list, computed the slow way: replay the game again after every undo."""
    seq = max(0, min(seq, len(rows)))
    effective = effective_events(rows[:seq])
    game = _replay(info, effective)
    texts = [entry_text(j) for j in game.journal]
    out: list[str] = []
    for row in rows[seq:]:
        if row.event.get("type") == UNDO:
            if effective:
                effective.pop()
                out.append("Undone: " + texts.pop())
                game = _replay(info, effective)
            continue
        game.apply(row.event)
        effective.append(row.event)
        texts.append(entry_text(game.journal[-1]))
        out.append(texts[-1])
    if len(out) > limit:
        out = [f"({len(out) - limit} earlier changes)"] + out[-limit:]
    return out


def _other_event(game: Game, usual: dict, rng: random.Random) -> dict | None:
    """A legal event of this state that is not ``usual`` (the table changed its mind)."""
    for item in rng.sample(game.legal_actions(), k=len(game.legal_actions())):
        event = events_of(item, lambda *a: a[0] if len(a) == 2 else a[0][0])
        if event != usual:
            try:
                game.preview(event)
            except RuleError:
                continue
            return event
    return None


def test_meanwhile_list_is_unchanged_for_every_seq(tmp_path):
    """Undos, redos, other events instead of undone ones, undos below the client's seq."""
    data = played_game()
    events = one_per_row(data)
    store = Store(tmp_path / "pin.sqlite3")
    gid = store.import_transcript(header(data, events[:30]))
    rng = random.Random(9)
    for step in range(160):
        seq, game = store.state(gid)
        n = len(game.events)
        on_path = game.events == events[:n]
        roll = rng.random()
        if n and (roll < 0.35 or not on_path and roll < 0.7):
            store.append(gid, seq, {"type": "undo"})
        elif roll < 0.5 and on_path:
            other = _other_event(game, events[n], rng)
            if other is not None:
                store.append(gid, seq, other, token=f"o{step}")
        elif on_path:
            store.append(gid, seq, events[n])
    rows = store.rows(gid)
    info = store.get_game(gid)
    assert sum(r.event["type"] == UNDO for r in rows) > 30
    for seq in range(0, len(rows) + 1):
        for limit in (1000, 20):
            assert store.changes_since(gid, seq, limit=limit) == reference_meanwhile(info, rows, seq, limit), (
                seq,
                limit,
            )
    # a seq the client cannot have seen is clamped, as before
    assert store.changes_since(gid, len(rows) + 5) == []
    assert store.changes_since(gid, -3, limit=1000) == reference_meanwhile(info, rows, 0, 1000)
    store.close()


def test_meanwhile_list_after_undo_redo_pairs_names_each_step(tmp_path):
    data = played_game()
    store = Store(tmp_path / "pairs.sqlite3")
    gid = store.import_transcript(header(data, data["events"][:50]))
    event = data["events"][50]
    seq = store.seq(gid)
    for _ in range(5):
        seq = store.append(gid, seq, event)
        seq = store.append(gid, seq, {"type": "undo"})
    changes = store.changes_since(gid, 50, limit=1000)
    assert len(changes) == 10
    assert changes[0::2] == [changes[0]] * 5 and not changes[0].startswith("Undone: ")
    assert changes[1::2] == ["Undone: " + changes[0]] * 5
    store.close()


def test_stale_post_after_300_undos_on_the_real_server(server_factory):
    data = played_game()
    events = one_per_row(data)
    srv = server_factory()
    client = Http(srv.base)
    gid = import_game(client, header(data, events[:120]))
    url = f"/games/{gid}/events"
    seq = 120
    for n in range(300):
        status, body = client.json("POST", url, {"seq": seq, "token": f"redo{n}", "event": events[120]})
        assert status == 200, body
        status, body = client.json("POST", url, {"seq": body["seq"], "token": f"undo{n}", "event": {"type": "undo"}})
        assert status == 200, body
        seq = body["seq"]
    started = time.perf_counter()
    status, body = client.json("POST", url, {"seq": 119, "token": "late", "event": events[119]})
    took = time.perf_counter() - started
    assert status == 409, body
    assert body["seq"] == seq == 720
    info, rows = read_log(srv.db, gid)
    assert body["changes"] == reference_meanwhile(SimpleNamespace(**info), rows, 119)
    assert body["changes"][0] == "(581 earlier changes)" and body["changes"][-1].startswith("Undone: ")
    print(f"stale post after 300 undo/redo pairs answered in {1000 * took:.0f} ms (one request, real server)")
