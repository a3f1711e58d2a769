"""The rules engine: pure Python, deterministic, no web and no database.

``Game`` mirrors one physical game; ``RuleError`` is the one error it raises.
See docs/engine-api.md for the contract.
"""

from .errors import RuleError
from .game import PHASE_NAMES, Game
from .menu import events_of

__all__ = ["Game", "RuleError", "PHASE_NAMES", "events_of"]
