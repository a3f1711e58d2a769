"""The figures a game computes from its state: incomes, the share order, scores and the ranking,
and the end of the game; a corporation's figures that a purchase or a closing changes."""

from __future__ import annotations

from . import final_score
from .compute import corporation_income, private_income


class FiguresMixin:
    def player_income(self, name: str, costs: dict[str, int] | None = None):
        """``costs``: the cost of ownership now, when the caller has it already."""
        costs = self.costs() if costs is None else costs
        return private_income(self.players[name].companies, costs, self.cards.companies)

    def fi_income(self):
        return private_income(self.fi.companies, self.costs(), self.cards.companies, self.cards.foreign_investor_income)

    def corporation_income(self, name: str, abbrs, costs):
        """Income of a corporation with these companies: synergies, and its charter's ability if any."""
        return corporation_income(name, self.ability(name), abbrs, costs, self.cards.companies)

    def corp_income(self, name: str):
        corp = self.corps[name]
        return self.corporation_income(name, corp.companies, self.costs())

    def share_order(self) -> list[str]:
        """Corporations in share price order (highest first)."""
        return sorted(self.corps, key=lambda c: -self.corps[c].price)

    def unowned_left(self) -> bool:
        return bool(self.available or self.unavailable or self.deck_size())

    def scores(self) -> dict[str, int]:
        out = {}
        for name, p in self.players.items():
            total = p.cash + sum(self.cards.companies[a].face_value for a in p.companies)
            for cname, n in p.shares.items():
                total += n * self.corps[cname].price
            out[name] = total
        return out

    def ranking(self, scores: dict[str, int]) -> list[str]:
        """Players by score, best first; a tie goes to the player earlier in (the final) player order."""
        return sorted(self.order, key=lambda p: (-scores[p], self.order.index(p)))

    def _finish_game(self) -> None:
        self.game_over = True
        scores = self.scores()
        ranking = self.ranking(scores)
        self.final = {"scores": scores, "ranking": ranking}
        if self.two_handed:  # the seats in their first player order decide whose they are
            self.final["two_handed"] = final_score.two_handed(list(self.players), self.persons, ranking)
        self._log("The game ends. " + ", ".join(f"{p} {self.ruleset.cash(scores[p])}" for p in ranking))


def corporation_figures(game, name: str) -> dict | None:
    """A corporation's figures a purchase or a closing changes: its income and synergies, what its
    price mechanism rates it by, and its share price after a dividend of 0 (None: not in play)."""
    corp = game.corps.get(name)
    if corp is None:
        return None
    inc = game.corp_income(name)
    move, facts, _why = game.adjustment(corp, corp.cash)
    return {
        "income": inc.total,
        "synergies": [list(p) for p in inc.synergies],
        **facts,
        "zero_dividend_price": move.new,
    }
