"""The words a game uses, shipped as ``words.json`` in its folder beside its cards: each edition's
own name for a thing the screens and the journal speak of (a fourth game brings its own file).

``words.json`` holds one object per edition key (Stars and v2.2 share the ``stars/`` folder), each
with every key of ``WORD_KEYS``; a missing or unknown key is an error when the game is loaded.
"""

from __future__ import annotations

import json
from importlib import resources
from types import MappingProxyType

# key -> what it names (the examples are the three games' own words)
WORD_KEYS = {
    "charter": "the card a corporation is formed with: 'charter' (Stars), 'symbol card' (v2.2, classic)",
    "drawn_waits": "how long a company drawn during play is unavailable: 'the wrap-up' (Stars, v2.2), "
    "'the next turn' (classic)",
    "money": "an amount of money in the rules text, {} the number: '{}●' (Stars), '${}' (v2.2, classic)",
}


def load(package: str, edition: str, filename: str = "words.json") -> MappingProxyType:
    """The words of ``edition`` from ``filename`` in the game folder ``package``."""
    raw = json.loads(resources.files(package).joinpath(filename).read_text(encoding="utf-8"))
    words = raw.get(edition)
    if not isinstance(words, dict):
        raise ValueError(f"{package}/{filename} has no words for {edition!r}")
    missing = sorted(set(WORD_KEYS) - set(words))
    unknown = sorted(set(words) - set(WORD_KEYS))
    if missing or unknown or not all(isinstance(v, str) and v for v in words.values()):
        raise ValueError(f"{package}/{filename}, {edition}: missing {missing}, unknown {unknown} (or an empty word)")
    return MappingProxyType(dict(words))
