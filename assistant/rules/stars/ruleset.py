"""Rolling Stock Stars and Rolling Stock v2.2 as rulesets: one game, two sets of names.

v2.2 has the same rules as Stars and publishes no card data of its own; its corporations are
called by their symbols.  The charters are keyed by their special ability (``core/abilities.py``),
so each ruleset only names them.
"""

from __future__ import annotations

import re
from functools import cache

from ..core import abilities as ab
from ..core import vocabulary
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


@cache
def v22_sections() -> tuple[dict, ...]:
    """The canonical rules as Rolling Stock v2.2 writes them: its corporation names ("Jupiter adds
    $1 per Company"), symbol cards, "$4" for Stars' "4●"; without Stars' variants (v2.2 has none)."""
    words = vocabulary.load(__package__, "rolling-stock-v2.2")
    names = {STARS_NAMES[k]: V22_NAMES[k] for k in STARS_NAMES}
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))

    def said(text: str) -> str:
        text = pattern.sub(lambda m: names[m.group(0)], text)
        text = re.sub(r"(\d+)●", lambda m: words["money"].format(m.group(1)), text)
        text = text.replace("●", words["money"].format("").strip())
        return text.replace("charter card", words["charter"])

    return tuple(
        dict(sec, title=said(sec["title"]), text=said(sec["text"]))
        for sec in rulebook.sections()
        if sec["group"] != "Variants"
    )


def _edition(key, title, differs, players, variants, names, short, note, sections, rules_title) -> Ruleset:
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
        rules_sections=sections,
        rules_title=rules_title,
        rules_note=note,
        cards=CARDS,
        pricing=STARS_PRICING,
        engine=StarsGame,
        words=vocabulary.load(__package__, key),
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
    rulebook.sections,
    "The canonical rules of Rolling Stock Stars",
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
    "symbols: " + "; ".join(f"{V22_NAMES[k]} = {STARS_NAMES[k]}" for k in STARS_NAMES) + ".",
    v22_sections,
    "The canonical rules of Rolling Stock Stars in the names and signs of Rolling Stock v2.2",
)
