"""Rolling Stock Stars' price mechanism: stars against the stars the share price card requires.

"Adjust share price": a corporation counts the stars printed on its companies, one star per full
10 in its treasury, and its ability's bonus (Stars, Inc.: +2); against the stars its share price
card requires for the number of issued shares: 2 or more above, two cards up; 1 above, one up;
equal, it stays; 1 below, one down; 2 or more below, two down (leapfrogging cards in use).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import words
from ..core.abilities import TWO_STARS, TWO_STARS_BONUS


def star_bonus(ability: str | None) -> int:
    """Stars a corporation's ability adds to its star count (+2 for the two-stars charter)."""
    return TWO_STARS_BONUS if ability == TWO_STARS else 0


@dataclass
class Stars:
    total: int
    companies: list  # (abbr, stars)
    cash: int
    from_cash: int
    bonus: int
    name: str = ""  # the corporation (named in the line of its ability's bonus)

    def lines(self, money=str) -> list[str]:
        """The count in words, the cash written by ``money`` (the ruleset's ``cash``: "$30" in v2.2)."""
        out = [f"{a}: {s}★" for a, s in self.companies]
        out.append(f"cash {money(self.cash)}: {self.from_cash}★ (one per full {money(10)})")
        if self.bonus:
            out.append(f"{self.name}: +{self.bonus}★")
        return out


def corporation_stars(name: str, ability: str | None, abbrs, cash: int, companies) -> Stars:
    comp = [(a, companies[a].stars) for a in abbrs]
    bonus = star_bonus(ability)
    from_cash = cash // 10
    return Stars(sum(s for _, s in comp) + from_cash + bonus, comp, cash, from_cash, bonus, name)


def star_count(ability: str | None, abbrs, cash: int, companies) -> int:
    """The fast path of corporation_stars (used on every dividend)."""
    return sum(companies[a].stars for a in abbrs) + cash // 10 + star_bonus(ability)


def required_stars(cards, price: int, issued: int) -> int:
    """Stars printed on the share price card for this number of issued shares (0 on the 0 and
    top cards).  The card table is the one source; the tests check it equals issued x price / 10
    rounded half up."""
    table = (cards.required_stars or {}).get(price)
    return 0 if table is None else table[issued]


def star_steps(owned: int, required: int) -> int:
    """Steps along the row for a star count against the required stars."""
    return max(-2, min(2, owned - required))


class StarsPricing:
    key = "stars"
    title = "Stars"
    column = "★ / need"  # a table column of what it rates a corporation by (the closing helper)

    def stars(self, game, name: str) -> Stars:
        corp = game.corps[name]
        return corporation_stars(name, game.ability(name), corp.companies, corp.cash, game.cards.companies)

    def adjustment(self, game, corp, cash: int):
        owned = star_count(game.ability(corp.name), corp.companies, cash, game.cards.companies)
        needed = required_stars(game.cards, corp.price, corp.issued)
        move = game.price_move(corp, star_steps(owned, needed))
        return (
            move,
            {"stars": owned, "required": needed},
            f"{owned}★ for {needed} required: {move.describe(game.ruleset.cash)}",
        )

    def rating(self, game, name: str) -> dict:
        return {"receivership": game.corps[name].president is None, "stars": self.stars(game, name).total}

    def ipo_figures(self, game, charter: str, abbr: str, price: int, shares: int, treasury: int) -> dict:
        companies = game.cards.companies
        return {
            "stars": corporation_stars(charter, game.ability(charter), [abbr], treasury, companies).total,
            "required": required_stars(game.cards, price, 2 * shares),
        }

    def explain(self, game, name: str) -> dict:
        corp = game.corps[name]
        st = self.stars(game, name)
        need = required_stars(game.cards, corp.price, corp.issued)
        lines = st.lines(game.ruleset.cash)
        lines.append(
            f"Required at {game.ruleset.cash(corp.price)} with {words.count(corp.issued, 'issued share')}: {need}★ "
            f"(printed on the {game.ruleset.cash(corp.price)} share price card)."
        )
        return {"title": f"{name} stars", "total": st.total, "required": need, "lines": lines}

    def dividend_lines(self, game, corp, cash: int, facts: dict, move) -> list[str]:
        owned, need = facts["stars"], facts["required"]
        return [
            f"{owned}★ counted against {need}★ required.",
            "Equal: the price stays."
            if owned == need
            else (
                f"{abs(owned - need)} {'more' if owned > need else 'fewer'}: "
                f"{'double ' if abs(move.steps) == 2 else ''}{'up' if move.steps > 0 else 'down'} to "
                f"{game.ruleset.cash(move.target)}."
            ),
        ]


STARS_PRICING = StarsPricing()
