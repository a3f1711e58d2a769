"""Rolling Stock Sprint as a ruleset record: all a registry needs to offer the game."""

from __future__ import annotations

from assistant.rules.core import vocabulary
from assistant.rules.core.cards import load
from assistant.rules.core.ruleset import Ruleset, frozen

from .game import SprintGame, SteadyPrices

CARDS = load(__package__)
# Its rulebook (the words test of tests/web/test_own_words.py reads a folder game's own words here)
RULES = (
    {
        "anchor": "sprint",
        "group": "Sprint",
        "title": "Sprint",
        "text": "Play fast. Each turn: invest, wrap up (the foreign investor buys), buy, close, earn income, "
        "pay dividends, check the end card, issue, float (an IPO). The game ends when the end card is "
        "flipped twice.",
    },
)

SPRINT = Ruleset(
    key=SprintGame.GAME,
    title="Rolling Stock Sprint",
    differs="An example: two colours, two charters, prices that only climb.",
    players=(2, 3),
    variants=frozen({}),
    game_types=(),
    corporation_names=frozen(CARDS.charter_names),
    corporations=frozen(CARDS.named(CARDS.charter_names)),
    corporation_short=frozen({}),
    corporation_colors=frozen({name: "" for name in CARDS.charter_names.values()}),
    phase_names=frozen(SprintGame.PHASE_NAMES),
    rules_sections=lambda: RULES,
    rules_title="The rules of Rolling Stock Sprint",
    rules_note="",
    cards=CARDS,
    pricing=SteadyPrices(),
    engine=SprintGame,
    words=vocabulary.load(__package__, SprintGame.GAME),  # its own words.json
)
