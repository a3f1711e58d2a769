"""The table page's model (``TablePage``): what its templates show, computed lazily from the store
and the engine.  Split by purpose: the seats (``seats.py``), the tabletop (``tabletop.py``), phase 3's
picker (``acquisition.py``); this module holds the game, the turn, the menu and my decisions."""

from __future__ import annotations

from functools import cached_property

from flask import abort

from assistant.rules import registry
from assistant.rules.core import words
from assistant.rules.core.phases.closing import preview_closing
from assistant.store import NotFound
from assistant.web import action_forms, ahead, labels
from assistant.web.acquisition import AcquisitionPart
from assistant.web.seats import SeatsPart
from assistant.web.tabletop import TabletopPart

HISTORY_SHORT = 30
# The table page's tabs, in the navigation's order: (key, label, title)
TABS = (
    ("play", "Play", "Play"),
    ("table", "Table", "Offering, deck and prices"),
    ("corporations", "Corps", "Corporations"),
    ("players", "Players", "Players and standings"),
    ("log", "Log", "Log"),
    ("more", "More", "Join, rules and more"),
)
TAB_KEYS = tuple(key for key, _, _ in TABS)


class TablePage(SeatsPart, TabletopPart, AcquisitionPart):
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
        tab: str = "play",
        corp: str | None = None,
        entered: bool = False,
        everything: bool = False,
        timeline=None,
    ):
        try:
            self.info = store.get_game(gid)
        except NotFound:
            abort(404, description="There is no game at this address. Check the link or the QR code.")
        self.store = store
        self.gid = gid
        # the game's timeline (assistant/log/timeline.py): the one a post just made, else the store's
        self.timeline = timeline if timeline is not None and timeline.info.id == gid else store.timeline(gid)
        self.seq, self.game = self.timeline.seq, self.timeline.game
        self.ruleset = registry.of(self.game)  # names, colours and phases of this game
        self.error = error
        self.attempted = attempted  # the refused event, to show the refusal at its form
        self.stale = stale
        self.confirm_undo = confirm_undo
        self.full_history = full_history
        self.everything = everything  # the Log shows every entry ever made, undone ones included
        self.tab = tab if tab in TAB_KEYS else "play"
        self.corp = corp  # phase 3: the corporation whose purchases are shown
        self.entered = entered  # this phone just entered the latest event (show its result)
        self.tabs = TABS

    # -- the engine's figures -------------------------------------------------------------
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
    def decision(self) -> str:
        """Which decision the game waits for, as a key: a decision helper open for one decision (the
        dividend chart of one corporation, a trade preview in one player's turn) is not carried over to
        the next one (static/table.js); in the phases where everyone acts in any order it stays open
        while the others act."""
        nxt = self.next or {}
        key = [f"{self.snap.get('turn')}.{self.snap.get('phase')}"]
        key += [str(nxt.get(k) or "") for k in ("for", "player", "corporation", "company", "announced_by")]
        if nxt.get("player"):  # one player's turn (phase 1 comes round to them again): this time only
            key.append(str(len(self.game.journal)))
        return "|".join(key)

    @cached_property
    def menu(self) -> list[dict]:
        return list(self.game.legal_actions())

    @cached_property
    def groups(self) -> list[action_forms.ActionGroup]:
        return action_forms.build(self.menu, self.snap, self.ruleset)

    # -- banner -------------------------------------------------------------------------
    @property
    def phase(self):
        return self.snap.get("phase")

    @property
    def phase_name(self) -> str:
        return self.ruleset.phase_name(self.phase)

    @property
    def phase_title(self) -> str:
        """ "Phase 1 Investment" (Stars), "Phase 6 – corporations buy companies" (classic)."""
        return self.ruleset.phase_title(self.phase)

    @cached_property
    def next_text(self) -> str:
        if self.snap.get("game_over"):
            final = self.snap.get("final") or {}
            winner = (final.get("two_handed") or {}).get("winner") or next(iter(final.get("ranking") or []), None)
            return f"The game is over: {winner} wins" if winner else "The game is over"
        if self.short:
            who = " and ".join(f"{name} (money {cash}, income {income})" for name, cash, income in self.short)
            return f"{who} must close companies first; then “phase done”"
        if (self.next or {}).get("for") == "intervention":
            return self.intervention_text
        waiting = self.waiting_for
        if waiting:
            return f"{labels.next_text(self.next)}: waiting for {waiting}"
        return labels.next_text(self.next, {m.get("type") for m in self.menu})

    @cached_property
    def intervention_text(self) -> str:
        """Whom an announced purchase waits for, in the order they answer, short enough for two
        lines of the turn bar at 360 px: "WT: Brian (Overseas Trading) answers first, then Crystal, Amy"."""
        company = (self.next or {}).get("company")
        waiting = self.game.undecided()
        if not waiting:
            return f"{company}: nobody else may intervene"
        first, rest = waiting[0], waiting[1:]
        me = first.president in self.my_seats
        text = f"{company}: {'you' if me else first.president} ({first.name}) answer{'' if me else 's'} first"
        if rest:
            names = ["you" if c.president in self.my_seats else c.president for c in rest]
            shown = ", ".join(names[:2]) + (f" and {len(names) - 2} more" if len(names) > 2 else "")
            text += f", then {shown}"
        return text

    @cached_property
    def waiting_for(self) -> str:
        """Whom the table waits for in words: the presidents who may still intervene in an
        announced purchase, or (once someone said "I'm done") those who have not said it."""
        kind = (self.next or {}).get("for")

        def who(name: str) -> str:
            return "you" if name in self.my_seats else name

        if kind == "intervention":
            return ", ".join(f"{who(c.president)} ({c.name})" for c in self.game.undecided())
        if kind in ("acquisition", "closing") and self.game.said_done:
            return ", ".join(who(p) for p in self.game.not_done_yet())
        return ""

    @property
    def i_said_done(self) -> bool:
        """This phone's seats have all said "I'm done" in the open any-order phase."""
        return bool(self.my_seats) and self.my_seats <= set(self.game.said_done)

    def phase_of(self, kind: str) -> int | None:
        """The number of a kind of phase in this game's turn (Stars: closing 4; classic: closing 7)."""
        try:
            return self.game.phase_no(kind)
        except (AttributeError, ValueError):
            return None

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
    def bankrupt_ahead(self) -> list[dict]:
        """In the closing phase: corporations that will go bankrupt at income, and what avoids it."""
        return ahead.bankrupt_ahead(self.game)

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

    @property
    def in_setup(self) -> bool:
        return bool(self.next) and self.next.get("for") == "reveal" and len(self.game.journal) < len(self.info.players)

    # -- history --------------------------------------------------------------------------
    @cached_property
    def history(self) -> list[dict]:
        journal = self.game.journal  # a long game's older entries are fetched only for the full history
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

    @cached_property
    def set_aside(self) -> list[dict]:
        """Entries the latest correction set aside, each with whether it fits now (Log tab)."""
        return self.timeline.set_aside()

    @cached_property
    def latest_correction(self) -> dict | None:
        """The latest correction still in effect, in words, with its banker's list (Log tab)."""
        return self.timeline.latest_correction()

    @cached_property
    def undo_names(self) -> str | None:
        """What Undo takes back when it is a correction or a going back, in words (else None)."""
        return self.timeline.undo_names()

    @cached_property
    def undone(self) -> list[dict]:
        """The entries undone since the last new one, the next to restore first, in words."""
        return self.timeline.undone_words()

    @cached_property
    def undos_in_a_row(self) -> int:
        """How many undos end the log: past a few in a row, the next one asks again, louder."""
        return self.timeline.walk.undos_at_end

    @property
    def many_undos(self) -> bool:
        return self.timeline.walk.many_undos

    @cached_property
    def full_log(self) -> list[dict] | None:
        """Every row of the log in words (``?history=everything``), oldest first: entries undone
        ones included, undos, restores, corrections, going back; {"seq", "text"}."""
        if not self.everything:
            return None
        words = self.timeline.row_words(0)
        return [{"seq": seq, "text": text} for seq, text in enumerate(words, 1) if text is not None]

    @property
    def can_undo(self) -> bool:
        return len(self.game.journal) > 0

    # -- the Play tab: my decisions first -------------------------------------------------
    @cached_property
    def play_groups(self) -> list[action_forms.ActionGroup]:
        """The menu's groups; in phase 3 without the purchases (they have their own picker)."""
        if not self.acquisitions:
            return self.groups
        out = []
        for group in self.groups:
            forms = [f for f in group.forms if f.hidden.get("type") not in ("acquire", "announce")]
            if forms:
                out.append(action_forms.ActionGroup(group.title, forms, group.actor))
        return out

    @cached_property
    def decisions(self) -> dict:
        """The Play tab's decisions: this phone's own, the table's (anyone), and other seats' (folded)."""
        mine, table, others = [], [], {}
        for group in self.play_groups:
            if not self.seat or group.actor is None:
                (mine if group.actor in self.my_seats else table).append(group)
            elif group.actor in self.my_seats:
                mine.append(group)
            else:
                others.setdefault(group.actor, []).append(group)
        # the panel's first closing (in the order shown) carries the one "Who must close?" link
        shown = [*mine, *table, *(g for groups in others.values() for g in groups)]
        close_link = next((f for g in shown for f in g.forms if f.hidden.get("type") == "close"), None)
        return {"mine": mine, "table": table, "others": others, "close_link": close_link}

    @property
    def has_decisions(self) -> bool:
        return bool(self.menu)

    @cached_property
    def setup_progress(self) -> tuple[int, int] | None:
        """During the initial offering: (card being drawn, cards to draw)."""
        if not self.in_setup:
            return None
        return len(self.game.journal) + 1, len(self.info.players)

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
            c = preview_closing(self.game, company)
        except (KeyError, AttributeError, TypeError, ValueError):
            return f"{company} leaves the game for good."
        if not c.get("legal"):
            return c.get("error") or ""
        owner = c.get("owner")
        before, after = c.get("before") or {}, c.get("after") or {}
        text = f"{company} leaves the game for good: {words.possessive(owner)} income {before.get('income')} → {after.get('income')}"
        if "stars" in after:
            text += f", stars {before.get('stars')} → {after.get('stars')}"
        return text + "."

    # -- phase 3: tap a corporation, then a company ------------------------------------------
