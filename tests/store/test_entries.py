"""The store's small parts (assistant/store/entries.py): a game's header starting its engine game
(from its set-up or from the table as it lay), new game ids, the time written, an event as it is
stored and what is refused in words, and the idempotency token's bounds."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from assistant.rules.classic.cards import CARDS
from assistant.rules.core.game import Game
from assistant.rules.registry import CLASSIC, STARS
from assistant.store.entries import (
    TOKEN_MAX,
    GameInfo,
    _has_surrogate,
    _now,
    check_token,
    new_game_id,
    normalise_event,
)
from assistant.store.errors import Refused

SEATS = ["Amy (right hand)", "Brian (left hand)", "Brian (right hand)", "Amy (left hand)"]


def _info(**fields) -> GameInfo:
    base = dict(id="g", players=["A", "B", "C"], options=[], deck=None, created="2026-01-01T00:00:00+00:00")
    return GameInfo(**{**base, "persons": None, **fields})


def _refusal(event) -> str:
    with pytest.raises(Refused) as refused:
        normalise_event(event)
    return refused.value.message


def test_a_game_starts_from_its_set_up_options_deck_persons_and_edition():
    # the open companies variant (3.4): the deck, given, is followed (as in tests/rules/test_classic_game.py)
    counts = CARDS.deck_counts["short"][3]
    deck = [a for color, k in counts.items() for a in CARDS.companies_by_color[color][:k]]
    info = _info(options=["short", "open_companies"], deck=deck, ruleset=CLASSIC.key)
    game = info.start()
    assert game.options == ["short", "open_companies"]
    assert game.reveal_choices() == ["BME", "BSE", "KME", "AKE"]
    assert game.edition == Game.EDITION  # a new game's
    assert _info(ruleset=CLASSIC.key, edition=1).start().edition == 1
    two = _info(players=SEATS, options=["two_handed"], persons=["Amy", "Brian"], ruleset=CLASSIC.key).start()
    assert (two.two_handed, two.persons) == (True, ["Amy", "Brian"])


def test_a_game_resumed_from_the_table_as_it_lay_starts_there():
    deck = dict(STARS.create(SEATS, ["two_handed"], persons=["Amy", "Brian"]).deck_left)
    deck["red"] -= 4  # the offering's four
    state = {
        "players": {p: {"cash": 30, "companies": [], "shares": {}} for p in SEATS},
        "corporations": {},
        "foreign_investor": {"cash": 4, "companies": []},
        "offering": {"available": ["BME", "BSE", "KME", "AKE"], "unavailable": []},
        "player_order": SEATS,
    }
    pos = {"after": {"turn": 1, "phase": 9}, "state": state, "deck": deck, "out_of_game": []}
    fields = dict(players=SEATS, options=["two_handed"], ruleset=STARS.key, position=pos)
    game = _info(**fields, persons=["Amy", "Brian"], edition=1).start()
    assert (game.two_handed, game.persons, game.options, game.edition) == (True, ["Amy", "Brian"], ["two_handed"], 1)
    assert game.turn == 2
    assert {p.cash for p in game.players.values()} == {30}
    assert _info(**fields).start().persons == ["A", "B"]  # none named: A and B


def test_a_new_game_id_is_144_random_bits_in_url_safe_text():
    ids = {new_game_id() for _ in range(50)}
    assert len(ids) == 50
    for gid in ids:
        assert re.fullmatch(r"[A-Za-z0-9_-]{24}", gid), gid  # 18 bytes, 4 characters for each 3


def test_the_time_written_is_utc_to_the_second():
    before = datetime.now(UTC).replace(microsecond=0)
    text = _now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", text), text
    written = datetime.fromisoformat(text)
    assert before <= written <= before + timedelta(seconds=60)


def test_an_event_is_stored_as_its_type_and_declared_fields():
    assert normalise_event({"type": "pass", "player": "Amy", "note": "x", "reject": False}) == {
        "type": "pass",
        "player": "Amy",
    }
    assert normalise_event({"type": "go_back", "to": 3, "note": "x"}) == {"type": "go_back", "to": 3}
    assert normalise_event({"type": "bid", "player": "Amy", "company": "BME", "price": 5}) == {
        "type": "bid",
        "player": "Amy",
        "company": "BME",
        "price": 5,
    }


def test_what_is_not_an_event_of_the_table_is_refused_in_words():
    not_an_event = "an event must be an object with a type"
    for event in ("pass", ["pass"], None, {"player": "Amy"}, {"type": 3}):
        assert _refusal(event) == not_an_event, event
    annotation = "checkpoints (expect) and events marked reject are transcript annotations, not decisions of the table"
    assert _refusal({"type": "expect", "state": {}}) == annotation
    assert _refusal({"type": "pass", "player": "Amy", "reject": True}) == annotation
    assert _refusal({"type": "pass", "player": 7}) == "The player must be a name, not 7."
    assert _refusal({"type": "bid", "player": "Amy", "company": "BME", "price": "5"}) == (
        "The price must be a whole number, not '5'."
    )


def test_text_that_is_not_valid_unicode_is_refused():
    not_unicode = "the event holds text that is not valid Unicode"
    for bad in ("\ud800", "\udfff", "Am\udc80y"):  # the lowest and highest lone surrogates, one within
        assert _refusal({"type": "pass", "player": bad}) == not_unicode, ascii(bad)
    for good in ("\ud7ff", "\ue000", "Amy \U0001f682"):  # just below and above them, a train
        assert normalise_event({"type": "pass", "player": good}) == {"type": "pass", "player": good}
    # wherever it is, in a key or a value, in a list or a dict
    assert _has_surrogate({"\ud800": "x"})
    assert _has_surrogate({"x": "\ud800"})
    assert _has_surrogate({"x": ["y", "\udfff"]})
    assert _has_surrogate(["y", {"z": "\udfff"}])
    assert not _has_surrogate({"x": ["y", {"z": 7}], "w": None})
    assert not _has_surrogate([])
    assert not _has_surrogate(7)


def test_a_token_is_a_nonempty_text_of_at_most_200_characters():
    assert TOKEN_MAX == 200
    check_token(None)
    check_token("k")
    check_token("x" * 200)
    check_token("\U0001f682")
    message = "a token must be a non-empty text of at most 200 characters"
    for bad in ("", "x" * 201, 7, ["k"], "k\ud800"):
        with pytest.raises(Refused) as refused:
            check_token(bad)
        assert refused.value.message == message, ascii(bad)
