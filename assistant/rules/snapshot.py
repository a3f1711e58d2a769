"""The game as FORMAT.md's snapshot schema: what the replay prints and the JSON door returns."""

from __future__ import annotations

from .cards import COLORS


class SnapshotMixin:
    @property
    def next(self) -> dict | None:
        """Who must decide next, and what (None once the game is over)."""
        if self.game_over:
            return None
        if self.pending_reveals:
            return {"for": "reveal", "color": self.top_color(), "choices": self.reveal_choices()}
        phase = self.phase
        if phase == 1:
            a = self.auction
            if a is not None:
                return {"player": a.bidders[a.current], "for": "bid", "company": a.company}
            return {"player": self.order[self.actor], "for": "investment"}
        if phase == 3:
            if self.intervention is not None:
                return {"for": "intervention", "company": self.intervention[1], "announced_by": self.intervention[0]}
            return {"for": "acquisition"} if self.phase_open or self.receivers else None
        if phase == 4:
            return {"for": "closing"} if self.phase_open else None
        if phase in (6, 8, 9) and not self.queue:
            return None  # between phases (end-of-phase snapshots)
        if phase in (6, 8):
            corp = self.corps[self.queue[0]]
            return {"player": corp.president, "for": "dividend" if phase == 6 else "issue", "corporation": corp.name}
        if phase == 9:
            abbr = self.queue[0]
            return {"player": self.owner[abbr].name, "for": "ipo", "company": abbr}
        return None

    def snapshot(self) -> dict:
        costs = self.costs()
        players = {}
        for name in self.order:
            p = self.players[name]
            players[name] = {
                "cash": p.cash,
                "companies": list(p.companies),
                "shares": dict(p.shares),
                "income": self.player_income(name).total,
            }
        corps = {}
        for name, c in self.corps.items():
            corps[name] = {
                "cash": c.cash,
                "share_price": c.price,
                "companies": list(c.companies),
                "president": c.president,
                "issued": c.issued,
                "bank_shares": c.bank_shares,
                "unissued": c.unissued,
                "receivership": c.president is None,
                "income": self.corp_income(name).total,
                "stars": self.corp_stars(name).total,
            }
        snap = {
            "turn": self.turn,
            "phase": self.phase,
            "next": self.next,
            "game_over": self.game_over,
            "player_order": list(self.order),
            "players": players,
            "foreign_investor": {
                "cash": self.fi.cash,
                "companies": list(self.fi.companies),
                "income": self.fi_income().total,
            },
            "corporations": corps,
            "offering": {"available": list(self.available), "unavailable": list(self.unavailable)},
            "deck_size": self.deck_size(),
            "cost_of_ownership": {color: costs.get(color, 0) for color in COLORS},
            "end_card_flipped": self.end_flipped,
        }
        a = self.auction
        if a is not None:
            snap["auction"] = {
                "company": a.company,
                "high_bid": a.high,
                "high_bidder": a.high_bidder,
                "bidders": list(a.bidders),
            }
        if self.final is not None:
            snap["final"] = self.final
        return snap
