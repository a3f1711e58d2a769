"""``python -m assistant replay FILE`` dispatches on the transcript's ``game`` (issue 10)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from assistant.rules import registry
from tests.project_games import played_game
from tests.renaming import name_map, rename_transcript, rename_value

from .conftest import CONFORMANCE, REPO


def _replay(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "assistant", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def _with_checkpoint(data: dict) -> dict:
    return dict(data, events=[*data["events"], {"type": "expect"}])


def test_replay_of_stars_and_v22_transcripts(tmp_path):
    stars = _with_checkpoint(played_game(limit=150))
    v22 = rename_transcript(stars, registry.V22)
    (tmp_path / "stars.json").write_text(json.dumps(stars))
    (tmp_path / "v22.json").write_text(json.dumps(v22))
    a, b = _replay(tmp_path / "stars.json"), _replay(tmp_path / "v22.json")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    last_a, last_b = json.loads(a.stdout.splitlines()[-1]), json.loads(b.stdout.splitlines()[-1])
    assert last_a["state"]["corporations"], "the checkpoint should show corporations"
    assert last_b == rename_value(last_a, name_map(registry.STARS, registry.V22))
    assert set(last_b["state"]["corporations"]) <= set(registry.V22.corporations)


def test_replay_refuses_an_unknown_game_with_a_clear_message(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(dict(played_game(limit=5), game="rolling-stock-v9")))
    proc = _replay(path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unknown game 'rolling-stock-v9'" in proc.stderr
    for key in registry.RULESETS:
        assert key in proc.stderr


def test_replay_refuses_a_variant_the_game_does_not_have(tmp_path):
    path = tmp_path / "v22.json"
    path.write_text(json.dumps(dict(played_game(limit=5), game="rolling-stock-v2.2", options=["two_handed"])))
    proc = _replay(path)
    assert proc.returncode == 2 and "no variant 'two_handed'" in proc.stderr


def test_replay_of_a_classic_transcript():
    samples = sorted((CONFORMANCE / "classic").glob("*.json")) if (CONFORMANCE / "classic").is_dir() else []
    if not samples:
        pytest.skip(f"no classic transcripts at {CONFORMANCE / 'classic'} (../shared is not beside the repository)")
    proc = _replay(samples[0])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.count("\n") > 10


def test_phases_that_end_right_after_a_position_are_reported(tmp_path):
    """Issue 25: after a position, phases that end without any decision are still checkpoints.
    Turn 5 of the hand-laid position with nobody able to act in phase 1 (no money, no shares),
    the foreign investor unable to buy (4 < the WT's 11) and Doppler AG in receivership: phases
    1-3 end by themselves as the game resumes.  In phase 3 the receiver buys the foreign
    investor's AKE at the maximum of its span (8): treasury 10 - 8 = 2, the investor 4 + 8 = 12."""
    from .test_position_refusals import DOPPLER, PLAYERS, stars_position

    pos = stars_position()
    for p in pos["state"]["players"].values():
        p["cash"], p["shares"] = 0, {}
    corp = pos["state"]["corporations"][DOPPLER]
    corp["president"], corp["bank_shares"] = None, 2
    transcript = {"format": "rss-table-transcript", "version": 1, "game": "rolling-stock-stars", "players": PLAYERS,
                  "options": [], "position": pos, "events": [
                      {"type": "expect", "at": {"turn": 5, "phase": 1}},
                      {"type": "expect", "at": {"turn": 5, "phase": 3}},
                      {"type": "expect"}]}  # fmt: skip
    (tmp_path / "t.json").write_text(json.dumps(transcript))
    out = _replay(tmp_path / "t.json")
    assert out.returncode == 0, out.stderr
    end1, end3, now = (json.loads(line)["state"] for line in out.stdout.splitlines())
    assert end1 is not None and (end1["turn"], end1["phase"]) == (5, 1)
    assert end3["corporations"][DOPPLER]["companies"] == ["BSE", "AKE"]
    assert end3["corporations"][DOPPLER]["cash"] == 2 and end3["foreign_investor"]["cash"] == 12
    assert (now["phase"], now["next"]) == (4, {"for": "closing"})  # Amy and Brian own companies
