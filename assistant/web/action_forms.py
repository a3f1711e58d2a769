"""The engine's menu (``Game.legal_actions()``) as forms, and a posted form back as an event.

Nothing here knows the rules: every choice, range and price comes from the menu.
"""

from __future__ import annotations

from assistant.rules.core import events, words
from assistant.web import labels
from assistant.web.form_parts import (  # noqa: F401 (the form's parts, used through this module too)
    ActionForm,
    ActionGroup,
    Button,
    Choice,
    NumberInput,
    Radio,
    RadioGroup,
    _hidden,
)
from assistant.web.ipo_forms import _ipo, _skip_ipo
from assistant.web.labels import company_color

# Event fields per table event type (what a form sends back), from the one event schema.
EVENT_FIELDS = {t.type: tuple(t.fields) for t in events.EVENTS.values() if t.level == events.TABLE}
INT_FIELDS = tuple(name for name, kind in events.FIELD_TYPES.items() if kind is int)
TEXT_FIELDS = tuple(name for name, kind in events.FIELD_TYPES.items() if kind is str)
MAX_TEXT = 100


class FormError(ValueError):
    """A posted form does not describe an event."""


def _actor(item: dict) -> str | None:
    return item.get("player") or item.get("president")


def build(menu: list[dict], snapshot: dict, ruleset) -> list[ActionGroup]:
    """Group the menu into titled forms, in menu order (``ruleset``: the game's, for its names and colours)."""
    groups: dict[str, ActionGroup] = {}
    for item in menu:
        for title, form in _forms(item, snapshot, ruleset):
            group = groups.setdefault(title, ActionGroup(title, actor=form.actor))
            if group.actor != form.actor:
                group.actor = None
            group.forms.append(form)
    return list(groups.values())


def _forms(item: dict, snap: dict, rs):
    kind = item.get("type")
    maker = _MAKERS.get(kind)
    if maker is None:
        label = events.label(kind)
        return [(label, ActionForm(_hidden(item, EVENT_FIELDS.get(kind, ())), [Button(label)], actor=_actor(item)))]
    return maker(item, snap, rs)


def _reveal(item, snap, rs):
    buttons = [Button(c, "company", c, color=company_color(c, rs), primary=True) for c in item.get("choices", [])]
    color = item.get("color")
    title = f"Which company was drawn{f' ({color})' if color else ''}?"
    return [(title, ActionForm({"type": "reveal"}, buttons, big=True))]


def _in_phase(item, snap, rs) -> str:
    """A player's decision headed by the phase, in the game's words ("Alice: auctions and share trading")."""
    return f"{item['player']}: {labels.decision_phase(snap.get('phase'), rs)}"


def _pass(item, snap, rs):
    return [(_in_phase(item, snap, rs), ActionForm(_hidden(item, ["player"]), [Button("Pass")], actor=item["player"]))]


def _bid(item, snap, rs):
    company = item["company"]
    running = (snap.get("auction") or {}).get("company") == company
    verb = "Raise the bid" if running else "Start an auction"
    lo, hi = item["min"], item["max"]
    number = NumberInput("price", f"Bid ({rs.cash(lo)}–{rs.cash(hi)})", lo, hi, lo)
    title = f"{item['player']}: auction for {company}" if running else _in_phase(item, snap, rs)
    form = ActionForm(
        _hidden(item, ["player", "company"]),
        [Button(f"{verb} for {company}", color=company_color(company, rs), primary=True)],
        number=number,
        actor=item["player"],
    )
    return [(title, form)]


def _leave(item, snap, rs):
    company = item.get("company") or (snap.get("auction") or {}).get("company") or ""
    return [
        (
            f"{item['player']}: auction for {company}",
            ActionForm(_hidden(item, ["player"]), [Button(f"Leave the auction for {company}")], actor=item["player"]),
        )
    ]


def _share(item, snap, rs):
    verb = "Buy" if item["type"] == "buy_share" else "Sell"
    return [
        (
            _in_phase(item, snap, rs),
            ActionForm(
                _hidden(item, ["player", "corporation"]),
                [Button(f"{verb} {words.a(item['corporation'])} share for {rs.cash(item['price'])}")],
                actor=item["player"],
            ),
        )
    ]


def _acquire(item, snap, rs):
    corp, company = item["corporation"], item["company"]
    seller = item.get("seller") or "its owner"
    hidden = _hidden(item, ["corporation", "company", "announced_by"])
    lo, hi = item["min"], item["max"]
    announcer = item.get("announced_by")
    if announcer:  # an intervention in the announced purchase the game waits on
        hidden["price"] = lo
        button = Button("Intervene", color=company_color(company, rs), primary=True)
        return [
            (
                _intervention_question(corp, company, rs.cash(lo), announcer),
                ActionForm(hidden, [button], actor=item.get("president")),
            )
        ]
    title = f"{corp}: {rs.word('buying')} (president {item.get('president') or 'receiver'})"
    label = f"{corp} buys {company} from {seller}" + (f" for {rs.cash(lo)}" if lo == hi else "")
    if lo == hi:
        hidden["price"] = lo
        form = ActionForm(hidden, [Button(label, color=company_color(company, rs))], actor=item.get("president"))
    else:
        form = ActionForm(
            hidden,
            [Button(label, color=company_color(company, rs))],
            number=NumberInput("price", f"Price ({rs.cash(lo)}–{rs.cash(hi)})", lo, hi, lo),
            actor=item.get("president"),
        )
    return [(title, form)]


def _intervention_question(corp: str, company: str, price: str, announcer: str) -> str:
    return f"Intervene: {corp} buys {company} for {price} instead of {announcer}?"


def _announce(item, snap, rs):
    corp, company = item["corporation"], item["company"]
    label = f"Announce: {corp} buys {company} from the foreign investor for {rs.cash(item['min'])}"
    form = ActionForm(
        _hidden(item, ["corporation", "company"]),
        [Button(label, color=company_color(company, rs))],
        actor=item.get("president"),
    )
    return [(f"{corp}: {rs.word('buying')} (president {item.get('president')})", form)]


def _no_intervention(item, snap, rs):
    company, announcer, corp = item["company"], item.get("announced_by"), item.get("corporation")
    if corp:  # this corporation lets it go
        title = _intervention_question(corp, company, rs.cash(item.get("price")), announcer)
        ahead = item.get("after") or []
        if ahead:  # others answer first: it may only let it go now
            title = (
                f"{corp} may intervene in {words.possessive(announcer)} purchase of {company} after "
                f"{words.they(ahead, 'lets', 'let')} it go. Let it go now?"
            )
        return [
            (
                title,
                ActionForm(
                    _hidden(item, ["company", "corporation"]), [Button("Let it go")], actor=item.get("president")
                ),
            )
        ]
    return [
        (
            f"Nobody intervenes in {words.possessive(announcer)} purchase of {company}?",
            ActionForm(
                _hidden(item, ["company"]),
                [Button(f"Nobody intervenes: {announcer} buys {company}")],
                confirm=f"Nobody intervenes: {announcer} buys {company} from the foreign investor. "
                "Every corporation that could has let it go?",
            ),
        )
    ]


def _done(item, snap, rs):
    phase = item["phase"]
    waiting = item.get("waiting_for") or []
    if not waiting:
        return [(f"Phase {phase}", ActionForm(_hidden(item, ["phase"]), [Button(f"Phase {phase} done", primary=True)]))]
    names = " and ".join([", ".join(waiting[:-1]), waiting[-1]]) if len(waiting) > 1 else waiting[0]
    have = "has" if len(waiting) == 1 else "have"
    form = ActionForm(
        _hidden(item, ["phase"]),
        [Button(f"End phase {phase} for the whole table")],
        confirm=f"{names} {have} not said they are done. End phase {phase} for everyone anyway?",
    )
    return [(f"Phase {phase} for the whole table", form)]


def _player_done(item, snap, rs):
    player, phase = item["player"], item["phase"]
    label = f"I'm done with phase {phase} ({rs.phase_name(phase)})"  # named: two phases' "I'm done" differ
    form = ActionForm(_hidden(item, ["player", "phase"]), [Button(label, primary=True)], actor=player)
    return [(f"{player}: done with phase {phase}?", form)]


def _close(item, snap, rs):
    company = item["company"]
    owner = item.get("owner")
    whose = f" ({owner})" if owner and owner != item.get("player") else ""
    return [
        (
            f"{item.get('player')}: close companies",
            ActionForm(
                _hidden(item, ["company"]),
                [Button(f"Close {company}{whose}", color=company_color(company, rs))],
                actor=item.get("player"),
            ),
        )
    ]


def _dividend(item, snap, rs):
    corp, lo, hi = item["corporation"], item["min"], item["max"]
    hidden = _hidden(item, ["corporation"])
    m = rs.cash  # "$3" in v2.2 and classic, "3" in Stars
    title = f"{item['player']}: dividend of {corp} ({m(0)}–{m(hi)} per share)"
    forms = [
        ActionForm(dict(hidden, amount=hi), [Button(f"Pay {m(hi)} per share", primary=True)], actor=item["player"])
    ]
    if hi != lo:
        forms.append(ActionForm(dict(hidden, amount=lo), [Button(f"Pay {m(lo)} per share")], actor=item["player"]))
    if hi - lo > 1:
        forms.append(
            ActionForm(
                hidden,
                [Button("Pay this amount")],
                actor=item["player"],
                number=NumberInput("amount", "Per share", lo, hi, hi),
            )
        )
    return [(title, f) for f in forms]


def _issue(item, snap, rs):
    corp = item["corporation"]
    if item["type"] == "issue":
        label = f"Issue {words.a(corp)} share (the treasury receives {item.get('price')})"
    elif item["type"] == "redeem":  # classic's share redemption variant
        label = f"Redeem {words.a(corp)} share from the bank (the treasury pays {item.get('price')})"
    else:
        label = f"Do not issue {words.a(corp)} share"
    return [
        (
            f"{item['player']}: issue a share of {corp}?",
            ActionForm(
                _hidden(item, ["corporation"]), [Button(label, primary=item["type"] == "issue")], actor=item["player"]
            ),
        )
    ]


_MAKERS = {
    "reveal": _reveal,
    "pass": _pass,
    "bid": _bid,
    "leave": _leave,
    "buy_share": _share,
    "sell_share": _share,
    "acquire": _acquire,
    "announce": _announce,
    "no_intervention": _no_intervention,
    "done": _done,
    "player_done": _player_done,
    "close": _close,
    "dividend": _dividend,
    "issue": _issue,
    "skip_issue": _issue,
    "redeem": _issue,
    "ipo": _ipo,
    "skip_ipo": _skip_ipo,
}


def actors(menu: list[dict]) -> set[str]:
    return {a for a in (_actor(item) for item in menu) if a}


def event_from_form(form) -> dict:
    """Rebuild the event a form describes (fields ``e.<name>``); raise FormError."""
    kind = (form.get("e.type") or "").strip()
    if kind not in EVENT_FIELDS:
        raise FormError("unknown action" if kind else "the form does not say which action it is")
    event: dict = {"type": kind}
    choice = form.get("e.choice")
    if choice is not None:
        price, sep, corporation = choice.partition("|")
        if not sep:
            raise FormError("choose one of the offered options")
        event["price"], event["corporation"] = price, corporation
    for name in EVENT_FIELDS[kind]:
        value = form.get(f"e.{name}", event.get(name))
        if value is None or value == "":
            continue
        if name in INT_FIELDS:
            event[name] = _to_int(name, value)
        else:
            if len(str(value)) > MAX_TEXT:
                raise FormError(f"{name} is too long")
            event[name] = str(value)
    return event


def _to_int(name: str, value) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise FormError(f"{name} must be a whole number, not {str(value)[:20]!r}") from None
