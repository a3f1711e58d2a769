"""A database that vanishes under the running server (issue 18, failure 5), against the real
server (``python -m assistant serve``, two worker processes):

* deleting the database's folder: open connections would go on writing to the deleted file and
  answer 200; the server notices that the file is gone and answers 503 with a clear message;
* replacing the file by another one: the same;
* the next start refuses to make a new, empty database where the file it served is gone (the
  instance folder remembers the files it served)."""

from __future__ import annotations

import shutil
import time

from .conftest import Http, Server, import_game, load_transcript
from .test_damaged_db import serve_until_refused


def _game(client) -> tuple[str, int]:
    gid = import_game(client, {**load_transcript(), "events": []})
    status, state = client.json("GET", f"/games/{gid}/state")
    assert status == 200
    return gid, state["seq"]


def _polled(base: str, gid: str, seq: int) -> None:
    """Polls of both workers for a while: each worker's waker then knows the game's seq and answers
    its polls without asking the database (assistant/serve/known.py)."""
    for _ in range(12):
        assert Http(base).request("GET", f"/games/{gid}/version?seq={seq}")[0] == 204
        time.sleep(0.05)


def _polls_refused(base: str, gid: str, seq: int) -> list[int]:
    """The polls of both workers, a moment after the change (each worker's waker looks every 50 ms)."""
    time.sleep(0.3)
    return [Http(base).request("GET", f"/games/{gid}/version?seq={seq}")[0] for _ in range(8)]


def test_deleting_the_database_folder_under_the_server_gives_503_and_no_acknowledged_write(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "games.sqlite3"
    srv = Server(db, tmp_path).start()
    try:
        client = Http(srv.base)
        gid, seq = _game(client)
        _polled(srv.base, gid, seq)
        shutil.rmtree(folder)
        assert _polls_refused(srv.base, gid, seq) == [503] * 8
        answers = []
        for _ in range(8):  # several connections of both workers
            status, body = Http(srv.base).json("POST", f"/games/{gid}/events", {"seq": seq, "event": {"type": "undo"}})
            answers.append(status)
            assert status == 503, (status, body)
            assert "was deleted while the server ran" in body["error"] and "nothing more is saved" in body["error"]
        page_status, _, page = client.request("GET", f"/games/{gid}", headers={"Accept": "text/html"})
        assert page_status == 503 and "was deleted while the server ran" in page.decode()
        poll_status, _, _ = client.request("GET", f"/games/{gid}/version?seq={seq}")
        assert poll_status == 503
        print(f"\nwrites after the folder was deleted: {answers}")
        assert "Traceback" not in srv.output()
    finally:
        srv.stop()
    # the next start refuses a new, empty database in its place
    refused = serve_until_refused(db, tmp_path)
    assert refused.returncode == 2
    assert "is gone, but this server has served it before" in refused.stderr, refused.stderr
    assert not db.exists()


def test_replacing_the_database_file_under_the_server_gives_503(tmp_path):
    db = tmp_path / "games.sqlite3"
    srv = Server(db, tmp_path).start()
    try:
        client = Http(srv.base)
        gid, seq = _game(client)
        other = tmp_path / "other.sqlite3"
        shutil.copy(db, other)
        _polled(srv.base, gid, seq)
        other.replace(db)  # another file at the same path (a restore while the server runs)
        assert _polls_refused(srv.base, gid, seq) == [503] * 8
        status, body = Http(srv.base).json("POST", f"/games/{gid}/events", {"seq": seq, "event": {"type": "undo"}})
        assert status == 503 and "was replaced by another file while the server ran" in body["error"]
    finally:
        srv.stop()
    restarted = Server(db, tmp_path).start()  # a restart serves the file that is there now
    try:
        status, state = Http(restarted.base).json("GET", f"/games/{gid}/state")
        assert status == 200 and state["seq"] == seq
    finally:
        restarted.stop()
