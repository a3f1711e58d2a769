"""The store: append-only log, undo semantics, expected-seq check, tokens, per-instance cache."""

import json
import threading

import pytest

from assistant.store import Refused, Row, Stale, Store, effective_events

PLAYERS = ["Amy", "Brian", "Crystal"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "store.sqlite3")


def _setup(store):
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    for seq in range(3):
        _, game = store.state(gid)
        store.append(gid, seq, {"type": "reveal", "company": game.next["choices"][0]})
    return gid


def test_effective_events_apply_undo():
    rows = [
        Row(i + 1, e, None, "")
        for i, e in enumerate(
            [
                {"type": "a"},
                {"type": "b"},
                {"type": "undo"},
                {"type": "c"},
                {"type": "undo"},
                {"type": "undo"},
                {"type": "undo"},
                {"type": "d"},
            ]
        )
    ]
    assert effective_events(rows) == [{"type": "d"}]


def test_refused_event_writes_nothing(db):
    store = Store(db)
    gid = _setup(store)
    with pytest.raises(Refused) as err:
        store.append(gid, 3, {"type": "pass", "player": "Crystal"})
    assert "Amy" in err.value.message
    assert store.seq(gid) == 3 and len(store.rows(gid)) == 3


def test_stale_carries_the_current_seq(db):
    store = Store(db)
    gid = _setup(store)
    with pytest.raises(Stale) as err:
        store.append(gid, 1, {"type": "pass", "player": "Amy"})
    assert (err.value.expected, err.value.current) == (1, 3)


def test_token_makes_append_idempotent(db):
    store = Store(db)
    gid = _setup(store)
    assert store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="k") == 4
    assert store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="k") == 4
    assert store.append(gid, 4, {"type": "pass", "player": "Brian"}, token="other") == 5
    assert [r.token for r in store.rows(gid)][-2:] == ["k", "other"]


def test_undo_is_appended_and_nothing_is_deleted(db):
    store = Store(db)
    gid = _setup(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    assert store.append(gid, 4, {"type": "undo"}) == 5
    assert len(store.rows(gid)) == 5
    assert len(store.events(gid)) == 3
    assert store.state(gid)[1].next == {"player": "Amy", "for": "investment"}


def test_nothing_to_undo(db):
    store = Store(db)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    with pytest.raises(Refused):
        store.append(gid, 0, {"type": "undo"})


def test_changes_since_names_events_and_undos(db):
    store = Store(db)
    gid = _setup(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    store.append(gid, 4, {"type": "undo"})
    changes = store.changes_since(gid, 3)
    assert len(changes) == 2
    assert "Amy" in changes[0] and changes[1].startswith("Undone: ") and "Amy" in changes[1]


def test_each_store_has_its_own_cache_and_sees_the_database(db):
    one, two = Store(db), Store(db)
    gid = _setup(one)
    assert two.state(gid)[0] == 3
    one.append(gid, 3, {"type": "pass", "player": "Amy"})
    seq, game = two.state(gid)
    assert seq == 4 and game.next["player"] == "Brian"
    assert one._cache is not two._cache


def test_concurrent_writers_with_the_same_seq_one_wins(db):
    store = Store(db)
    gid = _setup(store)
    results = []

    def write(name):
        try:
            results.append(store.append(gid, 3, {"type": "pass", "player": "Amy"}))
        except Stale as err:
            results.append(err)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r for r in results if isinstance(r, int)) == [4]
    assert sum(isinstance(r, Stale) for r in results) == 3
    assert store.seq(gid) == 4


def test_state_is_cached_per_seq(db):
    store = Store(db)
    gid = _setup(store)
    first = store.state(gid)[1]
    assert store.state(gid)[1] is first
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    assert store.state(gid)[1] is not first
    assert first.next["player"] == "Amy"  # the cached game was not changed in place


# -- a game's set-up: checked (persons first), stored, read back ------------------------------------

SEATS = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]  # Guide 3.7


def _edit(db, sql, *args):
    """Write into the file as another program (or damage) would."""
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def test_a_two_handed_game_keeps_its_two_persons_behind_four_seats(db):
    gid = Store(db).create_game(SEATS, ["two_handed", "short"], persons=["Amy", "Brian"], ruleset="rolling-stock")
    info = Store(db).get_game(gid)  # another store: read from the file
    assert (info.players, info.options, info.persons, info.deck) == (
        SEATS,
        ["two_handed", "short"],
        ["Amy", "Brian"],
        None,
    )
    plain = Store(db).create_game(PLAYERS, ["short"], persons=[], ruleset="rolling-stock")
    assert Store(db).get_game(plain).persons is None  # none given: none stored
    row = Store(db).backend.game_row(plain)  # as stored: NULL where nothing was given, JSON text else
    assert (row["persons"], row["deck"], row["position"]) == (None, None, None)
    assert (row["id"], row["players"], row["options"], row["game"]) == (
        plain,
        json.dumps(PLAYERS),
        '["short"]',
        "rolling-stock",
    )


def test_the_persons_are_checked_before_the_seats_and_the_set_up_by_the_engine(db):
    store = Store(db)
    with pytest.raises(Refused) as err:
        store.create_game(["Amy", "amy", "B", "C"], ["two_handed"], persons=["Bo", "bo"], ruleset="rolling-stock")
    assert err.value.message == "every person needs a different name"
    with pytest.raises(Refused) as err:
        store.create_game(["Amy", "amy", "B", "C"], ["two_handed"], persons=["Amy", "Bo"], ruleset="rolling-stock")
    assert err.value.message == "every player needs a different name"
    # the engine's own checks of the set-up, each with the options, deck and persons given
    for players, options, persons in (
        (SEATS, ["two_handed", "short"], ["Amy"]),  # two-handed: two persons
        (PLAYERS, ["short"], ["Amy", "Brian"]),  # persons only in the two-handed variant
        (PLAYERS, ["two_handed"], ["Amy", "Brian"]),  # three seats
        (PLAYERS, ["nonsense"], None),
    ):
        with pytest.raises(Refused):
            store.create_game(players, options, persons=persons, ruleset="rolling-stock")
    with pytest.raises(Refused) as err:
        store.create_game(PLAYERS, ruleset="no-such-game")
    assert "no-such-game" in err.value.message and err.value.rule is None
    with pytest.raises(Refused) as err:  # not a list: Python's own words
        store.create_game(PLAYERS, ["open_companies"], deck=5, ruleset="rolling-stock-stars")
    assert err.value.message == "'int' object is not iterable"
    assert store.backend.game_ids() == []  # nothing stored


def test_a_deck_is_given_only_in_the_open_companies_variant_and_kept(db):
    from assistant.rules.stars.cards import CARDS

    store = Store(db)
    # with three players: the last of each colour's companies, as many as the deck holds of that colour
    deck = [a for color, abbrs in CARDS.companies_by_color.items() for a in abbrs[-CARDS.deck_counts[3][color] :]]
    gid = store.create_game(PLAYERS, ["open_companies"], deck=deck, ruleset="rolling-stock-stars")
    assert Store(db).get_game(gid).deck == deck
    with pytest.raises(Refused):
        store.create_game(PLAYERS, deck=deck, ruleset="rolling-stock-stars")  # not that variant
    with pytest.raises(Refused):
        store.create_game(PLAYERS, ["open_companies"], deck=deck[1:], ruleset="rolling-stock-stars")
    assert store.backend.game_ids() == [gid]


def test_a_game_header_is_read_once_and_the_latest_few_kept(db, monkeypatch):
    from assistant.store import store as store_module

    monkeypatch.setattr(store_module, "INFO_CACHE_SIZE", 2)
    maker = Store(db)
    a, b, c = (maker.create_game(PLAYERS, ruleset="rolling-stock-stars") for _ in range(3))
    store = Store(db)
    for gid in (a, b, c):
        assert store.get_game(gid).players == PLAYERS
    _edit(db, "UPDATE games SET players = ?", '["X", "Y", "Z"]')  # (headers never change: seen only if read again)
    assert store.get_game(b).players == PLAYERS and store.get_game(c).players == PLAYERS  # kept: b and c
    assert store.get_game(a).players == ["X", "Y", "Z"]  # the first one read went


def test_a_game_stored_before_editions_is_of_the_first_and_one_without_a_ruleset_is_damage(db):
    from assistant.store import Damaged, NotFound

    gid = Store(db).create_game(PLAYERS, ruleset="rolling-stock-stars")
    assert Store(db).get_game(gid).edition == 2  # Game.EDITION
    _edit(db, "UPDATE games SET edition = NULL")
    assert Store(db).get_game(gid).edition == 1
    with pytest.raises(NotFound) as err:
        Store(db).get_game("nope")
    assert err.value.message == "no such game"
    assert Store(db).game_exists(gid) and not Store(db).game_exists("nope")
    _edit(db, "UPDATE games SET options = ?", "[garbage")
    with pytest.raises(Damaged) as err:
        Store(db).get_game(gid)
    assert err.value.message == "database disk image is malformed: a stored row is not readable"
    _edit(db, "UPDATE games SET game = NULL, options = '[]'")
    with pytest.raises(Damaged) as err:
        Store(db).get_game(gid)
    assert err.value.message == "database disk image is malformed: a stored game names no ruleset"


# -- entering, correcting -------------------------------------------------------------------------------


def test_a_refusal_names_its_rule_and_a_bad_token_is_refused(db):
    store = Store(db)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    with pytest.raises(Refused) as err:
        store.append(gid, 0, {"type": "reveal", "company": "ZZZ"})
    assert err.value.rule == "deck"  # the deck's rule: a card drawn from it
    for token in ("", "t" * 1000):
        with pytest.raises(Refused, match="a token must be a non-empty text"):
            store.append(gid, 0, {"type": "reveal", "company": "BME"}, token=token)
    assert store.seq(gid) == 0


def test_enter_twice_with_one_token_gives_the_game_now(db):
    store = Store(db)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    first = store.enter(gid, 0, {"type": "reveal", "company": "BME"}, token="t1")
    again = store.enter(gid, 0, {"type": "reveal", "company": "BME"}, token="t1")
    assert first.seq == again.seq == 1 and again.game.next == first.game.next
    assert store.seq(gid) == 1


def test_what_a_game_holds_moves_on_with_each_row_written(db):
    store = Store(db)
    gid = _setup(store)
    assert store._held._known[gid] == (3, store.backend.game_bytes(gid))  # counted, then moved on
    held = store.backend.game_bytes(gid)
    store.append(gid, 3, {"type": "pass", "player": "Amy"})
    text = store.backend.rows(gid, 3)[0][1]
    assert store._held._known[gid] == (4, held + len(text.encode()))


def test_a_row_written_at_a_stale_seq_or_with_a_used_token_is_not_written(db):
    store = Store(db)
    gid = _setup(store)
    store.append(gid, 3, {"type": "pass", "player": "Amy"}, token="k")
    now = store.timeline(gid)
    row = {"type": "pass", "player": "Brian"}
    with pytest.raises(Stale) as err:
        store._write(gid, 2, row, None, now)
    assert (err.value.expected, err.value.current) == (2, 4)
    assert store._write(gid, 4, row, "k", now) == (4, None)  # the token's row: nothing written
    assert store.seq(gid) == 4


def test_a_correction_is_refused_for_an_undo_and_its_retry_with_a_token_writes_nothing(db):
    store = Store(db)
    gid = _setup(store)
    with pytest.raises(Refused) as err:
        store.amend(gid, 3, 0, {"type": "undo"})
    assert err.value.message == "an entry is corrected by a decision of the table, not by an undo or a correction"
    with pytest.raises(Refused, match="a token must be a non-empty text"):
        store.amend(gid, 3, 0, {"type": "reveal", "company": "MHE"}, token="")
    with pytest.raises(Stale) as err:
        store.amend(gid, 2, 0, {"type": "reveal", "company": "MHE"})
    assert (err.value.expected, err.value.current) == (2, 3)
    assert store.amend(gid, 3, 0, {"type": "reveal", "company": "MHE"}, token="c") == {
        "seq": 4,
        "kept": 2,
        "set_aside": [],
    }
    assert store.amend(gid, 3, 0, {"type": "reveal", "company": "MHE"}, token="c") == {
        "seq": 4,
        "kept": None,
        "set_aside": None,
    }
    assert store.seq(gid) == 4


def test_a_correction_is_worked_out_at_the_row_asked_and_a_refusal_names_its_rule(db):
    store = Store(db)
    gid = _setup(store)  # three companies revealed
    assert store.correction(gid, 0, {"type": "reveal", "company": "MHE"})["kept"] == [0, 1]  # the two after it
    assert store.correction(gid, 0, {"type": "reveal", "company": "MHE"}, 2)["kept"] == [0]  # at row 2: one
    with pytest.raises(Refused) as err:
        store.correction(gid, 0, {"type": "reveal", "company": "ZZZ"})
    assert err.value.message == "There is no company 'ZZZ'." and err.value.rule == "deck"


def test_undos_at_the_end_and_what_a_redo_brings_back_now_or_at_a_row(db):
    store = Store(db)
    gid = _setup(store)
    revealed = [r.event for r in store.rows(gid)]
    store.append(gid, 3, {"type": "undo"})
    store.append(gid, 4, {"type": "undo"})
    assert store.undos_in_a_row(gid) == 2 and store.undos_in_a_row(gid, 4) == 1 and store.undos_in_a_row(gid, 3) == 0
    assert store.undone(gid) == [revealed[1], revealed[2]]  # the next one first
    assert store.undone(gid, 4) == [revealed[2]]
    assert store.set_aside(gid) == []  # no correction


def test_what_happened_since_is_cut_to_the_limit(db):
    store = Store(db)
    gid = _setup(store)
    assert len(store.changes_since(gid, 0)) == 3
    assert store.changes_since(gid, 0, 1)[0] == "(2 earlier changes)"
    assert len(store.changes_since(gid, 0, 1)) == 2


def test_what_happened_since_on_a_log_the_engine_now_refuses_is_unreplayable(db):
    """The game now comes from its saved state; the words since the start replay the log, whose first
    row was damaged into an event the engine refuses."""
    from assistant.store import Unreplayable

    store = Store(db, save_every=1)
    gid = _setup(store)
    store.append(gid, 3, {"type": "undo"})  # (an undo among the rows: the words come from a replay)
    _edit(db, "UPDATE events SET event = ? WHERE seq = 1", '{"type": "reveal", "company": "ZZZ"}')
    fresh = Store(db, save_every=1)
    assert fresh.state(gid)[0] == 4
    with pytest.raises(Unreplayable) as err:
        fresh.changes_since(gid, 0)
    assert err.value.message == "the rules engine refuses a stored event: There is no company 'ZZZ'."


def test_what_happened_since_says_the_latest_twenty_rows_by_default(db):
    store = Store(db)
    gid = store.create_game(PLAYERS, ruleset="rolling-stock-stars")
    store.append(gid, 0, {"type": "reveal", "company": "BME"})
    for seq in range(1, 21, 2):  # ten undos, each redone: 21 rows, each with its words
        store.append(gid, seq, {"type": "undo"})
        store.append(gid, seq + 1, {"type": "redo"})
    changes = store.changes_since(gid, 0)
    assert len(changes) == 21 and changes[0] == "(1 earlier changes)"
    assert len(store.changes_since(gid, 1)) == 20 and not store.changes_since(gid, 1)[0].startswith("(")
