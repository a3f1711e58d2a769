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
