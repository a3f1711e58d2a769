"""Correcting an entry made long ago (issue 16): the corrected entry in its place, every later entry
that still fits kept, the first that no longer fits and all after it set aside (not lost).

The whole correction is one row of the log, ``{"type": "amend", "index": k, "event": {...},
"kept": n, "set_aside": [...]}``, worked out once, when it is entered, by the engine: ``index``
counts the effective table events (as ``/export`` lists them) from 0.  ``effective_events`` reads
the log with undo and corrections applied; one undo takes a correction back whole.
"""

from __future__ import annotations

from assistant.rules import RuleError
from assistant.rules.core.events import AMEND, REDO, UNDO


def effective_events(rows) -> list[dict]:
    """The log with undo and corrections applied: each undo takes back the latest entry still in
    effect (an event, or a correction as a whole)."""
    return in_effect(rows)[0]


def in_effect(rows) -> tuple[list[dict], int]:
    """(the effective events, how many entries are in effect: what undo can still take back)."""
    out, taken, _undone = walk(rows)
    return out, len(taken)


def undone(rows) -> list[dict]:
    """The entries a redo can bring back, the next one first: what was undone since the last new entry."""
    return [entry for _kind, entry in reversed(walk(rows)[2])]


UNDOS_WITHOUT_CONFIRM = 3  # past this many undos in a row, the next one must be confirmed again


def undos_in_a_row(rows) -> int:
    """How many undos end the log."""
    n = 0
    for row in reversed(rows):
        if row.event.get("type") != UNDO:
            break
        n += 1
    return n


def walk(rows) -> tuple[list[dict], list[tuple], list[tuple]]:
    """The log read in order: (the effective events, what each entry in effect did, and the
    entries undone since the last new one, as ("event", event) or ("amend", row))."""
    out: list[dict] = []
    taken: list[tuple] = []  # what each entry in effect did: ("event",) or ("amend", index, the old tail, row)
    back: list[tuple] = []  # undone, most recent last: what a redo brings back
    for row in rows:
        event = row.event
        kind = event.get("type")
        if kind == UNDO:
            if taken:
                done = taken.pop()
                if done[0] == "event":
                    back.append(("event", out.pop()))
                else:
                    del out[done[1] :]
                    out.extend(done[2])
                    back.append(("amend", done[3]))
        elif kind == REDO:
            if back:
                again, entry = back.pop()
                if again == "event":
                    out.append(entry)
                    taken.append(("event",))
                else:
                    _amend(out, taken, entry)
        elif kind == AMEND:
            back.clear()
            _amend(out, taken, event)
        else:
            back.clear()
            out.append(event)
            taken.append(("event",))
    return out, taken, back


def _amend(out: list[dict], taken: list[tuple], row: dict) -> None:
    k = row["index"]
    old = out[k:]
    out[k:] = [row["event"], *old[1 : 1 + row["kept"]]]
    taken.append(("amend", k, old, row))


def correct(start, effective: list[dict], index: int, event: dict) -> dict:
    """The correction of entry ``index`` to ``event``, played from ``start`` (the game before the
    first entry): ``{"row": the log row, "game": the state after it, "kept": n, "set_aside": [...]}``.
    RuleError when the corrected entry itself does not fit where it stands."""
    if type(index) is not int or not 0 <= index < len(effective):
        raise RuleError(
            f"There is no entry {index!r} to correct: the game has {len(effective)} entries (0 to {len(effective) - 1})."
        )
    game = start
    for earlier in effective[:index]:
        game.apply(earlier)
    game.apply(event)  # RuleError: the corrected entry does not fit
    later = effective[index + 1 :]
    kept = 0
    for entry in later:
        try:
            game.apply(entry)
        except RuleError:
            break
        kept += 1
    set_aside = later[kept:]
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


def changes(before: dict, after: dict, limit: int = 8) -> list[str]:
    """What a correction changes, in words, from two snapshots ("Doppler AG's treasury 14 → 15")."""
    out = []
    for name, p in before.get("players", {}).items():
        q = after.get("players", {}).get(name, {})
        if p.get("cash") != q.get("cash"):
            out.append(f"{name}'s money {p.get('cash')} → {q.get('cash')}")
    fi, gi = before.get("foreign_investor", {}), after.get("foreign_investor", {})
    if fi.get("cash") != gi.get("cash"):
        out.append(f"the foreign investor's money {fi.get('cash')} → {gi.get('cash')}")
    corps = dict.fromkeys([*before.get("corporations", {}), *after.get("corporations", {})])
    for name in corps:
        c, d = before.get("corporations", {}).get(name), after.get("corporations", {}).get(name)
        if c is None or d is None:
            out.append(f"{name} {'is formed' if c is None else 'is gone'}")
            continue
        if c.get("cash") != d.get("cash"):
            out.append(f"{name}'s treasury {c.get('cash')} → {d.get('cash')}")
        if c.get("share_price") != d.get("share_price"):
            out.append(f"{name}'s share price {c.get('share_price')} → {d.get('share_price')}")
    if before.get("turn") != after.get("turn") or before.get("phase") != after.get("phase"):
        out.append(f"turn {before.get('turn')}·{before.get('phase')} → {after.get('turn')}·{after.get('phase')}")
    return out if len(out) <= limit else [*out[:limit], f"and {len(out) - limit} more"]
