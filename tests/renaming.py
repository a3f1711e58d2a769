"""Corporation names from one ruleset to another, for tests comparing two registry' games.

Stars and v2.2 share the charters (assistant/rules/stars/cards.json); only their names differ.
"""

from __future__ import annotations

import re

from assistant.rules import registry

CORPORATION_FIELDS = ("corporation", "announced_by")


def name_map(source: registry.Ruleset, target: registry.Ruleset) -> dict[str, str]:
    """Display name in ``source`` -> display name in ``target`` (by charter key)."""
    return {source.corporation_names[k]: target.corporation_names[k] for k in source.corporation_names}


def rename_value(value, names: dict[str, str]):
    """Exact corporation names (strings and dict keys) replaced, anywhere in a JSON value."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [rename_value(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): rename_value(v, names) for k, v in value.items()}
    return value


def rename_text(text: str, names: dict[str, str]) -> str:
    """Corporation names inside a sentence replaced (longest names first, whole names only)."""
    pattern = re.compile("|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: names[m.group(0)], text)


def rename_event(event: dict, names: dict[str, str]) -> dict:
    return {k: names.get(v, v) if k in CORPORATION_FIELDS else v for k, v in event.items()}


def rename_transcript(data: dict, target: registry.Ruleset) -> dict:
    """A Stars transcript as one of ``target``: its game and corporation names in the events."""
    names = name_map(registry.STARS, target)
    out = dict(data, game=target.key)
    out["events"] = [rename_event(e, names) if isinstance(e, dict) else e for e in data.get("events", [])]
    return out
