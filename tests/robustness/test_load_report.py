"""The figures ``benchmarks/load.py`` reports for each kind of request (the issue's p95 and p99
among them), from latencies written here by hand."""

from __future__ import annotations

from benchmarks.load import Stats


def test_the_percentiles_are_the_latencies_at_their_rank():
    """100 requests of 1, 2, ... 100 ms over 10 s, 3 of another kind: p50 the median (50.5 ms),
    p95 the 96th smallest (index 95), p99 the 100th, and 10 requests a second."""
    stats = Stats()
    stats.recording = True
    for ms in range(100, 0, -1):  # in any order
        stats.add("page", ms / 1000)
    for ms in (7, 3, 5):
        stats.add("poll", ms / 1000)
    stats.recording = False
    stats.add("page", 99.0)  # not recorded: the warm-up
    report = stats.report(10.0)
    page = report["page"]
    assert page["n"] == 100 and round(page["rps"], 6) == 10.0
    assert [round(page[k], 6) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")] == [50.5, 96.0, 100.0, 100.0]
    poll = report["poll"]
    assert [round(poll[k], 6) for k in ("p50_ms", "p95_ms", "p99_ms", "max_ms")] == [5.0, 7.0, 7.0, 7.0]
    assert report["all"]["n"] == 103
