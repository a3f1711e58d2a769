"""Crowded tables for the board's tests: six players and every corporation the ruleset has in
play at once (8 in Stars, 10 in classic), as a position the app resumes from (FORMAT-position.md),
and a finished six-player game."""

from __future__ import annotations

from assistant import transcript
from assistant.rules import registry

SIX = ["Amy", "Brian", "Crystal", "Dirk", "Eve", "Fritz"]


def crowded(key: str) -> dict:
    """A transcript resuming after turn 5 with six players and every charter in play, each with two
    companies; each player owns a company, the foreign investor one; the rest of the deck is left."""
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
    seen = set(companies) - set(it)
    full = dict(game.deck_left)
    unseen = {c: len([a for a in game.cards.companies_by_color[c] if a not in seen]) for c in game.colors}
    top = next(c for c in game.colors if unseen[c])
    deck = {c: 0 for c in game.colors}
    for c in game.colors[game.colors.index(top) :]:
        deck[c] = min(full[c], unseen[c])
    state = {"players": players, "corporations": corps, "foreign_investor": fi, "player_order": SIX}
    position = {"after": {"turn": 5, "phase": len(game.PHASES)}, "state": state, "deck": deck, "out_of_game": []}
    return transcript.build(SIX, [], None, [], "a crowded table", game=key, position=position)


def finished(key: str = "rolling-stock-stars") -> dict:
    """A six-player game played to its end by the engine's menu."""
    from tests.project_games import _playout

    events = list(_playout(5, tuple(SIX), 5000))
    return transcript.build(SIX, [], None, events, "a finished six-player game", game=key)
