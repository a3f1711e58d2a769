"""Crowded tables for the board's tests: six players and every corporation the ruleset has in
play at once (8 in Stars, 10 in classic), as a position the app resumes from (FORMAT-position.md),
and a finished six-player game."""

from __future__ import annotations

from assistant.log import transcript
from assistant.rules import registry

SIX = ["Amy", "Brian", "Crystal", "Dirk", "Eve", "Fritz"]


def crowded(key: str) -> dict:
    """A transcript resuming after turn 5 with six players and every charter in play, each with two
    companies; each player owns a company, the foreign investor one, the offering six; the rest of
    the deck is left."""
    rs = registry.get(key)
    game = rs.create(SIX)
    companies = sorted(game.cards.companies, key=lambda a: (game.cards.companies[a].face_value, a))
    charters = list(rs.corporations)
    prices = [p for p in game.cards.prices if p][4:]
    corps, players = {}, {name: {"cash": 40 + 3 * i, "companies": [], "shares": {}} for i, name in enumerate(SIX)}
    it = iter(companies)
    for i, name in enumerate(charters):
        president = SIX[i % len(SIX)]
        players[president]["shares"][name] = 2
        other = SIX[(i + 1) % len(SIX)]
        players[other]["shares"][name] = 1
        corps[name] = {
            "cash": 10 + i,
            "share_price": prices[2 * i],
            "companies": [next(it), next(it)],
            "president": president,
            "issued": 4,
            "bank_shares": 1,
        }
    for name in SIX:
        players[name]["companies"].append(next(it))
    fi = {"cash": 20, "companies": [next(it)]}
    offering = {"available": [next(it) for _ in SIX], "unavailable": []}  # one card per seat
    seen = set(companies) - set(it)
    full = dict(game.deck_left)
    by_color = game.cards.companies_by_color
    unseen = {c: len([a for a in by_color[c] if a not in seen]) for c in game.colors}
    top = next(c for c in game.colors if unseen[c])
    deck = {c: 0 for c in game.colors}
    for c in game.colors[game.colors.index(top) :]:  # the cards drawn of a colour: at least those seen
        deck[c] = min(full[c] - len([a for a in by_color[c] if a in seen]), unseen[c])
    state = {"players": players, "corporations": corps, "foreign_investor": fi, "player_order": SIX,
             "offering": offering}  # fmt: skip
    position = {"after": {"turn": 5, "phase": len(game.PHASES)}, "state": state, "deck": deck, "out_of_game": []}
    return transcript.build(SIX, [], None, [], "a crowded table", game=key, position=position)


def finished(key: str = "rolling-stock-stars") -> dict:
    """A six-player game played to its end by the engine's menu."""
    from tests.project_games import _playout

    events = list(_playout(5, tuple(SIX), 5000))
    return transcript.build(SIX, [], None, events, "a finished six-player game", game=key)


def ended_with_holdings() -> dict:
    """A game resumed after turn 9 with the deck and the offering empty and the end card flipped:
    it ends at phase 7 of turn 10 with companies and shares in the players' hands (final scores:
    Amy 138, Crystal 60, Brian 39; worked out in tests/web/test_share.py)."""
    position = {
        "after": {"turn": 9, "phase": 9},
        "state": {
            "player_order": ["Amy", "Brian", "Crystal"],
            "players": {
                "Amy": {"cash": 20, "companies": ["CDG"], "shares": {"Doppler AG": 2}},
                "Brian": {"cash": 15, "companies": [], "shares": {"Doppler AG": 1}},
                "Crystal": {"cash": 5, "companies": ["HH"], "shares": {}},
            },
            "foreign_investor": {"cash": 10, "companies": []},
            "corporations": {
                "Doppler AG": {"cash": 10, "share_price": 30, "companies": ["E"], "president": "Amy", "issued": 4,
                               "bank_shares": 1},
            },
            "offering": {"available": [], "unavailable": []},
            "end_card_flipped": True,
        },
        "deck": {"red": 0, "orange": 0, "yellow": 0, "green": 0, "blue": 0},
    }  # fmt: skip
    events = [
        {"type": "pass", "player": "Amy"},
        {"type": "pass", "player": "Brian"},  # Crystal has nothing to do and passes by herself
        {"type": "done", "phase": 4},
        {"type": "dividend", "corporation": "Doppler AG", "amount": 0},
    ]
    return {"format": "rss-table-transcript", "version": 1, "game": "rolling-stock-stars",
                  "players": ["Amy", "Brian", "Crystal"], "options": [], "position": position, "events": events}  # fmt: skip
