"""Rules texts in sections with anchors, and the canonical rules of Rolling Stock Stars
(transcribed by tools/extract_rules.py); RuleError.rule names one of these anchors."""

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


def sections() -> tuple[dict, ...]:
    """The canonical rules of Rolling Stock Stars (v2.2 shares them under its own names)."""
    return load_sections(__package__, "canonical_rules.json")


def section(anchor: str) -> dict | None:
    return find_section(sections(), anchor)
