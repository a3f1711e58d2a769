"""The test suite (a package, so ``tests.project_games`` is this folder even if some installed
distribution ships a stray top-level ``tests`` package)."""

import os
import tempfile
from pathlib import Path

# The content-hashed static files (assistant/web/assets.py) are built once and shared by every
# in-process app of the tests, instead of once per test's instance folder (Brotli at its best
# takes a tenth of a second).  Names are content hashes and files appear atomically, so parallel
# runs and other checkouts can share the folder.
ASSETS_DIR = str(Path(tempfile.gettempdir()) / f"rss-test-assets-{os.getuid()}")
