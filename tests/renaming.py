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


# The corporation names (Stars and v2.2) said with "an", by ear; every other one takes "a".
SAID_WITH_AN = {"Overseas Trading", "Orion", "Eagle"}


def rename_text(text: str, names: dict[str, str]) -> str:
    """Corporation names inside a sentence replaced (longest names first, whole names only), with
    the article before them ("a Stock Masters share" -> "an Eagle share") and the possessive after
    them ("Stock Masters' turn" -> "Eagle's turn") as the new name needs."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"(\b(?:a|an|A|An) )?({alternatives})('s\b|'(?!\w))?")

    def rename(m: re.Match) -> str:
        new = names[m.group(2)]
        article = ""
        if m.group(1):
            article = ("an " if new in SAID_WITH_AN else "a ").capitalize() if m.group(1)[0].isupper() else ""
            article = article or ("an " if new in SAID_WITH_AN else "a ")
        owner = ("'" if new.endswith("s") else "'s") if m.group(3) else ""
        return article + new + owner

    return pattern.sub(rename, text)


def rename_event(event: dict, names: dict[str, str]) -> dict:
    return {k: names.get(v, v) if k in CORPORATION_FIELDS else v for k, v in event.items()}


def rename_transcript(data: dict, target: registry.Ruleset) -> dict:
    """A Stars transcript as one of ``target``: its game and corporation names in the events."""
    names = name_map(registry.STARS, target)
    out = dict(data, game=target.key)
    out["events"] = [rename_event(e, names) if isinstance(e, dict) else e for e in data.get("events", [])]
    return out
