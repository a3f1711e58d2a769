"""The store's small parts: a game's header (``GameInfo``), new game ids and the time written,
and what the table may enter (an event as it is stored, an idempotency token)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from assistant.log import transcript
from assistant.log.walk import row_form
from assistant.rules import registry
from assistant.rules.core import events, position
from assistant.rules.core.game import Game
from assistant.store.errors import Refused

TOKEN_MAX = 200


@dataclass(frozen=True)
class GameInfo:
    id: str
    players: list
    options: list
    deck: list | None
    created: str
    persons: list | None  # two-handed variant: the persons [A, B] behind the 4 seats
    ruleset: str  # the key of the game's ruleset (registry.RULESETS)
    position: dict | None = None  # a game resumed from the table as it lay (its first entry), else None
    edition: int = Game.EDITION  # the arbitration it is played under (migration games_keep_their_rules_edition)

    def start(self) -> Game:
        """The engine game before the first event: the set-up, or the position it resumed from."""
        ruleset = registry.get(self.ruleset)
        if self.position is not None:
            return position.resume(
                ruleset, self.players, self.options, self.position, persons=self.persons, edition=self.edition
            )
        game = ruleset.create(self.players, self.options, deck=self.deck, persons=self.persons)
        game.edition = self.edition
        return game


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_game_id() -> str:
    return secrets.token_urlsafe(18)  # 144 random bits


def _has_surrogate(value) -> bool:
    """True if a string anywhere in ``value`` holds a lone surrogate (not valid Unicode text)."""
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_surrogate(v) for v in value)
    return False


def normalise_event(event) -> dict:
    """The event as it is stored: its type and the fields the engine reads (others are ignored).

    Raises Refused for what is not an event the table can enter: not an object with a type, a
    checkpoint (``expect``) or an event marked ``reject`` (transcript annotations), a declared field
    of the wrong type (named: every door answers a 4xx), text that is not valid Unicode.
    """
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise Refused("an event must be an object with a type")
    if not transcript.is_table_event(event):
        raise Refused(
            "checkpoints (expect) and events marked reject are transcript annotations, not decisions of the table"
        )
    try:
        out = row_form(event, events.stored_form(event))  # a going back's ``to``: no engine field
    except TypeError as err:  # a declared field of the wrong type, e.g. {"player": 7}
        raise Refused(str(err)) from None
    if _has_surrogate(out):
        raise Refused("the event holds text that is not valid Unicode")
    return out


def check_token(token) -> None:
    if token is None:
        return
    if not isinstance(token, str) or not token or len(token) > TOKEN_MAX or _has_surrogate(token):
        raise Refused(f"a token must be a non-empty text of at most {TOKEN_MAX} characters")
