"""Several worker processes: one killed with kill -9 in the middle of submissions loses no
acknowledged event, leaves no partial one, and the server goes on answering (the worker is
started again).  Phones on both workers at once still get exactly one event per seq (see also
test_concurrency.py, which runs against the same multi-process server)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from tests.processes import workers as _workers
from tests.project_games import one_per_row, played_game

from .conftest import Http, assert_log_is_whole, header, import_game, read_log, serial_replay


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the worker processes in Linux /proc")
def test_kill_9_of_one_worker_loses_nothing_and_the_server_goes_on(server_factory):
    data = played_game()
    events = one_per_row(data)
    srv = server_factory()
    gid = import_game(Http(srv.base), header(data))
    workers = _workers(srv.proc.pid)
    assert len(workers) == 2, workers

    acked: dict[int, tuple[str, dict]] = {}
    acked_at: list[float] = []
    lock = threading.Lock()
    done = threading.Event()
    errors: list[BaseException] = []

    def phone(n: int) -> None:
        """Posts the next event for the seq it last saw; connection errors (its worker died) retried."""
        client = Http(srv.base, timeout=10)
        try:
            while not done.is_set():
                try:
                    status, body = client.json("GET", f"/games/{gid}/state")
                    seq = body["seq"]
                    if seq >= len(events):
                        return
                    token = f"p{n}-{seq}"
                    status, body = client.json(
                        "POST", f"/games/{gid}/events", {"seq": seq, "token": token, "event": events[seq]}
                    )
                except OSError:  # the connection to the killed worker broke: retry (a 5xx is no retry)
                    client.close()
                    time.sleep(0.05)
                    continue
                if status == 200:
                    with lock:
                        assert body["seq"] not in acked, "two acknowledgements for one seq"
                        acked[body["seq"]] = (token, events[seq])
                        acked_at.append(time.monotonic())
                else:
                    assert status == 409, body
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    phones = [threading.Thread(target=phone, args=(n,)) for n in range(4)]
    for t in phones:
        t.start()
    # kill one worker once a fifth of the game is in (whatever the machine's speed), then go on until
    # events are acknowledged after the kill too or the phones are through the game
    deadline = time.monotonic() + 60
    while len(acked_at) < len(events) // 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    killed_at = time.monotonic()
    os.kill(workers[0], signal.SIGKILL)
    while time.monotonic() < deadline and any(t.is_alive() for t in phones):
        if any(t > killed_at + 0.5 for t in list(acked_at)):
            break
        time.sleep(0.1)
    time.sleep(1.0)
    done.set()
    for t in phones:
        t.join(timeout=60)
    assert not errors, errors

    info, rows = read_log(srv.db, gid)
    assert_log_is_whole(rows)
    by_seq = {r.seq: r for r in rows}
    for seq, (token, event) in acked.items():
        assert (by_seq[seq].token, by_seq[seq].event) == (token, event)
    assert any(t < killed_at for t in acked_at) and any(t > killed_at for t in acked_at), "not killed mid-game"

    # the server still answers, with a new worker in place of the killed one
    deadline = time.monotonic() + 15
    while len(_workers(srv.proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_workers(srv.proc.pid)) == 2 and workers[0] not in _workers(srv.proc.pid)
    status, shown = Http(srv.base).json("GET", f"/games/{gid}/state")
    assert status == 200 and shown.pop("seq") == len(rows)
    assert serial_replay(info, rows).snapshot() == shown
