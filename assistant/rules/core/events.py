"""Every kind of event, declared once: its fields and their types, the kind of phase it belongs to,
its label, and whether the engine plays it or only the store's log knows it; and the event a
legal-action menu item stands for (``events_of``).

The dispatcher checks fields against this (``Game.apply``), the store keeps exactly these fields
(``assistant/store/store.py``), the web forms send them back (``assistant/web/action_forms.py``), and the labels
come from here.  A game plays the table events its class lists (``Game.EVENT_TYPES``); a handler
``_ev_<type>`` and, where the table chooses among options, a menu item complete a new event type.

Phase kinds, not numbers: the acquisition phase is phase 3 in Rolling Stock Stars and phase 6 in
classic Rolling Stock (``Game.phase_no(kind)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

TABLE = "table"  # a decision or a card drawn at the table: the engine plays it, transcripts hold it
STORE = "store"  # known to the store's log only (undo and its kin): never given to the engine


@dataclass(frozen=True)
class EventType:
    type: str
    fields: Mapping[str, type]  # field -> int or str, in the order a form shows them
    phase: str | None  # the kind of phase it belongs to (None: any phase, or a store event)
    label: str  # what the button or the log calls it
    level: str = TABLE


def _declare(*types: EventType) -> Mapping[str, EventType]:
    return MappingProxyType({t.type: t for t in types})


EVENTS: Mapping[str, EventType] = _declare(
    EventType("reveal", {"company": str}, None, "Card drawn"),
    EventType("pass", {"player": str}, "investment", "Pass"),
    EventType("bid", {"player": str, "company": str, "price": int}, "investment", "Bid"),
    EventType("leave", {"player": str}, "investment", "Leave the auction"),
    EventType("buy_share", {"player": str, "corporation": str}, "investment", "Buy a share"),
    EventType("sell_share", {"player": str, "corporation": str}, "investment", "Sell a share"),
    EventType(
        "acquire",
        {"corporation": str, "company": str, "price": int, "announced_by": str},
        "acquisition",
        "Buy a company",
    ),
    # live play (docs/live-events.md): a purchase from the foreign investor announced first, so
    # that corporations with priority may intervene; never exported as such (Game.written)
    EventType("announce", {"corporation": str, "company": str}, "acquisition", "Announce a purchase"),
    # nobody intervenes in the announced purchase; with a corporation: that one lets it go
    EventType("no_intervention", {"company": str, "corporation": str}, "acquisition", "Nobody intervenes"),
    # the table has finished the phase (``by``: the seat whose phone ended it, for the log)
    EventType("done", {"phase": int, "by": str}, None, "Phase done"),
    # live play: one player has finished an any-order phase; never exported
    EventType("player_done", {"player": str, "phase": int}, None, "I'm done"),
    EventType("close", {"company": str}, "closing", "Close a company"),
    EventType("dividend", {"corporation": str, "amount": int}, "dividends", "Pay a dividend"),
    EventType("issue", {"corporation": str}, "issue", "Issue a share"),
    EventType("skip_issue", {"corporation": str}, "issue", "Issue no share"),
    EventType("redeem", {"corporation": str}, "issue", "Redeem a share"),
    EventType("ipo", {"company": str, "corporation": str, "price": int}, "ipo", "Go public"),
    EventType("skip_ipo", {"company": str}, "ipo", "Stay private"),
    EventType("undo", {}, None, "Undo", level=STORE),
    # the most recently undone entry back, while nothing new has been entered since
    EventType("redo", {}, None, "Restore", level=STORE),
    # a correction of an entry made long ago, as one log row (assistant/log/corrections.py)
    EventType("amend", {"index": int}, None, "Correct an entry", level=STORE),
    # the game as it was after an earlier row ``to`` of its log (assistant/log/walk.py; the store
    # keeps ``to``: it is no field the engine reads)
    EventType("go_back", {}, None, "Go back", level=STORE),
)

# Every field any event may carry, with its type (anything else is not part of an event).
_FIELD_TYPES = {name: kind for t in EVENTS.values() for name, kind in t.fields.items()}
FIELD_TYPES: Mapping[str, type] = MappingProxyType(_FIELD_TYPES)
_STORED_AS_IS = {**_FIELD_TYPES, "type": str}  # what an event kept as it is holds (``as_stored``)
STORE_EVENTS = tuple(t.type for t in EVENTS.values() if t.level == STORE)
# The table events every game of the family plays; a game adds its own (Game.EVENT_TYPES).
COMMON = ("reveal", "pass", "bid", "leave", "buy_share", "sell_share", "acquire", "announce",
          "no_intervention", "done", "player_done", "close", "dividend", "issue", "skip_issue", "ipo",
          "skip_ipo")  # fmt: skip
UNDO = "undo"
REDO = "redo"
AMEND = "amend"
GO_BACK = "go_back"


def declared(kind) -> EventType | None:
    return EVENTS.get(kind) if isinstance(kind, str) else None


def field_problem(event: dict) -> str | None:
    """Why a field of ``event`` has the wrong type (None if every declared field present is right)."""
    try:
        stored_form(event)
    except TypeError as err:
        return str(err)
    return None


def stored_form(event: dict) -> dict:
    """The event as the log keeps it: its type and its declared fields (others are dropped), as a
    new dict.

    Raises TypeError, saying which, when a declared field has the wrong type (one pass over the
    event's few fields: every event entered goes through here)."""
    out = {}
    for key, value in event.items():
        want = _FIELD_TYPES.get(key)
        if want is None:
            if key == "type":
                out[key] = value
            continue
        if value is not None and type(value) is not want:
            raise TypeError(_wrong_type(key, want, value))
        out[key] = value
    return out


def as_stored(event: dict) -> dict:
    """``stored_form(event)``, but ``event`` itself when it holds nothing else (the engine's case:
    no copy of each event replayed; the engine never changes an event).  One look-up per field on
    the way where every field is declared and of its type (every event entered comes here); any
    other event goes to ``stored_form``, which says what is wrong or drops what is not a field."""
    check = _STORED_AS_IS
    for key, value in event.items():
        if type(value) is not check.get(key):
            return stored_form(event)
    return event


def _wrong_type(key: str, want: type, value) -> str:
    return f"The {key} must be {'a whole number' if want is int else 'a name'}, not {value!r}."


def label(kind: str) -> str:
    t = declared(kind)
    return t.label if t else kind


def events_of(item: dict, pick) -> dict:
    """A concrete event from a menu item; ``pick(lo, hi)`` chooses amounts, ``pick(seq)`` choices."""
    kind = item["type"]
    if kind == "reveal":
        return {"type": "reveal", "company": pick(item["choices"])}
    if kind == "announce":
        return {"type": "announce", "corporation": item["corporation"], "company": item["company"]}
    if kind == "no_intervention":
        ev = {"type": "no_intervention", "company": item["company"]}
        if item.get("corporation"):
            ev["corporation"] = item["corporation"]
        return ev
    if kind in ("bid", "acquire", "dividend"):
        amount = pick(item["min"], item["max"])
        if kind == "bid":
            return {"type": "bid", "player": item["player"], "company": item["company"], "price": amount}
        if kind == "dividend":
            return {"type": "dividend", "corporation": item["corporation"], "amount": amount}
        ev = {"type": "acquire", "corporation": item["corporation"], "company": item["company"], "price": amount}
        if item.get("announced_by"):
            ev["announced_by"] = item["announced_by"]
        return ev
    if kind == "ipo":
        opt = pick(item["options"])
        return {"type": "ipo", "company": item["company"], "corporation": opt["corporation"], "price": opt["price"]}
    keys = {
        "pass": ("player",),
        "leave": ("player",),
        "buy_share": ("player", "corporation"),
        "sell_share": ("player", "corporation"),
        "done": ("phase",),
        "player_done": ("player", "phase"),
        "close": ("company",),
        "issue": ("corporation",),
        "skip_issue": ("corporation",),
        "redeem": ("corporation",),
        "skip_ipo": ("company",),
    }[kind]
    return {"type": kind, **{k: item[k] for k in keys}}
