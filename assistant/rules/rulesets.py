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
                              (``classic/``: a subclass of Game), game type full or short
===================== ======= ============================================================

The engine a ruleset creates has the API of ``Game`` (apply, legal_actions, snapshot,
journal, events, game_over, clone, preview, next) and carries its ruleset as ``.ruleset``.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import cards as stars_cards
from . import rulebook
from .classic.ruleset import CLASSIC
from .errors import RuleError
from .ruleset import GameType, Ruleset, frozen

DEFAULT = "rolling-stock-stars"


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
        variants=frozen(variants),
        game_types=(),
        corporation_names=frozen(names),
        corporations=frozen(stars_cards.named(names)),
        corporation_short=frozen(short),
        corporation_colors=frozen({name: "" for name in names.values()}),
        phase_names=frozen(PHASE_NAMES),
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
    "The default: share prices follow the stars; variants open companies and two-handed.",
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
    "Ship, Star); no variants.",
    (3, 6),
    {},
    V22_NAMES,
    {name: name[:3].upper() for name in V22_NAMES.values()},
    "Rolling Stock v2.2 has the same rules as Rolling Stock Stars; its corporations are called by their "
    "symbols: "
    + "; ".join(f"{V22_NAMES[k]} = {stars_cards.STARS_NAMES[k]}" for k in stars_cards.STARS_NAMES)
    + ". The rules below use the Stars names.",
)


# Every ruleset a game can be created with, the default first.  Classic Rolling Stock has its own
# engine (assistant/rules/classic: a subclass of Game with the Guide's cards and phases).
RULESETS: Mapping[str, Ruleset] = frozen({r.key: r for r in (STARS, V22, CLASSIC)})


def get(key) -> Ruleset:
    """The ruleset called ``key`` (RuleError naming the known ones otherwise)."""
    ruleset = RULESETS.get(key) if isinstance(key, str) else None
    if ruleset is None:
        raise RuleError(f"Unknown game {key!r}; this assistant plays: {', '.join(RULESETS)}.")
    return ruleset


def of(game) -> Ruleset:
    """The ruleset of an engine game (Stars for a game that does not say)."""
    return getattr(game, "ruleset", None) or STARS


__all__ = ["CLASSIC", "DEFAULT", "GameType", "RULESETS", "Ruleset", "STARS", "V22", "V22_NAMES", "frozen", "get", "of"]
