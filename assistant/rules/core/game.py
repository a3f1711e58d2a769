"""The game: state, the event dispatcher and the automatic flow between decisions.

A ``Game`` mirrors one physical game.  ``apply(event)`` either accepts an event (and then
runs everything the rules do by themselves until the next decision is needed) or raises
``RuleError`` and leaves the game exactly as it was: every handler validates before it
changes anything.  Each kind of phase is one file of ``phases/`` (its start, automatic steps, legal
decisions, handlers, previews and explanations), the deck in ``deck.py``, incomes and scores in
``figures.py``, what every phase shares (paying, bankruptcy, presidency, price moves) in
``procedures.py``."""

from __future__ import annotations

import pickle
from collections.abc import Callable

from . import deadline, events, parts, position
from .deck import DeckMixin
from .entities import Corporation, ForeignInvestor, Player
from .errors import RuleError
from .figures import FiguresMixin
from .phases.acquisition import AcquisitionMixin
from .phases.acquisition_interventions import InterventionsMixin
from .phases.closing import ClosingMixin
from .phases.dividends import DividendsMixin
from .phases.done import DoneMixin
from .phases.end_card import EndCardMixin
from .phases.end_check import EndCheckMixin
from .phases.foreign_investor import ForeignInvestorMixin
from .phases.income import IncomeMixin
from .phases.investment import InvestmentMixin
from .phases.ipo import IpoMixin
from .phases.issue import IssueMixin
from .phases.player_order import PlayerOrderMixin
from .phases.wrap_up import WrapUpMixin
from .procedures import ProceduresMixin
from .records import Journal
from .snapshot import SnapshotMixin

ENTITY_NAMES = {"Bank", "Foreign investor", "the foreign investor"}


@parts.made_of(
    InvestmentMixin,
    WrapUpMixin,
    PlayerOrderMixin,
    ForeignInvestorMixin,
    AcquisitionMixin,
    InterventionsMixin,
    DoneMixin,
    ClosingMixin,
    IncomeMixin,
    DividendsMixin,
    EndCardMixin,
    IssueMixin,
    IpoMixin,
    EndCheckMixin,
    SnapshotMixin,
    DeckMixin,
    FiguresMixin,
    ProceduresMixin,
)
class Game:
    """The shared engine of every game of the Rolling Stock family, from set-up to final scoring.

    A game of one ruleset is an instance of that game's subclass (``stars/game.py``,
    ``classic/game.py``), which sets the class attributes below and the rule hooks it changes;
    its figures come from the ruleset's card set (``self.cards``) and its share prices move by the
    ruleset's price mechanism (``self.pricing``, see ``core/pricing.py``).  The ruleset is a
    required argument: this class plays no game by itself.
    """

    GAME = ""  # the transcript's ``game`` of the game class
    # The phases of a turn, in order (phase N is PHASES[N - 1]); each kind's steps are methods of
    # ``phases/<kind>.py`` named after it: ``_start_<kind>``, ``_finish_<kind>`` (optional) and
    # ``_menu_<kind>``, and its automatic steps in AUTOMATIC_STEPS.
    PHASES: tuple[str, ...] = ()
    PHASE_NAMES: dict[int, str] = {}
    FIRST_PHASE = 1  # the phase turn 1 starts with (after the setup reveals)
    END_PHASE = ""  # the phase whose end check ends the game
    EVENT_RULES: dict[str, str] = {}  # event type -> anchor of the rule it is judged by
    EVENT_TYPES: tuple[str, ...] = ()  # the table events (core/events.py) this game plays
    MIN_PLAYERS, MAX_PLAYERS = 2, 6
    RECEIVERSHIP = True  # whether the bank may hold every issued share of a corporation (classic: never)
    # The edition of the arbitration a game was stored under.  1: before interventions were asked
    # in priority order, idle any-order phases ended by themselves and impossible positions were
    # refused; a game stored then replays and plays on as it was entered (``edition = 1``).
    EDITION = 2

    def __init__(self, players, options=(), deck=None, persons=None, *, ruleset):
        if ruleset is None or getattr(ruleset, "key", None) is None:
            raise TypeError("an engine game needs its ruleset (assistant.rules.registry.get(key))")
        self.ruleset = ruleset
        self.cards = ruleset.cards
        self.pricing = ruleset.pricing
        players = list(players)
        options = list(options or ())
        problem = ruleset.option_problem(options)
        if problem:
            raise RuleError(problem)
        if any(not isinstance(p, str) or not p.strip() for p in players):
            raise RuleError("Every player needs a name.")
        if len(set(players)) != len(players):
            raise RuleError("Player names must be different from each other.")
        taken = [p for p in players if p in ENTITY_NAMES or p in self.charters]
        if taken:
            raise RuleError(f"{taken[0]!r} is the name of a part of the game; choose another player name.")
        problem = ruleset.player_problem(len(players))
        if problem:
            raise RuleError(problem)
        self.options = options
        n = len(players)
        self.players: dict[str, Player] = {p: Player(p, self.cards.starting_cash[n]) for p in players}
        self.order: list[str] = list(players)
        self.fi = ForeignInvestor(self.cards.foreign_investor_start)
        self.corps: dict[str, Corporation] = {}
        self.owner: dict[str, object] = {}  # company -> owning entity
        self.price_holder: dict[int, str] = {}  # share price card -> corporation (the top card may be shared)
        # the deck: company cards left per colour, what has been seen, and the end card
        self.seen: set[str] = set()
        self.history_known = True  # False for a game resumed from a position (core/position.py)
        self.resumed_from: dict | None = None  # the position it resumed from (its first entry), if any
        self._configure(options, deck, persons)
        self.end_flipped = False
        self.available: list[str] = []
        self.unavailable: list[str] = []
        # turn sequence
        self.turn = 1
        self.phase = self.FIRST_PHASE
        self.pending_reveals = n
        self.setup = True
        self.game_over = False
        self.final: dict | None = None
        # phase-local state, (re)set by the phases
        self.actor = 0
        self.passes = 0
        self.auction = None
        self.moved: set[str] = set()
        self.received: dict[str, int] = {}
        self.phase_open = False
        self.intervention = None  # (announcer, company) while an announced purchase awaits interventions
        self.declined: list[str] = []  # corporations that let the pending announced purchase go
        self.in_turn = False  # the pending purchase was announced (``announce``): interveners answer in order
        self.said_done: list[str] = []  # players who said "I'm done" in the open any-order phase
        # any-order phases that ended by themselves (nobody could act) since the last entry: a
        # ``done`` for one of them is accepted as a no-op (the transcript form holds it)
        self.auto_ended: list[int] = []
        # whether such phases end by themselves (live play); a transcript's replay keeps them
        # open until their ``done``, as FORMAT.md's checkpoints show them (assistant/cli/replay.py)
        self.ends_idle_phases = True
        self.edition = self.EDITION
        self.receivers: list[str] = []
        self.queue: list[str] = []
        # records
        self.journal = Journal()  # one entry per accepted event (core/records.py)
        self.rewritten: dict[int, list[dict]] = {}  # entry -> its transcript form, where not as entered
        self._auto: list[str] = []
        self._moves: list[tuple] = []
        self.on_phase_end = None  # optional callback(game) at the end of every phase

    @property
    def events(self) -> list[dict]:
        """The accepted events, oldest first (a new list of the journal's events: ``len(journal)``
        counts them without it)."""
        return [entry["event"] for entry in self.journal]

    @property
    def charters(self):
        """Display name -> charter (its ability key, shares, ability text) in this game's ruleset."""
        return self.ruleset.corporations

    def ability(self, corp_name: str) -> str | None:
        """The ability key (cards.PER_COMPANY, ...) of the corporation called ``corp_name``."""
        charter = self.ruleset.corporations.get(corp_name)
        return None if charter is None else charter.key

    def _configure(self, options, deck, persons) -> None:
        """The game's own set-up (its deck per player count, its variants): ``self.colors``,
        ``self.deck_left``, ``self.open_deck``, ``self.two_handed``, ``self.persons``."""
        raise NotImplementedError(f"{type(self).__name__} sets up no deck")

    def _seat_persons(self, options, persons) -> None:
        """The two-player variant of the family: two persons play four seats, A in positions 1
        and 4, B in 2 and 3 (``two_handed``); the winner is the person whose lower-ranked seat
        ranks better (see ``_finish_game``)."""
        players = list(self.players)
        self.two_handed = "two_handed" in options
        if self.two_handed and len(players) != 4:
            raise RuleError("The two-player, two-handed variant is played with four seats (two per person).")
        self.persons = list(persons) if persons else (["A", "B"] if self.two_handed else None)
        if self.persons is not None and not self.two_handed:
            raise RuleError("Persons behind the seats are only given in the two-handed variant.")
        if self.two_handed and (
            len(self.persons) != 2
            or len(set(self.persons)) != 2
            or not all(isinstance(x, str) and x.strip() for x in self.persons)
        ):
            raise RuleError("The two-handed variant needs the two persons' names, different from each other.")

    @property
    def phase_kind(self) -> str:
        return self.PHASES[self.phase - 1]

    def phase_no(self, kind: str) -> int:
        return self.PHASES.index(kind) + 1

    @classmethod
    def replay(cls, players, options=(), events=(), deck=None, persons=None, *, ruleset) -> Game:
        game = cls(players, options, deck=deck, persons=persons, ruleset=ruleset)
        for ev in events:
            game.apply(ev)
        return game

    def fresh(self) -> Game:
        """A new game as this one started: its set-up, or the position it resumed from."""
        ends_idle_phases, edition = self.ends_idle_phases, self.edition

        def prepare(game):
            game.ends_idle_phases = ends_idle_phases

        if self.resumed_from is not None:
            return position.resume(
                self.ruleset,
                list(self.players),
                self.options,
                self.resumed_from,
                self.persons,
                prepare=prepare,
                edition=edition,
            )
        game = self.ruleset.create(
            list(self.players),
            self.options,
            deck=sorted(self.open_deck) if self.open_deck is not None else None,
            persons=self.persons,
        )
        prepare(game)
        game.edition = edition
        return game

    def clone(self) -> Game:
        """An independent copy of the state (without the records), for previews.  This game is never
        touched: other threads may read it meanwhile."""
        return self._copy(journal=Journal(), rewritten={})

    def fork(self) -> Game:
        """An independent copy that keeps the records, to go on playing from.

        The records only ever grow and their entries are never changed, so the copy gets a new
        journal holding the same entries (copying every journal entry is ten times slower late in a
        game), and shares ``rewritten``, never changed in place.  This game is never touched."""
        return self._copy(journal=self.journal.copy(), rewritten=self.rewritten)

    # What a copy does not copy: the ruleset and its parts (shared by every game of it, never
    # changed), the records (given by ``clone`` and ``fork``), the position resumed from (never
    # changed) and a watcher of phase ends (the copy has none).
    _NOT_COPIED = ("ruleset", "cards", "pricing", "journal", "rewritten", "resumed_from", "on_phase_end")

    def _copy(self, **records) -> Game:
        """A copy of the state through pickle (the engine's state is plain data and its own classes):
        three times faster than ``copy.deepcopy``, and a page previews several moves (what closing
        each company would do).  A state that held anything else (a ruleset's cards, a function)
        would fail loudly here, not be shared by mistake."""
        state = {name: value for name, value in self.__dict__.items() if name not in self._NOT_COPIED}
        twin = object.__new__(type(self))
        twin.__dict__.update(pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL)))
        twin.ruleset, twin.cards, twin.pricing = self.ruleset, self.cards, self.pricing
        twin.resumed_from, twin.on_phase_end = self.resumed_from, None
        twin.journal, twin.rewritten = records["journal"], records["rewritten"]
        return twin

    def preview(self, event: dict, within_phase: bool = False) -> Game:
        """The game as it would be after ``event`` (RuleError if refused); this game is unchanged.

        ``within_phase``: if the event ends the current phase (the last "I'm done" came before
        it), the game as the phase ends, before the next phases run."""
        trial = self.clone()
        if not within_phase:
            trial.apply(event)
            return trial
        phase, ended = trial.phase, []

        def at_end(game):
            if not ended and game.phase == phase:
                ended.append(game.clone())

        trial.on_phase_end = at_end
        trial.apply(event)
        return ended[0] if ended else trial

    # ------------------------------------------------------------------ dispatcher
    def apply(self, event: dict) -> bool:
        """Accept one event or raise RuleError (the game is then unchanged).

        Returns True when the event was entered (one more journal entry), False when it was
        accepted as a no-op: a ``done`` for an any-order phase that had already ended by itself
        because nobody could act in it (transcripts hold such ``done``s; nothing is recorded)."""
        if not isinstance(event, dict):
            raise RuleError("An event must be an object with a type.")
        kind = event.get("type")
        handler = self._HANDLERS.get(kind) if type(kind) is str else None
        if handler is None:
            raise RuleError(f"Unknown event type {kind!r}.")
        try:
            as_entered = events.as_stored(event)
        except TypeError as err:  # a field of the wrong type
            raise RuleError(str(err)) from None
        if kind == "done" and event.get("phase") in self.auto_ended:
            self.auto_ended = list(self.auto_ended)
            self.auto_ended.remove(event["phase"])
            return False
        if self.game_over:
            raise RuleError("The game is over.")
        if self.pending_reveals and kind != "reveal":
            raise RuleError(
                f"First tell which company was drawn from the deck (the top card is {self.top_color()}).", "deck"
            )
        self._auto = []
        self._moves = []
        self._written = as_entered = [as_entered]
        try:
            text = handler(self, event)
        except RuleError as err:
            if err.rule is None:
                err.rule = self._rule_for(kind, event)
            raise
        self.auto_ended = []
        self._advance()
        # An entry is never changed (the journal packs it for whoever keeps the game: core/records.py).
        # ``written`` is kept only where the transcript writes the event otherwise than as entered
        # (``entry_written``).
        entry = {"event": event, "text": text, "auto": tuple(self._auto), "moves": tuple(self._moves)}
        if self._written is not as_entered:  # a new dict: forks share it
            self.rewritten = {**self.rewritten, len(self.journal): self._written}
            entry["written"] = tuple(self._written)
        self.journal.append(entry)
        return True

    def legal_actions(self) -> list[dict]:
        """Exactly the events ``apply`` accepts now, with their bounds: a card to reveal, else the
        current phase's decisions (``_menu_<kind>`` in its phases/ file)."""
        if self.game_over:
            return []
        if self.pending_reveals:
            return [{"type": "reveal", "color": self.top_color(), "choices": self.reveal_choices()}]
        return getattr(self, f"_menu_{self.phase_kind}")()

    def transcript_events(self, head: list[dict] | None = None) -> list[dict]:
        """The events as a transcript writes them (FORMAT.md): the live events written as the
        table's (``announce`` + ``no_intervention`` as the announcer's ``acquire``, the last
        "I'm done" of a phase as its ``done``, the others left out); an announced purchase still
        waiting for interventions is not written.

        ``head``: the effective events, for a game restored without its older journal entries
        (core/records.py): those are then written from the events and ``rewritten``, not fetched."""
        journal = self.journal
        if head is None or journal.fetched:
            return [e for entry in journal for e in entry_written(entry)]
        out = []
        for i, event in enumerate(head[: journal.base]):
            out.extend(self.rewritten.get(i, (event,)))
        return out + [e for entry in journal.held for e in entry_written(entry)]

    # ------------------------------------------------------------------ flow
    # A game where nobody can act for this many turns in a row cannot go on: no table reaches it
    # (the foreign investor's income makes it buy, the deck runs out, the end card ends the game
    # well before), so it comes only from a position that cannot be, and is refused.
    IDLE_TURNS_LIMIT = 100

    def _advance(self) -> None:
        """Run automatic steps until a decision, a reveal or the end of the game is due."""
        # A request's work stops at its deadline (core/deadline.py): looked at once per event, since
        # this loop runs at most IDLE_TURNS_LIMIT turns.
        deadline.check()
        started, steps_of = self.turn, self._STEPS_OF
        while not self.game_over and not self.pending_reveals:
            steps = steps_of[self.phase]  # the phase's automatic steps: True when a decision is awaited
            if steps is not None and steps(self):
                return
            if self.turn - started >= self.IDLE_TURNS_LIMIT:
                raise RuleError(
                    f"Nobody can act in {self.IDLE_TURNS_LIMIT} turns in a row from here (turn {started} to "
                    f"{self.turn}): the game cannot go on. Check the offering, the deck and the money."
                )
            self._end_phase()

    def _rule_for(self, kind: str, event: dict) -> str | None:
        """The anchor of the rule an event of this kind is judged by (for refusals)."""
        if kind in ("done", "player_done") and event.get("phase") == self.phase_no("closing"):
            return self.EVENT_RULES.get("close")
        return self.EVENT_RULES.get(kind) or self.EVENT_RULES.get("acquire")

    # The automatic steps of each kind of phase: what the rules do by themselves before the
    # next decision.  Each runs its steps and returns True when a decision is awaited (False:
    # the phase is over).  Phases of other kinds need no decision: their work is done when
    # they start.
    AUTOMATIC_STEPS = {
        "investment": "_auto_pass_and_leave",  # players with nothing to do pass, bidders who cannot raise leave
        "acquisition": "_receivers_buy_from_the_foreign_investor",  # and wait for intervention decisions
        "closing": "_closing_open",
        "dividends": "_receivers_pay_no_dividend",
        "issue": "_receivers_issue_a_share",
        "ipo": "_skip_impossible_ipos",
    }

    # The methods above per phase number, found once per game class (``__init_subclass__``) and
    # called as ``function(game)`` (core/parts.py): the flow runs them at every step of every replay.
    # Index 0 is unused (phases count from 1).
    _STEPS_OF: tuple[Callable | None, ...] = (None,)  # the phase's automatic steps (AUTOMATIC_STEPS)
    _FINISH_OF: tuple[Callable | None, ...] = (None,)  # ``_finish_<kind>``, where the class has one
    _START_OF: tuple[Callable | None, ...] = (None,)  # ``_start_<kind>``
    _HANDLERS: dict[str, Callable] = {}  # event type -> its handler, ``_ev_<type>``

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        kinds = (None, *cls.PHASES)
        cls._STEPS_OF = tuple(kind and parts.function(cls, cls.AUTOMATIC_STEPS.get(kind)) for kind in kinds)
        cls._FINISH_OF = tuple(kind and parts.function(cls, f"_finish_{kind}", optional=True) for kind in kinds)
        cls._START_OF = tuple(kind and parts.function(cls, f"_start_{kind}") for kind in kinds)
        cls._HANDLERS = {kind: parts.function(cls, "_ev_" + kind) for kind in cls.EVENT_TYPES}

    def _end_phase(self) -> None:
        finish = self._FINISH_OF[self.phase]
        if finish is not None:
            finish(self)
        if self.on_phase_end:
            self.on_phase_end(self)
        if self.phase == len(self.PHASES):
            self.turn += 1
            self.phase = 1
        else:
            self.phase += 1
        self._START_OF[self.phase](self)

    def __repr__(self):
        return f"{type(self).__name__}(turn={self.turn}, phase={self.phase}, players={self.order})"


__all__ = ["Game", "RuleError"]


def entry_written(entry: dict) -> tuple[dict, ...]:
    """The events a journal entry is written as in a transcript: as entered (its declared fields),
    unless the entry says otherwise (an announcement written with its answer, a phase's last "I'm
    done" as its ``done``, ...)."""
    written = entry.get("written")
    return (events.stored_form(entry["event"]),) if written is None else written
