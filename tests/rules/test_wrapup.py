"""Phase 2, wrap-up: the new player order (rulebook tie example) and the foreign investor.

Rulebook, "TURN 1, PHASE 2 – WRAP-UP": "both Amy and Crystal have 9 left. Brian has 12
left. So Brian will be position 1 in the new player order. Amy and Crystal tie for
position 2. Since Amy was before Crystal in the old player order (1 vs. 3), she gets
position 2, and Crystal keeps position 3."
"""

from __future__ import annotations

from .builders import drawn_until, enter_phase, phase_ends, place, table

PLAYERS = ["Amy", "Brian", "Crystal"]


def test_tie_example():
    g = table(PLAYERS, cash={"Amy": 9, "Brian": 12, "Crystal": 9}, turn=2, fi_cash=9)
    for abbr, owner in (("BSE", "Crystal"), ("KME", "Brian"), ("BPM", "Amy"), ("MHE", "Amy")):
        place(g, abbr, owner)
    for abbr in ("MS", "SX", "PR"):  # 17, 16, 19: nobody can afford them, so everybody passes
        place(g, abbr, "available")
    ends = phase_ends(g)
    enter_phase(g, 1)
    assert ends[(2, 1)]["player_order"] == ["Amy", "Brian", "Crystal"]
    assert ends[(2, 2)]["player_order"] == ["Brian", "Amy", "Crystal"]
    assert g.snapshot()["player_order"] == ["Brian", "Amy", "Crystal"]


def test_ties_keep_the_old_order_even_when_it_is_not_the_initial_one():
    g = table(PLAYERS, cash={"Amy": 5, "Brian": 5, "Crystal": 5}, order=["Crystal", "Amy", "Brian"])
    drawn_until(g, "orange")
    for abbr in ("MS", "SX", "PR"):
        place(g, abbr, "available")
    ends = phase_ends(g)
    enter_phase(g, 1)
    assert ends[(2, 2)]["player_order"] == ["Crystal", "Amy", "Brian"]


def test_foreign_investor_buys_in_ascending_face_value_while_it_can():
    """Canonical rules, phase 2: "In ascending Face Value Order, the Foreign Investor buys as
    many of the remaining available Companies as possible, paying Face Value. For each
    Company bought in that way, draw and reveal a new one ... and mark it as unavailable.
    Once the Foreign Investor cannot buy any more Companies, all unavailable Companies
    become available."  Companies drawn this turn are not for sale ("Even the foreign
    investor cannot buy them in phase 2 of the same turn")."""
    players = ["Amy", "Brian", "Crystal", "Dora"]
    g = table(players, cash={p: 0 for p in players}, fi_cash=9)
    for abbr in ("AKE", "KME", "BSE"):
        place(g, abbr, "available")
    place(g, "BME", "unavailable")  # drawn this turn: 1, affordable, but not for sale yet
    ends = phase_ends(g)
    enter_phase(g, 1)  # nobody has money: everybody passes, phase 2 starts
    # the foreign investor pays 2 for the BSE and 5 for the KME; 2 left is not enough for the AKE (6)
    assert sorted(g.fi.companies) == ["BSE", "KME"] and g.fi.cash == 2
    assert g.next == {"for": "reveal", "color": "red", "choices": ["MHE"]}  # the last red is the MHE
    g.apply({"type": "reveal", "company": "MHE"})
    assert g.next["for"] == "reveal" and g.next["color"] == "orange"
    g.apply({"type": "reveal", "company": "WT"})
    end2 = ends[(2, 2)]
    assert end2["foreign_investor"]["cash"] == 2
    assert sorted(end2["foreign_investor"]["companies"]) == ["BSE", "KME"]
    assert sorted(end2["offering"]["available"]) == ["AKE", "BME", "MHE", "WT"]
    assert end2["offering"]["unavailable"] == []


def test_foreign_investor_without_enough_money_buys_nothing():
    g = table(PLAYERS, cash={p: 0 for p in PLAYERS}, fi_cash=4)
    for abbr in ("KME", "AKE", "BPM"):  # 5, 6, 7
        place(g, abbr, "available")
    ends = phase_ends(g)
    enter_phase(g, 1)
    assert ends[(2, 2)]["foreign_investor"] == {"cash": 4, "companies": [], "income": 5}
    assert sorted(ends[(2, 2)]["offering"]["available"]) == ["AKE", "BPM", "KME"]


def test_the_log_gives_the_new_order():
    """The tie example's money, with Brian deciding to pass (the only one who can afford a company:
    the WT, 11, or the BY, 12): the log of his pass names the new order, Brian, Amy, Crystal."""
    g = table(PLAYERS, cash={"Amy": 9, "Brian": 12, "Crystal": 9}, turn=2, fi_cash=9)
    drawn_until(g, "orange")
    for abbr in ("WT", "BY", "BD"):  # 11, 12, 13
        place(g, abbr, "available")
    enter_phase(g, 1)
    assert g.next == {"for": "investment", "player": "Brian"}
    g.apply({"type": "pass", "player": "Brian"})
    assert "New player order: Brian, Amy, Crystal" in g.journal[-1]["auto"]


def test_the_banker_takes_the_foreign_investors_face_values():
    """The foreign investor pays the bank each company's face value, cheapest first: 2 for the BSE,
    5 for the KME; its 2 left do not buy the AKE (6)."""
    players = ["Amy", "Brian", "Crystal", "Dora"]
    g = table(players, cash={"Amy": 1, "Brian": 0, "Crystal": 0, "Dora": 0}, fi_cash=9)
    for abbr in ("AKE", "KME", "BSE", "BME"):
        place(g, abbr, "available")
    enter_phase(g, 1)  # Amy can bid 1 for the BME
    g.apply({"type": "pass", "player": "Amy"})
    assert g.journal[-1]["moves"] == (
        ("Foreign investor", "Bank", 1, "buys the BME"),
        ("Foreign investor", "Bank", 2, "buys the BSE"),
        ("Foreign investor", "Bank", 5, "buys the KME"),
    )
    assert g.fi.cash == 9 - 1 - 2 - 5
