"""Starting from the table as it lies: the form's figures as a position (FORMAT-position.md) for the
engine to check and resume (``rules.core.position``).  Only the form's shape lives here: what a
position may be is the engine's to say."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.log import transcript
from assistant.rules import RuleError, registry
from assistant.rules.core import position, position_shape, words
from assistant.rules.core.position_shape import MONEY_MAX, TURN_MAX
from assistant.web import card_figures
from assistant.web.scorecheck import FormError, _number, _price, charter_shares, game_and_players

OFFER, UNAVAILABLE, OUT, FI = "offer", "unavailable", "out", "fi"
FORM = "form:"  # a problem's path that is a form field's name (a figure that cannot be read)


@dataclass
class ResumeForm:
    ruleset: registry.Ruleset
    players: list[str]
    options: list[str]
    args: dict = field(default_factory=dict)

    @classmethod
    def read(cls, args) -> ResumeForm:
        ruleset, players = game_and_players(args)
        game_type = args.get("game_type")  # none: the game without a game type
        options = [o for t in ruleset.game_types if t.key == game_type for o in t.options]
        return cls(ruleset, players, options, {k: args.getlist(k) for k in args})

    # -- values as entered ------------------------------------------------------------------
    def value(self, name: str) -> str:
        return (self.args.get(name) or [""])[0]

    def chosen(self, name: str) -> list[str]:
        return [a for a in self.args.get(name, []) if a in self.ruleset.cards.companies]

    @property
    def filled(self) -> bool:
        return any(self.value(f"cash-{i}") for i in range(len(self.players)))

    def companies_by_color(self) -> list[tuple[str, list[dict]]]:
        by_color = self.ruleset.cards.companies_by_color
        return [(color, [card_figures.company(a, self.ruleset) for a in by_color[color]]) for color in self.colors]

    @property
    def colors(self) -> tuple[str, ...]:
        game = self.ruleset.create(self.players, self.options)
        return tuple(game.colors)

    def full_deck(self) -> dict[str, int]:
        # each colour's count of cards depends on the players only: the options (a game type) choose the colours
        game = self.ruleset.create(self.players, self.options)  # pragma: no mutate: counts depend on the players only
        return dict(game.deck_left)

    def prices_row(self) -> list[int]:
        return [p for p in self.ruleset.cards.prices if p]

    def in_play(self) -> list[str]:
        """The corporations given a share price (the others are not in play: no share fields)."""
        return [corp for corp in self.ruleset.corporations if self.value(f"price-{corp}")]

    def field_of(self, path: str) -> str | None:
        """The form field a problem of the position is about (``rules.core.position``'s fields:
        "players.Amy.cash", "corporations.Doppler AG.issued", "deck.green", ...); None: the form
        as a whole."""
        if path.startswith(FORM):  # a field of the form itself
            return path[len(FORM) :]
        head, _, rest = path.partition(".")
        if head == "players":
            for i, name in enumerate(self.players):
                if rest == name or rest.startswith(name + "."):
                    what = rest[len(name) + 1 :]
                    if what.startswith("shares."):
                        return f"sh-{i}-{what[len('shares.') :]}"
                    return {"companies": f"co-{i}"}.get(what, f"cash-{i}")
            return None
        if head == "corporations":
            for corp in self.ruleset.corporations:
                if rest.startswith(corp + "."):
                    what = rest[len(corp) + 1 :]
                    return {  # its share price, and what has no field of its own: at the share price
                        "cash": "treasury-",
                        "issued": "bank-",
                        "bank_shares": "bank-",
                        "president": "pres-",
                        "companies": "co-corp-",
                    }.get(what, "price-") + corp
            return None
        if head == "foreign_investor":
            return "co-fi" if rest == "companies" else "fi-cash"
        if head == "offering":
            return f"co-{UNAVAILABLE}" if rest == "unavailable" else f"co-{OFFER}"
        if head == "deck":
            return f"deck-{rest}" if rest in self.colors else f"deck-{self.colors[0]}"
        return {"turn": "turn", "out_of_game": f"co-{OUT}", "end_card_flipped": "end_flipped"}.get(head)

    def problems_by_field(self, problems) -> tuple[dict[str, list[str]], list[str]]:
        """The position's problems next to their fields, and those about the form as a whole."""
        by_field: dict[str, list[str]] = {}
        general = []
        for path, message in problems or ():
            name = self.field_of(path)
            if name is None:
                general.append(message)
            else:
                by_field.setdefault(name, []).append(message)
        return by_field, general

    # -- the position -------------------------------------------------------------------------
    def position(self) -> dict:
        """The position the form gives; FormError (422) with ``problems``, each ``(field, message)``,
        when figures cannot be read: every one at once, and with them the engine's problems of the
        rest of the position (a figure that cannot be read counts as empty there)."""
        problems: list[tuple[str, str]] = []
        statuses = {422}

        def num(name: str, what: str, high: int = MONEY_MAX) -> int:
            try:
                return _number(self.value(name), what, high)
            except FormError as err:
                problems.append((FORM + name, str(err)))
                statuses.add(err.status)
                return 0

        players = {}
        most = charter_shares(self.ruleset)
        for i, name in enumerate(self.players):
            shares = {}
            for corp in self.ruleset.corporations:
                n = num(f"sh-{i}-{corp}", f"{words.possessive(name)} {corp} shares", most[corp])
                if n:
                    shares[corp] = n
            players[name] = {
                "cash": num(f"cash-{i}", f"{words.possessive(name)} money"),
                "companies": self.chosen(f"co-{i}"),
                "shares": shares,
            }
        corps = {}
        for corp in self.ruleset.corporations:
            price = self.value(f"price-{corp}")
            if not price:
                # every holder's shares set aside (not only the first's): the engine would name them again
                if [p["shares"].pop(corp) for p in players.values() if corp in p["shares"]]:
                    problems.append((f"{FORM}price-{corp}", f"Players hold {corp} shares: choose its share price."))
                continue
            try:
                share_price = _price(price, f"{words.possessive(corp)} share price", self.ruleset)
            except FormError as err:
                problems.append((f"{FORM}price-{corp}", str(err)))
                statuses.add(err.status)
                continue
            held = sum(p["shares"].get(corp, 0) for p in players.values())
            bank = num(f"bank-{corp}", f"{words.possessive(corp)} shares in the bank", most[corp])
            president = self.value(f"pres-{corp}") or None
            if president is None and held:  # worked out: the player holding the most (the first in order on a tie)
                president = max(self.players, key=lambda p: (players[p]["shares"].get(corp, 0), -self.players.index(p)))
            corps[corp] = {
                "cash": num(f"treasury-{corp}", f"{words.possessive(corp)} treasury"),
                "share_price": share_price,
                "companies": self.chosen(f"co-corp-{corp}"),
                "president": president,
                "issued": held + bank,  # worked out: what players and the bank hold
                "bank_shares": bank,
            }
        placed = {a for p in players.values() for a in p["companies"]}
        placed |= {a for c in corps.values() for a in c["companies"]}
        placed |= set(self.chosen("co-fi") + self.chosen(f"co-{OFFER}") + self.chosen(f"co-{UNAVAILABLE}"))
        out = self.chosen(f"co-{OUT}")
        deck = {}
        full = self.full_deck()
        for color in self.colors:
            if self.value(f"deck-{color}"):
                deck[color] = num(f"deck-{color}", f"The {color} cards left", full[color])
            else:  # worked out: the colour's cards less those on the table or listed out of the game
                seen = [a for a in self.ruleset.cards.companies_by_color[color] if a in placed or a in out]
                deck[color] = max(0, full[color] - len(seen))
        turn = num("turn", "The turn that just ended", TURN_MAX) or 1
        found = {
            "after": {"turn": turn, "phase": len(self.ruleset.engine.PHASES)},
            "state": {
                "player_order": list(self.players),
                "players": players,
                "foreign_investor": {
                    "cash": num("fi-cash", "The foreign investor's money"),
                    "companies": self.chosen("co-fi"),
                },
                "corporations": corps,
                "offering": {"available": self.chosen(f"co-{OFFER}"), "unavailable": self.chosen(f"co-{UNAVAILABLE}")},
                "deck_size": sum(deck.values()),
                "end_card_flipped": bool(self.value("end_flipped")),
            },
            "deck": deck,
            "out_of_game": out,
        }
        if problems:
            raise self._refused(problems, found, min(statuses))
        return found

    def _refused(self, problems: list[tuple[str, str]], found: dict, status: int) -> FormError:
        """The form's own problems and the engine's of the rest of the position, all at once (the
        engine's about a field already refused are left out: it saw that field empty)."""
        try:
            position.resume(self.ruleset, self.players, self.options, position_shape.check_position(found))
        except RuleError as err:
            own = {self.field_of(path) for path, _ in problems}
            problems += [
                (f, m)
                for f, m in (getattr(err, "problems", None) or [("", err.message)])
                if self.field_of(f) not in own
            ]
        refused = FormError(" ".join(m for _, m in problems), status)
        refused.problems = problems
        return refused

    def transcript(self) -> dict:
        return transcript.build(
            self.players,
            self.options,
            None,
            [],
            "resumed from the table as it lay",  # pragma: no mutate: the import keeps no description
            game=self.ruleset.key,
            position=self.position(),
        )
