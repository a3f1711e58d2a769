"""The rules of classic Rolling Stock as the Players Guide teaches them, in sections with anchors
(transcribed by tools/extract_guide_rules.py); RuleError.rule names one of these anchors."""

from __future__ import annotations

from ..core.rulebook import find_section, load_sections


def sections() -> tuple[dict, ...]:
    return load_sections(__package__, "guide_rules.json")


def section(anchor: str) -> dict | None:
    return find_section(sections(), anchor)
