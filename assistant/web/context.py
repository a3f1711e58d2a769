"""What the table templates show, computed lazily from the store and the engine."""

from __future__ import annotations

from functools import cached_property

from flask import abort, session

from assistant.store import NotFound
from assistant.web import cards, labels, lan, menu

HISTORY_SHORT = 30
SEATS_KEY = "seats"


def seat_of(gid: str) -> str | None:
    return (session.get(SEATS_KEY) or {}).get(gid)


def set_seat(gid: str, player: str | None) -> None:
    seats = dict(session.get(SEATS_KEY) or {})
    if player:
        seats[gid] = player
    else:
        seats.pop(gid, None)
    session[SEATS_KEY] = seats
    session.permanent = True


class TableView:
    """Everything a component needs; each attribute is computed on first use."""

    def __init__(self, store, gid: str, *, error: str | None = None, stale: list[str] | None = None,
                 confirm_undo: bool = False, full_history: bool = False, attempted: dict | None = None):
        try:
            self.info = store.get_game(gid)
        except NotFound:
            abort(404, description="There is no game at this address. Check the link or the QR code.")
        self.store = store
        self.gid = gid
        self.seq, self.game = store.state(gid)
        self.error = error
        self.attempted = attempted  # the refused event, to show the refusal at its form
        self.stale = stale
        self.confirm_undo = confirm_undo
        self.full_history = full_history

    # -- engine views -----------------------------------------------------------------
    @cached_property
    def snap(self) -> dict:
        return self.game.snapshot()

    @cached_property
    def next(self) -> dict | None:
        return self.game.next

    @cached_property
    def menu(self) -> list[dict]:
        return list(self.game.legal_actions())

    @cached_property
    def groups(self) -> list[menu.ActionGroup]:
        return menu.build(self.menu, self.snap)

    # -- banner -------------------------------------------------------------------------
    @property
    def phase(self):
        return self.snap.get("phase")

    @property
    def phase_name(self) -> str:
        return labels.phase_name(self.phase)

    @cached_property
    def next_text(self) -> str:
        if self.snap.get("game_over"):
            return "The game is over"
        return labels.next_text(self.next)

    @cached_property
    def error_at(self) -> tuple[int, int] | None:
        """(group, form) of the form whose event was refused, to show the message beside it."""
        if not self.error or not self.attempted:
            return None
        for gi, group in enumerate(self.groups):
            for fi, form in enumerate(group.forms):
                if all(str(self.attempted.get(k)) == str(v) for k, v in form.hidden.items()):
                    return gi, fi
        return None

    @cached_property
    def seat(self) -> str | None:
        seat = seat_of(self.gid)
        return seat if seat in self.info.players else None

    @cached_property
    def my_turn(self) -> bool:
        if not self.seat or not self.next:
            return False
        if self.next.get("player"):
            return self.next["player"] == self.seat
        return self.seat in menu.actors(self.menu)

    @property
    def in_setup(self) -> bool:
        return bool(self.next) and self.next.get("for") == "reveal" and len(self.game.events) < len(self.info.players)

    # -- join -----------------------------------------------------------------------------
    @cached_property
    def join_url(self) -> str:
        return lan.external_url("table.page", gid=self.gid)

    @cached_property
    def qr(self):
        return lan.qr_svg(self.join_url)

    # -- entities -------------------------------------------------------------------------
    @cached_property
    def corporations(self) -> list[dict]:
        corps = self.snap.get("corporations") or {}
        rows = []
        for name, c in corps.items():
            row = dict(c, name=name, short=labels.CORPORATION_SHORT.get(name, name[:3].upper()))
            row["companies"] = self.sorted_companies(c.get("companies") or [])
            row["required_stars"] = cards.required_stars(c.get("share_price"), c.get("issued"))
            row["player_shares"] = {p: n for p, d in (self.snap.get("players") or {}).items()
                                    if (n := (d.get("shares") or {}).get(name))}
            rows.append(row)
        rows.sort(key=lambda r: -(r.get("share_price") or 0))
        return rows

    @cached_property
    def share_prices(self) -> dict:
        return {name: c.get("share_price") for name, c in (self.snap.get("corporations") or {}).items()}

    @cached_property
    def players(self) -> list[dict]:
        players = self.snap.get("players") or {}
        order = self.snap.get("player_order") or list(players)
        rows = []
        for pos, name in enumerate(order, 1):
            p = players.get(name, {})
            shares = {c: n for c, n in (p.get("shares") or {}).items() if n}
            share_value = sum(n * (self.share_prices.get(c) or 0) for c, n in shares.items())
            faces = [cards.face_value(a) for a in p.get("companies") or []]
            value = None if None in faces else p.get("cash", 0) + sum(faces) + share_value
            rows.append(dict(p, name=name, position=pos, shares=shares, share_value=share_value, value=value,
                             companies=self.sorted_companies(p.get("companies") or []),
                             acting=bool(self.next) and self.next.get("player") == name,
                             me=name == self.seat))
        return rows

    def sorted_companies(self, companies: list[str]) -> list[dict]:
        """Companies by face value (highest first), with colour, for display."""
        rows = [cards.company(c) for c in companies]
        rows.sort(key=lambda r: (-(r["face_value"] or 0), r["abbr"]))
        return rows

    @cached_property
    def offering(self) -> dict:
        off = self.snap.get("offering") or {}
        auction = self.snap.get("auction")
        return {"available": self.sorted_companies(off.get("available") or []),
                "unavailable": self.sorted_companies(off.get("unavailable") or []),
                "auction": auction}

    @cached_property
    def deck_colors(self) -> list[tuple[str, int]] | None:
        """Cards left per colour, when the snapshot tells (an extra field); else None."""
        per = cards.deck_left(self.game)
        if per is None:
            return None
        return [(c, per.get(c, 0)) for c in labels.COLORS if per.get(c)]

    @cached_property
    def price_row(self) -> list[dict]:
        """The share price row with the corporations on each card."""
        on: dict[int, list[dict]] = {}
        for c in self.corporations:
            on.setdefault(c.get("share_price"), []).append(c)
        row = cards.price_row()
        row += sorted(p for p in on if p not in row and isinstance(p, int))
        return [{"price": p, "corporations": on.get(p, [])} for p in sorted(row)]

    @cached_property
    def cost_of_ownership(self) -> list[tuple[str, int]]:
        cost = self.snap.get("cost_of_ownership") or {}
        return [(c, cost.get(c, 0)) for c in labels.COLORS]

    @cached_property
    def final(self) -> list[dict] | None:
        final = self.snap.get("final")
        if not final:
            return None
        players = {p["name"]: p for p in self.players}
        rows = []
        for rank, name in enumerate(final.get("ranking") or [], 1):
            p = players.get(name, {})
            total = (final.get("scores") or {}).get(name, 0)
            cash = p.get("cash", 0)
            shares = p.get("share_value", 0)
            rows.append({"rank": rank, "name": name, "total": total, "cash": cash, "shares": shares,
                         "companies": total - cash - shares, "company_list": p.get("companies", [])})
        return rows

    # -- history --------------------------------------------------------------------------
    @cached_property
    def history(self) -> list[dict]:
        journal = list(self.game.journal)
        start = 0 if self.full_history else max(0, len(journal) - HISTORY_SHORT)
        rows = [{"n": i + 1, "text": j.get("text", ""), "auto": list(j.get("auto") or [])}
                for i, j in enumerate(journal[start:], start)]
        rows.reverse()
        return rows

    @property
    def history_total(self) -> int:
        return len(self.game.journal)

    @cached_property
    def last_text(self) -> str | None:
        journal = self.game.journal
        return journal[-1].get("text") if journal else None

    @property
    def can_undo(self) -> bool:
        return bool(self.game.events)
