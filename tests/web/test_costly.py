"""Costly work takes turns (assistant/web/costly.py): a Gate lets ``slots`` of one kind run at once
and one more request wait for its turn; any other is told at once that the server is busy (503,
Retry-After).  Real threads and real child processes."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time

import pytest

from assistant.rules.core import deadline
from assistant.web import costly
from assistant.web.deadlines import RETRY_AFTER


def hold(gate: costly.Gate, entered: threading.Event, release: threading.Event, outcome: list):
    """A request that takes its turn and keeps it until ``release``; ``outcome`` gets "ran" or the Busy."""
    try:
        with gate.turn():
            entered.set()
            release.wait(10)
            outcome.append("ran")
    except costly.Busy as busy:
        outcome.append(busy)
        entered.set()


def start(gate, outcome, release):
    entered = threading.Event()
    thread = threading.Thread(target=hold, args=(gate, entered, release, outcome), daemon=True)
    thread.start()
    return thread, entered


def test_one_turn_at_a_time_one_waits_and_the_next_is_told_at_once_the_server_is_busy():
    gate = costly.Gate("drawings", wait=5.0)
    release = threading.Event()
    first: list = []
    running, entered = start(gate, first, release)
    assert entered.wait(5)
    second: list = []
    waiting, _ = start(gate, second, release)
    time.sleep(0.3)  # the second now waits for the slot
    assert not second
    began = time.monotonic()
    with pytest.raises(costly.Busy) as third:
        with gate.turn():
            pass
    assert time.monotonic() - began < 0.5  # told at once, not after the wait
    assert third.value.code == 503
    assert third.value.retry_after == RETRY_AFTER
    assert third.value.description == "The server is busy with other drawings right now. Try again in a few seconds."
    release.set()
    running.join(5)
    waiting.join(5)
    assert first == ["ran"] and second == ["ran"]  # the waiting one got its turn when the first ended
    with gate.turn():  # every slot and the waiting place are free again
        pass


def test_a_request_waits_at_most_the_gates_wait_and_then_hears_busy():
    gate = costly.Gate("imports", wait=0.4)
    release = threading.Event()
    first: list = []
    running, entered = start(gate, first, release)
    assert entered.wait(5)
    began = time.monotonic()
    with pytest.raises(costly.Busy):
        with gate.turn():
            pass
    assert 0.35 < time.monotonic() - began < 3
    release.set()
    running.join(5)
    # the waiting place was given back: a request now waits again (and gets the free slot)
    with gate.turn():
        pass


def test_two_slots_let_two_run_at_once_and_a_failed_turn_gives_its_slot_back():
    gate = costly.Gate("checks", slots=2, wait=0.2)
    release = threading.Event()
    outcomes: list = []
    threads = [start(gate, outcomes, release) for _ in range(2)]
    for _, entered in threads:
        assert entered.wait(5)
    assert outcomes == []  # both inside at once, neither told busy
    release.set()
    for thread, _ in threads:
        thread.join(5)
    assert outcomes == ["ran", "ran"]
    with pytest.raises(ValueError):
        with gate.turn():
            raise ValueError("the work failed")
    for _ in range(2):  # the failed one's slot is free again (else the second would be busy)
        with gate.turn():
            pass


def test_the_default_gate_has_one_slot_and_waits_one_second():
    gate = costly.Gate("drawings")
    assert gate.what == "drawings" and gate.wait == costly.WAIT_SECONDS == 1.0
    with gate.turn():
        began = time.monotonic()
        with pytest.raises(costly.Busy):  # the one slot is taken: this one waits the second, then busy
            with gate.turn():
                pass
        assert 0.9 < time.monotonic() - began < 3


# -- work in a child process -------------------------------------------------------------------
def who_am_i():
    """In the child: its parent, its name and whether it is a daemon."""
    child = multiprocessing.current_process()
    return os.getppid(), child.name, child.daemon


def die_by(sig):
    os.kill(os.getpid(), sig)


def test_the_work_runs_in_a_daemon_child_of_the_fork_server_named_rss_child():
    parent, name, daemon = costly.in_a_child(who_am_i, (), 30)
    assert parent != os.getpid()  # forked from the fork server, never from this process and its threads
    assert name == "rss-child"
    assert daemon is True  # a worker that stops takes it along


def test_a_child_that_dies_without_an_answer_is_child_died_and_a_killed_one_too_long():
    with pytest.raises(costly.ChildDied, match=r"^the child process died \(exit code 3\)$"):
        costly.in_a_child(os._exit, (3,), 30)
    with pytest.raises(costly.ChildDied, match=rf"\(exit code -{signal.SIGTERM.value}\)"):
        costly.in_a_child(die_by, (signal.SIGTERM,), 30)
    for sig in (signal.SIGKILL, signal.SIGXCPU):  # killed at the deadline, or past its CPU limit
        with pytest.raises(deadline.TooLong):
            costly.in_a_child(die_by, (sig,), 30)


def drop_the_pipe_and_linger(seconds):
    os.closerange(3, 1024)  # the answer's pipe among them: the parent reads its end at once
    time.sleep(seconds)


def test_a_child_that_dropped_its_pipe_is_given_one_second_to_end_and_then_killed():
    began = time.monotonic()
    with pytest.raises(costly.ChildDied, match=r"\(exit code None\)$"):  # still there after the second
        costly.in_a_child(drop_the_pipe_and_linger, (1.5,), 30)
    assert time.monotonic() - began < 1.5 + 5  # killed, not waited for


def test_a_child_past_the_request_deadline_is_too_long_at_once(monkeypatch):
    monkeypatch.setenv("RSS_REQUEST_SECONDS", "7")
    began = time.monotonic()
    with deadline.within(0.000001), pytest.raises(deadline.TooLong):
        costly.in_a_child(time.sleep, (20,), 30)
    assert time.monotonic() - began < 10  # not the child's 20 s
    with pytest.raises(deadline.TooLong) as late:
        costly.in_a_child(time.sleep, (20,), 0.5)
    assert late.value.message.startswith("This took longer than the 7 s the server gives one request")


def test_a_drawing_that_cannot_be_made_is_busy_try_again_and_a_passed_deadline_too_long():
    with pytest.raises(costly.Busy) as busy:
        costly.paint("not an svg")  # resvg refuses it in the child, which ends without an answer
    assert busy.value.description == "The drawing could not be made: try again."
    assert busy.value.retry_after == RETRY_AFTER
    with deadline.within(0.000001), pytest.raises(deadline.TooLong):
        costly.paint('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')


def test_the_app_has_a_gate_for_drawings_and_score_checks_and_one_for_imports(app):
    gates = app.extensions["rss_gates"]
    assert {kind: gate.what for kind, gate in gates.items()} == {
        "render": "drawings and score checks",
        "trial": "imports and resumed games",
    }
    with app.app_context():
        with costly.turn("trial"):
            with pytest.raises(costly.Busy, match="busy with other imports and resumed games"):
                with costly.turn("trial"):
                    pass
