"""Words and symbols for the screen (presentation only; the rules live in the engine).

Names of corporations, phases and colours belong to the game's ruleset
(``assistant.rules.registry``), which every function here is given.
"""

from __future__ import annotations

from assistant.rules import registry

# Every colour is shown with a shape and a letter too (colour-blind players).
COLOR_MARKS = {
    "red": ("●", "R"),
    "orange": ("▲", "O"),
    "yellow": ("■", "Y"),
    "green": ("◆", "G"),
    "blue": ("★", "B"),
    "purple": ("✚", "P"),
}


def color_mark(color: str, ruleset: registry.Ruleset) -> str:
    """A colour's shape and letter ("◆G"), in the game's own shapes where its rulebook prints them."""
    shape, letter = ruleset.marks.get(color) or COLOR_MARKS.get(color, ("?", "?"))
    return f"{shape}{letter}"


def colors(ruleset: registry.Ruleset) -> list[str]:
    """The company colours of the ruleset, in deck order."""
    return list(ruleset.cards.colors)


def company_color(abbr: str, ruleset: registry.Ruleset) -> str:
    company = ruleset.cards.companies.get(abbr)
    return company.color if company else "unknown"


def corporation_short(name: str, ruleset: registry.Ruleset) -> str:
    return ruleset.short(name)


def phase_name(phase, ruleset: registry.Ruleset) -> str:
    return ruleset.phase_name(phase)


def decision_phase(phase, ruleset: registry.Ruleset) -> str:
    """The phase a decision belongs to, in the game's words: "investment" (Stars), "auctions and share
    trading" (classic)."""
    name = ruleset.phase_name(phase)
    return name[:1].lower() + name[1:] if name else "your turn"


def _investment_text(who, kinds) -> str:
    """The investment prompt offering only what the menu has (no share to buy or sell in turn 1)."""
    if kinds is None:
        return f"{who}: bid, buy or sell a share, or pass"
    trades = [word for kind, word in (("buy_share", "buy"), ("sell_share", "sell")) if kind in kinds]
    parts = (["bid"] if "bid" in kinds else []) + ([" or ".join(trades) + " a share"] if trades else [])
    if not parts:
        return f"{who}: pass"
    return f"{who}: {', '.join(parts)}, or pass" if len(parts) > 1 else f"{who}: {parts[0]} or pass"


def next_text(nxt: dict | None, kinds=None) -> str:
    """Who acts next and for what, as one sentence for the banner; ``kinds``: the types of the
    menu's actions, when known (the prompt then offers only those)."""
    if not nxt:
        return "The game is over"
    who = nxt.get("player")
    kind = nxt.get("for")
    texts = {
        "reveal": lambda: f"Draw the top card of the deck ({nxt.get('color', '?')}) and tap which company it is",
        "investment": lambda: _investment_text(who, kinds),
        "bid": lambda: f"{who}: raise the bid for {nxt.get('company')} or leave the auction",
        "intervention": lambda: (
            f"Does a corporation intervene? {nxt.get('announced_by')} announced buying {nxt.get('company')}"
        ),
        "acquisition": lambda: "Presidents: corporations may acquire companies; then each says “I'm done”",
        "closing": lambda: "Owners: close companies if you want to; then each says “I'm done”",
        "dividend": lambda: f"{who}: dividend of {nxt.get('corporation')}",
        "issue": lambda: f"{who}: does {nxt.get('corporation')} issue a share?",
        "ipo": lambda: f"{who}: does {nxt.get('company')} go public?",
    }
    make = texts.get(kind)
    if make is None:
        return f"{who + ': ' if who else ''}{kind}"
    return make()


# The two-handed variant (rulebook, "Two-player, two-handed variant"): person A's simulated right hand
# player sits at position 1, B's left hand at 2, B's right hand at 3 and A's left hand at 4.
def two_handed_seats(a: str, b: str) -> list[str]:
    return [f"{a} (right hand)", f"{b} (left hand)", f"{b} (right hand)", f"{a} (left hand)"]


def person_seats(players: list[str], persons: list[str] | None) -> dict[str, list[str]]:
    """The seats each person plays in a two-handed game (empty for other games)."""
    if not persons or len(persons) != 2 or len(players) != 4:
        return {}
    return {persons[0]: [players[0], players[3]], persons[1]: [players[1], players[2]]}
