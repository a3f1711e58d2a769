"""The phone's seats: which seat this phone plays (the session cookie), whether it created the game
or only watches, and what the table page shows about seats (who are you, the join QR code)."""

from __future__ import annotations

import json
import secrets
from functools import cached_property

from flask import session

from assistant.web import action_forms, labels, lan

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
    _remember(WATCHING_KEY, gid, not player)  # no seat: the phone just watches (a shared table page)
    session.permanent = True
    if store is not None:
        store.take_seat(gid, phone_id(), player)


def mark_host(gid: str) -> None:
    """This phone created the game: it shows the join QR code until every seat is taken."""
    _remember(HOSTED_KEY, gid, True)


class SeatsPart:
    """The seats part of a TablePage: this phone's seats, the seats taken, the join link."""

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
        if self.next.get("for") == "intervention":  # the interveners answer in priority order
            return any(c.president in self.my_seats for c in self.game.asked_now())
        # in the any-order phases, a seat that said "I'm done" waits for the others
        return bool((self.my_seats - set(self.game.said_done)) & action_forms.actors(self.menu))

    @cached_property
    def join_url(self) -> str:
        return lan.external_url("table.page", gid=self.gid)

    @cached_property
    def join_reachable(self) -> bool:
        """False when the server listens on this machine only (127.0.0.1): the link says so."""
        return not lan.bound_to_this_machine_only()

    @cached_property
    def board_url(self) -> str:
        """The board's address as a tablet on the table's network reaches it."""
        return lan.external_url("board.page", gid=self.gid)

    @cached_property
    def qr(self):
        return lan.qr_svg(self.join_url)

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

    @cached_property
    def seats_played(self) -> set[str]:
        """The players some phone plays, and those whose decisions a phone has entered for them (a seat
        played for someone else at the table is as good as taken: the join code need not wait for it)."""
        entered = {e.get("player") for e in self.game.journal.held_events()}
        return self.seats_taken | (entered & set(self.info.players))

    @property
    def seats_count(self) -> tuple[int, int]:
        return len(self.seats_played), len(self.info.players)

    @property
    def all_seats_taken(self) -> bool:
        return self.seats_played >= set(self.info.players)

    @property
    def join_folded(self) -> bool:
        """Once another phone has joined (or a seat is played for someone), the host's join code
        folds to one line on the Play tab: the decisions come first."""
        return bool(self.seats_played - self.my_seats)

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
        """The host's phone shows the join QR code on the Play tab until every seat is taken (large
        until another phone has joined, then folded to one line)."""
        return self.is_host and not self.all_seats_taken and not self.snap.get("game_over")
