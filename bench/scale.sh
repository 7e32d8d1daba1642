#!/usr/bin/env bash
# Wall time, CPU time (user+sys) and peak RSS (GNU time's "Maximum resident set size") of run, report
# in every format, report compare, plan --history (the second run's results as the history of a plan of
# the same matrix: every job key known) and view's open (from its start until it serves: from the index
# the run saved, then with that index removed) over N jobs of the echo agent on a one-axis matrix of N values (issue
# "10^6 jobs, bounded memory"). Targets at N=10^6: every verb under 60 s and 500 MB. On a shared
# machine compare CPU seconds, not wall.
#
# Usage, from the project root:  bench/scale.sh [N...]      (default 10000 100000 1000000)
# Environment: BIN=path to an agenteval binary to measure instead of building this tree's; KEEP=DIR keeps
# the generated matrices and results there (reused on the next call with the same DIR).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
W=${KEEP:-$(mktemp -d)}; [ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
mkdir -p "$W"
BIN=${BIN:-$W/agenteval}
if [ "$BIN" = "$W/agenteval" ]; then (cd "$root" && go build -o "$BIN" ./cmd/agenteval) || exit 1; fi
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 1; }
cp "$root/bench/echo/base.scenario.yaml" "$W/" || exit 1
# measure LABEL CMD...: prints "LABEL wall_s cpu_s peak_MB exit"
measure() {
  local label=$1; shift
  /usr/bin/time -f '%e %U %S %M' -o "$W/time" "$@" >/dev/null 2>"$W/stderr"
  report_time "$label" $?
}
# report_time LABEL RC: prints the figures of the last measured command.
report_time() {
  # GNU time appends a "Command exited with non-zero status" line before the figures.
  local wall user sys kb
  read -r wall user sys kb < <(tail -1 "$W/time")
  printf '%-16s %8s s wall %8s s cpu %6s MB  exit %s\n' "$1" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')" "$((kb / 1024))" "$2"
  [ "$2" = 0 ] || [ "$2" = 1 ] || tail -3 "$W/stderr"
}
# measure_view LABEL RESULTS: view from its start until it serves (it prints its address once the
# results are indexed), then interrupted; exit 0 is a clean stop.
measure_view() {
  local label=$1 tp vp
  /usr/bin/time -f '%e %U %S %M' -o "$W/time" "$BIN" view --addr 127.0.0.1:0 "$2" >"$W/view.out" 2>"$W/stderr" &
  tp=$!
  until grep -q 'http://' "$W/view.out" 2>/dev/null || ! kill -0 "$tp" 2>/dev/null; do sleep 0.05; done
  vp=$(pgrep -P "$tp")
  [ -n "$vp" ] && kill -INT "$vp"
  wait "$tp"
  report_time "$label" $?
}
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $("$BIN" --version 2>/dev/null | head -1)"
for N in "${@:-10000 100000 1000000}"; do
  d="$W/n$N"; mkdir -p "$d"
  if [ ! -f "$d/m.matrix.yaml" ]; then
    { echo 'name: m'; echo 'description: N inputs'; echo 'base_scenario: ../base.scenario.yaml'; echo 'matrix:'
      echo '  - parameter: "run[0].input"'; echo '    values:'
      awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) printf "      - \"Question %d: what is topic-%d?\"\n", i, i }'
    } >"$d/m.matrix.yaml"
  fi
  echo "N=$N"
  rm -rf "$d/a" "$d/b"
  measure "run" "$BIN" run --agent echo --out "$d/a" "$d/m.matrix.yaml"
  "$BIN" run --agent echo --out "$d/b" "$d/m.matrix.yaml" >/dev/null 2>&1
  for f in json md html junit; do
    measure "report $f" "$BIN" report --format "$f" --out "$d/report.$f" "$d/a"
  done
  measure "report compare" "$BIN" report compare "$d/a" "$d/b"
  measure "plan --history" "$BIN" plan --agent echo --history "$d/b" "$d/m.matrix.yaml"
  measure_view "view (saved)" "$d/a"   # from the index the run saved beside its results
  rm -f "$d"/a/*.view-index
  measure_view "view (index)" "$d/a"   # indexing the results themselves
done
