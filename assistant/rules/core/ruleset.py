"""The record of a ruleset: what a game's rules are called, offer and use (the registry lists them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType


@dataclass(frozen=True)
class GameType:
    """A game type of a ruleset (classic: full or short) and the transcript options it means."""

    key: str
    title: str
    options: tuple[str, ...] = ()
    offered: bool = True  # shown on the new-game form (classic's training game is not)


@dataclass(frozen=True)
class Ruleset:
    key: str  # the transcript's "game"
    title: str  # shown to people: "Rolling Stock Stars"
    differs: str  # one line for the new-game form: what differs from the other rulesets
    players: tuple[int, int]  # fewest and most players
    variants: Mapping[str, str]  # option -> its name (empty: no variants)
    game_types: tuple[GameType, ...]  # empty: one kind of game only
    corporation_names: Mapping[str, str]  # charter key (its ability, or the classic symbol) -> display name
    corporations: Mapping[str, object]  # display name -> charter (.name, .shares, .ability), in card order
    corporation_short: Mapping[str, str]  # display name -> short label on the price row
    corporation_colors: Mapping[str, str]  # display name -> colour of the charter ("" when it has none)
    phase_names: Mapping[int, str]
    rules_sections: Callable[[], tuple]  # the rules page: sections {"anchor", "group", "title", "text"}
    rules_title: str  # what the rules page shows: "The canonical rules of Rolling Stock Stars"
    rules_note: str  # shown above the rules for this ruleset ("" for none)
    cards: object  # the card set (core/cards.py CardSet) read from the game folder's cards.json
    pricing: object  # how share prices move after dividends (core/pricing.py): stars, book value
    engine: type = field(repr=False)  # the game class (a subclass of core.game.Game)
    words: Mapping[str, str] = field(default_factory=dict, repr=False)  # its own words (core/vocabulary.py)

    def __deepcopy__(self, memo):  # immutable: shared by a deep copy of a game (Game._copy never copies it)
        return self

    # -- creating games -------------------------------------------------------------
    def create(self, players, options=(), deck=None, persons=None):
        """A new engine game of this ruleset (RuleError when the set-up is not allowed)."""
        return self.engine(list(players), list(options or ()), deck=deck, persons=persons, ruleset=self)

    def option_problem(self, options) -> str | None:
        """Why these options (variants, game type) are not a set-up of this ruleset (None if they are)."""
        allowed = set(self.variants) | {o for t in self.game_types for o in t.options}
        for opt in options:
            if not isinstance(opt, str) or opt not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                return f"{self.title} has no variant {opt!r} (known: {known})."
        return None

    def replay(self, players, options=(), events=(), deck=None, persons=None):
        game = self.create(players, options, deck=deck, persons=persons)
        for event in events:
            game.apply(event)
        return game

    # -- questions the forms and views ask --------------------------------------------
    def player_problem(self, count: int) -> str | None:
        """Why ``count`` players cannot play this ruleset (None if they can)."""
        low, high = self.players
        if low <= count <= high:
            return None
        return f"{self.title} is for {low} to {high} players, not {count}."

    def game_type(self, key: str | None) -> GameType | None:
        """The game type called ``key`` (the first one when ``key`` is None); None if there is none."""
        for gt in self.game_types:
            if key is None or gt.key == key:
                return gt
        return None

    def game_type_of(self, options) -> GameType | None:
        """Which game type a list of options means (None for rulesets without game types)."""
        chosen = set(options or ())
        typed = [gt for gt in self.game_types if gt.options and set(gt.options) <= chosen]
        if typed:
            return typed[0]
        return next((gt for gt in self.game_types if not gt.options), None)

    def short(self, name: str) -> str:
        return self.corporation_short.get(name) or name[:3].upper()

    def corporation_key(self, name: str) -> str | None:
        """The charter key of a corporation's display name (None if it is not one)."""
        charter = self.corporations.get(name)
        return None if charter is None else charter.key

    def word(self, key: str) -> str:
        """This game's own word for ``key`` (core/vocabulary.py WORD_KEYS), from words.json in its folder."""
        try:
            return self.words[key]
        except KeyError:
            raise KeyError(f"{self.title} has no word {key!r}: add it to words.json in its folder") from None

    @cached_property
    def money(self) -> Callable[[int], str]:
        """An amount as this game's rules write it: ``money(4)`` is "4●" (Stars), "$4" (v2.2,
        classic). (The word's own ``format``, looked up once: the log writes one on every move.)"""
        return self.word("money").format

    @cached_property
    def cash(self) -> Callable[[int], str]:
        """An amount as the play screens show it: ``cash(12)`` is "12" (Stars), "$12" (v2.2, classic).
        (A bare number is ``str`` itself: the log writes one on most entries, and a replay writes
        the log again.)"""
        pattern = self.word("cash")
        return str if pattern == "{}" else pattern.format

    def phase_name(self, phase) -> str:
        return self.phase_names.get(phase, "")

    def phase_said(self, phase) -> str:
        """A phase inside a sentence: "phase 3 (acquisition)", "phase 6 (corporations buy companies)"."""
        return f"phase {phase} ({self.phase_name(phase).lower()})"

    def phase_title(self, phase) -> str:
        """A phase as the turn bar names it: "Phase 1 Investment" (Stars), "Phase 6 – corporations buy
        companies" (classic, the Guide's), "Phase 3 – corporations buy companies" (v2.2)."""
        return self.word("phase_title").format(no=phase, name=self.phase_name(phase))

    @property
    def marks(self) -> Mapping[str, tuple[str, str]]:
        """Colour -> (shape, letter) where the rulebook prints its own marks (v2.2); empty: the app's."""
        return self.words.get("marks") or {}

    def rule_section(self, anchor: str | None) -> dict | None:
        """The rules page section with this anchor (refusals name one), or None."""
        return next((s for s in self.rules_sections() if s["anchor"] == anchor), None) if anchor else None


def frozen(mapping) -> Mapping:
    """A read-only copy of a mapping (rulesets are immutable)."""
    return MappingProxyType(dict(mapping))
