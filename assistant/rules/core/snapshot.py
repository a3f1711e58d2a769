"""The game as FORMAT.md's snapshot schema: what the replay prints and the JSON door returns."""

from __future__ import annotations


class SnapshotMixin:
    @property
    def next(self) -> dict | None:
        """Who must decide next, and what (None once the game is over)."""
        if self.game_over:
            return None
        if self.pending_reveals:
            return {"for": "reveal", "color": self.top_color(), "choices": self.reveal_choices()}
        phase = self.phase_kind
        if phase == "investment":
            a = self.auction
            if a is not None:
                return {"player": a.bidders[a.current], "for": "bid", "company": a.company}
            return {"player": self.order[self.actor], "for": "investment"}
        if phase == "acquisition":
            if self.intervention is not None:
                return {"for": "intervention", "company": self.intervention[1], "announced_by": self.intervention[0]}
            return {"for": "acquisition"} if self.phase_open or self.receivers else None
        if phase == "closing":
            return {"for": "closing"} if self.phase_open else None
        if phase in ("dividends", "issue", "ipo") and not self.queue:
            return None  # between phases (end-of-phase snapshots)
        if phase in ("dividends", "issue"):
            corp = self.corps[self.queue[0]]
            return {
                "player": corp.president,
                "for": "dividend" if phase == "dividends" else "issue",
                "corporation": corp.name,
            }
        if phase == "ipo":
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
                "income": self.player_income(name, costs).total,
            }
        corps = {name: self.corporation_snapshot(name, costs) for name in self.corps}
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
            "cost_of_ownership": {color: costs.get(color, 0) for color in self.cards.colors},
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

    def corporation_snapshot(self, name: str, costs: dict[str, int] | None = None) -> dict:
        """``costs``: the cost of ownership now, when the caller has it (a snapshot of the whole
        game reads it once, not once per corporation)."""
        c = self.corps[name]
        return {
            "cash": c.cash,
            "share_price": c.price,
            "companies": list(c.companies),
            "president": c.president,
            "issued": c.issued,
            "bank_shares": c.bank_shares,
            "unissued": c.unissued,
            "income": self.corporation_income(name, c.companies, self.costs() if costs is None else costs).total,
            **self.corporation_rating(name),
        }

    def corporation_rating(self, name: str) -> dict:
        """What the ruleset rates a corporation by, in its snapshot (Stars: stars; receivership)."""
        return self.pricing.rating(self, name)
