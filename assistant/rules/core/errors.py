"""The one error type the engine raises when the rules refuse an event."""

from __future__ import annotations


class RuleError(Exception):
    """An event the rules do not allow now.

    ``message`` is written for the players at the table and names the numbers involved;
    ``rule`` is the anchor of the canonical rule it applies (see ``rules_text.RULES``), or None.
    The game is unchanged when this is raised.
    """

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
