"""Where the games are kept: one default place whatever the install mode (issue 37).

The data folder holds the database (``rss.sqlite3``), the generated session secret (``secret_key``)
and the list of files served (``databases.txt``): ``$RSS_INSTANCE`` if set, else the user's data
folder as platformdirs names it (Linux: ``$XDG_DATA_HOME/rss-assistant``, by default
``~/.local/share/rss-assistant``; macOS: ``~/Library/Application Support/rss-assistant``).

Earlier versions kept it in Flask's instance folder, which moves with the install mode: ``instance/``
in the checkout after ``pip install -e .``, ``<venv>/var/assistant.web-instance/`` after
``pip install .``.  A database with games found there is never left behind in silence: when the
data folder holds no games yet, the older folder is used as it is (its secret with it, so seats and
signed links still hold), and the start line names it with how to move it; when both hold games,
the data folder is used and the start line names the other with how to copy its games over.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path

APP = "rss-assistant"
DB_FILE = "rss.sqlite3"
ENV = "RSS_INSTANCE"
OLD_INSTALLED = "assistant.web-instance"  # Flask's instance folder of an installed package, under <prefix>/var


def standard() -> str:
    """The default data folder: the user's data folder for the app (platformdirs)."""
    import platformdirs

    return platformdirs.user_data_dir(APP, appauthor=False)  # pragma: no mutate: appauthor is read on Windows only


def older() -> list[str]:
    """The default folders of earlier versions (Flask's instance folder): the checkout's
    ``instance/`` (a checkout or an editable install) and ``<venv>/var/assistant.web-instance``."""
    top = Path(__file__).resolve().parents[2]  # the checkout (or site-packages, for a wheel)
    return [str(top / "instance"), str(Path(sys.prefix) / "var" / OLD_INSTALLED)]  # (never the same folder)


def games_in(folder: str) -> int:
    """Games in the folder's database, read-only (0: no file, empty; -1: a file that cannot be read)."""
    path = os.path.join(folder, DB_FILE)
    try:
        if os.path.getsize(path) == 0:
            return 0
    except OSError:
        return 0
    try:
        conn = sqlite3.connect(
            f"{Path(path).resolve().as_uri()}?mode=ro",
            uri=True,  # pragma: no mutate: Debian's SQLite (SQLITE_USE_URI) reads a file: URI either way
            timeout=5,  # pragma: no mutate: a lock waited for 5 s or 6: no test waits that long
        )
        try:
            count = "SELECT count(*) FROM games"  # pragma: no mutate: SQL is case-blind
            return conn.execute(count).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return -1


def _held(count: int) -> str:
    return "a database that cannot be read" if count < 0 else f"{count} game{'s' if count != 1 else ''}"


@dataclass
class Place:
    folder: str  # the data folder used
    notes: list[str] = field(default_factory=list)  # said on the start line

    @property
    def database(self) -> str:
        return os.path.join(self.folder, DB_FILE)


def choose(database: str | None = None, earlier: list[str] | None = None) -> Place:
    """The data folder to use (``$RSS_INSTANCE``, else the standard one, else an older one holding the
    games), with what the start line says about a database elsewhere.  ``database``: a file named with
    ``--db`` or ``$RSS_DB`` (only the notes depend on it); ``earlier``: the older default folders
    (``older()``: the tests give their own)."""
    explicit = os.environ.get(ENV) or None
    here = explicit or standard()
    earlier = older() if earlier is None else earlier
    others = [(f, n) for f in earlier if os.path.abspath(f) != os.path.abspath(here) and (n := games_in(f))]
    if not others:
        return Place(here)
    if not explicit and not database and not games_in(here):
        # nothing here yet: the games are where an earlier install kept them, used as they are
        folder, count = max(others, key=lambda o: _mtime(o[0]))
        place = Place(folder)
        place.notes.append(
            f"Games: {folder} holds {_held(count)}, kept there by an earlier version; it is used. The standard "
            f"place is {here}: to move them there, stop the server and run: {_move(folder, here)}"
        )
        others = [o for o in others if o[0] != folder]
    else:
        place = Place(here)
    used = database or place.database  # (an older folder's, when that one is used)
    for folder, count in others:
        source = os.path.join(folder, DB_FILE)
        place.notes.append(
            f"Games elsewhere: {source} holds {_held(count)} (an earlier version's place) that this server does "
            f"not show. To bring them here: rss-assistant copy-db --from {shlex.quote(source)} --to {shlex.quote(used)}"
        )
    return place


def _mtime(folder: str) -> float:
    try:
        return os.path.getmtime(os.path.join(folder, DB_FILE))
    except OSError:
        return 0.0


def _move(old: str, new: str) -> str:
    """The shell command that moves an older data folder's files (database, secret, list) to ``new``."""
    q = shlex.quote
    return f"mkdir -p {q(new)} && mv {q(old)}/* {q(new)}/"
