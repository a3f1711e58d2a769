"""The table as it lies, for the tabs: corporations, players, offering, deck, share price row,
cost of ownership and its outlook, the foreign investor, the final scoring and the charts.

Figures come from the engine's snapshot and explanations; nothing here decides anything."""

from __future__ import annotations

from functools import cached_property

from assistant.rules.core.deck import cost_outlook
from assistant.rules.core.market import price_row
from assistant.rules.core.phases.income import explain_income
from assistant.rules.core.pricing import explain_rating
from assistant.rules.core.scores import explain_score
from assistant.web import card_figures, charts


class TabletopPart:
    """The tabletop part of a TablePage (each attribute computed on first use)."""

    @cached_property
    def corporations(self) -> list[dict]:
        corps = self.snap.get("corporations") or {}
        rows = []
        for name, c in corps.items():
            row = dict(c, name=name, short=self.ruleset.short(name))
            row["companies"] = self.sorted_companies(c.get("companies") or [])
            row["income_why"] = self._explain(explain_income, name)
            if "stars" in c:  # Stars and v2.2: the price follows stars against required
                row["required_stars"] = card_figures.required_stars(c.get("share_price"), c.get("issued"), self.ruleset)
                stars = self._explain(explain_rating, name)
                if stars:
                    row["stars_why"] = stars
                    row["required_stars"] = stars.get("required", row["required_stars"])
            if "book_value" in c:  # classic: the price follows the book value
                row["book_value_why"] = self._explain(explain_rating, name)
            row["player_shares"] = {
                p: n for p, d in (self.snap.get("players") or {}).items() if (n := (d.get("shares") or {}).get(name))
            }
            rows.append(row)
        rows.sort(key=lambda r: -(r.get("share_price") or 0))
        return rows

    @cached_property
    def share_prices(self) -> dict:
        return {name: c.get("share_price") for name, c in (self.snap.get("corporations") or {}).items()}

    @cached_property
    def players(self) -> list[dict]:
        players = self.snap.get("players") or {}
        order = self.snap.get("player_order") or list(players)
        rows = []
        for pos, name in enumerate(order, 1):
            p = players.get(name, {})
            shares = {c: n for c, n in (p.get("shares") or {}).items() if n}
            share_value = sum(n * (self.share_prices.get(c) or 0) for c, n in shares.items())
            value = explain_score(self.game, name)["total"]
            rows.append(
                dict(
                    p,
                    name=name,
                    position=pos,
                    shares=shares,
                    share_value=share_value,
                    value=value,
                    companies=self.sorted_companies(p.get("companies") or []),
                    acting=bool(self.next) and self.next.get("player") == name,
                    me=name in self.my_seats,
                )
            )
        return rows

    def _explain(self, fn, *args) -> dict | None:
        """An engine explanation, or None if the engine cannot give it for this state."""
        try:
            return fn(self.game, *args)
        except (KeyError, AttributeError, TypeError, ValueError, ZeroDivisionError):
            return None

    @cached_property
    def foreign_income_why(self) -> dict | None:
        return self._explain(explain_income, "foreign_investor")

    def sorted_companies(self, companies: list[str]) -> list[dict]:
        """Companies by face value (highest first), with colour, for display."""
        rows = [card_figures.company(c, self.ruleset) for c in companies]
        rows.sort(key=lambda r: (-(r["face_value"] or 0), r["abbr"]))
        return rows

    @cached_property
    def offering(self) -> dict:
        off = self.snap.get("offering") or {}
        auction = self.snap.get("auction")
        return {
            "available": self.sorted_companies(off.get("available") or []),
            "unavailable": self.sorted_companies(off.get("unavailable") or []),
            "auction": auction,
        }

    @cached_property
    def deck_colors(self) -> list[tuple[str, int]]:
        """Cards left per colour (colours with none left are left out)."""
        per = card_figures.deck_left(self.game)
        return [(c, per[c]) for c in self.colors if per.get(c)]

    @cached_property
    def price_row(self) -> list[dict]:
        """The share price row: each card with the corporations holding it (from the engine)."""
        by_name = {c["name"]: c for c in self.corporations}
        row = self._explain(price_row)
        if row is None:  # pragma: no cover - an engine without price_row: from the snapshot
            on: dict = {}
            for c in self.corporations:
                on.setdefault(c.get("share_price"), []).append(c["name"])
            row = [{"price": p, "holders": on.get(p, [])} for p in card_figures.price_row(self.ruleset)]
        return [
            {
                "price": cell["price"],
                "corporations": [
                    by_name.get(n) or {"name": n, "short": self.ruleset.short(n)} for n in cell.get("holders") or []
                ],
            }
            for cell in row
        ]

    @cached_property
    def cost_of_ownership(self) -> list[tuple[str, int]]:
        cost = self.snap.get("cost_of_ownership") or {}
        return [(c, cost.get(c, 0)) for c in self.colors]

    @cached_property
    def outlook(self) -> dict:
        """What comes next on the deck: the colour on top, and the cost of ownership once it runs out."""
        left = card_figures.deck_left(self.game) or {}
        order = [c for c in self.colors if left.get(c)]
        top = order[0] if order else None
        after = order[1] if len(order) > 1 else None
        out = {
            "top": top,
            "top_left": left.get(top, 0) if top else 0,
            "after": after,
            "after_costs": None,
            "same": None,
            "changes": None,
        }
        if top:
            key = after or ("end_back" if self.snap.get("end_card_flipped") else "end_front")
            costs = self.game.cost_shown_by(key)
            if costs is not None:
                now = {c: n for c, n in (self.snap.get("cost_of_ownership") or {}).items() if n}
                out["after_costs"] = [(c, costs.get(c, 0)) for c in self.colors if costs.get(c)]
                out["same"] = costs == now
        change = self._explain(cost_outlook)
        if change and change.get("next") is not None:
            out["changes"] = {
                "draws": change.get("draws"),
                "costs": [(c, change["next"].get(c, 0)) for c in self.colors if change["next"].get(c)],
                "losing": change.get("losing") or [],
            }
        return out

    @cached_property
    def final(self) -> list[dict] | None:
        final = self.snap.get("final")
        if not final:
            return None
        players = {p["name"]: p for p in self.players}
        rows = []
        for rank, name in enumerate(final.get("ranking") or [], 1):
            p = players.get(name, {})
            total = (final.get("scores") or {}).get(name, 0)
            cash = p.get("cash", 0)
            shares = p.get("share_value", 0)
            why = self._explain(explain_score, name)
            rows.append(
                {
                    "rank": rank,
                    "name": name,
                    "total": total,
                    "cash": cash,
                    "shares": shares,
                    "companies": total - cash - shares,
                    "company_list": p.get("companies", []),
                    "lines": (why or {}).get("lines") or [],
                }
            )
        return rows

    @cached_property
    def charts(self) -> dict | None:
        """The game turn by turn (wealth, share prices) as SVG chart coordinates."""
        return charts.history_charts(self.game)

    @cached_property
    def two_handed_result(self) -> dict | None:
        """Two-handed variant: each person's seats, the rank of the lower-ranked one, and the winner."""
        th = (self.snap.get("final") or {}).get("two_handed")
        if not th:
            return None
        lower = th.get("lower_rank") or {}
        persons = [
            {"name": person, "seats": list(seats), "lower_rank": lower.get(person)}
            for person, seats in (th.get("seats") or {}).items()
        ]
        return {"persons": persons, "winner": th.get("winner")}
