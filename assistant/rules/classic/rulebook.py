"""The rules of classic Rolling Stock as the Players Guide teaches them, in sections with anchors
(transcribed by tools/extract_guide_rules.py); RuleError.rule names one of these anchors."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def sections() -> tuple[dict, ...]:
    """Sections in reading order: {"anchor", "group", "title", "text"}."""
    raw = resources.files(__package__).joinpath("guide_rules.json").read_text(encoding="utf-8")
    return tuple(json.loads(raw))


def section(anchor: str) -> dict | None:
    for s in sections():
        if s["anchor"] == anchor:
            return s
    return None
