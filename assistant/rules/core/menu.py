"""The legal-action menu: exactly the events ``apply`` accepts now, with their bounds.

The table app builds its action panel from this menu and nothing else; the random
playout tests draw their events from it.
"""

from __future__ import annotations


class MenuMixin:
    def legal_actions(self) -> list[dict]:
        if self.game_over:
            return []
        if self.pending_reveals:
            return [{"type": "reveal", "color": self.top_color(), "choices": self.reveal_choices()}]
        return getattr(self, f"_menu_{self.phase_kind}")()

    # acquisition -----------------------------------------------------------
    def _menu_acquisition(self) -> list[dict]:
        if self.intervention is not None:
            announcer, abbr = self.intervention
            out = self._interventions(self.corps[announcer], abbr)
            waiting = self.undecided()
            # each corporation that may intervene may let it go (the next in priority first,
            # those after it may say so early); then anyone may say nobody does
            out += [
                {
                    "type": "no_intervention",
                    "company": abbr,
                    "announced_by": announcer,
                    "corporation": c.name,
                    "president": c.president,
                    "price": self.fi_price(c.name, abbr),  # what it would pay, were it to intervene
                    # announced: those who answer before it (it may let it go now, intervene only after them)
                    "after": [a.name for a in waiting[:k]] if self.answers_in_order else [],
                }
                for k, c in enumerate(waiting)
            ]
            out.append({"type": "no_intervention", "company": abbr, "announced_by": announcer})
            return out
        out = self._purchases()
        if self.phase_open:
            out += self._phase_done_items(out)
        return out

    def _purchases(self) -> list[dict]:
        """Every purchase a player-run corporation may make now: ``acquire`` from a player or a
        corporation (a price span), ``announce`` for the foreign investor's (a fixed price)."""
        out = []
        for corp in self.corps.values():
            if corp.president is None:
                continue
            money = self.spendable(corp)
            for abbr, seller in self.owner.items():
                if seller is corp or abbr in self.moved:
                    continue
                c = self.cards.companies[abbr]
                if seller.kind == "foreign_investor":
                    lo = hi = self.fi_price(corp.name, abbr)
                else:
                    if seller.kind == "corporation" and (seller.president is None or len(seller.companies) == 1):
                        continue
                    lo, hi = c.price_min, min(c.price_max, money)
                if lo <= money and lo <= hi:
                    item = {
                        "type": "acquire",
                        "corporation": corp.name,
                        "company": abbr,
                        "seller": seller.name,
                        "president": corp.president,
                        "min": lo,
                        "max": hi,
                    }
                    if seller.kind == "foreign_investor":
                        # announced first: these corporations may then intervene (best first)
                        item["type"] = "announce"
                        item["may_intervene"] = [c.name for c in self.interveners(corp, abbr)]
                    out.append(item)
        return out

    def _phase_done_items(self, actions: list[dict], short=frozenset()) -> list[dict]:
        """Each player who could still act (from ``actions``, the phase's menu) and has not said so
        may say "I'm done"; the table may end the phase unless someone must close companies first."""
        waiting = self.not_done_yet(actions)
        out = [{"type": "player_done", "player": p, "phase": self.phase} for p in waiting if p not in short]
        if not short:
            out.append({"type": "done", "phase": self.phase, "waiting_for": waiting})
        return out

    def _interventions(self, announcer, abbr: str) -> list[dict]:
        """The interventions in ``announcer``'s purchase of the foreign investor's ``abbr``: one
        ``acquire`` item per corporation whose answer is awaited now (``asked_now``: after an
        ``announce`` the next in priority only), each at its own fixed price, with ``announced_by``
        naming the announcer."""
        return [
            {
                "type": "acquire",
                "corporation": c.name,
                "company": abbr,
                "seller": "the foreign investor",
                "president": c.president,
                "min": self.fi_price(c.name, abbr),
                "max": self.fi_price(c.name, abbr),
                "announced_by": announcer.name,
            }
            for c in self.asked_now()
        ]

    # closing ---------------------------------------------------------------
    def _menu_closing(self) -> list[dict]:
        out = self._closings()
        return out + self._phase_done_items(out, {name for name, _, _ in self.players_short()})

    def _closings(self) -> list[dict]:
        """Every company its owner may close now (a corporation keeps at least one)."""
        out = []
        for name in self.order:
            for abbr in self.players[name].companies:
                out.append({"type": "close", "company": abbr, "owner": name, "player": name})
        for corp in self.corps.values():
            if corp.president is not None and len(corp.companies) > 1:
                for abbr in corp.companies:
                    out.append({"type": "close", "company": abbr, "owner": corp.name, "player": corp.president})
        return out


def events_of(item: dict, pick) -> dict:
    """A concrete event from a menu item; ``pick(lo, hi)`` chooses amounts, ``pick(seq)`` choices."""
    kind = item["type"]
    if kind == "reveal":
        return {"type": "reveal", "company": pick(item["choices"])}
    if kind == "announce":
        return {"type": "announce", "corporation": item["corporation"], "company": item["company"]}
    if kind == "no_intervention":
        ev = {"type": "no_intervention", "company": item["company"]}
        if item.get("corporation"):
            ev["corporation"] = item["corporation"]
        return ev
    if kind in ("bid", "acquire", "dividend"):
        amount = pick(item["min"], item["max"])
        if kind == "bid":
            return {"type": "bid", "player": item["player"], "company": item["company"], "price": amount}
        if kind == "dividend":
            return {"type": "dividend", "corporation": item["corporation"], "amount": amount}
        ev = {"type": "acquire", "corporation": item["corporation"], "company": item["company"], "price": amount}
        if item.get("announced_by"):
            ev["announced_by"] = item["announced_by"]
        return ev
    if kind == "ipo":
        opt = pick(item["options"])
        return {"type": "ipo", "company": item["company"], "corporation": opt["corporation"], "price": opt["price"]}
    keys = {
        "pass": ("player",),
        "leave": ("player",),
        "buy_share": ("player", "corporation"),
        "sell_share": ("player", "corporation"),
        "done": ("phase",),
        "player_done": ("player", "phase"),
        "close": ("company",),
        "issue": ("corporation",),
        "skip_issue": ("corporation",),
        "redeem": ("corporation",),
        "skip_ipo": ("company",),
    }[kind]
    return {"type": kind, **{k: item[k] for k in keys}}


__all__ = ["MenuMixin", "events_of"]
