"""Conformance: every shared transcript replays through ``python -m assistant replay``.

The transcripts and the checker are read where they are (../shared/conformance), never
copied into the repository; without that folder the tests skip with the reason.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import CONFORMANCE, REPO

# Rolling Stock Stars transcripts in games/, classic Rolling Stock ones in classic/
GAMES = sorted(p for folder in ("games", "classic") for p in (CONFORMANCE / folder).glob("*.json"))


def test_the_conformance_folder_is_there():
    if not CONFORMANCE.is_dir():
        pytest.skip(f"no conformance folder at {CONFORMANCE} (../shared is not beside the repository)")
    assert (CONFORMANCE / "check.py").is_file()
    assert any(p.parent.name == "games" for p in GAMES), f"no transcript in {CONFORMANCE / 'games'}"
    assert any(p.parent.name == "classic" for p in GAMES), f"no transcript in {CONFORMANCE / 'classic'}"


@pytest.mark.parametrize("transcript", GAMES or [None], ids=[f"{p.parent.name}/{p.name}" for p in GAMES] or ["absent"])
def test_transcript_passes_the_checker(transcript):
    if transcript is None:
        pytest.skip(f"no transcripts at {CONFORMANCE / 'games'} (../shared is not beside the repository)")
    proc = subprocess.run(
        [
            sys.executable,
            str(CONFORMANCE / "check.py"),
            "--project",
            str(REPO),
            "--python",
            sys.executable,
            str(transcript),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 passed, 0 failed" in proc.stdout, proc.stdout
