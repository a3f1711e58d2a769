"""Rolling Stock Stars and Rolling Stock v2.2 as rulesets: one engine, each game in its own words.

v2.2 plays by the engine of Stars and publishes no card data of its own; its corporations are
called by their symbols.  The charters are keyed by their special ability (``core/abilities.py``),
so each ruleset names them, and v2.2 words their abilities, its phases and its colour marks as its
rules do (``words.json``) and has its own rules page (``v22_rules.json``).
"""

from __future__ import annotations

from dataclasses import replace

from ..core import abilities as ab
from ..core import vocabulary
from ..core.rulebook import load_sections
from ..core.ruleset import Ruleset, frozen
from . import rulebook
from .cards import CARDS
from .game import PHASE_NAMES, StarsGame
from .pricing import STARS_PRICING

# The names Rolling Stock Stars prints on the charters (from the card data).
STARS_NAMES: dict[str, str] = dict(CARDS.charter_names)

# The corporation names of Rolling Stock v2.2 (its rules call them by their symbols); the
# abilities and share counts are those of the Stars charters, pair by pair.
V22_NAMES = {
    ab.PER_COMPANY: "Jupiter",
    ab.FOREIGN_FIRST: "Orion",
    ab.TWO_STARS: "Star",
    ab.DOUBLES_BEST: "Saturn",
    ab.COST_RELIEF: "Bear",
    ab.STEADY_ISSUE: "Eagle",
    ab.CLOSING_BONUS: "Ship",
    ab.SYNERGY_PAIRS: "Horse",
}


V22_WORDS = vocabulary.load(__package__, "rolling-stock-v2.2")


def v22_sections() -> tuple[dict, ...]:
    """The rules of Rolling Stock v2.2 in its own words (rolling-stock-rules-v2.2.txt, transcribed by
    tools/extract_v22_rules.py), its sections anchored as the Stars sections they match."""
    return load_sections(__package__, "v22_rules.json")


def v22_charters() -> dict:
    """v2.2's corporations: the Stars charters they match, with the abilities in v2.2's words."""
    named = CARDS.named(V22_NAMES)
    return {name: replace(c, ability=V22_WORDS["abilities"][c.key]) for name, c in named.items()}


def _edition(key, title, differs, players, variants, names, short, sections, rules_title, **own) -> Ruleset:
    words = vocabulary.load(__package__, key)
    return Ruleset(
        key=key,
        title=title,
        differs=differs,
        players=players,
        variants=frozen(variants),
        game_types=(),
        corporation_names=frozen(names),
        corporations=frozen(own.get("charters") or CARDS.named(names)),
        corporation_short=frozen(short),
        corporation_colors=frozen({name: "" for name in names.values()}),
        phase_names=frozen(words.get("phases") or PHASE_NAMES),
        rules_sections=sections,
        rules_title=rules_title,
        rules_note="",
        cards=CARDS,
        pricing=STARS_PRICING,
        engine=StarsGame,
        words=words,
    )


STARS = _edition(
    "rolling-stock-stars",
    "Rolling Stock Stars",
    "The default: share prices follow the stars; variants open companies and two-handed.",
    (2, 6),
    {"open_companies": "Open companies", "two_handed": "Two-handed"},
    STARS_NAMES,
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
    rulebook.sections,
    "The canonical rules of Rolling Stock Stars",
)

V22 = _edition(
    "rolling-stock-v2.2",
    "Rolling Stock v2.2",
    "A card game for three to six players: eight corporations known by their symbols (Jupiter, Saturn, Bear, "
    "Horse, Eagle, Orion, Ship, Star), share prices moved by stars, nine numbered phases a turn, "
    "players ranked by book value.",
    (3, 6),
    {},
    V22_NAMES,
    {name: name[:3].upper() for name in V22_NAMES.values()},
    v22_sections,
    "The rules of Rolling Stock v2.2",
    charters=v22_charters(),
)
