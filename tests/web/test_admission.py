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

from assistant.serve.admit import Admission


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


def run_with(threads: int, grace: float, table):
    """``table(admission)`` on a real loop; the admission's limit is ``threads``, its pool has four
    threads more, so whatever holds a request back is the admission, never a pool with no thread free."""
    pool = ThreadPoolExecutor(max_workers=threads + 4)
    try:
        return asyncio.run(table(Admission(pool, threads, grace=grace)))
    finally:
        pool.shutdown(wait=True)


def test_requests_within_the_grace_run_one_at_a_time_in_the_order_they_came():
    jobs = Jobs()

    async def table(admission):
        # five requests at once on four threads; each computes 20 ms, well within a 10 s grace
        return await asyncio.gather(*(admission.submit(jobs.job(f"r{i}")) for i in range(5)))

    assert run_with(4, 10.0, table) == ["r0", "r1", "r2", "r3", "r4"]
    assert jobs.most == 1  # never two at once (plain threads: four at once)
    assert jobs.order == ["r0", "r1", "r2", "r3", "r4"]


def test_a_request_running_past_the_grace_lets_the_next_one_start():
    """A waits (an event nobody sets for 5 s); B, behind it, starts after A's 50 ms grace and is
    answered while A still waits."""
    jobs, release = Jobs(), threading.Event()

    async def table(admission):
        a = admission.submit(jobs.job("A", lambda: release.wait(5)))
        b = admission.submit(jobs.job("B"))
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
    jobs, release = Jobs(), threading.Event()

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
    jobs, release = Jobs(), threading.Event()

    def fails():
        raise ValueError("the app's own error")

    async def table(admission):
        first = admission.submit(jobs.job("first", lambda: release.wait(5)))
        given_up = admission.submit(jobs.job("given up"))
        await asyncio.sleep(0.1)  # the only thread has taken the first one
        assert given_up.cancel()
        release.set()
        assert await first == "first"
        with pytest.raises(ValueError, match="the app's own error"):
            await admission.submit(fails)
        after = await admission.submit(jobs.job("after"))
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
    from assistant.serve.admit import Crowded

    jobs, release = Jobs(), threading.Event()

    async def table(admission):
        held = [admission.submit(jobs.job(f"a{i}", lambda: release.wait(5)), "127.0.0.2") for i in range(4)]
        with pytest.raises(Crowded):
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
    jobs, release = Jobs(), threading.Event()

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
        return await table(Admission(pool, threads, grace=grace, queue=queue))
    finally:
        pool.shutdown(wait=False)
