"""The games this assistant plays: one ruleset record per game, found by its transcript key.

Each game is a folder of ``assistant/rules`` with its card data, rules text, rule hooks and ruleset
record; this module only lists them.  Nothing in ``assistant/rules`` imports this module: the
store, the web app and the command line look rulesets up here.

===================== ======= ============================================================
key                   players what differs
===================== ======= ============================================================
rolling-stock-stars   2-6     the default: Rolling Stock Stars, variants open companies and
                              two-handed (``stars/``)
rolling-stock-v2.2    3-6     the rules of Stars under the corporation names of Rolling
                              Stock v2.2 (Jupiter = Prussian Railway, ...); no variants;
                              the Stars card data (v2.2 publishes none) (``stars/``)
rolling-stock         2-6     classic Rolling Stock (Players Guide): game type full, short or
                              training, variants (``classic/``)
===================== ======= ============================================================

A fourth game is a fourth folder with a ``Ruleset`` record, added to ``RULESETS`` below
(docs/rulesets.md).
"""

from __future__ import annotations

from collections.abc import Mapping

from .classic.ruleset import CLASSIC
from .core.errors import RuleError
from .core.ruleset import GameType, Ruleset, frozen
from .stars.ruleset import STARS, V22, V22_NAMES

DEFAULT = "rolling-stock-stars"

# Every ruleset a game can be created with, the default first.
RULESETS: Mapping[str, Ruleset] = frozen({r.key: r for r in (STARS, V22, CLASSIC)})


def get(key) -> Ruleset:
    """The ruleset called ``key`` (RuleError naming the known ones otherwise)."""
    ruleset = RULESETS.get(key) if isinstance(key, str) else None
    if ruleset is None:
        raise RuleError(f"Unknown game {key!r}; this assistant plays: {', '.join(RULESETS)}.")
    return ruleset


def of(game) -> Ruleset:
    """The ruleset of an engine game."""
    return game.ruleset


__all__ = ["CLASSIC", "DEFAULT", "GameType", "RULESETS", "Ruleset", "STARS", "V22", "V22_NAMES", "frozen", "get", "of"]
