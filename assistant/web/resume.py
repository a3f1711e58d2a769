"""Starting from the table as it lies: the form's figures as a position (FORMAT-position.md) for the
engine to check and resume (``rules.core.position``).  Only the form's shape lives here: what a
position may be is the engine's to say."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.log import transcript
from assistant.rules import registry
from assistant.rules.core import words
from assistant.rules.core.position_shape import TURN_MAX
from assistant.web import card_figures
from assistant.web.scorecheck import FormError, _number, _price, charter_shares, game_and_players

OFFER, UNAVAILABLE, OUT, FI = "offer", "unavailable", "out", "fi"


@dataclass
class ResumeForm:
    ruleset: registry.Ruleset
    players: list[str]
    options: list[str]
    args: dict = field(default_factory=dict)

    @classmethod
    def read(cls, args) -> ResumeForm:
        ruleset, players = game_and_players(args)
        game_type = args.get("game_type") or ""
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
        return dict(self.ruleset.create(self.players, self.options).deck_left)

    def prices_row(self) -> list[int]:
        return [p for p in self.ruleset.cards.prices if p]

    def in_play(self) -> list[str]:
        """The corporations given a share price (the others are not in play: no share fields)."""
        return [corp for corp in self.ruleset.corporations if self.value(f"price-{corp}")]

    def field_of(self, path: str) -> str | None:
        """The form field a problem of the position is about (``rules.core.position``'s fields:
        "players.Amy.cash", "corporations.Doppler AG.issued", "deck.green", ...); None: the form
        as a whole."""
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
                    return {
                        "share_price": "price-",
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
        players = {}
        most = charter_shares(self.ruleset)
        for i, name in enumerate(self.players):
            shares = {}
            for corp in self.ruleset.corporations:
                n = _number(self.value(f"sh-{i}-{corp}"), f"{words.possessive(name)} {corp} shares", most[corp])
                if n:
                    shares[corp] = n
            players[name] = {
                "cash": _number(self.value(f"cash-{i}"), f"{words.possessive(name)} money"),
                "companies": self.chosen(f"co-{i}"),
                "shares": shares,
            }
        corps = {}
        for corp in self.ruleset.corporations:
            price = self.value(f"price-{corp}")
            if not price:
                continue
            held = sum(p["shares"].get(corp, 0) for p in players.values())
            bank = _number(self.value(f"bank-{corp}"), f"{words.possessive(corp)} shares in the bank", most[corp])
            president = self.value(f"pres-{corp}") or None
            if president is None and held:  # worked out: the player holding the most (the first in order on a tie)
                president = max(self.players, key=lambda p: (players[p]["shares"].get(corp, 0), -self.players.index(p)))
            corps[corp] = {
                "cash": _number(self.value(f"treasury-{corp}"), f"{words.possessive(corp)} treasury"),
                "share_price": _price(price, f"{words.possessive(corp)} share price", self.ruleset),
                "companies": self.chosen(f"co-corp-{corp}"),
                "president": president,
                "issued": held + bank,  # worked out: what players and the bank hold
                "bank_shares": bank,
            }
        held_by = {c for p in players.values() for c in p["shares"]}
        missing = sorted(held_by - set(corps))
        if missing:
            raise FormError(f"Players hold {missing[0]} shares: choose its share price.")
        placed = {a for p in players.values() for a in p["companies"]}
        placed |= {a for c in corps.values() for a in c["companies"]}
        placed |= set(self.chosen("co-fi") + self.chosen(f"co-{OFFER}") + self.chosen(f"co-{UNAVAILABLE}"))
        out = self.chosen(f"co-{OUT}")
        deck = {}
        full = self.full_deck()
        for color in self.colors:
            text = self.value(f"deck-{color}")
            if text:
                deck[color] = _number(text, f"The {color} cards left", full[color])
            else:  # worked out: the colour's cards less those on the table or listed out of the game
                seen = [a for a in self.ruleset.cards.companies_by_color[color] if a in placed or a in out]
                deck[color] = max(0, full[color] - len(seen))
        turn = _number(self.value("turn"), "The turn that just ended", TURN_MAX) or 1
        return {
            "after": {"turn": turn, "phase": len(self.ruleset.engine.PHASES)},
            "state": {
                "player_order": list(self.players),
                "players": players,
                "foreign_investor": {
                    "cash": _number(self.value("fi-cash"), "The foreign investor's money"),
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

    def transcript(self) -> dict:
        return transcript.build(
            self.players,
            self.options,
            None,
            [],
            "resumed from the table as it lay",
            game=self.ruleset.key,
            position=self.position(),
        )
