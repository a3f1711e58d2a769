"""The rules engine: pure Python, deterministic, no web and no database.

``core/`` is the shared machinery, each game a folder (``stars/``, ``classic/``) with its card data,
rules text, rule hooks and ruleset record, and ``registry`` finds a ruleset by its key.
``RuleError`` is the one error the engine raises.  See docs/engine-api.md for the contract.
"""

from .core.errors import RuleError
from .core.events import events_of

__all__ = ["RuleError", "events_of"]
