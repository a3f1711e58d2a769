"""Correcting an entry made long ago (issue 16, issue 27): the corrected entry in its place, every
later entry that the rules still accept after it kept, in order, and only those they refuse set
aside (not lost: the Log lists them, to be entered again once they fit).

The whole correction is one row of the log, ``{"type": "amend", "index": k, "event": {...},
"kept": [i, ...], "set_aside": [...]}``, worked out once, when it is entered, by the engine:
``index`` counts the effective table events (as ``/export`` lists them) from 0, ``kept`` the
entries after it (0: the one right after it).  How the log's walk reads it (and the older rows
that hold a count there): ``walk.py``.  One undo takes a correction back whole.
"""

from __future__ import annotations

from assistant.rules import RuleError
from assistant.rules.core import words
from assistant.rules.core.events import AMEND


def check_index(index, count: int) -> None:
    """RuleError unless ``index`` is the place of one of ``count`` entries."""
    if type(index) is not int or not 0 <= index < count:
        raise RuleError(f"There is no entry {index!r} to correct: the game has {count} entries (0 to {count - 1}).")


def correct(before, later: list[dict], index: int, event: dict) -> dict:
    """The correction of entry ``index`` to ``event``, played on ``before`` (the game just before
    that entry, played on) with ``later``, the entries after it: ``{"row": the log row, "game": the
    state after it, "kept": [places in later], "set_aside": [...]}``.  RuleError when the corrected
    entry itself does not fit where it stands."""
    game = before
    if not game.apply(event):  # RuleError: the corrected entry does not fit
        raise RuleError("That phase has already ended by itself (nobody could act in it): there is nothing to end.")
    kept, set_aside = [], []
    for i, entry in enumerate(later):
        try:
            entered = game.apply(entry)  # a refused entry leaves the game as it was
        except RuleError:
            set_aside.append(entry)
        else:
            if entered:
                kept.append(i)
            else:  # the ``done`` of a phase that now ends by itself: nothing to keep
                set_aside.append(entry)
    row = {"type": AMEND, "index": index, "event": event, "kept": kept, "set_aside": set_aside}
    return {"row": row, "game": game, "kept": kept, "set_aside": set_aside}


def why_set_aside(game, entries: list[dict]) -> list[dict]:
    """Each set-aside entry against the game now: whether it fits, and if not, why."""
    out = []
    for entry in entries:
        try:
            game.preview(entry)
        except RuleError as err:
            out.append({"event": entry, "fits": False, "reason": err.message})
        else:
            out.append({"event": entry, "fits": True, "reason": "It fits now: it can be entered again."})
    return out


def changes(before: dict, after: dict, limit: int | None = None, money=str) -> list[str]:
    """The banker's list of a correction, from two snapshots: the money, the cards and the shares to
    move on the real table ("Doppler AG's treasury 14 → 15", "Amy's cards: + BY, − WT"), then the
    prices and the turn (the first ``limit`` lines, then "and N more", if ``limit`` is given); each
    amount written by ``money`` (the ruleset's ``cash``: "$14" in v2.2 and classic)."""
    out = []
    players, corps_before, corps_after = (
        after.get("players", {}),
        before.get("corporations", {}),
        after.get("corporations", {}),
    )
    for name, p in before.get("players", {}).items():
        q = players.get(name, {})
        if p.get("cash") != q.get("cash"):
            out.append(f"{words.possessive(name)} money {money(p.get('cash'))} → {money(q.get('cash'))}")
        out.extend(_cards(f"{words.possessive(name)} cards", p, q))
        shares, others = p.get("shares") or {}, q.get("shares") or {}
        for corp in dict.fromkeys([*shares, *others]):
            if shares.get(corp, 0) != others.get(corp, 0):
                out.append(f"{words.possessive(name)} {corp} shares {shares.get(corp, 0)} → {others.get(corp, 0)}")
    fi, gi = before.get("foreign_investor", {}), after.get("foreign_investor", {})
    if fi.get("cash") != gi.get("cash"):
        out.append(f"the foreign investor's money {money(fi.get('cash'))} → {money(gi.get('cash'))}")
    out.extend(_cards("the foreign investor's cards", fi, gi))
    for name in dict.fromkeys([*corps_before, *corps_after]):
        c, d = corps_before.get(name), corps_after.get(name)
        if c is None or d is None:
            out.append(f"{name} {'is formed' if c is None else 'is gone'}")
            continue
        if c.get("cash") != d.get("cash"):
            out.append(f"{words.possessive(name)} treasury {money(c.get('cash'))} → {money(d.get('cash'))}")
        out.extend(_cards(f"{words.possessive(name)} cards", c, d))
        if c.get("share_price") != d.get("share_price"):
            out.append(
                f"{words.possessive(name)} share price {money(c.get('share_price'))} → {money(d.get('share_price'))}"
            )
    if before.get("turn") != after.get("turn") or before.get("phase") != after.get("phase"):
        out.append(f"turn {before.get('turn')}·{before.get('phase')} → {after.get('turn')}·{after.get('phase')}")
    if limit is None or len(out) <= limit:
        return out
    return [*out[:limit], f"and {len(out) - limit} more"]


def _cards(whose: str, before: dict, after: dict) -> list[str]:
    """The companies a holder gains (+) and gives up (−), in words (none: nothing)."""
    had, has = list(before.get("companies") or []), list(after.get("companies") or [])
    gained = [c for c in has if c not in had]
    lost = [c for c in had if c not in has]
    if not gained and not lost:
        return []
    return [f"{whose}: " + ", ".join([*(f"+ {c}" for c in gained), *(f"− {c}" for c in lost)])]
