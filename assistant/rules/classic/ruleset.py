"""Classic Rolling Stock as a ruleset record (assistant/rules/registry.py lists it)."""

from __future__ import annotations

from ..core import vocabulary
from ..core.ruleset import GameType, Ruleset, frozen
from . import rulebook
from .cards import CARDS
from .game import PHASE_NAMES, ClassicGame
from .pricing import BOOK_VALUE

# Corporation colours of the charters (the shares' colours in the Players Guide).
COLORS = {
    "Bear": "red",
    "Eagle": "yellow",
    "Horse": "grey",
    "Star": "green",
    "Android": "chartreuse",
    "Ship": "blue",
    "Wheel": "black",
    "Jupiter": "brown",
    "Saturn": "magenta",
    "Orion": "purple",
}


CLASSIC = Ruleset(
    key=ClassicGame.GAME,
    title="Rolling Stock",
    differs="The classic game: 10 corporations without special abilities, share prices by book value, "
    "ten phases a turn; full, short or training game; variants open companies, share redemption and two players.",
    players=(ClassicGame.MIN_PLAYERS, ClassicGame.MAX_PLAYERS),
    variants=frozen(
        {
            "open_companies": "Open companies",
            "share_redemption": "Share redemption",
            "two_handed": "Two-player variant",  # Guide 3.7: four simulated players, two each
        }
    ),
    game_types=(
        GameType("full", "Full game: red to purple companies", ()),
        GameType("short", "Short game: no purple companies", ("short",)),
        GameType("training", "Training game: red to green companies, for a first game (Guide 1.3)", ("training",)),
    ),
    corporation_names=frozen(CARDS.charter_names),  # the charter key is the symbol
    corporations=frozen(CARDS.named(CARDS.charter_names)),
    corporation_short=frozen({}),
    corporation_colors=frozen({name: COLORS.get(name, "") for name in CARDS.charter_names.values()}),
    phase_names=frozen(PHASE_NAMES),
    rules_sections=rulebook.sections,
    rules_title="The rules of the Rolling Stock Players Guide",
    rules_note="",
    cards=CARDS,
    pricing=BOOK_VALUE,
    engine=ClassicGame,
    words=vocabulary.load(__package__, ClassicGame.GAME),
)
