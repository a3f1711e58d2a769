"""What the table templates show, computed lazily from the store and the engine."""

from __future__ import annotations

import json
import secrets
from functools import cached_property

from flask import abort, session

from assistant.rules import registry
from assistant.rules.core import explain, preview
from assistant.store import NotFound
from assistant.web import cards, charts, labels, lan, menu

HISTORY_SHORT = 30
SEATS_KEY = "seats"
# The seat cookie keeps the most recent seats only: a browser drops a cookie over 4 KB (and with it
# every seat and the form token), so an unbounded list stops "I am ..." after about 130 games.
SEATS_MAX = 20
SEATS_CHARS = 1500  # and never more than this much JSON, whatever the names' lengths


def _seats() -> list[tuple[str, str]]:
    """The phone's seats, oldest first (an older cookie kept a dict: taken over as it is)."""
    raw = session.get(SEATS_KEY)
    if isinstance(raw, dict):
        raw = list(raw.items())
    out = []
    for pair in raw if isinstance(raw, list) else []:
        if isinstance(pair, (list, tuple)) and len(pair) == 2 and all(isinstance(x, str) for x in pair):
            out.append((pair[0], pair[1]))
    return out


WATCHING_KEY = "watching"  # games this phone just watches (it answered "Who are you?" without a seat)
HOSTED_KEY = "hosted"  # games this phone created: it shows the join QR code until every seat is taken
PHONE_KEY = "phone"
MAX_REMEMBERED = 20

# The table's views, in the navigation's order: (key, label, title)
VIEWS = (
    ("play", "Play", "Play"),
    ("table", "Table", "Offering, deck and prices"),
    ("corporations", "Corps", "Corporations"),
    ("players", "Players", "Players and standings"),
    ("log", "Log", "Log"),
    ("more", "More", "Join, rules and more"),
)
VIEW_KEYS = tuple(key for key, _, _ in VIEWS)


def seat_of(gid: str) -> str | None:
    return next((player for g, player in _seats() if g == gid), None)


def _remember(key: str, gid: str, on: bool) -> None:
    items = [g for g in (session.get(key) or []) if isinstance(g, str) and g != gid]
    if on:
        items.append(gid)
    session[key] = items[-MAX_REMEMBERED:]
    session.permanent = True


def phone_id() -> str:
    """A random id for this phone (its session), to count the seats taken at a table."""
    phone = session.get(PHONE_KEY)
    if not phone:
        phone = session[PHONE_KEY] = secrets.token_urlsafe(12)
        session.permanent = True
    return phone


def set_seat(gid: str, player: str | None, store=None) -> None:
    seats = [(g, p) for g, p in _seats() if g != gid]
    if player:
        seats.append((gid, player))
    seats = seats[-SEATS_MAX:]
    while len(seats) > 1 and len(json.dumps(seats)) > SEATS_CHARS:
        seats.pop(0)
    session[SEATS_KEY] = [list(pair) for pair in seats]
    _remember(WATCHING_KEY, gid, not player)  # no seat: the phone just watches (a shared table view)
    session.permanent = True
    if store is not None:
        store.take_seat(gid, phone_id(), player)


def mark_host(gid: str) -> None:
    """This phone created the game: it shows the join QR code until every seat is taken."""
    _remember(HOSTED_KEY, gid, True)


class TableView:
    """Everything a component needs; each attribute is computed on first use."""

    def __init__(
        self,
        store,
        gid: str,
        *,
        error: str | None = None,
        stale: list[str] | None = None,
        confirm_undo: bool = False,
        full_history: bool = False,
        attempted: dict | None = None,
        view: str = "play",
        corp: str | None = None,
        entered: bool = False,
    ):
        try:
            self.info = store.get_game(gid)
        except NotFound:
            abort(404, description="There is no game at this address. Check the link or the QR code.")
        self.store = store
        self.gid = gid
        self.seq, self.game = store.state(gid)
        self.ruleset = registry.of(self.game)  # names, colours and phases of this game
        labels.use_ruleset(self.ruleset)
        self.error = error
        self.attempted = attempted  # the refused event, to show the refusal at its form
        self.stale = stale
        self.confirm_undo = confirm_undo
        self.full_history = full_history
        self.view = view if view in VIEW_KEYS else "play"
        self.corp = corp  # phase 3: the corporation whose purchases are shown
        self.entered = entered  # this phone just entered the latest event (show its result)
        self.views = VIEWS

    # -- engine views -----------------------------------------------------------------
    @cached_property
    def colors(self) -> list[str]:
        """The company colours in this game's deck, in deck order (classic short game: no purple)."""
        return list(getattr(self.game, "colors", None) or labels.colors(self.ruleset))

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
        return self.ruleset.phase_name(self.phase)

    @cached_property
    def next_text(self) -> str:
        if self.snap.get("game_over"):
            final = self.snap.get("final") or {}
            winner = (final.get("two_handed") or {}).get("winner") or next(iter(final.get("ranking") or []), None)
            return f"The game is over: {winner} wins" if winner else "The game is over"
        if self.short:
            who = " and ".join(f"{name} (money {cash}, income {income})" for name, cash, income in self.short)
            return f"{who} must close companies first; then “phase done”"
        return labels.next_text(self.next)

    def phase_of(self, kind: str) -> int | None:
        """The number of a kind of phase in this game's turn (Stars: closing 4; classic: closing 7)."""
        try:
            return self.game.phase_no(kind)
        except (AttributeError, ValueError):
            return None

    @property
    def offering_phase(self) -> int | None:
        """The phase in which drawn companies become available (Stars: wrap-up 2; classic: 5)."""
        return self.phase_of("wrap_up") or self.phase_of("foreign_investor")

    @cached_property
    def short(self) -> list[tuple]:
        """Phase 4 while "phase done" is not offered: the players who must close companies first."""
        if (self.next or {}).get("for") != "closing" or any(m.get("type") == "done" for m in self.menu):
            return []
        try:
            return [tuple(s) for s in self.game.players_short()]
        except AttributeError:  # pragma: no cover - an engine without players_short
            return []

    @cached_property
    def done_blocked(self) -> str | None:
        """Why "phase done" is missing from the menu in phase 4 (from the engine), or None."""
        if not self.short:
            return None
        parts = [f"{name} has {cash} and a coming income of {income}" for name, cash, income in self.short]
        return (
            f"Phase {self.phase_of('closing')} cannot end yet: "
            + "; ".join(parts)
            + ". A player must be able to pay a negative income: close companies until it is covered."
        )

    @cached_property
    def error_form(self):
        """The form whose event was refused, to show the message beside it (None: at the top)."""
        if not self.error or not self.attempted:
            return None
        for group in self.play_groups:
            for form in group.forms:
                if all(str(self.attempted.get(k)) == str(v) for k, v in form.hidden.items()):
                    return form
        return None

    @cached_property
    def person_seats(self) -> dict[str, list[str]]:
        """Two-handed variant: the two seats of each person."""
        return labels.person_seats(self.info.players, getattr(self.info, "persons", None))

    @cached_property
    def seat(self) -> str | None:
        """The player (or, two-handed, the person) this phone plays."""
        seat = seat_of(self.gid)
        return seat if seat in self.info.players or seat in self.person_seats else None

    @cached_property
    def my_seats(self) -> set[str]:
        if not self.seat:
            return set()
        return set(self.person_seats.get(self.seat) or [self.seat])

    @cached_property
    def my_turn(self) -> bool:
        if not self.seat or not self.next:
            return False
        if self.next.get("player"):
            return self.next["player"] in self.my_seats
        return bool(self.my_seats & menu.actors(self.menu))

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
            row = dict(c, name=name, short=self.ruleset.short(name))
            row["companies"] = self.sorted_companies(c.get("companies") or [])
            row["income_why"] = self._explain(explain.income, name)
            if "stars" in c:  # Stars and v2.2: the price follows stars against required
                row["required_stars"] = cards.required_stars(c.get("share_price"), c.get("issued"), self.ruleset)
                stars = self._explain(explain.stars, name)
                if stars:
                    row["stars_why"] = stars
                    row["required_stars"] = stars.get("required", row["required_stars"])
            if "book_value" in c:  # classic: the price follows the book value
                row["book_value_why"] = self._explain(explain.book_value, name)
            row["player_shares"] = {
                p: n for p, d in (self.snap.get("players") or {}).items() if (n := (d.get("shares") or {}).get(name))
            }
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
            value = explain.score(self.game, name)["total"]
            rows.append(
                dict(
                    p,
                    name=name,
                    position=pos,
                    shares=shares,
                    share_value=share_value,
                    value=value,
                    companies=self.sorted_companies(p.get("companies") or []),
                    acting=bool(self.next) and self.next.get("player") == name,
                    me=name in self.my_seats,
                )
            )
        return rows

    def _explain(self, fn, *args) -> dict | None:
        """An engine explanation, or None if the engine cannot give it for this state."""
        try:
            return fn(self.game, *args)
        except (KeyError, AttributeError, TypeError, ValueError, ZeroDivisionError):
            return None

    @cached_property
    def foreign_income_why(self) -> dict | None:
        return self._explain(explain.income, "foreign_investor")

    def sorted_companies(self, companies: list[str]) -> list[dict]:
        """Companies by face value (highest first), with colour, for display."""
        rows = [cards.company(c, self.ruleset) for c in companies]
        rows.sort(key=lambda r: (-(r["face_value"] or 0), r["abbr"]))
        return rows

    @cached_property
    def offering(self) -> dict:
        off = self.snap.get("offering") or {}
        auction = self.snap.get("auction")
        return {
            "available": self.sorted_companies(off.get("available") or []),
            "unavailable": self.sorted_companies(off.get("unavailable") or []),
            "auction": auction,
        }

    @cached_property
    def deck_colors(self) -> list[tuple[str, int]]:
        """Cards left per colour (colours with none left are left out)."""
        per = cards.deck_left(self.game)
        return [(c, per[c]) for c in self.colors if per.get(c)]

    @cached_property
    def price_row(self) -> list[dict]:
        """The share price row: each card with the corporations holding it (from the engine)."""
        by_name = {c["name"]: c for c in self.corporations}
        row = self._explain(explain.price_row)
        if row is None:  # pragma: no cover - an engine without price_row: from the snapshot
            on: dict = {}
            for c in self.corporations:
                on.setdefault(c.get("share_price"), []).append(c["name"])
            row = [{"price": p, "holders": on.get(p, [])} for p in cards.price_row(self.ruleset)]
        return [
            {
                "price": cell["price"],
                "corporations": [
                    by_name.get(n) or {"name": n, "short": self.ruleset.short(n)} for n in cell.get("holders") or []
                ],
            }
            for cell in row
        ]

    @cached_property
    def cost_of_ownership(self) -> list[tuple[str, int]]:
        cost = self.snap.get("cost_of_ownership") or {}
        return [(c, cost.get(c, 0)) for c in self.colors]

    @cached_property
    def outlook(self) -> dict:
        """What comes next on the deck: the colour on top, and the cost of ownership once it runs out."""
        left = cards.deck_left(self.game) or {}
        order = [c for c in self.colors if left.get(c)]
        top = order[0] if order else None
        after = order[1] if len(order) > 1 else None
        out = {
            "top": top,
            "top_left": left.get(top, 0) if top else 0,
            "after": after,
            "after_costs": None,
            "same": None,
            "changes": None,
        }
        if top:
            key = after or ("end_back" if self.snap.get("end_card_flipped") else "end_front")
            costs = self.game.cost_shown_by(key)
            if costs is not None:
                now = {c: n for c, n in (self.snap.get("cost_of_ownership") or {}).items() if n}
                out["after_costs"] = [(c, costs.get(c, 0)) for c in self.colors if costs.get(c)]
                out["same"] = costs == now
        change = self._explain(preview.cost_outlook)
        if change and change.get("next") is not None:
            out["changes"] = {
                "draws": change.get("draws"),
                "costs": [(c, change["next"].get(c, 0)) for c in self.colors if change["next"].get(c)],
                "losing": change.get("losing") or [],
            }
        return out

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
            why = self._explain(explain.score, name)
            rows.append(
                {
                    "rank": rank,
                    "name": name,
                    "total": total,
                    "cash": cash,
                    "shares": shares,
                    "companies": total - cash - shares,
                    "company_list": p.get("companies", []),
                    "lines": (why or {}).get("lines") or [],
                }
            )
        return rows

    @cached_property
    def charts(self) -> dict | None:
        """The game turn by turn (wealth, share prices) as SVG chart coordinates."""
        return charts.history_charts(self.game)

    @cached_property
    def two_handed_result(self) -> dict | None:
        """Two-handed variant: each person's seats, the rank of the lower-ranked one, and the winner."""
        th = (self.snap.get("final") or {}).get("two_handed")
        if not th:
            return None
        lower = th.get("lower_rank") or {}
        persons = [
            {"name": person, "seats": list(seats), "lower_rank": lower.get(person)}
            for person, seats in (th.get("seats") or {}).items()
        ]
        return {"persons": persons, "winner": th.get("winner")}

    # -- history --------------------------------------------------------------------------
    @cached_property
    def history(self) -> list[dict]:
        journal = list(self.game.journal)
        start = 0 if self.full_history else max(0, len(journal) - HISTORY_SHORT)
        rows = [
            {"n": i + 1, "text": j.get("text", ""), "auto": list(j.get("auto") or [])}
            for i, j in enumerate(journal[start:], start)
        ]
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

    # -- seats and joining ------------------------------------------------------------------
    @cached_property
    def seat_names(self) -> list[str]:
        """What a phone can be: the persons (two-handed) or the players."""
        return list(self.person_seats) or list(self.info.players)

    @cached_property
    def seats_taken(self) -> set[str]:
        """The players some phone plays (a person covers both of their seats)."""
        taken = self.store.seats_taken(self.gid)
        players = set()
        for name in taken:
            players.update(self.person_seats.get(name) or [name])
        return players & set(self.info.players)

    @property
    def seats_count(self) -> tuple[int, int]:
        return len(self.seats_taken), len(self.info.players)

    @property
    def all_seats_taken(self) -> bool:
        return self.seats_taken >= set(self.info.players)

    @cached_property
    def is_host(self) -> bool:
        return self.gid in (session.get(HOSTED_KEY) or [])

    @cached_property
    def watching(self) -> bool:
        return not self.seat and self.gid in (session.get(WATCHING_KEY) or [])

    @property
    def asks_who(self) -> bool:
        """A phone without a seat that has not said it just watches: ask "Who are you?" first."""
        return not self.seat and not self.watching and not self.snap.get("game_over")

    @property
    def shows_join(self) -> bool:
        """The host's phone shows the QR code large on the Play view until every seat is taken."""
        return self.is_host and not self.all_seats_taken and not self.snap.get("game_over")

    # -- the Play view: my decisions first -------------------------------------------------
    @cached_property
    def play_groups(self) -> list[menu.ActionGroup]:
        """The menu's groups; in phase 3 without the purchases (they have their own picker)."""
        if not self.acquisitions:
            return self.groups
        out = []
        for group in self.groups:
            forms = [f for f in group.forms if f.hidden.get("type") != "acquire"]
            if forms:
                out.append(menu.ActionGroup(group.title, forms, group.actor))
        return out

    @cached_property
    def decisions(self) -> dict:
        """The Play view's decisions: this phone's own, the table's (anyone), and other seats' (folded)."""
        mine, table, others = [], [], {}
        for group in self.play_groups:
            if not self.seat or group.actor is None:
                (mine if group.actor in self.my_seats else table).append(group)
            elif group.actor in self.my_seats:
                mine.append(group)
            else:
                others.setdefault(group.actor, []).append(group)
        return {"mine": mine, "table": table, "others": others}

    @property
    def has_decisions(self) -> bool:
        return bool(self.menu)

    @cached_property
    def setup_progress(self) -> tuple[int, int] | None:
        """During the initial offering: (card being drawn, cards to draw)."""
        if not self.in_setup:
            return None
        return len(self.game.events) + 1, len(self.info.players)

    @cached_property
    def title(self) -> str:
        when = "Setup" if self.in_setup else f"Turn {self.snap.get('turn')}"
        name = self.ruleset.title
        if self.snap.get("game_over"):
            return f"Final scoring · {name}"
        if self.my_turn:
            return f"▶ Your turn · {when} · {name}"
        return f"{when} · Phase {self.phase} · {name}"

    @cached_property
    def last_entry(self) -> dict | None:
        journal = self.game.journal
        if not journal:
            return None
        j = journal[-1]
        return {"n": len(journal), "text": j.get("text", ""), "auto": list(j.get("auto") or [])}

    def closing_consequence(self, company: str) -> str:
        """What closing ``company`` does, in words (from the engine's preview)."""
        try:
            c = preview.closing(self.game, company)
        except (KeyError, AttributeError, TypeError, ValueError):
            return f"{company} leaves the game for good."
        if not c.get("legal"):
            return c.get("error") or ""
        owner = c.get("owner")
        before, after = c.get("before") or {}, c.get("after") or {}
        text = f"{company} leaves the game for good: {owner}'s income {before.get('income')} → {after.get('income')}"
        if "stars" in after:
            text += f", stars {before.get('stars')} → {after.get('stars')}"
        return text + "."

    # -- phase 3: tap a corporation, then a company ------------------------------------------
    @cached_property
    def acquisitions(self) -> dict | None:
        if (self.next or {}).get("for") != "acquisition":
            return None
        items = [m for m in self.menu if m.get("type") == "acquire" and not m.get("announced_by")]
        if not items:
            return None
        corps: dict[str, dict] = {}
        snap_corps = self.snap.get("corporations") or {}
        for m in items:
            name = m["corporation"]
            c = snap_corps.get(name) or {}
            row = corps.setdefault(
                name,
                {
                    "name": name,
                    "short": self.ruleset.short(name),
                    "president": m.get("president"),
                    "cash": c.get("cash"),
                    "price": c.get("share_price"),
                    "items": [],
                    "mine": m.get("president") in self.my_seats,
                },
            )
            row["items"].append(m)
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
        interventions = []  # this phone's corporations that may intervene in another's announced purchase
        for m in items:
            for form in menu.interventions_of(m, self.menu, self.snap):
                if self.seat and form.actor in self.my_seats and m["corporation"] != selected:
                    interventions.append(form)
        return {
            "corps": shown,
            "others": others,
            "selected": corps.get(selected),
            "options": self._purchase_options(corps[selected]) if selected else [],
            "interventions": interventions,
        }

    def _purchase_options(self, corp: dict) -> list[dict]:
        out = []
        for m in corp["items"]:
            company = m["company"]
            info = cards.company(company, self.ruleset)
            row = {
                "company": info,
                "abbr": company,
                "seller": m.get("seller") or "its owner",
                "min": m["min"],
                "max": m["max"],
                "foreign": "may_intervene" in m,
                "may_intervene": list(m.get("may_intervene") or []),
                "interventions": menu.interventions_of(m, self.menu, self.snap),
                "income": None,
                "synergies": [],
            }
            try:
                a = preview.acquisition(self.game, corp["name"], company, m["min"])
            except (KeyError, AttributeError, TypeError, ValueError):
                a = None
            if a and a.get("legal"):
                e = (a.get("effects") or {}).get(corp["name"]) or {}
                row["income"] = (e.get("after") or {}).get("income", 0) - (e.get("before") or {}).get("income", 0)
                row["synergies"] = e.get("synergies_gained") or []
            out.append(row)
        out.sort(key=lambda r: (-(r["income"] if r["income"] is not None else -99), r["min"], r["abbr"]))
        return out
