"""My decisions first, also in the phases where everyone may act at once: a seated phone shows its
own decisions in the open and every other seat's folded behind "Enter for …"."""

from __future__ import annotations

import re

from .helper_positions import game_of, import_position


def _close_buttons(html: str) -> set[str]:
    return set(re.findall(r"Close (\w+)", html))


def test_in_the_closing_phase_a_seated_phone_shows_its_own_closings_first_and_folds_the_others(client, table):
    game = game_of("closing_two")
    deciders: dict[str, set[str]] = {}
    for item in game.legal_actions():
        if item["type"] == "close":
            deciders.setdefault(item["player"], set()).add(item["company"])
    me, *others = sorted(deciders)
    gid = import_position(client, "closing_two")
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": me})
    panel = client.get(f"/games/{gid}/c/actions").text
    open_part, *folded = re.split(r'<details class="other"', panel)
    assert "Your decisions" in open_part
    assert _close_buttons(open_part) == deciders[me]
    for other in others:
        block = next(b for b in folded if f"Enter for {other}…" in b)
        assert _close_buttons(block) == deciders[other]


def test_in_the_acquisitions_phase_each_other_president_has_one_enter_for(client, table):
    """Issue 37: "Enter for X…" appeared twice (X's corporations to pick, then X's "I'm done").
    One fold per other president now holds both."""
    game = game_of("acquisition_two")
    presidents = sorted(
        {game.corps[m["corporation"]].president for m in game.legal_actions() if m["type"] == "acquire"}
    )
    me, *others = presidents
    gid = import_position(client, "acquisition_two")
    client.post(f"/games/{gid}/seat", data={"csrf_token": table.csrf(gid), "player": me})
    panel = client.get(f"/games/{gid}/c/actions").text
    assert others
    for other in others:
        assert panel.count(f"Enter for {other}…") == 1, other
        block = panel[
            panel.index(f"Enter for {other}…") : panel.index("</details>", panel.index(f"Enter for {other}…"))
        ]
        theirs = [c for c, corp in game.corps.items() if corp.president == other]
        assert any(f"{c} <small>· cash" in block for c in theirs)  # their corporations to pick, in their fold
