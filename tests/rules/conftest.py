"""Shared fixtures and paths for the rules engine tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:  # `pytest` run without `python -m`
    sys.path.insert(0, str(REPO))

# The read-only ground truth lives next to the repository (../shared); it is never read by the app.
SHARED = REPO.parent / "shared"
CARDS_JSON = SHARED / "cards" / "rolling-stock-stars.json"
CONFORMANCE = SHARED / "conformance"
RULEBOOK = SHARED / "seeds" / "rolling-stock-stars-rulebook.txt"


def require(path: Path, what: str) -> Path:
    """Skip the calling test with a clear reason when a piece of ../shared is absent."""
    if not path.exists():
        pytest.skip(f"{what} not found at {path} (the read-only ../shared folder is not beside the repository)")
    return path
