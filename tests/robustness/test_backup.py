"""README's "Backing up the database while the server runs", done exactly as written.

While a real server takes events, run the README's backup commands (paths as in the README,
relative to the folder the server runs in); the backup is a consistent database holding a
prefix of the log; restoring it as the README says resumes every game where the backup was taken.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading

from .conftest import (
    ROOT,
    Http,
    assert_log_is_whole,
    header,
    import_game,
    load_transcript,
    read_log,
    serial_replay,
    table_events,
)

SECTION = "## Backing up the database while the server runs"


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SECTION in text, "README has a section on backups"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.DOTALL)]


def _rows(events: list[dict]):
    """The n-th row the writer posts: the game's events, then an undo and a redo in turn, for as
    long as it is asked (the writes go on through every backup, however fast the writer is)."""

    def row(n: int) -> dict:
        if n < len(events):
            return events[n]
        return {"type": "undo" if (n - len(events)) % 2 == 0 else "redo"}

    return row


def test_readme_backup_commands_give_a_consistent_copy_during_writes(server_factory, tmp_path):
    commands = _readme_commands()
    assert len(commands) == 2 and "~/.local/share/rss-assistant/rss.sqlite3" in commands[0] and "backup(" in commands[1]
    data = load_transcript()
    events = table_events(data)
    row = _rows(events)
    # where the README says the database is (Linux's default data folder), under a home of the test's own
    db = tmp_path / ".local" / "share" / "rss-assistant" / "rss.sqlite3"
    db.parent.mkdir(parents=True)
    home = dict(os.environ, HOME=str(tmp_path))
    home.pop("XDG_DATA_HOME", None)
    srv = server_factory(db)
    gid = import_game(Http(srv.base), header(data))
    stop = threading.Event()
    acked = []
    failures: list[BaseException] = []  # the writer's errors, re-raised in the test's thread

    def writer():
        phone = Http(srv.base)
        seq = 0
        try:
            while not stop.is_set():  # until the backups are done: never out of rows to write
                status, body = phone.json("POST", f"/games/{gid}/events", {"seq": seq, "event": row(seq)})
                assert status == 200, body
                seq = body["seq"]
                acked.append(seq)
        except BaseException as err:  # noqa: BLE001 - re-raised below
            failures.append(err)
        finally:
            phone.close()
            stop.set()

    thread = threading.Thread(target=writer)
    thread.start()
    backups = []
    try:
        while len(acked) < 20 and not stop.is_set():
            stop.wait(0.01)
        if failures:
            raise failures[0]
        assert len(acked) >= 20, "the writer stopped before 20 events"
        for n, command in enumerate(commands):
            if command.startswith("sqlite3") and not shutil.which("sqlite3"):
                continue
            command = command.replace("$(date +%F)", f"cli{n}")
            before = len(acked)  # acknowledged before the backup began: all of it is in the backup
            if command.startswith("python "):
                command = shlex.quote(sys.executable) + command[len("python") :]
            subprocess.run(command, shell=True, cwd=tmp_path, check=True, timeout=60, env=home)
            out = "backup-cli0.sqlite3" if n == 0 else "backup.sqlite3"
            backups.append((tmp_path / out, before))
            stop.wait(0.2)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive()
    if failures:
        raise failures[0]
    assert backups, "no backup command could run"

    for path, at_least in backups:
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        info, rows = read_log(path, gid)
        assert_log_is_whole(rows)
        assert len(rows) >= at_least and [r.event for r in rows] == [row(n) for n in range(len(rows))]
        serial_replay(info, rows)

    # restore as the README says: stop the server, replace the file, delete -wal/-shm, start again
    backup, _ = backups[-1]
    _, kept = read_log(backup, gid)
    srv.stop()
    shutil.copy(backup, db)
    for suffix in ("-wal", "-shm"):
        (db.parent / (db.name + suffix)).unlink(missing_ok=True)
    again = server_factory(db)
    status, shown = Http(again.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and shown.pop("seq") == len(kept)
    assert shown == serial_replay(read_log(db, gid)[0], kept).snapshot()
    status, body = Http(again.base).json("POST", f"/games/{gid}/events", {"seq": len(kept), "event": row(len(kept))})
    assert status == 200 and body["seq"] == len(kept) + 1  # the game goes on from the backup
