#!/usr/bin/env bash
# Wall time and peak RSS (GNU time's "Maximum resident set size") of run, report in every format and
# report compare over N jobs of the echo agent on a one-axis matrix of N values (issue "10^6 jobs,
# bounded memory"). Targets at N=10^6: every verb under 60 s and 500 MB.
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
# measure LABEL CMD...: prints "LABEL wall_s peak_MB exit"
measure() {
  local label=$1; shift
  /usr/bin/time -f '%e %M' -o "$W/time" "$@" >/dev/null 2>"$W/stderr"
  local rc=$?
  read -r wall kb <"$W/time" 2>/dev/null || { wall=?; kb=0; }
  # GNU time appends a "Command exited with non-zero status" line before the figures.
  wall=$(tail -1 "$W/time" | cut -d' ' -f1); kb=$(tail -1 "$W/time" | cut -d' ' -f2)
  printf '%-16s %8s s %8s MB  exit %s\n' "$label" "$wall" "$((kb / 1024))" "$rc"
  [ "$rc" = 0 ] || [ "$rc" = 1 ] || tail -3 "$W/stderr"
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
done
