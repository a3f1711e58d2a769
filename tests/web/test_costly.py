"""Costly work takes turns (assistant/web/costly.py): a Gate lets ``slots`` of one kind run at once
and one more request wait for its turn; any other is told at once that the server is busy (503,
Retry-After).  Real threads and real child processes."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
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


def test_a_drawing_made_in_the_child_is_the_png_of_the_svg():
    png = costly.paint('<svg xmlns="http://www.w3.org/2000/svg" width="12" height="7"/>')
    assert png[:8] == b"\x89PNG\r\n\x1a\n"  # the PNG signature, then the IHDR chunk: width and height
    assert png[12:16] == b"IHDR" and png[16:24] == (12).to_bytes(4, "big") + (7).to_bytes(4, "big")


# -- what the child does first (in a child of the fork server, which tests cannot look into) ------
# ``_answer`` and ``end_with_parent`` run here in a child forked from this test process: it sees
# all this one does (mutation testing's switch among it), and whatever it changes in itself (its
# priority, its parent-death signal, its descriptors) stays in it.  It always ends with os._exit.
PR_GET_PDEATHSIG = 2


def death_signal() -> int:
    """The signal the kernel sends this process when its parent ends (0: none)."""
    sig = ctypes.c_int(-1)
    assert ctypes.CDLL(None).prctl(PR_GET_PDEATHSIG, ctypes.byref(sig)) == 0
    return sig.value


def mutation_hits() -> set:
    """The functions mutation testing (mutmut) saw called in this process while it runs the tests;
    a forked child's count for the test that forked it (sent back to it, see in_a_fork)."""
    mutmut_state = sys.modules.get("mutmut.state")
    return set(mutmut_state.state()._stats) if mutmut_state else set()


def in_a_fork(observe, *args):
    """``observe(*args)`` in a child forked from this process: ("returned", its value) or
    ("raised", the exception's repr) back over a pipe, or None when the child ended without a word;
    and the child's exit status (as os.waitstatus_to_exitcode gives it)."""
    receive, send = multiprocessing.Pipe(duplex=False)
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here
        try:
            receive.close()
            try:
                said = ("returned", observe(*args))
            except BaseException as error:  # noqa: BLE001 - sent back to the test
                said = ("raised", repr(error))
            send.send((said, mutation_hits()))
        finally:
            os._exit(0)
    send.close()
    try:
        said, hits = receive.recv() if receive.poll(60) else (None, set())
    except EOFError:
        said, hits = None, set()
    finally:
        receive.close()
    _, status = os.waitpid(pid, 0)
    if hits:
        sys.modules["mutmut.state"].state()._stats.update(hits)
    return said, os.waitstatus_to_exitcode(status)


def fork_servers_child(alive_fd):
    """This process made to hold what a child of multiprocessing's fork server holds: the fork
    server's "alive" descriptor (a copy of the worker's end of the pipe the fork server watches)."""
    from multiprocessing import forkserver as fs

    fs._forkserver._forkserver_alive_fd = alive_fd
    return fs._forkserver


def let_go_and_look():
    """end_with_parent() in a child holding the alive pipe's writing end: (the descriptor the fork
    server's state names afterwards, whether the pipe's reader sees its end, the death signal)."""
    reader, writer = os.pipe()
    server = fork_servers_child(writer)
    assert death_signal() == 0  # a forked child does not inherit its parent's
    costly.end_with_parent()
    os.set_blocking(reader, False)
    try:
        ended = os.read(reader, 1) == b""  # no writer left: the fork server sees the worker gone
    except BlockingIOError:
        ended = False  # still held
    return server._forkserver_alive_fd, ended, death_signal()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_lets_go_of_the_fork_servers_alive_pipe_and_dies_with_its_parent():
    """Once no process holds the alive pipe but the worker, the fork server ends with the worker,
    and the kernel ends the child with the fork server (SIGKILL): the child goes on otherwise."""
    assert in_a_fork(let_go_and_look) == (("returned", (None, True, signal.SIGKILL)), 0)


def without_the_fork_servers_state(state):
    """end_with_parent() where multiprocessing has no fork server object (``state`` None) or one
    without an alive descriptor: it still sets the death signal and goes on."""
    from multiprocessing import forkserver as fs

    if state is None:
        del fs._forkserver
    else:
        fs._forkserver = state
    costly.end_with_parent()
    return death_signal()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_multiprocessing_without_the_fork_servers_private_state_is_no_matter():
    import types

    assert in_a_fork(without_the_fork_servers_state, None) == (("returned", signal.SIGKILL), 0)
    assert in_a_fork(without_the_fork_servers_state, types.SimpleNamespace()) == (("returned", signal.SIGKILL), 0)


CLONE_NEWPID = 0x20000000


def adopted(middle: int, send) -> None:
    """In a grandchild whose parent ``middle`` ends at once: end_with_parent() once process 1 has
    adopted it; it says "went on" if it returns."""
    try:
        for _ in range(10_000):
            if os.getppid() != middle:
                break
            time.sleep(0.001)
        if os.getppid() != 1:  # adopted by a subreaper, not by process 1
            send.send(("adopted by", os.getppid()))
        else:
            costly.end_with_parent()
            send.send("went on")
    except BaseException as error:  # noqa: BLE001 - sent back to the test
        send.send(("raised", repr(error)))
    finally:
        os._exit(0)


def orphaned_end_with_parent():
    """end_with_parent() in a process whose parent ended before it ran: (in a PID namespace of its
    own, what the orphan and its adopter said).  In a namespace of its own (where the system lets
    it make one), the namespace's process 1 adopts it and tells its exit status."""
    own = ctypes.CDLL(None).unshare(CLONE_NEWPID) == 0  # the next child is the new namespace's process 1
    receive, send = multiprocessing.Pipe(duplex=False)
    first = os.fork()
    if first == 0:
        try:
            receive.close()
            if os.fork() == 0:
                middle = os.getpid()
                if os.fork() == 0:
                    adopted(middle, send)
                os._exit(0)  # the middle one: its child is an orphan at once
            os.wait()
            if own:
                send.send(("exit status", os.waitstatus_to_exitcode(os.wait()[1])))
        finally:
            os._exit(0)
    send.close()
    os.waitpid(first, 0)
    said = []
    while receive.poll(60):
        try:
            said.append(receive.recv())
        except EOFError:
            break
    return own, said


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_child_whose_fork_server_ended_before_it_set_its_death_signal_ends_at_once():
    """Its parent gone, the kernel would never send the signal: it ends itself (exit status 1)."""
    assert in_a_fork(costly.end_with_parent) == (("returned", None), 0)  # its parent there: it goes on
    (_, (own, said)), code = in_a_fork(orphaned_end_with_parent)
    assert code == 0
    if said and said[0][0] == "adopted by":
        pytest.skip("orphans are adopted by a subreaper here, not by process 1")
    assert said == ([("exit status", 1)] if own else [])  # it said nothing: it ended in end_with_parent


def answer_and_look(target, args):
    """_answer() with a pipe of this child's own: (what came through it, whether _answer closed its
    end, what it raised)."""
    receive, send = multiprocessing.Pipe(duplex=False)
    raised = None
    try:
        costly._answer(send, target, args)
    except ValueError as error:
        raised = repr(error)
    try:
        got = receive.recv()
    except EOFError:  # the end closed with no answer
        got = "nothing"
    return got, send.closed, raised


def what_the_work_sees(*args):
    return args, os.getpriority(os.PRIO_PROCESS, 0), death_signal()


def failing_work():
    raise ValueError("the drawing failed")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_works_at_low_priority_ending_with_its_parent_and_closes_its_pipe_even_when_the_work_fails():
    """The work runs with the arguments given, 10 below the worker's priority (nice; at most 19),
    already bound to end with its parent; its answer goes back and the pipe is closed after it, and
    after a failure too (the worker then reads the end at once)."""
    before = os.getpriority(os.PRIO_PROCESS, 0)
    said = in_a_fork(answer_and_look, what_the_work_sees, ("a", 2))
    assert said == (("returned", ((("a", 2), min(before + 10, 19), signal.SIGKILL), True, None)), 0)
    said = in_a_fork(answer_and_look, failing_work, ())
    assert said == (("returned", ("nothing", True, "ValueError('the drawing failed')")), 0)
