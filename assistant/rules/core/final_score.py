"""The final scoring of a game played on paper (../shared/conformance/FORMAT-position.md, section 2),
and the winner of the two-player, two-handed variant (also that of a game played to its end).

``final_scores(ruleset, players, state, options, persons)`` scores an end position: ``players``
are the seats in their first player order, ``state.player_order`` the final one (it breaks ties,
and a score check must give it).  A position that cannot be is refused with one RuleError naming
every problem at once, as ``position.resume`` does."""

from __future__ import annotations

from collections.abc import Callable

from .entities import Corporation
from .errors import RuleError
from .position import _check_prices, _order_and_players
from .position_problems import RULE, _Problems
from .scores import explain_score


def two_handed(seats: list[str], persons: list[str], ranking: list[str]) -> dict:
    """Rulebook, "Two-player, two-handed variant": person A plays the seats at positions 1 and 4 of
    the first player order, B those at 2 and 3; "your lower ranked simulated player must be better
    than the lower ranked simulated player of your opponent"."""
    by_person = {persons[0]: [seats[0], seats[3]], persons[1]: [seats[1], seats[2]]}
    lower = {person: max(ranking.index(s) for s in own) + 1 for person, own in by_person.items()}
    return {"seats": by_person, "lower_rank": lower, "winner": min(lower, key=lower.get)}


def final_scores(ruleset, players, state: dict, options=(), persons=None) -> dict:
    """``{"scores", "ranking", "lines", "ties", "winner"}`` of an end position (money, companies,
    shares, share prices); ``ties`` are the tie-breaks in words (also at the end of ``lines``);
    ``two_handed`` (that variant only) each person's seats and lower rank."""
    problem = ruleset.option_problem(options or ())
    if problem:
        raise RuleError(problem, RULE)
    game = ruleset.create(list(players), list(options or ()), persons=persons)
    problems = _Problems()
    if state.get("player_order") is None:
        with problems.part():
            problems.fail(
                "player_order",
                "The final player order (player_order) is missing: the rules break ties by it, so a score "
                "check must give it.",
            )
    _order_and_players(game, state, players, problems, "The final player order")
    order = game.order
    prices = {}
    with problems.part():
        prices = _check_prices(game, state, problems)
    seen: dict[str, str] = {}
    for p in game.players.values():
        for abbr in p.companies:
            with problems.part():
                if abbr not in game.cards.companies:
                    problems.fail(f"players.{p.name}.companies", f"There is no company {abbr!r} in {ruleset.title}.")
                if abbr in seen:
                    problems.fail(
                        f"players.{p.name}.companies", f"The {abbr} is in two places: {seen[abbr]} and {p.name}."
                    )
                seen[abbr] = p.name
    for name, price in prices.items():
        with problems.part():
            charter = game.charters[name]
            held = sum(p.shares.get(name, 0) for p in game.players.values())
            if held > charter.shares:
                problems.fail(
                    f"corporations.{name}.share_price",
                    f"The players hold {held} {name} shares; it has only {charter.shares}.",
                )
            game.corps[name] = Corporation(name, price, charter.shares)
    problems.raise_all()
    scores = game.scores()
    ranking = game.ranking(scores)
    lines = []
    for place, name in enumerate(ranking, 1):
        why = explain_score(game, name)
        lines.append(f"{place}. {name} {game.ruleset.cash(scores[name])}: " + " ".join(why["lines"]))
    ties = tie_breaks(scores, ranking, order, game.ruleset.cash)
    result = {"scores": scores, "ranking": ranking, "lines": lines + ties, "ties": ties, "winner": ranking[0]}
    if game.two_handed:
        th = two_handed(list(players), game.persons, ranking)
        result["two_handed"] = th
        result["winner"] = th["winner"]
        result["lines"] += [two_handed_words(th)]
    return result


def two_handed_words(th: dict) -> str:
    """The two-handed result in words: each person's lower-ranked seat, and who wins."""
    (a, ra), (b, rb) = th["lower_rank"].items()
    return (
        f"Two-handed: {a}'s lower-ranked seat is {_ordinal(ra)}, {b}'s is {_ordinal(rb)}; "
        f"{th['winner']} wins (the lower-ranked seat decides)."
    )


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def tie_breaks(
    scores: dict[str, int], ranking: list[str], order: list[str], money: Callable[[int], str] = str
) -> list[str]:
    """The ties of a ranking, in words: the player earlier in the final player order ranks higher
    (the score as ``money`` writes it: the ruleset's ``cash``, "$120" in v2.2 and classic)."""
    out = []
    for score in sorted({s for s in scores.values() if list(scores.values()).count(s) > 1}, reverse=True):
        tied = [p for p in ranking if scores[p] == score]
        out.append(
            f"{' and '.join(tied)} tie at {money(score)}: {tied[0]} ranks higher, being earlier in the final player "
            f"order ({', '.join(order)})."
        )
    return out
