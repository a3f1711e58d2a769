"""Turn 1 of a 3-player game as the table enters it: setup reveals, two auctions (each followed by
its reveal), passes, the wrap-up's reveal (the foreign investor bought the BME), "phase 4 done",
one IPO (Amy: KME as Prussian Railway at 10) and one skip (Crystal keeps the BSE).

``TURN_ONE[:AT_PHASE_4]`` stops in phase 4; ``TURN_ONE[:AT_IPO]`` stops at the KME's IPO.
"""

PLAYERS = ["Amy", "Brian", "Crystal"]

TURN_ONE = [
    {"type": "reveal", "company": "BME"},
    {"type": "reveal", "company": "BSE"},
    {"type": "reveal", "company": "KME"},
    {"type": "bid", "player": "Amy", "company": "KME", "price": 5},
    {"type": "bid", "player": "Brian", "company": "KME", "price": 6},
    {"type": "leave", "player": "Crystal"},
    {"type": "bid", "player": "Amy", "company": "KME", "price": 7},
    {"type": "leave", "player": "Brian"},
    {"type": "reveal", "company": "MHE"},
    {"type": "bid", "player": "Brian", "company": "BSE", "price": 2},
    {"type": "bid", "player": "Crystal", "company": "BSE", "price": 3},
    {"type": "leave", "player": "Amy"},
    {"type": "leave", "player": "Brian"},
    {"type": "reveal", "company": "WT"},
    {"type": "pass", "player": "Crystal"},
    {"type": "pass", "player": "Amy"},
    {"type": "pass", "player": "Brian"},
    {"type": "reveal", "company": "BY"},
    {"type": "done", "phase": 4},
    {"type": "ipo", "company": "KME", "corporation": "Prussian Railway", "price": 10},
    {"type": "skip_ipo", "company": "BSE"},
]
AT_PHASE_4 = 18
AT_IPO = 19


def play(table, gid, events) -> int:
    """Enter ``events`` through the JSON door of a ``conftest.Table``; returns the seq."""
    seq = table.state(gid)["seq"]
    for event in events:
        resp = table.post_json(gid, {"seq": seq, "event": event})
        assert resp.status_code == 200, (event, resp.get_json())
        seq = resp.get_json()["seq"]
    return seq
