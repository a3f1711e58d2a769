"""Every problem of a position at once, each with the field it is about (``position.py``,
``position_deck.py`` and ``final_score.py`` collect them; a form shows each beside its field)."""

from __future__ import annotations

from contextlib import contextmanager

from .errors import RuleError

RULE = None  # a refused position names no rule of play


class _Stop(Exception):
    """Ends the check of one part of the position after a problem in it (the others go on)."""


class _Problems:
    """Every problem of a position, each with the field it is about."""

    def __init__(self):
        self.items: list[tuple[str, str]] = []

    def fail(self, field: str, message: str):
        self.items.append((field, message))
        raise _Stop

    @contextmanager
    def part(self):
        """One part of the position (a player, a corporation, the deck): a problem in it ends its
        check, and the check of the next part goes on."""
        try:
            yield
        except _Stop:
            pass

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_all(self) -> None:
        if self.items:
            seen, unique = set(), []
            for item in self.items:
                if item not in seen:
                    seen.add(item)
                    unique.append(item)
            err = RuleError(" ".join(message for _, message in unique), RULE)
            err.problems = unique
            raise err


def _int(problems: _Problems, field: str, value, what: str, low: int = 0) -> int:
    if type(value) is not int or value < low:
        problems.fail(field, f"{what} must be a whole number of at least {low}, not {value!r}.")
    return value


def _names(problems: _Problems, field: str, value, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.fail(field, f"{what} must be a list of names.")
    return list(value)
