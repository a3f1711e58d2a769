#!/usr/bin/env bash
# Mutation testing (mutmut 3, in the `test` extra): plants small bugs ("mutants") in the code one at a
# time and runs the tests that reach it; a mutant no test fails on is a bug the suite would miss.
#   bash scripts/mutation.sh [PATHS]        run and report each path (a file or a folder of assistant/)
#   bash scripts/mutation.sh --report [PATHS]   report the last runs' results only
#   bash scripts/mutation.sh --again [PATHS]    try the last runs' survivors again (after adding tests:
#                                               mutmut keeps a result unless the function changed);
#                                               a plain run goes on with the mutants not tried yet
# Without PATHS: the modules that hold a table's data and rules (issue 36).  Each path runs on its
# own, in one test process at a time (the machine is shared), in .mutation/<path>/ (ignored by
# git); a second run only tries the functions changed since.  Not part of CI: it takes hours.
# Killed share = (killed + timed out) / (all - marked equivalent); mutmut makes no mutant on a line
# marked `# pragma: no mutate <reason>`, so the marked ones are not in "all" and are counted apart.
# The tests run are the quick subset's (tests/rules, tests/web, tests/store) without the markers
# browser, server and slow: a mutant only code in a server process runs (serve/server.py,
# serve/supervisor.py) is never seen by them.  MUTATION_TESTS (space separated) chooses others.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEFAULT_PATHS=(
  assistant/log
  assistant/rules/core/position_shape.py
  assistant/web/deadlines.py
  assistant/web/costly.py
  assistant/web/resume.py
  assistant/web/scorecheck.py
  assistant/store
  assistant/rules/core/phases
  assistant/rules/core/position.py
  assistant/serve
)
TESTS=${MUTATION_TESTS:-tests/rules tests/web tests/store}

report_only=0
again=0
case "${1:-}" in
  --report) report_only=1; shift ;;
  --again) again=1; shift ;;
esac
paths=("$@")
[ ${#paths[@]} -eq 0 ] && paths=("${DEFAULT_PATHS[@]}")

python -c "import mutmut" 2>/dev/null || python -m pip install -q -e '.[test]'
unset PYTHONDONTWRITEBYTECODE
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 2000000 ]; then
  export TMPDIR=/dev/shm
fi

workdir() { echo "$ROOT/.mutation/$(echo "${1%/}" | tr / _)"; }

run_one() {
  local path=${1%/} dir pattern
  [ -e "$path" ] || { echo "mutation.sh: no such file or folder: $path" >&2; exit 2; }
  dir=$(workdir "$path")
  pattern=$path
  [ -d "$path" ] && pattern="$path/*"
  mkdir -p "$dir"
  for entry in assistant tests templates static docs; do ln -sfn "$ROOT/$entry" "$dir/$entry"; done
  # mutmut reads its settings from pyproject.toml in the folder it runs in: the project's own,
  # with this path's settings added
  python - "$ROOT/pyproject.toml" "$dir/pyproject.toml" "$pattern" "$TESTS" <<'EOF'
import json, sys
source, target, pattern, tests = sys.argv[1:]
settings = {
    "source_paths": ["assistant"],
    "only_mutate": [pattern],
    "also_copy": ["templates", "static", "docs"],
    "pytest_add_cli_args": ["-p", "no:xdist", "-p", "no:randomly", "-m", "not browser and not server and not slow"],
    "pytest_add_cli_args_test_selection": tests.split(),
    "use_git_change_detection": False,
    # each mutant's tests run in a process forked from one that has not run any test: forked from
    # mutmut's own process (after its first full run), a test that starts a process of its own
    # (web/costly.py's forkserver) fails on that state and the mutant counts as killed wrongly
    "process_isolation": "forkserver",
}
text = open(source, encoding="utf-8").read() + "\n[tool.mutmut]\n"
text += "".join(f"{key} = {json.dumps(value)}\n" for key, value in settings.items())
open(target, "w", encoding="utf-8").write(text)
EOF
  # mutmut copies the package's other files (data such as words.json) only once: a later run
  # would test new code with the old data, so the changed ones are copied again here
  python - "$ROOT" "$dir/mutants" <<'EOF'
import filecmp, shutil, sys
from pathlib import Path
root, target = map(Path, sys.argv[1:])
for source in (root / "assistant").rglob("*") if target.exists() else ():
    if source.is_file() and source.suffix not in (".py", ".pyc") and "__pycache__" not in source.parts:
        copy = target / source.relative_to(root)
        if not copy.exists() or not filecmp.cmp(source, copy, shallow=False):
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
EOF
  echo "== mutmut on $path (in ${dir#"$ROOT"/})"
  local names=()
  if [ $again -eq 1 ]; then
    # the mutants not killed last time, by name (mutmut tries a named one again whatever it found)
    mapfile -t names < <(python -c '
import json, pathlib, sys
for meta in pathlib.Path(sys.argv[1]).rglob("*.py.meta"):
    for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
        if code in (0, 5, 33):
            print(name)' "$dir/mutants")
    if [ ${#names[@]} -eq 0 ]; then
      echo "   nothing to try again"
      return
    fi
  fi
  # --max-children 1: one test process at a time; mutmut's progress goes to run.log
  local start=$SECONDS
  if (cd "$dir" && python -m mutmut run --max-children 1 "${names[@]}" >run.log 2>&1); then
    echo "   done in $((SECONDS - start)) s"
  else
    echo "mutation.sh: mutmut stopped on $path; the end of ${dir#"$ROOT"/}/run.log:" >&2
    tr '\r' '\n' <"$dir/run.log" | grep -v '^[^ ]* \(Generating mutants\|Running\)' | tail -20 >&2
  fi
}

if [ $report_only -eq 0 ]; then
  for path in "${paths[@]}"; do run_one "$path"; done
fi

python - "$ROOT" "${paths[@]}" <<'EOF'
"""Per file: killed, timed out, survived (no test reached it is counted apart), marked equivalent."""
import json, sys
from collections import Counter
from pathlib import Path

root = Path(sys.argv[1])
KILLED, TIMEOUT = {1, 3}, {36, -24, 24, 152, 255}
rows, survivors, unreached = [], [], Counter()
for arg in sys.argv[2:]:
    path = arg.rstrip("/")
    dir_ = root / ".mutation" / path.replace("/", "_")
    sources = [Path(path)] if path.endswith(".py") else sorted(Path(path).rglob("*.py"))
    for source in sources:
        marked = sum("# pragma: no mutate" in line for line in (root / source).read_text().splitlines())
        meta = dir_ / "mutants" / (str(source) + ".meta")
        if not meta.exists():
            rows.append((str(source), None, marked))
            continue
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        count = {"killed": 0, "timeout": 0, "survived": 0, "no tests": 0, "other": 0, "not tried": 0}
        for name, code in sorted(codes.items()):
            if code is None:  # the run was stopped before this one
                count["not tried"] += 1
            elif code in KILLED:
                count["killed"] += 1
            elif code in TIMEOUT:
                count["timeout"] += 1
            elif code == 0:
                count["survived"] += 1
                survivors.append((name, "survived", dir_))
            elif code in (5, 33):
                count["no tests"] += 1
                unreached[(dir_.name, name.rpartition("__mutmut_")[0])] += 1
            else:
                count["other"] += 1
                survivors.append((name, f"exit {code}", dir_))
        rows.append((str(source), count, marked))

print(f"\n{'file':44} {'all':>5} {'killed':>6} {'timeout':>7} {'survived':>8} {'no test':>7} {'other':>5} {'untried':>7} {'equiv':>5}  share")
for source, count, marked in rows:
    if count is None:
        print(f"{source:44} {'not run (or no mutant: nothing in a function to mutate)':>54} {marked:>5}")
        continue
    total = sum(count.values())
    tried = total - count["not tried"]
    share = f"{100 * (count['killed'] + count['timeout']) / tried:5.1f}%" if tried else "    -"
    if not tried:
        share = "    - not tried yet"
    elif tried < total:
        share += f" of the {tried} tried: run again to go on"
    print(
        f"{source:44} {total:5} {count['killed']:6} {count['timeout']:7} {count['survived']:8} "
        f"{count['no tests']:7} {count['other']:5} {count['not tried']:7} {marked:5}  {share}"
    )
print("(equiv: lines marked `# pragma: no mutate <reason>`; their mutants are not made, so not in 'all')")
if survivors:
    print("\nNot killed (see one with: cd .mutation/<path> && python -m mutmut show NAME):")
    for name, why, dir_ in survivors:
        print(f"  {dir_.name}: {name}  ({why})")
if unreached:
    print("\nFunctions no test reaches (in the tests run here), with their mutants:")
    for (where, function), n in sorted(unreached.items()):
        print(f"  {where}: {function}  ({n})")
EOF
