"""The deck: the open companies variant's declared deck, its top colour, the cost of ownership it
shows (and when that changes: ``cost_outlook``), and the cards the table draws (each card drawn is
entered as a ``reveal``: the app never shuffles)."""

from __future__ import annotations

from .errors import RuleError


class DeckMixin:
    def _check_open_deck(self, deck, counts: dict[str, int], always_in: dict[str, str] | None = None) -> set[str]:
        """The declared deck of the open companies variant: ``counts`` companies of each colour
        (Stars: the highest of each colour, ``always_in``, among them)."""
        if not deck:
            raise RuleError("The open companies variant needs the list of companies in the deck.")
        deck = list(deck)
        companies = self.cards.companies
        unknown = [a for a in deck if a not in companies]
        if unknown:
            raise RuleError(f"Unknown companies in the deck: {', '.join(map(str, unknown))}.")
        if len(set(deck)) != len(deck):
            raise RuleError("A company appears twice in the deck.")
        n = len(self.players)
        for a in deck:
            if companies[a].color not in counts:
                raise RuleError(
                    f"The {a} is {companies[a].color}; this game's deck has no {companies[a].color} companies."
                )
        for color, want in counts.items():
            have = [a for a in deck if companies[a].color == color]
            if len(have) != want:
                raise RuleError(f"With {n} players the deck holds {want} {color} companies, not {len(have)}.")
            if always_in and always_in[color] not in have:
                raise RuleError(f"The {always_in[color]} (highest {color}) is always in the deck.")
        return set(deck)

    def top_color(self) -> str | None:
        for color in self.colors:
            if self.deck_left[color]:
                return color
        return None

    def deck_size(self) -> int:
        return sum(self.deck_left.values())

    def costs(self) -> dict[str, int]:
        """Cost of ownership per colour (colours without a cost left out)."""
        top = self.top_color()
        if top is None:
            top = "end_back" if self.end_flipped else "end_front"
        return self.cost_shown_by(top)

    def cost_shown_by(self, top: str) -> dict[str, int]:
        """The cost of ownership a deck top colour (or "end_front" / "end_back") shows."""
        return self.cards.cost_by_top[top]

    def reveal_choices(self) -> list[str]:
        """Companies that can be the card now on top of the deck."""
        color = self.top_color()
        if color is None:
            return []
        unseen = [a for a in self.cards.companies_by_color[color] if a not in self.seen]
        if self.open_deck is not None:
            return [a for a in unseen if a in self.open_deck]
        return unseen

    def reveal_refusal(self, company: str, color: str) -> str:
        """Why ``company`` of the top colour cannot be the card drawn now."""
        if self.open_deck is not None:
            return f"The {company} is not in this (open) deck."
        return f"The {company} cannot be the card on top of the deck now."

    def _draw(self, count: int = 1) -> None:
        """Cards drawn from the deck: the table must tell which (one reveal each)."""
        self.pending_reveals += min(count, self.deck_size() - self.pending_reveals)

    def _ev_reveal(self, ev) -> str:
        if not self.pending_reveals:
            raise RuleError("No card is being drawn now.")
        company = ev.get("company")
        color = self.top_color()
        companies = self.cards.companies
        if company not in companies:
            raise RuleError(f"There is no company {company!r}.")
        if company in self.seen:
            raise RuleError(f"The {company} has already been drawn.")
        if companies[company].color != color:
            raise RuleError(f"The top card of the deck is {color}; the {company} is {companies[company].color}.")
        if company not in self.reveal_choices():
            raise RuleError(self.reveal_refusal(company, color))
        self.seen.add(company)
        self.deck_left[color] -= 1
        self.pending_reveals -= 1
        if self.setup:
            self.available.append(company)
            if not self.pending_reveals:
                self.setup = False
            return f"{company} drawn for the initial offering"
        self.unavailable.append(company)
        return f"{company} drawn (unavailable until {self.ruleset.word('drawn_waits')})"


def cost_outlook(game) -> dict:
    """Draws until the cost of ownership changes, and which owned companies then lose money."""
    now = game.costs()
    draws = 0
    nxt_costs = None
    colors = game.colors
    for color in colors:
        left = game.deck_left[color]
        if not left:
            continue
        draws += left
        later = [c for c in colors[colors.index(color) + 1 :] if game.deck_left[c]]
        upcoming = game.cost_shown_by(later[0] if later else "end_front")
        if upcoming != now:
            nxt_costs = upcoming
            break
    if nxt_costs is None:
        if game.end_flipped:
            return {"draws": None, "now": now, "next": None, "losing": []}
        nxt_costs, draws = game.cost_shown_by("end_back"), None  # changes when the end card flips
    losing = []
    for abbr, ent in game.owner.items():
        c = game.cards.companies[abbr]
        if c.income - nxt_costs.get(c.color, 0) < 0 <= c.income - now.get(c.color, 0):
            losing.append({"company": abbr, "owner": ent.name, "income_then": c.income - nxt_costs.get(c.color, 0)})
    return {"draws": draws, "now": now, "next": nxt_costs, "losing": losing}
