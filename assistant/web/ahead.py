"""Bankruptcy ahead: before the income phase, the corporations that cannot pay their coming
negative income (each rulebook: such a corporation goes bankrupt, its shares void), and what
would avoid it (``closing.bankrupt_ahead``), in words for the phones and the JSON door."""

from __future__ import annotations

from assistant.rules.core.phases import closing
from assistant.rules.core.words import and_list


def _signed(n: int, rs) -> str:
    """An income as the game writes money: "+3", "−14" (Stars); "−$23" (v2.2, classic)."""
    return ("+" if n > 0 else "−" if n < 0 else "") + rs.cash(abs(n))


def bankrupt_ahead(game) -> list[dict]:
    """In the closing phase (the last one before the income phase): each corporation that will go
    bankrupt unless it closes companies, with ``text`` saying so and what avoids it."""
    try:
        if game.game_over or game.phase_kind != "closing":
            return []
        income_phase = game.phase_no("income")
    except (AttributeError, ValueError):
        return []
    rs = game.ruleset
    out = []
    for row in closing.bankrupt_ahead(game):
        corp = row["corporation"]
        text = (
            f"{corp} will go bankrupt in {rs.phase_said(income_phase)}: it has {rs.cash(row['cash'])} and its "
            f"income is {_signed(row['income'], rs)}, its shares then void."
        )
        if row["president"] is None:
            text += " It is in receivership: nobody can close its companies."
        elif row["close"] is None:
            text += " No closing avoids it: even with only one company left it cannot pay."
        else:
            bonus = row["cash_after"] - row["cash"]
            text += (
                f" To avoid it, {row['president']} closes {and_list(row['close'])} in this phase "
                f"(its income then {_signed(row['income_after'], rs)}"
                + (f", its cash {rs.cash(row['cash_after'])} with the scrapping bonus" if bonus else "")
                + ")."
            )
        out.append({**row, "phase": income_phase, "text": text})
    return out
