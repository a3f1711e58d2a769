"""The words a game uses, shipped as ``words.json`` in its folder beside its cards: each edition's
own name for a thing the screens and the journal speak of (a fourth game brings its own file).

``words.json`` holds one object per edition key (Stars and v2.2 share the ``stars/`` folder), each
with every key of ``WORD_KEYS`` and any of ``OWN_LISTS``; a missing or unknown key is an error when
the game is loaded.
"""

from __future__ import annotations

import json
from importlib import resources
from types import MappingProxyType

# key -> what it names (the examples are the three games' own words)
WORD_KEYS = {
    "charter": "the card a corporation is formed with: 'charter' (Stars), 'symbol card' (v2.2, classic)",
    "drawn_waits": "how long a company drawn during play is unavailable: 'the wrap-up' (Stars), "
    "'the end of phase 2' (v2.2), 'the next turn' (classic)",
    "money": "an amount of money in the rules text, {} the number: '{}●' (Stars), '${}' (v2.2, classic)",
    "cash": "an amount on the play screens, {} the number: '{}' (Stars: bare, as its cards print them), "
    "'${}' (v2.2, classic: their rules write $)",
    "phase_title": "a phase as the turn bar and the board name it, {no} its number and {name} its name: "
    "'Phase {no} {name}' (Stars), 'Phase {no} – {name}' (v2.2, classic)",
    "acquisitions_done": "the log's line when the phase of buying companies ends: 'Acquisitions done' (Stars)",
    "closing_done": "the log's line when the phase of closing companies ends: 'Closing done' (Stars)",
    "buying": "what a corporation's buying of companies is called in a heading: 'acquisitions' (Stars), "
    "'buys companies' (v2.2, classic)",
    "buying_heading": "the heading over the corporations that may buy companies: 'Acquisitions' (Stars), "
    "'Corporations buy companies' (v2.2, classic)",
    "acquisition_helper": "the helper showing a purchase before it is made: 'Acquisition what-if' (Stars)",
    "closing_helper": "the helper showing a closing before it is made: 'Closing what-if' (Stars)",
    "skipped": "a share price card passed over because it is in use: 'leapfrogs' (Stars), 'skips' (classic)",
}
# optional keys with more than one word: the phases' names ({"1": ...}, when the game's own), the
# colour marks ({"green": ["◇", "G"]}, when the rulebook prints its own) and the special abilities
# as the rulebook words them ({"closing_bonus": "Phase 4: ..."})
OWN_LISTS = ("phases", "marks", "abilities")


def load(package: str, edition: str, filename: str = "words.json") -> MappingProxyType:
    """The words of ``edition`` from ``filename`` in the game folder ``package``."""
    raw = json.loads(resources.files(package).joinpath(filename).read_text(encoding="utf-8"))
    words = raw.get(edition)
    if not isinstance(words, dict):
        raise ValueError(f"{package}/{filename} has no words for {edition!r}")
    missing = sorted(set(WORD_KEYS) - set(words))
    unknown = sorted(set(words) - set(WORD_KEYS) - set(OWN_LISTS))
    said = all(isinstance(words[k], str) and words[k] for k in WORD_KEYS if k in words)
    lists = all(isinstance(words[k], dict) and words[k] for k in OWN_LISTS if k in words)
    if missing or unknown or not said or not lists:
        raise ValueError(f"{package}/{filename}, {edition}: missing {missing}, unknown {unknown} (or an empty word)")
    if "phases" in words:
        words["phases"] = MappingProxyType({int(k): v for k, v in words["phases"].items()})
    if "marks" in words:
        words["marks"] = MappingProxyType({k: tuple(v) for k, v in words["marks"].items()})
    return MappingProxyType(dict(words))
