"""A position's deck, counted per colour, and what no table reaches at the end of a turn
(``position.resume`` checks both; see its docstring)."""

from __future__ import annotations

from .position_problems import _int, _Problems


def _deck(game, deck, state: dict, problems: _Problems) -> bool:
    """The cards left per colour; False when they could not be read."""
    if not isinstance(deck, dict):
        problems.fail("deck", "The deck must be given as the number of cards left per colour.")
    before = len(problems.items)
    counts = {}
    for color in game.colors:
        with problems.part():
            counts[color] = _int(problems, f"deck.{color}", deck.get(color, 0), f"The {color} cards left")
    unknown = [c for c in deck if c not in game.colors]
    if unknown:
        problems.fail("deck", f"{game.ruleset.title} has no {unknown[0]} company cards in this game.")
    if len(problems.items) > before:
        return False
    size = state.get("deck_size")
    if size is not None and size != sum(counts.values()):
        problems.fail("deck", f"The deck holds {sum(counts.values())} cards by colour, but its size is {size}.")
    full = dict(game.deck_left)  # the game's set-up: every colour complete
    top = next((c for c in game.colors if counts[c]), None)
    if top is not None:
        for color in game.colors[game.colors.index(top) + 1 :]:
            if counts[color] != full[color]:
                with problems.part():
                    problems.fail(
                        f"deck.{color}",
                        f"Under the {top} cards the {color} ones are all still in the deck: "
                        f"{full[color]} with {len(game.players)} players, not {counts[color]}.",
                    )
    for color, n in counts.items():
        with problems.part():
            unseen = [a for a in game.cards.companies_by_color[color] if a not in game.seen]
            if n > full[color]:
                problems.fail(
                    f"deck.{color}",
                    f"The deck holds at most {full[color]} {color} cards with {len(game.players)} players, not {n}.",
                )
            if n > len(unseen):
                problems.fail(
                    f"deck.{color}",
                    f"{n} {color} cards cannot be left in the deck: only {len(unseen)} {color} companies are unaccounted for.",
                )
    game.deck_left = counts
    return len(problems.items) == before


def _reachable(game, problems: _Problems, deck_read: bool, full: dict[str, int], prices: dict[str, int]) -> None:
    """What no table reaches at the end of a turn (the position's figures each make sense);
    ``prices``: every corporation's share price, also of one with another problem."""
    seats = len(game.players)
    offering = len(game.available) + len(game.unavailable)
    cards_left = game.deck_size() if deck_read else 0
    with problems.part():
        if game.unavailable:
            problems.fail(
                "offering.unavailable",
                f"{', '.join(game.unavailable)} cannot be unavailable at the end of a turn: cards drawn in a turn "
                f"become available after the foreign investor's phase.",
            )
    with problems.part():
        if deck_read and cards_left and offering < seats:
            problems.fail(
                "offering",
                f"The offering holds {offering} companies, but with {seats} seats it holds {seats} while the deck "
                f"has cards ({cards_left} left): it is refilled after every purchase until the deck runs out.",
            )
    if deck_read:
        by_color = game.cards.companies_by_color
        for color in game.colors:
            with problems.part():
                if game.deck_left[color] and game.deck_left[color] == full[color]:
                    shown = sorted(a for a in game.seen if a in by_color[color])
                    if shown:
                        problems.fail(
                            f"deck.{color}",
                            f"All {full[color]} {color} cards are still in the deck, yet {', '.join(shown)} "
                            f"{'is' if len(shown) == 1 else 'are'} on the table: the {color} cards come off the deck "
                            f"only after every card above them.",
                        )
    top = game.cards.top_price
    for name, price in prices.items():
        with problems.part():
            if price == top:
                problems.fail(
                    f"corporations.{name}.share_price",
                    f"{name} is at {top}, the top of the share price row: the game would have ended at its "
                    f"end check, so no turn ends with it there.",
                )
    with problems.part():
        if game.end_flipped and (cards_left or offering):
            where = " and ".join(w for w, n in (("the deck", cards_left), ("the offering", offering)) if n)
            problems.fail(
                "end_card_flipped",
                f"The end card is flipped only once the deck and the offering are empty; {where} still "
                f"{'hold' if cards_left and offering else 'holds'} companies.",
            )
