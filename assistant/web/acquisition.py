"""Phase 3 (classic: 6) on a phone: tap a corporation, then a company it may buy.

``purchases(menu)`` is the one list of choices: the menu's purchases by buyer (``acquire`` from a
player or a corporation, ``announce`` for the foreign investor's), shared by the Play tab's picker
and the acquisition what-if helper.  Interventions come once a purchase is announced: they are the
menu's own forms then (``menu.py``)."""

from __future__ import annotations

from functools import cached_property

from assistant.rules.core.phases.acquisition import preview_purchase
from assistant.web import card_figures


def purchases(items: list[dict]) -> dict[str, list[dict]]:
    """The engine menu's purchases (``acquire`` and ``announce`` items, not interventions) by buyer, in menu order."""
    out: dict[str, list[dict]] = {}
    for m in items:
        if m.get("type") in ("acquire", "announce") and not m.get("announced_by"):
            out.setdefault(m["corporation"], []).append(m)
    return out


class AcquisitionPart:
    """The acquisition part of a TablePage."""

    @cached_property
    def acquisitions(self) -> dict | None:
        if (self.next or {}).get("for") != "acquisition":
            return None
        by_buyer = purchases(self.menu)
        if not by_buyer:
            return None
        snap_corps = self.snap.get("corporations") or {}
        corps: dict[str, dict] = {}
        for name, ms in by_buyer.items():
            c = snap_corps.get(name) or {}
            corps[name] = {
                "name": name,
                "short": self.ruleset.short(name),
                "president": ms[0].get("president"),
                "cash": c.get("cash"),
                "price": c.get("share_price"),
                "items": ms,
                "mine": ms[0].get("president") in self.my_seats,
            }
        rows = sorted(corps.values(), key=lambda r: (not r["mine"], -(r["price"] or 0)))
        selected = self.corp if self.corp in corps else None
        if selected is None:
            mine = [r for r in rows if r["mine"]]
            if len(rows) == 1 or len(mine) == 1:
                selected = (mine or rows)[0]["name"]
        others: dict[str, list] = {}
        shown = []
        for r in rows:
            if self.seat and not r["mine"] and r["name"] != selected:
                others.setdefault(r["president"] or "the receiver", []).append(r)
            else:
                shown.append(r)
        return {
            "corps": shown,
            "others": others,
            "selected": corps.get(selected),
            "options": self._purchase_options(corps[selected]) if selected else [],
        }

    def _purchase_options(self, corp: dict) -> list[dict]:
        out = []
        for m in corp["items"]:
            company = m["company"]
            info = card_figures.company(company, self.ruleset)
            row = {
                "company": info,
                "abbr": company,
                "seller": m.get("seller") or "its owner",
                "min": m["min"],
                "max": m["max"],
                "foreign": m["type"] == "announce",
                "may_intervene": list(m.get("may_intervene") or []),
                "income": None,
                "synergies": [],
            }
            try:
                a = preview_purchase(self.game, corp["name"], company, m["min"])
            except (KeyError, AttributeError, TypeError, ValueError):
                a = None
            if a and a.get("legal"):
                e = (a.get("effects") or {}).get(corp["name"]) or {}
                row["income"] = (e.get("after") or {}).get("income", 0) - (e.get("before") or {}).get("income", 0)
                row["synergies"] = e.get("synergies_gained") or []
            out.append(row)
        out.sort(key=lambda r: (-(r["income"] if r["income"] is not None else -99), r["min"], r["abbr"]))
        return out
