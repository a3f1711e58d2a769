"""Two versions measured side by side, in one run: ``python benchmarks/side_by_side.py --base REV``.

On a shared machine a figure taken a minute later cannot be compared with another (timings jump
by 2x from one minute to the next), so both versions are measured in turns, in the same minutes:

* ``--what replay`` (default): one long-lived child process per checkout (its own code first on
  the path) replays a transcript (default 83092) in lockstep with the other, the one going first
  alternating; prints min and median per side and the median of the paired ratios (each of the
  new version's replays over the base's replay of the same turn).
* ``--what load``: ``benchmarks/load.py`` of each checkout in turns (base, new, base, new, ...;
  ``--rounds``) with the issue's arguments (``--tables 200 --refresh page --event-every 20``, or
  whatever follows ``--``), each round's server CPU, memory, p99, p95 and p50 side by side, then the
  median per side.  ``--same-client``: both servers under the new side's ``load.py`` (its
  ``--server-root``), so that a change of the client model is not taken for one of the server.
* ``--what long_log``: ``benchmarks/long_log.py`` of each checkout in turns, each line's median
  per side (the base must have that script).
* ``--what instructions``: the machine instructions one replay of the transcript takes on each
  side, counted by valgrind's callgrind (``apt-get install valgrind``): a count that does not
  depend on what else the machine runs, so that a few per cent can be told apart.  Hash
  randomisation is off (``PYTHONHASHSEED=0``) so that a run counts the same each time; the count is
  the difference between a child that replays ``--runs`` times (default 10 here) and one that
  replays once, divided by the difference.

The base is a temporary git worktree of ``--base`` (removed afterwards); the other side is this
checkout as it is on disk (uncommitted changes included), or ``--new REV`` (a second temporary
worktree). On a machine shared with others, run benchmarks under one lock (``flock LOCKFILE python ...``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TRANSCRIPT = ROOT.parent / "shared" / "conformance" / "games" / "83092.json"
LOAD_ARGS = ["--tables", "200", "--refresh", "page", "--event-every", "20"]

# The replay child: reads one line per turn, replays once, answers the seconds it took.  It replays
# with its own checkout's benchmarks/replay.py (replay_once), which 7e8dd03 already had.
CHILD = r"""
import json, sys, time
root, path = sys.argv[1], sys.argv[2]
sys.path.insert(0, root)
from benchmarks.replay import replay_once
data = json.load(open(path, encoding="utf-8"))
events = [e for e in data["events"] if e.get("type") != "expect"]
for _ in range(5):
    replay_once(data, events)
clock = time.perf_counter
for _ in sys.stdin:
    started = clock()
    replay_once(data, events)
    print(clock() - started, flush=True)
"""


@contextlib.contextmanager
def checkout(rev: str | None):
    """A temporary worktree of ``rev`` (None: this checkout as it is), removed afterwards."""
    if rev is None:
        yield ROOT
        return
    tmp = Path(tempfile.mkdtemp(prefix="rss-sbs-"))
    path = tmp / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False)
        with contextlib.suppress(OSError):
            tmp.rmdir()


def env_for(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root)}


def describe(root: Path) -> str:
    out = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()  # fmt: skip
    return out.stdout.strip() + (" + changes" if dirty else "")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


# -- replay --------------------------------------------------------------------------------------
def replay(sides: dict[str, Path], runs: int, transcript: str) -> None:
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-c", CHILD, str(root), transcript],
            cwd=root,
            env=env_for(root),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, root in sides.items()
    }
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    try:
        for i in range(runs):
            for name in names if i % 2 == 0 else names[::-1]:
                proc = procs[name]
                proc.stdin.write("go\n")
                proc.stdin.flush()
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit(f"the {name} replay child stopped (see its error above)")
                times[name].append(float(line))
    finally:
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()
    base, new = names
    ratios = [n / b for b, n in zip(times[base], times[new], strict=True)]
    print(f"replay of {Path(transcript).name}, {runs} replays each, in lockstep (the first alternating):")
    for name in names:
        t = times[name]
        print(f"  {name:<28} min {min(t) * 1000:6.2f} ms   median {statistics.median(t) * 1000:6.2f} ms")
    print(
        f"  {new} / {base}: median of the paired ratios {statistics.median(ratios):.3f} "
        f"(p25 {pct(ratios, 0.25):.3f}, p75 {pct(ratios, 0.75):.3f})"
    )


# -- instructions --------------------------------------------------------------------------------
COUNTING_CHILD = r"""
import json, sys
root, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
from benchmarks.replay import replay_once
data = json.load(open(path, encoding="utf-8"))
events = [e for e in data["events"] if e.get("type") != "expect"]
for _ in range(runs):
    replay_once(data, events)
"""


def counted(root: Path, transcript: str, runs: int) -> int:
    """Machine instructions (callgrind's ``Collected``) of a child replaying ``runs`` times."""
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         os.path.realpath(sys.executable), "-c", COUNTING_CHILD, str(root), transcript, str(runs)],
        cwd=root, env={**env_for(root), "PYTHONHASHSEED": "0"}, capture_output=True, text=True,
    )  # fmt: skip
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if out.returncode or not found:
        raise SystemExit(f"callgrind failed on {root}:\n{out.stderr[-2000:]}")
    return int(found[1])


def instructions(sides: dict[str, Path], runs: int, transcript: str) -> None:
    if not shutil.which("valgrind"):
        raise SystemExit("--what instructions needs valgrind (apt-get install valgrind)")
    print(f"machine instructions per replay of {Path(transcript).name} (callgrind, {runs} replays less 1):")
    counts = {}
    for name, root in sides.items():
        counts[name] = (counted(root, transcript, runs) - counted(root, transcript, 1)) / (runs - 1)
        print(f"  {name:<28} {counts[name] / 1e6:8.2f} M", flush=True)
    base, new = sides
    print(f"  {new} / {base}: {counts[new] / counts[base]:.3f}")


# -- load ----------------------------------------------------------------------------------------
LOAD_FIGURES = (
    ("CPU %", "cpu"),
    ("memory MB", "mem"),
    ("p99 ms", "p99"),
    ("p95 ms", "p95"),
    ("p50 ms", "p50"),
    ("req/s", "rps"),
)


def load_once(root: Path, extra: list[str], transcript: str, client: Path | None = None) -> dict:
    """One run of ``load.py`` against ``root``'s server: with ``root``'s own load.py, or with the
    one of ``client`` (``--same-client``: one client model, ``load.py --server-root``)."""
    # the transcript named for both: a temporary worktree has no ../shared of its own
    more = [] if "--transcript" in extra else ["--transcript", transcript]
    if client is not None:
        more += ["--server-root", str(root)]
    script = (client or root) / "benchmarks" / "load.py"
    cmd = [sys.executable, str(script), *extra, *more, "--json"]
    out = subprocess.run(cmd, cwd=client or root, env=env_for(root), capture_output=True, text=True)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode or not lines:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    result = json.loads(lines[-1])
    machine, every = result.get("machine", {}), result["kinds"]["all"]
    return {
        "cpu": machine.get("server_cpu_pct", float("nan")),
        "mem": machine.get("server_rss_mb") or float("nan"),
        "p99": every["p99_ms"],
        "p95": every.get("p95_ms", float("nan")),  # a load.py from before 2026-12-07 gives none
        "p50": every["p50_ms"],
        "rps": every["rps"],
        "unexpected": sum(result.get("unexpected", {}).values()),
    }


def load(sides: dict[str, Path], rounds: int, extra: list[str], transcript: str, same_client: bool = False) -> None:
    names = list(sides)
    client = sides[names[-1]] if same_client else None
    results: dict[str, list[dict]] = {name: [] for name in names}
    model = " (the new side's load.py for both: --same-client)" if same_client else ""
    print(f"benchmarks/load.py {' '.join(extra)}, {rounds} rounds, the two in turns{model}:")
    head = "".join(f"{label:>11}" for label, _ in LOAD_FIGURES)
    print(f"  {'round':<6}{'side':<28}{head}")
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            fig = load_once(sides[name], extra, transcript, client)
            results[name].append(fig)
            cells = "".join(f"{fig[key]:>11.1f}" for _, key in LOAD_FIGURES)
            note = f"  ({fig['unexpected']} unexpected answers)" if fig["unexpected"] else ""
            print(f"  {r + 1:<6}{name:<28}{cells}{note}", flush=True)
    print("  median:")
    for name in names:
        cells = "".join(f"{statistics.median(f[key] for f in results[name]):>11.1f}" for _, key in LOAD_FIGURES)
        print(f"  {'':<6}{name:<28}{cells}")


# -- long_log ------------------------------------------------------------------------------------
LINE = re.compile(r"^\s+(?P<name>.+?)\s+(?P<ms>[\d.]+) ms \(median")


def long_log_once(root: Path, extra: list[str]) -> dict[str, float]:
    script = root / "benchmarks" / "long_log.py"
    if not script.exists():
        raise SystemExit(f"{root} has no benchmarks/long_log.py: choose a --base that has it")
    out = subprocess.run([sys.executable, str(script), *extra], cwd=root, env=env_for(root), capture_output=True,
                         text=True)  # fmt: skip
    if out.returncode:
        raise SystemExit(f"{script} failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    figures, part = {}, ""
    for line in out.stdout.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            part = line[:-1]
        m = LINE.match(line)
        if m:
            figures[f"{part}: {m['name']}"] = float(m["ms"])
    return figures


def long_log(sides: dict[str, Path], rounds: int, extra: list[str]) -> None:
    names = list(sides)
    results: dict[str, list[dict]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            results[name].append(long_log_once(sides[name], extra))
    print(
        f"benchmarks/long_log.py {' '.join(extra)}, {rounds} rounds in turns (ms: the median of the rounds' medians):"
    )
    keys = list(results[names[-1]][0])
    print(f"  {'':<58}" + "".join(f"{n[:22]:>24}" for n in names))
    for key in keys:
        cells = ""
        for name in names:
            values = [f.get(key) for f in results[name] if f.get(key) is not None]
            cells += f"{statistics.median(values):>24.1f}" if values else f"{'-':>24}"
        print(f"  {key:<58}{cells}")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1 :]
        argv = argv[: argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the version to compare with (a commit, tag or branch)")
    ap.add_argument("--new", help="the other version (default: this checkout as it is on disk)")
    ap.add_argument("--what", choices=("replay", "load", "long_log", "instructions"), default="replay")
    ap.add_argument("--runs", type=int, help="replay: replays per side (default 300); instructions: 10")
    ap.add_argument("--rounds", type=int, help="load and long_log: runs per side (default 3)")
    ap.add_argument(
        "--transcript", default=str(DEFAULT_TRANSCRIPT), help="replay, instructions and load: the transcript"
    )
    ap.add_argument(
        "--same-client",
        action="store_true",
        help="load: both servers under the new side's load.py (one client model); by default each "
        "side runs its own, which may simulate the page differently",
    )
    args = ap.parse_args(argv)
    with checkout(args.base) as base_root, checkout(args.new) as new_root:
        sides = {f"base {describe(base_root)}": base_root, f"new {describe(new_root)}": new_root}
        if args.what == "replay":
            replay(sides, args.runs or 300, args.transcript)
        elif args.what == "instructions":
            instructions(sides, max(2, args.runs or 10), args.transcript)
        elif args.what == "load":
            load(sides, args.rounds or 3, extra or LOAD_ARGS, args.transcript, args.same_client)
        else:
            long_log(sides, args.rounds or 3, extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
