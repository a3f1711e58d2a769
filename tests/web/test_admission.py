"""The app's requests take turns in a worker (assistant/serve/admit.py): one at a time while they
compute, the next one let in when a running one has gone on past the grace (it waits, or it is
costly), never more than the worker's threads, and one given up before its turn never runs.

Real threads (a ThreadPoolExecutor) and a real event loop; the jobs are plain functions."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from assistant.serve.admit import Admission, Crowded, client_queue, grace_seconds

PHONE = "127.0.0.1"  # a client address


class Jobs:
    """Jobs that note when they start and end, and how many run at once."""

    def __init__(self):
        self.lock = threading.Lock()
        self.now = self.most = 0
        self.started: dict[str, float] = {}
        self.ended: dict[str, float] = {}
        self.order: list[str] = []

    def job(self, name: str, work=lambda: time.sleep(0.02)):
        def run():
            with self.lock:
                self.now += 1
                self.most = max(self.most, self.now)
                self.started[name] = time.monotonic()
                self.order.append(name)
            try:
                work()
                return name
            finally:
                with self.lock:
                    self.now -= 1
                    self.ended[name] = time.monotonic()

        return run


LIMIT = 15.0  # seconds a test's loop may take (each takes well under 2): a request never answered fails
GATES: list[threading.Event] = []


def gate() -> threading.Event:
    """An event a job waits on; all are set when a test's loop ends, so a failed test's jobs end too."""
    GATES.append(threading.Event())
    return GATES[-1]


def _end(pool: ThreadPoolExecutor, wait: bool = True) -> None:
    for event in GATES:
        event.set()
    GATES.clear()
    pool.shutdown(wait=wait)


def run_with(threads: int, grace: float, table):
    """``table(admission)`` on a real loop; the admission's limit is ``threads``, its pool has four
    threads more, so whatever holds a request back is the admission, never a pool with no thread free."""
    pool = ThreadPoolExecutor(max_workers=threads + 4)
    try:
        return asyncio.run(asyncio.wait_for(table(Admission(pool, threads, grace=grace)), LIMIT))
    finally:
        _end(pool)


def test_requests_within_the_grace_run_one_at_a_time_in_the_order_they_came():
    jobs = Jobs()

    async def table(admission):
        # five requests at once on four threads; each computes 20 ms, well within a 10 s grace
        return await asyncio.gather(*(admission.submit(jobs.job(f"r{i}"), PHONE) for i in range(5)))

    assert run_with(4, 10.0, table) == ["r0", "r1", "r2", "r3", "r4"]
    assert jobs.most == 1  # never two at once (plain threads: four at once)
    assert jobs.order == ["r0", "r1", "r2", "r3", "r4"]


def test_a_request_running_past_the_grace_lets_the_next_one_start():
    """A waits (an event nobody sets for 5 s); B, behind it, starts after A's 50 ms grace and is
    answered while A still waits."""
    jobs, release = Jobs(), gate()

    async def table(admission):
        a = admission.submit(jobs.job("A", lambda: release.wait(5)), PHONE)
        b = admission.submit(jobs.job("B"), PHONE)
        assert await asyncio.wait_for(b, 2) == "B"
        a_was_running = not a.done()
        release.set()
        return a_was_running, await a

    a_was_running, a = run_with(2, 0.05, table)
    assert a_was_running and a == "A"
    assert jobs.started["B"] - jobs.started["A"] >= 0.045  # B was held back for the grace
    assert jobs.ended["B"] < jobs.ended["A"]


def test_never_more_requests_at_once_than_the_workers_threads():
    """Three threads, three addresses with two waiting requests each (each address may hold two of
    the three threads): by hand, each address's first request runs, and no fourth one while they wait."""
    jobs, release = Jobs(), gate()

    async def table(admission):
        waiting = [
            admission.submit(jobs.job(f"{c}-{i}", lambda: release.wait(5)), f"127.0.0.{c}")
            for i in range(2)
            for c in (1, 2, 3)
        ]
        await asyncio.sleep(0.4)  # many graces: all six would have started (the pool has seven threads)
        started = sorted(jobs.started)
        release.set()
        return started, await asyncio.gather(*waiting)

    started, answers = run_with(3, 0.01, table)
    assert started == ["1-0", "2-0", "3-0"] and jobs.most == 3
    assert answers == ["1-0", "2-0", "3-0", "1-1", "2-1", "3-1"]  # those held back ran once threads were free


def test_a_request_given_up_before_its_turn_never_runs_and_errors_reach_the_caller():
    jobs, release = Jobs(), gate()

    def fails():
        raise ValueError("the app's own error")

    async def table(admission):
        first = admission.submit(jobs.job("first", lambda: release.wait(5)), PHONE)
        given_up = admission.submit(jobs.job("given up"), PHONE)
        await asyncio.sleep(0.1)  # the only thread has taken the first one
        assert given_up.cancel()
        release.set()
        assert await first == "first"
        with pytest.raises(ValueError, match="the app's own error"):
            await admission.submit(fails, PHONE)
        after = await admission.submit(jobs.job("after"), PHONE)
        return after, admission.running, admission.fresh

    after, running, fresh = run_with(1, 0.0, table)
    assert after == "after" and jobs.order == ["first", "after"]
    assert running == 0 and fresh == 0  # nothing counted as running once all ended


# -- fair turns between clients (issue 38: one address cannot hold another's request back by more
# than about one request) --------------------------------------------------------------------------
def test_clients_take_turns_so_a_long_line_holds_another_back_by_one_request_only():
    """The attacker (127.0.0.2) has ten requests waiting before the table's phone (127.0.0.1) asks;
    one at a time (a long grace): by hand, the attacker's first one runs, then the phone's, then the
    attacker's nine others (plain first-come turns would run the phone's eleventh)."""
    jobs = Jobs()

    async def table(admission):
        attack = [admission.submit(jobs.job(f"a{i}"), "127.0.0.2") for i in range(10)]
        phone = admission.submit(jobs.job("phone"), "127.0.0.1")
        await asyncio.gather(phone, *attack)

    run_with(4, 10.0, table)
    assert jobs.order == ["a0", "phone", *(f"a{i}" for i in range(1, 10))]


def test_a_clients_line_is_bounded_and_past_it_a_request_is_refused_at_once():
    """A line of 3: the address's first request runs and three wait; the fifth is refused before it
    waits (Crowded), and another address's request is still taken and answered."""
    jobs, release = Jobs(), gate()

    async def table(admission):
        held = [admission.submit(jobs.job(f"a{i}", lambda: release.wait(5)), "127.0.0.2") for i in range(4)]
        with pytest.raises(Crowded, match=r"^127\.0\.0\.2$"):  # it names the address refused
            admission.submit(jobs.job("a4"), "127.0.0.2")
        phone = admission.submit(jobs.job("phone"), "127.0.0.1")
        release.set()
        return await phone, await asyncio.gather(*held)

    phone, held = asyncio.run(_with_admission(1, 0.0, 3, table))
    assert phone == "phone" and held == ["a0", "a1", "a2", "a3"]
    assert "a4" not in jobs.started  # the refused one never ran


def test_one_thread_is_always_left_for_another_address():
    """Four threads, no grace: the attacker's ten slow requests take three threads, not four, and
    the phone's request, coming later, starts at once on the fourth and is answered while all three
    still wait."""
    jobs, release = Jobs(), gate()

    async def table(admission):
        attack = [admission.submit(jobs.job(f"a{i}", lambda: release.wait(5)), "127.0.0.2") for i in range(10)]
        await asyncio.sleep(0.3)
        running_before = jobs.now
        phone = await asyncio.wait_for(admission.submit(jobs.job("phone"), "127.0.0.1"), 2)
        still_waiting = jobs.now
        release.set()
        await asyncio.gather(*attack)
        return running_before, phone, still_waiting

    running_before, phone, still_waiting = run_with(4, 0.0, table)
    assert running_before == 3 and phone == "phone" and still_waiting == 3


async def _with_admission(threads: int, grace: float, queue: int, table):
    pool = ThreadPoolExecutor(max_workers=threads + 4)  # as in run_with: the admission holds requests back
    try:
        return await asyncio.wait_for(table(Admission(pool, threads, grace=grace, queue=queue)), LIMIT)
    finally:
        _end(pool, wait=False)


async def _until(condition, limit: float = 10.0) -> None:
    """Waits on the loop until ``condition()``, failing after ``limit`` seconds (generous: the machine
    may be loaded; nothing here depends on how fast it is)."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "never came true"
        await asyncio.sleep(0.01)


# -- the settings (docs/operations.md: RSS_GRACE_MS, 50 ms by default; RSS_CLIENT_QUEUE, 32) ----------
def test_the_grace_and_the_line_come_from_the_settings(monkeypatch):
    monkeypatch.delenv("RSS_GRACE_MS", raising=False)
    monkeypatch.delenv("RSS_CLIENT_QUEUE", raising=False)
    assert grace_seconds() == 0.05 and client_queue() == 32
    monkeypatch.setenv("RSS_GRACE_MS", "250")  # milliseconds
    monkeypatch.setenv("RSS_CLIENT_QUEUE", "5")
    assert grace_seconds() == 0.25 and client_queue() == 5


def test_an_admission_given_no_grace_nor_line_takes_the_settings(monkeypatch):
    """RSS_GRACE_MS=1000, RSS_CLIENT_QUEUE=2, two threads. A waits; B, from another address, starts
    once A has run its 1 s grace, not before (and is answered while A still waits). Then the address
    127.0.0.9, with both threads busy (A and its own first one), may have two waiting, not three."""
    monkeypatch.setenv("RSS_GRACE_MS", "1000")
    monkeypatch.setenv("RSS_CLIENT_QUEUE", "2")
    jobs, release = Jobs(), gate()

    async def table(admission):
        a = admission.submit(jobs.job("A", lambda: release.wait(20)), PHONE)
        assert await asyncio.wait_for(admission.submit(jobs.job("B"), "127.0.0.3"), 15) == "B"
        a_was_running = not a.done()
        held = [admission.submit(jobs.job(f"c{i}", lambda: release.wait(20)), "127.0.0.9") for i in range(3)]
        with pytest.raises(Crowded):
            admission.submit(jobs.job("c3"), "127.0.0.9")
        release.set()
        return a_was_running, await asyncio.gather(a, *held)

    pool = ThreadPoolExecutor(max_workers=6)
    try:
        a_was_running, answers = asyncio.run(asyncio.wait_for(table(Admission(pool, 2)), LIMIT))
    finally:
        _end(pool)
    assert a_was_running and answers == ["A", "c0", "c1", "c2"]
    assert jobs.started["B"] - jobs.started["A"] >= 0.95  # held back for the grace of 1 s
    assert "c3" not in jobs.started


def test_a_grace_given_is_kept_whatever_the_setting(monkeypatch):
    """RSS_GRACE_MS=60000 (a minute), but the admission is given no grace: B starts while A waits."""
    monkeypatch.setenv("RSS_GRACE_MS", "60000")
    jobs, release = Jobs(), gate()

    async def table(admission):
        a = admission.submit(jobs.job("A", lambda: release.wait(20)), PHONE)
        b = await asyncio.wait_for(admission.submit(jobs.job("B"), "127.0.0.3"), 15)
        a_was_running = not a.done()
        release.set()
        return b, a_was_running, await a

    assert run_with(2, 0.0, table) == ("B", True, "A")


@pytest.mark.parametrize(("threads", "one_address_holds"), [(2, 2), (3, 2), (4, 3)])
def test_one_address_holds_all_threads_but_one_from_three_threads_on(threads, one_address_holds):
    """The module: "With three threads or more, an address may hold all of them but one": with two,
    it holds both; with three, two; with four, three. The requests beyond wait (no grace: each is
    handed to the pool when submitted, so the counts are known at once)."""
    release = gate()

    async def table(admission):
        held = [admission.submit(lambda: release.wait(20), "127.0.0.2") for _ in range(5)]
        counted = admission.running, admission.waiting
        release.set()
        await asyncio.gather(*held)
        return counted

    assert run_with(threads, 0.0, table) == (one_address_holds, 5 - one_address_holds)


def test_an_address_with_nothing_waiting_nor_running_starts_afresh():
    """One thread. A's only request is given up before its turn: A has nothing waiting nor running and
    is forgotten. By hand: G's g1 is turn 2; A's next request and B's first both come after it (turn
    3) with no previous turn, so the earlier, A's, goes first. Were A remembered (its given-up request
    was turn 2), B's would go first."""
    jobs, first, second = Jobs(), gate(), gate()

    async def table(admission):
        g0 = admission.submit(jobs.job("g0", lambda: first.wait(20)), "127.0.0.7")
        given_up = admission.submit(jobs.job("given up"), "127.0.0.1")
        assert given_up.cancel()
        first.set()
        await g0
        g1 = admission.submit(jobs.job("g1", lambda: second.wait(20)), "127.0.0.7")
        a1 = admission.submit(jobs.job("a1"), "127.0.0.1")
        b0 = admission.submit(jobs.job("b0"), "127.0.0.2")
        second.set()
        await asyncio.gather(g1, a1, b0)

    run_with(1, 0.0, table)
    assert jobs.order == ["g0", "g1", "a1", "b0"]


def test_an_address_with_a_request_waiting_keeps_its_place_in_the_turns():
    """One thread. A's a0 runs (turn 1) with a1 waiting (turn 2); when a0 ends A still has a1, so it is
    not forgotten: a1 runs, then A's a2 and B's b0 both come at turn 3, and B, whose previous turn (none)
    is lower than A's (2), goes first although A asked first."""
    jobs, first, second = Jobs(), gate(), gate()

    async def table(admission):
        a0 = admission.submit(jobs.job("a0", lambda: first.wait(20)), "127.0.0.1")
        a1 = admission.submit(jobs.job("a1", lambda: second.wait(20)), "127.0.0.1")
        first.set()
        await a0
        await _until(lambda: "a1" in jobs.started)
        a2 = admission.submit(jobs.job("a2"), "127.0.0.1")
        b0 = admission.submit(jobs.job("b0"), "127.0.0.2")
        second.set()
        await asyncio.gather(a1, a2, b0)

    run_with(1, 0.0, table)
    assert jobs.order == ["a0", "a1", "b0", "a2"]


def test_of_two_requests_of_the_same_turn_and_previous_turn_the_earlier_goes_first():
    """One thread, held by G. Y then X ask (both turn 2, no previous turn: Y's first), then X then Y
    again (both turn 3 after a turn 2: X's first, though Y's address asked first before)."""
    jobs, release = Jobs(), gate()

    async def table(admission):
        waiting = [admission.submit(jobs.job("g0", lambda: release.wait(20)), "127.0.0.7")]
        for name, client in (("y0", "127.0.0.3"), ("x0", "127.0.0.4"), ("x1", "127.0.0.4"), ("y1", "127.0.0.3")):
            waiting.append(admission.submit(jobs.job(name), client))
        release.set()
        await asyncio.gather(*waiting)

    run_with(1, 0.0, table)
    assert jobs.order == ["g0", "y0", "x0", "x1", "y1"]


def test_when_the_pool_is_shut_down_every_request_waiting_gets_its_error():
    """The worker stops (its pool shut down) while A's request runs and two wait: when A's ends,
    each waiting one is answered with the pool's error at once, none left waiting."""
    jobs, release = Jobs(), gate()
    pool = ThreadPoolExecutor(max_workers=1)

    async def table(admission):
        a = admission.submit(jobs.job("a", lambda: release.wait(20)), "127.0.0.1")
        waiting = [
            admission.submit(jobs.job(name), client) for name, client in (("b", "127.0.0.2"), ("c", "127.0.0.3"))
        ]
        pool.shutdown(wait=False)
        release.set()
        assert await a == "a"
        return await asyncio.gather(*waiting, return_exceptions=True)

    try:
        errors = asyncio.run(asyncio.wait_for(table(Admission(pool, 1, grace=0.0)), LIMIT))
    finally:
        _end(pool)
    assert [type(e) for e in errors] == [RuntimeError, RuntimeError] and jobs.order == ["a"]


def test_a_request_given_up_while_the_pool_has_not_started_it_never_runs():
    """The pool is shared (the streams look seqs up on it): its only thread is busy with something
    else when the admission hands it a request; the caller gives up (the front's deadline) before a
    thread takes it: it never runs, and the next request runs once the thread is free."""
    jobs, release = Jobs(), gate()
    pool = ThreadPoolExecutor(max_workers=1)

    async def table(admission):
        other = pool.submit(release.wait, 20)  # not the admission's
        given_up = admission.submit(jobs.job("given up"), "127.0.0.1")
        await asyncio.sleep(0.05)
        assert admission.running == 1 and given_up.cancel()
        await asyncio.sleep(0.05)  # the loop runs the future's callbacks: the pool's job is cancelled
        release.set()
        after = await admission.submit(jobs.job("after"), "127.0.0.1")
        return other.result(timeout=LIMIT), after

    try:
        other, after = asyncio.run(asyncio.wait_for(table(Admission(pool, 1, grace=0.0)), LIMIT))
    finally:
        _end(pool)
    assert other is True and after == "after" and jobs.order == ["after"]


def test_an_address_whose_last_request_ends_is_forgotten():
    """Two threads. A's a0 runs (turn 1); B's b0 (turn 2) takes the other thread. a0 ends: A has
    nothing waiting nor running, so it is forgotten. G's g0 (turn 3) takes that thread; then A's
    next request and C's first come, both turn 4 with no previous turn: the earlier, A's, runs
    first when b0 ends (remembered, A's previous turn 1 would put C's first)."""
    jobs, first, second, third = Jobs(), gate(), gate(), gate()

    async def table(admission):
        a0 = admission.submit(jobs.job("a0", lambda: first.wait(20)), "127.0.0.1")
        b0 = admission.submit(jobs.job("b0", lambda: second.wait(20)), "127.0.0.2")
        first.set()
        await a0
        g0 = admission.submit(jobs.job("g0", lambda: third.wait(20)), "127.0.0.7")
        await _until(lambda: "g0" in jobs.started)
        a1 = admission.submit(jobs.job("a1"), "127.0.0.1")
        c0 = admission.submit(jobs.job("c0"), "127.0.0.3")
        second.set()
        await asyncio.gather(b0, a1, c0)
        third.set()
        await g0

    run_with(2, 0.0, table)
    assert jobs.order[-2:] == ["a1", "c0"]
