"""The canonical rules of Rolling Stock Stars in sections with anchors (transcribed by
tools/extract_rules.py); RuleError.rule names one of these anchors.  v2.2 shares them."""

from __future__ import annotations

from ..core.rulebook import find_section, load_sections


def sections() -> tuple[dict, ...]:
    return load_sections(__package__, "canonical_rules.json")


def section(anchor: str) -> dict | None:
    return find_section(sections(), anchor)
