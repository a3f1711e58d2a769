"""Words and symbols for the screen (presentation only; the rules live in the engine)."""

from __future__ import annotations

PHASES = {1: "Investment", 2: "Wrap-up", 3: "Acquisition", 4: "Closing", 5: "Income",
          6: "Dividends", 7: "End card", 8: "Issue shares", 9: "IPO"}

# Company colours by abbreviation (the identifiers of FORMAT.md), for display.
COMPANY_COLORS = {
    **{c: "red" for c in ["BME", "BSE", "KME", "AKE", "BPM", "MHE"]},
    **{c: "orange" for c in ["WT", "BY", "BD", "HE", "OL", "SX", "MS", "PR"]},
    **{c: "yellow" for c in ["DSB", "KK", "NS", "SBB", "B", "PKP", "SNCF", "DR"]},
    **{c: "green" for c in ["SZD", "SJ", "FS", "RENFE", "BR", "BSR", "E"]},
    **{c: "blue" for c in ["HH", "HA", "HR", "MAD", "FRA", "LHR", "CDG"]},
}
COLORS = ["red", "orange", "yellow", "green", "blue"]
# Every colour is shown with a shape and a letter too (colour-blind players).
COLOR_MARKS = {"red": ("●", "R"), "orange": ("▲", "O"), "yellow": ("■", "Y"),
               "green": ("◆", "G"), "blue": ("★", "B")}

# The share price cards as printed (FORMAT.md appendix), to draw the row.
SHARE_PRICE_ROW = [0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 18, 20, 22, 24, 27, 30,
                   33, 37, 41, 45, 50, 55, 61, 68, 75]

CORPORATION_SHORT = {
    "Prussian Railway": "PRU", "Overseas Trading": "OVS", "Stars, Inc.": "STA", "Doppler AG": "DOP",
    "Vintage Machinery": "VIN", "Stock Masters": "STM", "Junkyard Scrappers": "JUN", "Synergistic": "SYN",
}


def company_color(abbr: str) -> str:
    return COMPANY_COLORS.get(abbr, "unknown")


def phase_name(phase) -> str:
    try:
        from assistant.rules import PHASE_NAMES
    except ImportError:  # pragma: no cover - an engine without phase names
        PHASE_NAMES = PHASES
    return PHASE_NAMES.get(phase, "")


def next_text(nxt: dict | None) -> str:
    """Who acts next and for what, as one sentence for the banner."""
    if not nxt:
        return "The game is over"
    who = nxt.get("player")
    kind = nxt.get("for")
    texts = {
        "reveal": lambda: f"Draw the top card of the deck ({nxt.get('color', '?')}) and tap which company it is",
        "investment": lambda: f"{who}: bid, buy or sell a share, or pass",
        "bid": lambda: f"{who}: raise the bid for {nxt.get('company')} or leave the auction",
        "intervention": lambda: (f"Does a corporation intervene? {nxt.get('announced_by')} (in receivership) "
                                 f"announced buying {nxt.get('company')}"),
        "acquisition": lambda: "Presidents: corporations may acquire companies; then “phase done”",
        "closing": lambda: "Owners: close companies if you want to; then “phase done”",
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
