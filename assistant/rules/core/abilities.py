"""The special abilities a corporation's charter may have, by key.

A game's card data gives each charter a key; where that key is one of these abilities, the shared
engine applies it at the point of the rules it changes (income, stars, acquisition, closing, issuing
shares).  Rolling Stock Stars (and v2.2 under other names) uses all eight; classic Rolling Stock's
charters have none (their keys are their symbols).  The engine never checks a corporation's name.
"""

PER_COMPANY = "income_per_company"  # Collect income: +1 per company it owns
FOREIGN_FIRST = "foreign_investor_first"  # first priority with the foreign investor; pays face value
TWO_STARS = "two_extra_stars"  # always adds two stars to its star count
DOUBLES_BEST = "doubles_best_income"  # doubles the printed income of its highest face value company
COST_RELIEF = "cost_of_ownership_relief"  # its total cost of ownership is reduced by up to 10
STEADY_ISSUE = "issue_at_current_price"  # issuing a share does not lower its share price
CLOSING_BONUS = "closing_bonus"  # closing a company pays it twice that company's printed income
SYNERGY_PAIRS = "synergy_pairs_bonus"  # +1 for every two synergy markers it owns

COST_RELIEF_MAX = 10  # "its total cost of ownership is reduced by up to 10"
TWO_STARS_BONUS = 2  # "always adds two stars to its star count"

ALL = (PER_COMPANY, FOREIGN_FIRST, TWO_STARS, DOUBLES_BEST, COST_RELIEF, STEADY_ISSUE, CLOSING_BONUS, SYNERGY_PAIRS)
