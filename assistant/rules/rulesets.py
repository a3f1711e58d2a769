"""The rulesets a game can be played with, and what differs between them.

Every game is created with one ruleset.  What the rulesets share (auctions, share trading,
acquisition with the foreign investor, closing, income with synergies, undo, the menu,
refusals, explanations, previews) lives once in the engine; a ruleset only names its data:

===================== ======= ============================================================
key                   players what differs
===================== ======= ============================================================
rolling-stock-stars   2-6     the default: Rolling Stock Stars, variants open companies and
                              two-handed
rolling-stock-v2.2    3-6     the rules of Stars under the corporation names of Rolling
                              Stock v2.2 (Jupiter = Prussian Railway, ...); no variants;
                              the Stars card data (v2.2 publishes none)
rolling-stock         2-6     classic Rolling Stock (Players Guide): its own engine
                              (``classic/``), game type full or short
===================== ======= ============================================================

The engine a ruleset creates has the API of ``Game`` (apply, legal_actions, snapshot,
journal, events, game_over, clone, preview, next) and carries its ruleset as ``.ruleset``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType

from . import cards as stars_cards
from . import rulebook
from .errors import RuleError

DEFAULT = "rolling-stock-stars"


@dataclass(frozen=True)
class GameType:
    """A game type of a ruleset (classic: full or short) and the transcript options it means."""

    key: str
    title: str
    options: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruleset:
    key: str  # the transcript's "game"
    title: str  # shown to people: "Rolling Stock Stars"
    differs: str  # one line for the new-game form: what differs from the other rulesets
    players: tuple[int, int]  # fewest and most players
    variants: Mapping[str, str]  # option -> its name (empty: no variants)
    game_types: tuple[GameType, ...]  # empty: one kind of game only
    corporation_names: Mapping[str, str]  # charter key (its ability, or the classic symbol) -> display name
    corporations: Mapping[str, object]  # display name -> charter (.name, .shares, .ability), in card order
    corporation_short: Mapping[str, str]  # display name -> short label on the price row
    corporation_colors: Mapping[str, str]  # display name -> colour of the charter ("" when it has none)
    phase_names: Mapping[int, str]
    rules_sections: Callable[[], tuple]  # the rules page: sections {"anchor", "group", "title", "text"}
    rules_title: str  # what the rules page shows: "The canonical rules of Rolling Stock Stars"
    rules_note: str  # shown above the rules for this ruleset ("" for none)
    cards: ModuleType  # the card data (COMPANIES, COLORS, PRICES, COST_BY_TOP, ...)
    factory: Callable = field(repr=False)  # factory(ruleset, players, options, deck, persons) -> engine game

    def __deepcopy__(self, memo):  # immutable: games copied for previews share it
        return self

    # -- creating games -------------------------------------------------------------
    def create(self, players, options=(), deck=None, persons=None):
        """A new engine game of this ruleset (RuleError when the set-up is not allowed)."""
        options = list(options or ())
        allowed = set(self.variants) | {o for t in self.game_types for o in t.options}
        for opt in options:
            if not isinstance(opt, str) or opt not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise RuleError(f"{self.title} has no variant {opt!r} (known: {known}).")
        game = self.factory(self, list(players), options, deck, persons)
        if getattr(game, "ruleset", None) is not self:
            game.ruleset = self
        return game

    def replay(self, players, options=(), events=(), deck=None, persons=None):
        game = self.create(players, options, deck=deck, persons=persons)
        for event in events:
            game.apply(event)
        return game

    # -- questions the forms and views ask --------------------------------------------
    def player_problem(self, count: int) -> str | None:
        """Why ``count`` players cannot play this ruleset (None if they can)."""
        low, high = self.players
        if low <= count <= high:
            return None
        return f"{self.title} is for {low} to {high} players, not {count}."

    def game_type(self, key: str | None) -> GameType | None:
        """The game type called ``key`` (the first one when ``key`` is None); None if there is none."""
        for gt in self.game_types:
            if key is None or gt.key == key:
                return gt
        return None

    def game_type_of(self, options) -> GameType | None:
        """Which game type a list of options means (None for rulesets without game types)."""
        chosen = set(options or ())
        typed = [gt for gt in self.game_types if gt.options and set(gt.options) <= chosen]
        if typed:
            return typed[0]
        return next((gt for gt in self.game_types if not gt.options), None)

    def short(self, name: str) -> str:
        return self.corporation_short.get(name) or name[:3].upper()

    def corporation_key(self, name: str) -> str | None:
        """The charter key of a corporation's display name (None if it is not one)."""
        charter = self.corporations.get(name)
        return None if charter is None else charter.key

    def phase_name(self, phase) -> str:
        return self.phase_names.get(phase, "")

    def rule_section(self, anchor: str | None) -> dict | None:
        """The rules page section with this anchor (refusals name one), or None."""
        return next((s for s in self.rules_sections() if s["anchor"] == anchor), None) if anchor else None


def _frozen(mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


def _stars_engine(ruleset, players, options, deck, persons):
    from .game import Game

    return Game(players, options, deck=deck, persons=persons, ruleset=ruleset)


def _edition(key, title, differs, players, variants, names, short, note) -> Ruleset:
    from .game import PHASE_NAMES

    return Ruleset(
        key=key,
        title=title,
        differs=differs,
        players=players,
        variants=_frozen(variants),
        game_types=(),
        corporation_names=_frozen(names),
        corporations=_frozen(stars_cards.named(names)),
        corporation_short=_frozen(short),
        corporation_colors=_frozen({name: "" for name in names.values()}),
        phase_names=_frozen(PHASE_NAMES),
        rules_sections=rulebook.sections,
        rules_title="The canonical rules of Rolling Stock Stars",
        rules_note=note,
        cards=stars_cards,
        factory=_stars_engine,
    )


# The corporation names of Rolling Stock v2.2 (its rules call them by their symbols); the
# abilities and share counts are those of the Stars charters, pair by pair.
V22_NAMES = {
    stars_cards.PER_COMPANY: "Jupiter",
    stars_cards.FOREIGN_FIRST: "Orion",
    stars_cards.TWO_STARS: "Star",
    stars_cards.DOUBLES_BEST: "Saturn",
    stars_cards.COST_RELIEF: "Bear",
    stars_cards.STEADY_ISSUE: "Eagle",
    stars_cards.CLOSING_BONUS: "Ship",
    stars_cards.SYNERGY_PAIRS: "Horse",
}

STARS = _edition(
    "rolling-stock-stars",
    "Rolling Stock Stars",
    "The default: 2–6 players, share prices by stars, variants open companies and two-handed.",
    (2, 6),
    {"open_companies": "Open companies", "two_handed": "Two-handed"},
    stars_cards.STARS_NAMES,
    {
        "Prussian Railway": "PRU",
        "Overseas Trading": "OVS",
        "Stars, Inc.": "STA",
        "Doppler AG": "DOP",
        "Vintage Machinery": "VIN",
        "Stock Masters": "STM",
        "Junkyard Scrappers": "JUN",
        "Synergistic": "SYN",
    },
    "",
)

V22 = _edition(
    "rolling-stock-v2.2",
    "Rolling Stock v2.2",
    "The Stars rules under the v2.2 corporation names (Jupiter, Saturn, Horse, Bear, Eagle, Orion, "
    "Ship, Star); 3–6 players, no variants.",
    (3, 6),
    {},
    V22_NAMES,
    {name: name[:3].upper() for name in V22_NAMES.values()},
    "Rolling Stock v2.2 has the same rules as Rolling Stock Stars; its corporations are called by their "
    "symbols: "
    + "; ".join(f"{V22_NAMES[k]} = {stars_cards.STARS_NAMES[k]}" for k in stars_cards.STARS_NAMES)
    + ". The rules below use the Stars names.",
)


# Every ruleset a game can be created with, the default first.  Classic Rolling Stock joins with
# its own engine: ``from .classic.ruleset import CLASSIC`` above, and CLASSIC in this tuple.
RULESETS: Mapping[str, Ruleset] = _frozen({r.key: r for r in (STARS, V22)})


def get(key) -> Ruleset:
    """The ruleset called ``key`` (RuleError naming the known ones otherwise)."""
    ruleset = RULESETS.get(key) if isinstance(key, str) else None
    if ruleset is None:
        raise RuleError(f"Unknown game {key!r}; this assistant plays: {', '.join(RULESETS)}.")
    return ruleset


def of(game) -> Ruleset:
    """The ruleset of an engine game (Stars for a game that does not say)."""
    return getattr(game, "ruleset", None) or STARS


__all__ = ["DEFAULT", "GameType", "RULESETS", "Ruleset", "STARS", "V22", "V22_NAMES", "get", "of"]
