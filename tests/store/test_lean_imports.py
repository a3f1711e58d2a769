"""A server process does not load numpy or pandas: sqlite-utils imports them where they are
installed, only to store their values, which this program never has (numpy alone is 13.6 MB of
every worker).  They stay importable for whoever wants them afterwards."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
from assistant.serve.server import served_app  # what a worker imports: the app, the store, sqlite-utils
import sqlite_utils.db
loaded = [name for name in ("numpy", "pandas") if sys.modules.get(name) is not None]
import numpy  # still importable afterwards
print(json.dumps({"loaded": loaded, "np": sqlite_utils.db.np is None, "numpy": numpy.__name__}))
"""


@pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None, reason="numpy is not installed here: nothing to keep out"
)
def test_a_server_process_loads_no_numpy_and_numpy_stays_importable():
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found == {"loaded": [], "np": True, "numpy": "numpy"}
