"""The IPO as phone-sized questions (``action_forms``' makers for ``ipo`` and ``skip_ipo``): the
share price with the payment it implies, then the symbol card, whose ability is shown short on its
row and in full behind one fold."""

from __future__ import annotations

from assistant.rules.core import words
from assistant.web import card_figures
from assistant.web.form_parts import ActionForm, Button, Radio, RadioGroup, _hidden
from assistant.web.labels import company_color


def _ipo_pays(o: dict, player: str, rs) -> str:
    """The price and what the owner pays, money as the game writes it: "10: Amy pays 2" (Stars), "$10: Amy pays $2"."""
    return f"{rs.cash(o.get('price'))}: {player} pays {rs.cash(o.get('payment'))}"


def _ipo_terms(o: dict, player: str, rs) -> str:
    n = o.get("owner_shares")
    return f"treasury {rs.cash(o.get('treasury'))}, {words.count(n, 'share')} each for {player} and the bank"


def _ipo(item, snap, rs):
    """The IPO as two phone-sized questions: the share price (with the payment it implies), then
    the charter.  When the menu's options are not every price with every charter, one list of them."""
    company, player = item["company"], item["player"]
    options = item.get("options", [])
    if not options:  # nothing the owner could choose (the engine then skips the company itself)
        return []
    prices = list(dict.fromkeys(o["price"] for o in options))
    charters = list(dict.fromkeys(o["corporation"] for o in options))
    terms = {}
    for o in options:
        terms.setdefault(o["price"], o)
    crossed = {(o["price"], o["corporation"]) for o in options} == {(p, c) for p in prices for c in charters} and all(
        _same_terms(o, terms[o["price"]]) for o in options
    )
    if crossed:
        radios = [
            RadioGroup(
                "price",
                "1. Share price (and what it costs)",
                [Radio(str(p), _ipo_pays(terms[p], player, rs), _ipo_terms(terms[p], player, rs)) for p in prices],
            ),
            RadioGroup(
                "corporation",
                f"2. {rs.word('charter').capitalize()}",
                [Radio(c, c, _short(_charter_ability(c, rs)), _charter_ability(c, rs)) for c in charters],
            ),
        ]
    else:
        radios = [
            RadioGroup(
                "choice",
                f"{rs.word('charter').capitalize()} and share price",
                [
                    Radio(
                        f"{o['price']}|{o['corporation']}",
                        f"{o['corporation']} at {_ipo_pays(o, player, rs)}",
                        _ipo_terms(o, player, rs),
                    )
                    for o in options
                ],
            )
        ]
    form = ActionForm(
        _hidden(item, ["company"]),
        [Button(f"Take {company} public", color=company_color(company, rs), primary=True)],
        radios=radios,
        actor=player,
    )
    return [(f"{player}: IPO of {company}", form)]


def _same_terms(a: dict, b: dict) -> bool:
    return all(a.get(k) == b.get(k) for k in ("owner_shares", "bank_shares", "payment", "treasury"))


def _charter_ability(name: str, rs) -> str:
    return card_figures.corporation_ability(name, rs)


SHORT = 30  # characters of an ability shown on its row at 360 px (one line); the rest is folded


def _short(text: str) -> str:
    """One line of a long ability for its row: when it acts ("Collect income: …"), else its
    start cut at a word; the whole text is folded below the rows."""
    when, colon, _ = text.partition(":")
    if colon and len(when) <= SHORT:
        return when + ": …"
    if len(text) <= SHORT:
        return text
    return text[: text.rfind(" ", 0, SHORT)].rstrip(",;:") + " …"


def _skip_ipo(item, snap, rs):
    company = item["company"]
    return [
        (
            f"{item['player']}: IPO of {company}",
            ActionForm(_hidden(item, ["company"]), [Button(f"Keep {company} private")], actor=item["player"]),
        )
    ]
