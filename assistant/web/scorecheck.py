"""Checking the final scores of a game played on paper: the form's figures as an end position for
the engine (``position.final_scores``), and the result as the table shares it.  Nothing here
scores anything: the engine does."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant import words
from assistant.rules import RuleError, registry
from assistant.rules.core import position
from assistant.web import cards

MAX_PLAYERS = 6
MAX_NAME = 30


class FormError(ValueError):
    pass


@dataclass
class ScoreForm:
    """What the table entered: the game, the players in final order, and per player and corporation
    the figures scoring needs.  Values are kept as entered, to show them again."""

    ruleset: registry.Ruleset
    players: list[str]
    cash: dict[int, str] = field(default_factory=dict)
    companies: dict[int, list[str]] = field(default_factory=dict)
    shares: dict[tuple[int, str], str] = field(default_factory=dict)
    prices: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, args) -> ScoreForm:
        ruleset, players = game_and_players(args, 2)
        form = cls(ruleset, players)
        for i in range(len(players)):
            form.cash[i] = args.get(f"cash-{i}", "")
            form.companies[i] = [a for a in args.getlist(f"co-{i}") if a in ruleset.cards.companies]
            for corp in ruleset.corporations:
                form.shares[(i, corp)] = args.get(f"sh-{i}-{corp}", "")
        for corp in ruleset.corporations:
            form.prices[corp] = args.get(f"price-{corp}", "")
        return form

    @property
    def filled(self) -> bool:
        return any(v != "" for v in self.cash.values())

    def state(self) -> dict:
        """The end position in FORMAT.md's snapshot shape (what ``score`` reads)."""
        players = {}
        for i, name in enumerate(self.players):
            shares = {}
            for corp in self.ruleset.corporations:
                n = _number(self.shares[(i, corp)], f"{words.possessive(name)} {corp} shares")
                if n:
                    shares[corp] = n
            players[name] = {
                "cash": _number(self.cash[i], f"{words.possessive(name)} money"),
                "companies": self.companies[i],
                "shares": shares,
            }
        corps = {}
        for corp, text in self.prices.items():
            if text:
                corps[corp] = {"share_price": _number(text, f"{words.possessive(corp)} share price")}
        held = {c for p in players.values() for c in p["shares"]}
        missing = sorted(held - set(corps))
        if missing:
            raise FormError(f"Players hold {missing[0]} shares: choose its share price.")
        return {"player_order": list(self.players), "players": players, "corporations": corps}

    def result(self) -> dict:
        scores = position.final_scores(self.ruleset, self.players, self.state())
        ranking = scores["ranking"]
        text = [f"{self.ruleset.title}: final scores"]
        text += [f"{n}. {p}: {scores['scores'][p]}" for n, p in enumerate(ranking, 1)]
        return {
            **scores,
            "rows": [{"place": n, "player": p, "score": scores["scores"][p]} for n, p in enumerate(ranking, 1)],
            "share_text": "\n".join(text + ["", *scores["lines"]]),
        }

    # -- what the form shows -------------------------------------------------------------------
    def companies_by_color(self) -> list[tuple[str, list[dict]]]:
        by_color = self.ruleset.cards.companies_by_color
        return [
            (color, [cards.company(a, self.ruleset) for a in by_color[color]]) for color in self.ruleset.cards.colors
        ]

    def prices_row(self) -> list[int]:
        return [p for p in self.ruleset.cards.prices if p]


def game_and_players(args, fewest: int | None = None) -> tuple[registry.Ruleset, list[str]]:
    """The game (``game``) and its players (``name``, in order) a form names; FormError otherwise."""
    try:
        ruleset = registry.get(args.get("game") or registry.DEFAULT)
    except RuleError as err:
        raise FormError(err.message) from None
    players = [n.strip()[:MAX_NAME] for n in args.getlist("name") if n.strip()][:MAX_PLAYERS]
    fewest = ruleset.players[0] if fewest is None else fewest
    if len(players) < fewest:
        raise FormError(f"Enter at least {'two' if fewest == 2 else fewest} players, in the player order.")
    if len(set(players)) != len(players):
        raise FormError("Two players have the same name.")
    return ruleset, players


def _number(text: str, what: str) -> int:
    if text in ("", None):
        return 0
    try:
        n = int(str(text).strip())
    except ValueError:
        raise FormError(f"{what}: a whole number, not {str(text)[:20]!r}.") from None
    if n < 0:
        raise FormError(f"{what} cannot be below 0.")
    return n
