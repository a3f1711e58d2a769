"""The figures printed on the cards of Rolling Stock Stars, transcribed from the cards.

Companies, corporations, share price cards, cost of ownership and the deck make-up per
player count.  Pure data plus tiny lookups; the rules live elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

COLORS = ("red", "orange", "yellow", "green", "blue")
STARS_BY_COLOR = {"red": 1, "orange": 2, "yellow": 3, "green": 4, "blue": 5}


@dataclass(frozen=True)
class Company:
    abbr: str
    name: str
    face_value: int
    price_min: int
    price_max: int
    income: int
    color: str
    stars: int
    highest_of_color: bool
    synergies: dict = field(hash=False, compare=False)


# abbr, name, face value, price span, income, colour, synergy partners -> bonus
_COMPANY_TABLE = [
    ("BME", "Bergisch-Märkische Eisenbahn-Gesellschaft", 1, (1, 2), 1, "red", {"KME": 1, "BD": 1, "HE": 1, "PR": 1}),
    ("BSE", "Berlin-Stettiner Eisenbahn-Gesellschaft", 2, (1, 3), 1, "red", {"BPM": 1, "SX": 1, "MS": 1, "PR": 1}),
    (
        "KME",
        "Köln-Mindener Eisenbahn-Gesellschaft",
        5,
        (3, 7),
        2,
        "red",
        {"BME": 1, "MHE": 1, "HE": 1, "OL": 1, "PR": 1},
    ),
    (
        "AKE",
        "Altona-Kieler Eisenbahn-Gesellschaft",
        6,
        (3, 8),
        2,
        "red",
        {"BPM": 1, "MHE": 1, "OL": 1, "MS": 1, "PR": 1},
    ),
    (
        "BPM",
        "Berlin-Potsdam-Magdeburger Eisenbahn",
        7,
        (4, 9),
        2,
        "red",
        {"BSE": 1, "AKE": 1, "MHE": 1, "SX": 1, "MS": 1, "PR": 1},
    ),
    (
        "MHE",
        "Magdeburg-Halberstädter Eisenbahngesellschaft",
        8,
        (4, 10),
        2,
        "red",
        {"KME": 1, "AKE": 1, "BPM": 1, "OL": 1, "SX": 1, "MS": 1, "PR": 1},
    ),
    (
        "WT",
        "Königlich Württembergische Staats-Eisenbahnen",
        11,
        (6, 14),
        3,
        "orange",
        {"BY": 2, "BD": 2, "SBB": 2, "DR": 2},
    ),
    (
        "BY",
        "Königlich Bayerische Staatseisenbahnen",
        12,
        (6, 16),
        3,
        "orange",
        {"WT": 2, "HE": 2, "SX": 2, "KK": 2, "DR": 2},
    ),
    (
        "BD",
        "Großherzoglich Badische Staatseisenbahnen",
        13,
        (7, 17),
        3,
        "orange",
        {"BME": 1, "WT": 2, "HE": 2, "SBB": 2, "SNCF": 2, "DR": 2},
    ),
    (
        "HE",
        "Großherzoglich Hessische Staatseisenbahnen",
        14,
        (7, 18),
        3,
        "orange",
        {"BME": 1, "KME": 1, "BY": 2, "BD": 2, "PR": 2, "DR": 2},
    ),
    (
        "OL",
        "Großherzoglich Oldenburgische Staatseisenbahnen",
        15,
        (8, 20),
        3,
        "orange",
        {"KME": 1, "AKE": 1, "MHE": 1, "MS": 2, "PR": 2, "DSB": 2, "NS": 2, "DR": 2},
    ),
    (
        "SX",
        "Königlich Sächsische Staatseisenbahnen",
        16,
        (8, 21),
        3,
        "orange",
        {"BSE": 1, "BPM": 1, "MHE": 1, "BY": 2, "MS": 2, "PR": 2, "KK": 2, "PKP": 2, "DR": 2},
    ),
    (
        "MS",
        "Großherzoglich Mecklenburgische Friedrich-Franz-Eisenbahn",
        17,
        (9, 22),
        3,
        "orange",
        {"BSE": 1, "AKE": 1, "BPM": 1, "MHE": 1, "OL": 2, "SX": 2, "PR": 2, "DSB": 2, "PKP": 2, "DR": 2},
    ),
    (
        "PR",
        "Preußische Staatseisenbahnen",
        19,
        (10, 25),
        3,
        "orange",
        {
            "BME": 1,
            "BSE": 1,
            "KME": 1,
            "AKE": 1,
            "BPM": 1,
            "MHE": 1,
            "HE": 2,
            "OL": 2,
            "SX": 2,
            "MS": 2,
            "DSB": 2,
            "NS": 2,
            "B": 2,
            "PKP": 2,
            "DR": 2,
        },
    ),
    ("DSB", "Danske Statsbaner", 20, (10, 26), 5, "yellow", {"OL": 2, "MS": 2, "PR": 2, "DR": 4, "BSR": 4, "HH": 4}),
    (
        "KK",
        "k.k. Österreichische Staatsbahnen",
        21,
        (11, 28),
        5,
        "yellow",
        {"BY": 2, "SX": 2, "SBB": 4, "PKP": 4, "DR": 4, "FS": 4, "FRA": 4},
    ),
    (
        "NS",
        "Nederlandse Spoorwegen",
        22,
        (11, 29),
        5,
        "yellow",
        {"OL": 2, "PR": 2, "B": 4, "DR": 4, "E": 4, "HA": 4, "HR": 4},
    ),
    (
        "SBB",
        "Schweizerische Bundesbahnen – Chemins de fer fédéraux suisses – Ferrovie federali svizzere",
        23,
        (12, 30),
        5,
        "yellow",
        {"WT": 2, "BD": 2, "KK": 4, "SNCF": 4, "DR": 4, "FS": 4, "FRA": 4, "CDG": 4},
    ),
    (
        "B",
        "Nationale Maatschappij der Belgische Spoorwegen – Société Nationale des Chemins de fer Belges",
        24,
        (12, 32),
        5,
        "yellow",
        {"PR": 2, "NS": 4, "SNCF": 4, "DR": 4, "E": 4, "HA": 4, "HR": 4},
    ),
    (
        "PKP",
        "Polskie Koleje Państwowe",
        25,
        (13, 33),
        5,
        "yellow",
        {"SX": 2, "MS": 2, "PR": 2, "KK": 4, "DR": 4, "SZD": 4, "BSR": 4, "HH": 4, "FRA": 4},
    ),
    (
        "SNCF",
        "Société nationale des chemins de fer français",
        26,
        (13, 34),
        5,
        "yellow",
        {"BD": 2, "SBB": 4, "B": 4, "DR": 4, "FS": 4, "RENFE": 4, "E": 4, "HA": 4, "CDG": 4},
    ),
    (
        "DR",
        "Deutsche Reichsbahn",
        29,
        (15, 38),
        5,
        "yellow",
        {
            "WT": 2,
            "BY": 2,
            "BD": 2,
            "HE": 2,
            "OL": 2,
            "SX": 2,
            "MS": 2,
            "PR": 2,
            "DSB": 4,
            "KK": 4,
            "NS": 4,
            "SBB": 4,
            "B": 4,
            "PKP": 4,
            "SNCF": 4,
            "BSR": 4,
            "HH": 4,
            "HR": 4,
            "FRA": 4,
        },
    ),
    ("SZD", "Советские железные дороги (Sovetskie železnye dorogi)", 30, (15, 40), 7, "green", {"PKP": 4}),
    ("SJ", "Statens Järnvägar", 31, (16, 41), 7, "green", {"BSR": 8}),
    ("FS", "Ferrovie dello Stato", 32, (16, 42), 7, "green", {"KK": 4, "SBB": 4, "SNCF": 4}),
    ("RENFE", "Red Nacional de los Ferrocarriles Españoles", 33, (17, 44), 7, "green", {"SNCF": 4, "MAD": 8}),
    ("BR", "British Rail", 34, (17, 45), 7, "green", {"E": 8, "LHR": 8}),
    ("BSR", "Baltic Sea Rail", 36, (18, 48), 7, "green", {"DSB": 4, "PKP": 4, "DR": 4, "SJ": 8, "HH": 8}),
    (
        "E",
        "Eurotunnel",
        43,
        (22, 57),
        7,
        "green",
        {"NS": 4, "B": 4, "SNCF": 4, "BR": 8, "HA": 8, "HR": 8, "LHR": 8, "CDG": 8},
    ),
    ("HH", "Hamburger Hafen", 45, (23, 60), 10, "blue", {"DSB": 4, "PKP": 4, "DR": 4, "BSR": 8}),
    ("HA", "Haven van Antwerpen", 46, (23, 61), 10, "blue", {"NS": 4, "B": 4, "SNCF": 4, "E": 8}),
    ("HR", "Haven van Rotterdam", 47, (24, 62), 10, "blue", {"NS": 4, "B": 4, "DR": 4, "E": 8}),
    ("MAD", "Madrid-Barajas Airport", 50, (25, 66), 10, "blue", {"RENFE": 8, "CDG": 16}),
    (
        "FRA",
        "Flughafen Frankfurt",
        56,
        (28, 74),
        10,
        "blue",
        {"KK": 4, "SBB": 4, "PKP": 4, "DR": 4, "LHR": 16, "CDG": 16},
    ),
    ("LHR", "London Heathrow Airport", 58, (29, 77), 10, "blue", {"BR": 8, "E": 8, "FRA": 16, "CDG": 16}),
    (
        "CDG",
        "Aéroport Paris-Charles-de-Gaulle",
        60,
        (30, 80),
        10,
        "blue",
        {"SBB": 4, "SNCF": 4, "E": 8, "MAD": 16, "FRA": 16, "LHR": 16},
    ),
]


def _build_companies() -> dict[str, Company]:
    top = {}
    for row in _COMPANY_TABLE:
        color, face = row[5], row[2]
        top[color] = max(top.get(color, 0), face)
    return {
        abbr: Company(
            abbr, name, face, span[0], span[1], income, color, STARS_BY_COLOR[color], face == top[color], synergies
        )
        for abbr, name, face, span, income, color, synergies in _COMPANY_TABLE
    }


COMPANIES: dict[str, Company] = _build_companies()
COMPANIES_BY_COLOR: dict[str, list[str]] = {
    color: sorted((c.abbr for c in COMPANIES.values() if c.color == color), key=lambda a: COMPANIES[a].face_value)
    for color in COLORS
}
HIGHEST_OF_COLOR: dict[str, str] = {color: abbrs[-1] for color, abbrs in COMPANIES_BY_COLOR.items()}


# The corporation charters.  A charter's key is its special ability: the engine checks abilities
# by these keys, never by a corporation's name, so each ruleset can give the charters its own
# names (rulesets.py: Stars names below, v2.2 names there).
PER_COMPANY = "income_per_company"
FOREIGN_FIRST = "foreign_investor_first"
TWO_STARS = "two_extra_stars"
DOUBLES_BEST = "doubles_best_income"
COST_RELIEF = "cost_of_ownership_relief"
STEADY_ISSUE = "issue_at_current_price"
CLOSING_BONUS = "closing_bonus"
SYNERGY_PAIRS = "synergy_pairs_bonus"


@dataclass(frozen=True)
class Corporation:
    key: str  # the charter: its special ability (one of the keys above)
    shares: int
    ability: str  # the ability as printed (no corporation names in it)
    name: str = ""  # the display name in a ruleset (see named())


CHARTERS: dict[str, Corporation] = {
    c.key: c
    for c in [
        Corporation(PER_COMPANY, 5, "Collect income: +1 per company it owns."),
        Corporation(
            FOREIGN_FIRST,
            6,
            "Acquisition: always has first priority when buying from the foreign investor (as if its share price were higher than any other) and pays only face value instead of the maximum price.",
        ),
        Corporation(TWO_STARS, 4, "Adjust share price: always adds two stars to its star count."),
        Corporation(
            DOUBLES_BEST, 5, "Collect income: doubles the printed income of its company with the highest face value."
        ),
        Corporation(
            COST_RELIEF, 4, "Collect income: its total cost of ownership is reduced by up to 10 (not below 0)."
        ),
        Corporation(
            STEADY_ISSUE, 6, "Issue one share: its share price does not change; it receives the current share price."
        ),
        Corporation(
            CLOSING_BONUS,
            7,
            "Closing: whenever it closes a company it immediately receives twice that company's printed income.",
        ),
        Corporation(
            SYNERGY_PAIRS, 7, "Collect income: +1 for every two synergy markers (pairs) it owns, rounded down."
        ),
    ]
}

# The names Rolling Stock Stars prints on the charters.
STARS_NAMES: dict[str, str] = {
    PER_COMPANY: "Prussian Railway",
    FOREIGN_FIRST: "Overseas Trading",
    TWO_STARS: "Stars, Inc.",
    DOUBLES_BEST: "Doppler AG",
    COST_RELIEF: "Vintage Machinery",
    STEADY_ISSUE: "Stock Masters",
    CLOSING_BONUS: "Junkyard Scrappers",
    SYNERGY_PAIRS: "Synergistic",
}


def named(names: dict[str, str]) -> dict[str, Corporation]:
    """The charters under a ruleset's names: display name -> Corporation (in card order)."""
    return {names[key]: replace(charter, name=names[key]) for key, charter in CHARTERS.items()}


# The Stars charters by their Stars names.
CORPORATIONS: dict[str, Corporation] = named(STARS_NAMES)

# The share price row, left to right.  Index arithmetic on this tuple is how prices move.
PRICES: tuple[int, ...] = (
    0,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    16,
    18,
    20,
    22,
    24,
    27,
    30,
    33,
    37,
    41,
    45,
    50,
    55,
    61,
    68,
    75,
)
PRICE_INDEX: dict[int, int] = {p: i for i, p in enumerate(PRICES)}
BANKRUPT_PRICE = 0
TOP_PRICE = 75

# price -> (colours allowed at IPO, maximum dividend per share, required stars for 2..7 issued shares)
SHARE_PRICE_CARDS: dict[int, tuple[tuple[str, ...], int | None, dict[int, int] | None]] = {
    0: ((), None, None),
    5: ((), 1, {2: 1, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4}),
    6: ((), 2, {2: 1, 3: 2, 4: 2, 5: 3, 6: 4, 7: 4}),
    7: ((), 2, {2: 1, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5}),
    8: ((), 2, {2: 2, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6}),
    9: ((), 3, {2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 6}),
    10: (("red", "orange"), 3, {2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7}),
    11: (("red", "orange"), 3, {2: 2, 3: 3, 4: 4, 5: 6, 6: 7, 7: 8}),
    12: (("red", "orange"), 4, {2: 2, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8}),
    13: (("red", "orange"), 4, {2: 3, 3: 4, 4: 5, 5: 7, 6: 8, 7: 9}),
    14: (("red", "orange"), 4, {2: 3, 3: 4, 4: 6, 5: 7, 6: 8, 7: 10}),
    16: (("orange", "yellow"), 5, {2: 3, 3: 5, 4: 6, 5: 8, 6: 10, 7: 11}),
    18: (("orange", "yellow"), 6, {2: 4, 3: 5, 4: 7, 5: 9, 6: 11, 7: 13}),
    20: (("orange", "yellow"), 6, {2: 4, 3: 6, 4: 8, 5: 10, 6: 12, 7: 14}),
    22: (("yellow", "green"), 7, {2: 4, 3: 7, 4: 9, 5: 11, 6: 13, 7: 15}),
    24: (("yellow", "green"), 8, {2: 5, 3: 7, 4: 10, 5: 12, 6: 14, 7: 17}),
    27: (("yellow", "green"), 9, {2: 5, 3: 8, 4: 11, 5: 14, 6: 16, 7: 19}),
    30: (("green", "blue"), 10, {2: 6, 3: 9, 4: 12, 5: 15, 6: 18, 7: 21}),
    33: (("green", "blue"), 11, {2: 7, 3: 10, 4: 13, 5: 17, 6: 20, 7: 23}),
    37: (("green", "blue"), 12, {2: 7, 3: 11, 4: 15, 5: 19, 6: 22, 7: 26}),
    41: ((), 13, {2: 8, 3: 12, 4: 16, 5: 21, 6: 25, 7: 29}),
    45: ((), 15, {2: 9, 3: 14, 4: 18, 5: 23, 6: 27, 7: 32}),
    50: ((), 16, {2: 10, 3: 15, 4: 20, 5: 25, 6: 30, 7: 35}),
    55: ((), 18, {2: 11, 3: 17, 4: 22, 5: 28, 6: 33, 7: 39}),
    61: ((), 20, {2: 12, 3: 18, 4: 24, 5: 31, 6: 37, 7: 43}),
    68: ((), 22, {2: 14, 3: 20, 4: 27, 5: 34, 6: 41, 7: 48}),
    75: ((), None, None),
}

IPO_PRICES: dict[str, tuple[int, ...]] = {
    color: tuple(p for p, card in SHARE_PRICE_CARDS.items() if color in card[0]) for color in COLORS
}

STARTING_CASH = {2: 30, 3: 30, 4: 30, 5: 30, 6: 25}
FOREIGN_INVESTOR_START = 4
FOREIGN_INVESTOR_BONUS = 5

# Company cards of each colour in the deck (the highest of the colour included) per player count.
DECK_COUNTS: dict[int, dict[str, int]] = {
    2: {"red": 3, "orange": 3, "yellow": 3, "green": 3, "blue": 3},
    3: {"red": 4, "orange": 4, "yellow": 4, "green": 4, "blue": 4},
    4: {"red": 5, "orange": 6, "yellow": 5, "green": 5, "blue": 5},
    5: {"red": 6, "orange": 8, "yellow": 6, "green": 6, "blue": 6},
    6: {"red": 6, "orange": 8, "yellow": 8, "green": 7, "blue": 7},
}

# Cost of ownership per colour, by what is on top of the deck.
COST_BY_TOP: dict[str, dict[str, int]] = {
    "red": {},
    "orange": {},
    "yellow": {},
    "green": {"red": 2},
    "blue": {"red": 4, "orange": 4},
    "end_front": {"red": 7, "orange": 7, "yellow": 7},
    "end_back": {"red": 10, "orange": 10, "yellow": 10, "green": 10},
}
