"""Rules texts in sections with anchors, shipped as JSON in each game's folder (Stars' canonical
rules, classic's Players Guide); RuleError.rule names one of these anchors."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources


@cache
def load_sections(package: str, filename: str) -> tuple[dict, ...]:
    """A rules text shipped in ``package``: sections in reading order, {"anchor", "group", "title", "text"}."""
    raw = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return tuple(json.loads(raw))


def find_section(sections: tuple[dict, ...], anchor: str) -> dict | None:
    return next((s for s in sections if s["anchor"] == anchor), None)
