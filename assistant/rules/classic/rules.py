"""Classic Rolling Stock's own rules, each small and named after the Guide's section.

Everything else (auctions, share trading, acquisitions with the foreign investor, closing,
income with synergies, the menu, undo) is shared with Rolling Stock Stars and lives in
``assistant/rules/core``; this module holds only what differs: the book value and the share price
table (1.5.9), the IPO's share count (1.6.2), the dividend limit, the deck and cost of
ownership per game type (1.3, 1.6.8, 1.9) and who may sell a share (1.5.3).
"""

from __future__ import annotations

from .cards import CARDS

GAME_TYPE_OPTIONS = ("short", "training")  # no option: the full game


def game_type(options) -> str:
    """The game type an option list names: "full" (no option), "short" or "training"."""
    chosen = [o for o in options if o in GAME_TYPE_OPTIONS]
    return chosen[0] if chosen else "full"


def deck_counts(gtype: str, players: int) -> dict[str, int]:
    """Company cards of each colour in the deck (1.3; 3.8 with 6 players; 3 each with 2 players)."""
    return dict(CARDS.deck_counts[gtype][players])


def cost_of_ownership(gtype: str, top: str | None, end_flipped: bool) -> dict[str, int]:
    """Cost per colour shown by the back of the deck's top card, or by the game end card (1.6.8)."""
    if top is None:
        top = "end_back" if end_flipped else "end_front"
    return CARDS.cost_by_top[gtype][top]


def colors_in_play(gtype: str) -> tuple[str, ...]:
    return CARDS.game_types[gtype]


# ---------------------------------------------------------------------- 1.6.2 forming a corporation
def ipo_shares(face: int, price: int) -> int:
    """The fewest shares (1-4, the President's Share first) worth at least the face value."""
    n = 1
    while n * price < face and n < 4:
        n += 1
    return n


def ipo_terms(face: int, price: int) -> tuple[int, int, int]:
    """(shares for the owner and for the bank each, owner's payment, new treasury)."""
    shares = ipo_shares(face, price)
    payment = shares * price - face
    return shares, payment, payment + shares * price


# ---------------------------------------------------------------------- 1.5.9 dividends and share price
def max_payout(price: int) -> int:
    """Maximum payout per share printed on the card (0 on the $100 card, which has none)."""
    return CARDS.max_payout.get(price) or 0


def book_value(cash: int, abbrs) -> int:
    """Treasury plus the face values of the corporation's companies."""
    return cash + sum(CARDS.companies[a].face_value for a in abbrs)


def table_row(price: int, issued: int, book: int) -> tuple[int, int | None, int] | None:
    """The row of the card's adjustment table holding this book value: (low, high, new price);
    None on the top card ($100), which has no table."""
    if price not in CARDS.adjustment_tables:
        return None
    for row in CARDS.adjustment_tables[price][issued]:
        low, high, _new = row
        if book >= low and (high is None or book <= high):
            return row
    raise AssertionError(f"no row for book value {book} on the {price} card with {issued} shares")


def price_steps(price: int, issued: int, book: int) -> int:
    """Steps along the row to the card the table names (its arrow's direction is the sign)."""
    if price not in CARDS.adjustment_tables:  # the $100 card: the game ends in phase 10 anyway
        return 0
    return CARDS.price_index[table_row(price, issued, book)[2]] - CARDS.price_index[price]


# ---------------------------------------------------------------------- 1.5.3 selling
def players_keep_a_share(holdings_after: dict[str, int]) -> bool:
    """The bank may never own all issued shares: some player must still hold one after a sale."""
    return any(holdings_after.values())
