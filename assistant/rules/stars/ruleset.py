"""Rolling Stock Stars and Rolling Stock v2.2 as rulesets: one game, two sets of names.

v2.2 has the same rules as Stars and publishes no card data of its own; its corporations are
called by their symbols.  The charters are keyed by their special ability (``core/abilities.py``),
so each ruleset only names them.
"""

from __future__ import annotations

from ..core import abilities as ab
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


def _edition(key, title, differs, players, variants, names, short, note) -> Ruleset:
    return Ruleset(
        key=key,
        title=title,
        differs=differs,
        players=players,
        variants=frozen(variants),
        game_types=(),
        corporation_names=frozen(names),
        corporations=frozen(CARDS.named(names)),
        corporation_short=frozen(short),
        corporation_colors=frozen({name: "" for name in names.values()}),
        phase_names=frozen(PHASE_NAMES),
        rules_sections=rulebook.sections,
        rules_title="The canonical rules of Rolling Stock Stars",
        rules_note=note,
        cards=CARDS,
        pricing=STARS_PRICING,
        engine=StarsGame,
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
    + "; ".join(f"{V22_NAMES[k]} = {STARS_NAMES[k]}" for k in STARS_NAMES)
    + ". The rules below use the Stars names.",
)
