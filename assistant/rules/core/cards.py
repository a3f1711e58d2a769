"""The card set of a game: the figures printed on its cards, read from the game's data file.

Each game folder (``stars/``, ``classic/``) ships its cards as ``cards.json`` inside the package;
``load(package)`` reads it into one typed ``CardSet``, the one source of card figures for the
engine, the decision helpers and the web app.  This module holds the types and the loader only:
no game's figures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from importlib import resources
from types import MappingProxyType


@dataclass(frozen=True)
class Company:
    abbr: str
    name: str
    face_value: int
    price_min: int
    price_max: int
    income: int
    color: str
    stars: int  # stars printed on the card (0 in games without stars)
    highest_of_color: bool
    synergies: dict = field(hash=False, compare=False)


@dataclass(frozen=True)
class Charter:
    """A corporation's charter: its key (its special ability, or its symbol where there are no
    abilities), its shares and the ability as printed."""

    key: str
    shares: int
    ability: str  # the ability as printed (no corporation names in it); "" for none
    name: str = ""  # the display name in a ruleset (see CardSet.named)


@dataclass(frozen=True)
class CardSet:
    game: str  # the transcript's "game" of the ruleset the cards were made for
    colors: tuple[str, ...]  # company colours, top of the deck first
    companies: Mapping[str, Company]  # in card order
    charters: Mapping[str, Charter]  # charter key -> charter, in card order
    charter_names: Mapping[str, str]  # charter key -> the name printed on the charter
    prices: tuple[int, ...]  # the share price row, left to right
    top_price: int
    max_payout: Mapping[int, int | None]  # share price -> maximum dividend per share printed on the card
    ipo_prices: Mapping[str, tuple[int, ...]]  # company colour -> share prices with that colour in their IPO box
    starting_cash: Mapping[int, int]  # players -> each player's starting money
    foreign_investor_start: int
    foreign_investor_income: int  # what the foreign investor earns besides its companies
    # players -> colour -> company cards in the deck (games with game types: game type -> players -> ...)
    deck_counts: Mapping
    # what shows the cost of ownership (a colour on top of the deck, "end_front", "end_back") -> colour -> cost
    # (games with game types: game type -> ...)
    cost_by_top: Mapping
    bankrupt_price: int = 0
    required_stars: Mapping[int, Mapping[int, int]] | None = None  # price -> issued shares -> stars (Stars)
    # price -> issued shares -> rows (lowest book value, highest or None, new price) (classic)
    adjustment_tables: Mapping | None = None
    game_types: Mapping[str, tuple[str, ...]] | None = None  # game type -> colours in its deck (classic)

    def __deepcopy__(self, memo):  # immutable: shared by a deep copy of a game (Game._copy never copies it)
        return self

    # -- derived lookups (worked out once per card set: the engine asks for them on every draw)
    @cached_property
    def price_index(self) -> Mapping[int, int]:
        return MappingProxyType({p: i for i, p in enumerate(self.prices)})

    @cached_property
    def companies_by_color(self) -> Mapping[str, tuple[str, ...]]:
        """Colour -> its companies' abbreviations, lowest face value first."""
        return MappingProxyType(
            {
                color: tuple(
                    sorted(
                        (c.abbr for c in self.companies.values() if c.color == color),
                        key=lambda a: self.companies[a].face_value,
                    )
                )
                for color in self.colors
            }
        )

    @cached_property
    def highest_of_color(self) -> Mapping[str, str]:
        return MappingProxyType({color: abbrs[-1] for color, abbrs in self.companies_by_color.items() if abbrs})

    def named(self, names: Mapping[str, str]) -> dict[str, Charter]:
        """The charters under a ruleset's names: display name -> charter (in card order)."""
        return {names[key]: replace(charter, name=names[key]) for key, charter in self.charters.items()}


def _ints(mapping) -> dict:
    """JSON object keys that are numbers (players, prices, shares) back to int."""
    return {int(k) if k.lstrip("-").isdigit() else k: v for k, v in mapping.items()}


def _deep_ints(value):
    if isinstance(value, dict):
        return MappingProxyType({k: _deep_ints(v) for k, v in _ints(value).items()})
    if isinstance(value, list):
        return tuple(_deep_ints(v) for v in value)
    return value


def from_json(data: dict) -> CardSet:
    """The card set in a game's data file (see stars/cards.json for the layout)."""
    colors = tuple(data["colors"])
    stars_by_color = data.get("stars_by_color") or {}
    top_face = {}
    for row in data["companies"]:
        top_face[row["color"]] = max(top_face.get(row["color"], 0), row["face_value"])
    companies = {
        row["abbr"]: Company(
            row["abbr"],
            row["name"],
            row["face_value"],
            row["price_span"][0],
            row["price_span"][1],
            row["income"],
            row["color"],
            stars_by_color.get(row["color"], 0),
            row["face_value"] == top_face[row["color"]],
            dict(row["synergies"]),
        )
        for row in data["companies"]
    }
    charters = {
        c["key"]: Charter(c["key"], c["shares"], c.get("ability", ""), c.get("name", "")) for c in data["charters"]
    }
    cards = data["share_price_cards"]
    required = None
    if any(card.get("required_stars") for card in cards.values()):
        required = _deep_ints({p: card["required_stars"] for p, card in cards.items() if card.get("required_stars")})
    ipo = {color: [] for color in colors}
    for price, card in cards.items():
        for color in card.get("ipo_colors", ()):
            ipo[color].append(int(price))
    fi = data["foreign_investor"]
    return CardSet(
        game=data["game"],
        colors=colors,
        companies=MappingProxyType(companies),
        charters=MappingProxyType(charters),
        charter_names=MappingProxyType({c["key"]: c.get("name") or c["key"] for c in data["charters"]}),
        prices=tuple(data["share_price_row"]),
        top_price=data["top_price"],
        bankrupt_price=data.get("bankrupt_price", 0),
        max_payout=MappingProxyType({int(p): card.get("max_dividend_per_share") for p, card in cards.items()}),
        ipo_prices=MappingProxyType({color: tuple(sorted(ps)) for color, ps in ipo.items()}),
        starting_cash=_deep_ints(data["starting_cash"]),
        foreign_investor_start=fi["starting_cash"],
        foreign_investor_income=fi["extra_income"],
        deck_counts=_deep_ints(data["deck_counts"]),
        cost_by_top=_deep_ints(data["cost_of_ownership"]),
        required_stars=required,
        adjustment_tables=_deep_ints(data["adjustment_tables"]) if "adjustment_tables" in data else None,
        game_types=_deep_ints(data["game_types"]) if "game_types" in data else None,
    )


@cache
def load(package: str, filename: str = "cards.json") -> CardSet:
    """The card set shipped as ``filename`` in ``package`` (a game folder)."""
    raw = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return from_json(json.loads(raw))
