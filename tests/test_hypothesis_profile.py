"""The Hypothesis profile: fixed examples in CI, so a failure there can be reproduced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

from tests.conftest import hypothesis_profile

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
from hypothesis import given, strategies as st
seen = []

@given(st.integers())
def test_draws(n):
    seen.append(n)

def test_report():
    print("DRAWN", seen)
"""


def test_ci_selects_the_derandomized_profile():
    assert hypothesis_profile({"CI": "true"}) == "ci"
    assert hypothesis_profile({"CI": "1"}) == "ci"
    assert hypothesis_profile({}) == "default"
    assert hypothesis_profile({"CI": "false"}) == "default"
    assert hypothesis_profile({"CI": "true", "HYPOTHESIS_PROFILE": "default"}) == "default"
    ci = settings.get_profile("ci")
    assert ci.derandomize and ci.database is None and ci.print_blob


def test_two_ci_runs_draw_the_same_examples(tmp_path):
    """Run a small property test twice in fresh pytest processes with CI set: same examples."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tests / "test_probe.py").write_text(PROBE)
    env = dict(os.environ, CI="true")
    env.pop("HYPOTHESIS_PROFILE", None)
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", str(tests)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        runs.append(next(line for line in out.stdout.splitlines() if "DRAWN" in line))
    assert runs[0] == runs[1] and len(runs[0]) > 40
