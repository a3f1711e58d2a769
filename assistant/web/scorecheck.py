"""Checking the final scores of a game played on paper: the form's figures as an end position for
the engine (``final_score.final_scores``), and the result as the table shares it.  Nothing here
scores anything: the engine does."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from assistant.rules import RuleError, registry
from assistant.rules.core import final_score, position_shape, words
from assistant.rules.core.position_shape import MONEY_MAX
from assistant.store.names import check_names
from assistant.web import card_figures, costly
from assistant.web.labels import two_handed_seats

MAX_PLAYERS = 6
MAX_NAME = 30


class FormError(ValueError):
    """A form that cannot be used: ``status`` 400 when a field is malformed (not a number), 422 when
    a figure is out of the range a real game can have or the names break the name rules."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclass
class ScoreForm:
    """What the table entered: the game, the players in final order, and per player and corporation
    the figures scoring needs.  Values are kept as entered, to show them again.

    The two-handed variant: the two persons are entered (A first), ``players`` are their four seats
    in the first player order (``labels.two_handed_seats``) and ``order`` the final player order, as
    entered (empty: the seats' own order)."""

    ruleset: registry.Ruleset
    players: list[str]
    persons: list[str] | None = None
    order: list[str] = field(default_factory=list)
    cash: dict[int, str] = field(default_factory=dict)
    companies: dict[int, list[str]] = field(default_factory=dict)
    shares: dict[tuple[int, str], str] = field(default_factory=dict)
    prices: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, args) -> ScoreForm:
        ruleset, players = game_and_players(args, 2)
        persons = None
        if "two_handed" in args.getlist("option"):
            if "two_handed" not in ruleset.variants:
                raise FormError(f"{ruleset.title} has no two-handed variant: untick it, or choose another game.")
            if len(players) != 2:
                raise FormError("The two-handed variant is for 2 persons: enter just their two names, person A first.")
            persons, players = players, two_handed_seats(*players)
        form = cls(ruleset, players, persons, [o for o in args.getlist("order") if o])
        for i in range(len(players)):
            form.cash[i] = args.get(f"cash-{i}", "")
            form.companies[i] = [a for a in args.getlist(f"co-{i}") if a in ruleset.cards.companies]
            for corp in ruleset.corporations:
                form.shares[(i, corp)] = args.get(f"sh-{i}-{corp}", "")
        for corp in ruleset.corporations:
            form.prices[corp] = args.get(f"price-{corp}") or ""
        return form

    @property
    def filled(self) -> bool:
        return any(v != "" for v in self.cash.values())

    def state(self) -> dict:
        """The end position in FORMAT.md's snapshot shape (what ``score`` reads)."""
        players = {}
        most = charter_shares(self.ruleset)
        for i, name in enumerate(self.players):
            shares = {}
            for corp in self.ruleset.corporations:
                n = _number(self.shares[(i, corp)], f"{words.possessive(name)} {corp} shares", most[corp])
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
                corps[corp] = {"share_price": _price(text, f"{words.possessive(corp)} share price", self.ruleset)}
        held = {c for p in players.values() for c in p["shares"]}
        missing = sorted(held - set(corps))
        if missing:
            raise FormError(f"Players hold {missing[0]} shares: choose its share price.")
        return {"player_order": final_order(self.order, self.players), "players": players, "corporations": corps}

    @property
    def options(self) -> list[str]:
        return ["two_handed"] if self.persons else []

    def key(self) -> str:
        """What the result depends on, as one text."""
        figures = [self.ruleset.key, self.players, self.persons, self.state()]
        return json.dumps(figures, sort_keys=True)  # pragma: no mutate: state() builds its dicts in one order

    def checked(self) -> dict:
        """``result()``, worked out at most once per worker for the same figures, one at a time."""
        cache = costly.cache()
        label = "score-check"  # pragma: no mutate: any label but the cache's other kind ("result.png") does
        key = (label, self.key())
        found = cache.peek(key)
        if found is None:
            with costly.turn("render"):
                found = cache.get_or_render(key, self.result)
        return found

    def result(self) -> dict:
        state = position_shape.check_state(self.state(), final=True)
        scores = final_score.final_scores(self.ruleset, self.players, state, self.options, self.persons)
        ranking = scores["ranking"]
        text = [f"{self.ruleset.title}: final scores"]
        text += [f"{n}. {p}: {scores['scores'][p]}" for n, p in enumerate(ranking, 1)]
        if self.persons:
            text.append(f"{scores['winner']} wins the two-handed game.")
        return {
            **scores,
            "rows": [{"place": n, "player": p, "score": scores["scores"][p]} for n, p in enumerate(ranking, 1)],
            "share_text": "\n".join(text + ["", *scores["lines"]]),
        }

    # -- what the form shows -------------------------------------------------------------------
    def companies_by_color(self) -> list[tuple[str, list[dict]]]:
        by_color = self.ruleset.cards.companies_by_color
        return [
            (color, [card_figures.company(a, self.ruleset) for a in by_color[color]])
            for color in self.ruleset.cards.colors
        ]

    def prices_row(self) -> list[int]:
        return [p for p in self.ruleset.cards.prices if p]


def final_order(given: list[str], seats: list[str]) -> list[str]:
    """The final player order the form gives (``order``, one seat per position), or the seats as
    entered: in an ordinary game the players are entered in the final player order."""
    if not given:
        return list(seats)
    if sorted(given) != sorted(seats):
        raise FormError("The final player order must name every seat once.")
    return list(given)


def game_and_players(args, fewest: int | None = None) -> tuple[registry.Ruleset, list[str]]:
    """The game (``game``) and its players (``name``, in order) a form names; FormError otherwise."""
    try:
        ruleset = registry.get(args.get("game") or registry.DEFAULT)
    except RuleError as err:
        raise FormError(err.message) from None
    players = [n.strip() for n in args.getlist("name") if n.strip()][:MAX_PLAYERS]
    fewest = ruleset.players[0] if fewest is None else fewest
    if len(players) < fewest:
        raise FormError(f"Enter at least {'two' if fewest == 2 else fewest} players, in the player order.")
    if any(len(n) > MAX_NAME for n in players):
        raise FormError(f"Names can have at most {MAX_NAME} characters.")
    if len(set(players)) != len(players):
        raise FormError("Two players have the same name.")
    problem = check_names(players)  # the same rules as every name a person types (assistant/store/names.py)
    if problem:
        raise FormError(problem[:1].upper() + problem[1:] + ".")
    return ruleset, players


WHOLE_NUMBER = re.compile(r"\s*([-+]?)0*([0-9]+)\s*")
DIGITS_MAX = 9  # a longer number is out of any range here, and is never turned into an int


def _number(text: str, what: str, high: int = MONEY_MAX, low: int = 0) -> int:
    """A typed figure: 400 when it is not a whole number, 422 outside ``low``..``high``."""
    if text in ("", None):
        return 0
    text = str(text)
    m = WHOLE_NUMBER.fullmatch(text)
    if not m:
        raise FormError(f"{what}: a whole number, not {text[:20]!r}.", 400)
    sign, digits = m.groups()
    n = int(sign + digits) if len(digits) <= DIGITS_MAX else (-1 if sign == "-" else 1) * 10**DIGITS_MAX
    if n < low:
        raise FormError(f"{what} cannot be below {low}.")
    if n > high:
        raise FormError(f"{what} cannot be above {high:,}: no game has that many.")
    return n


def _price(text: str, what: str, ruleset) -> int:
    """A share price: a card of the game's price row."""
    n = _number(text, what)
    row = [p for p in ruleset.cards.prices if p]
    if n and n not in row:
        raise FormError(f"{what} {n} is not a card of the share price row ({row[0]} to {row[-1]}).")
    return n


def charter_shares(ruleset) -> dict[str, int]:
    """Each corporation's number of shares (what a player or the bank can hold of it at most)."""
    game = ruleset.create(["A", "B", "C"], [])  # pragma: no mutate: a charter's shares depend on no name or option
    return {name: charter.shares for name, charter in game.charters.items()}
