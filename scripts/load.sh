#!/usr/bin/env bash
# The load figures of BENCHMARKS.md in one run: a `qili serve` on a loopback port, then
# `qili load` for the health check, Adjudicate at each detail level, AdjudicateStream and Status
# (the same requests, as a platform polling a live game asks for its status), each at
# the same concurrency, with the server's CPU time per call (from /proc) and its memory; then the
# same rulings made in process (`qili load --rpc in-process`, no server, one thread) and the
# edge's share: the server's CPU per Adjudicate call less the in-process CPU per ruling, beside
# the health check's server CPU per call.
#
#   scripts/load.sh [SECONDS [CONCURRENCY]]      (defaults: 10 s, 64 in flight)
#
# Env: QILI (the binary, default target/dist/qili: the build to deploy, `cargo build --profile
# dist`), SERVER (the binary that serves, default QILI: to measure another build with the same
# client), PORT (default 50151), SERVE_ARGS (extra flags for qili serve), RUNS (the runs, default
# "health adjudicate:full adjudicate:summary adjudicate:verdict stream:full status:full";
# `watch:full` plays the real games of tests/data/pgn over Watch, a request being a move), SOAK (seconds of a last run at
# full detail with the server's memory sampled every 10 s; default none), SOAK_RPC (its call,
# default adjudicate; watch keeps CONCURRENCY games open), CASES (the requests of the Adjudicate,
# stream, status and in-process runs, passed to qili load --cases: default the corpus, cases/; the
# platform mix is benches/data/platform-mix.jsonl).
# Linux only (/proc). Every run stops by itself.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
concurrency=${2:-64}
qili=${QILI:-target/dist/qili}
serve=${SERVER:-$qili}
port=${PORT:-50151}
runs=${RUNS:-health adjudicate:full adjudicate:summary adjudicate:verdict stream:full status:full}
cases=()
[ -n "${CASES:-}" ] && cases=(--cases "$CASES")
[ -x "$qili" ] || { echo "load.sh: no $qili; run cargo build --profile dist first" >&2; exit 2; }

# shellcheck disable=SC2086
"$serve" serve --addr "127.0.0.1:$port" ${SERVE_ARGS:-} 2>/tmp/qili-load-serve.log &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true' EXIT
# Up to 30 s: a loaded machine may take a while to start it.
for _ in $(seq 300); do
  grep -q serving /tmp/qili-load-serve.log 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "load.sh: the server exited:" >&2; cat /tmp/qili-load-serve.log >&2; exit 2; }
  sleep 0.1
done

ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $seconds s per run, $concurrency in flight; requests: ${CASES:-the corpus (cases/)}"
declare -A server_cpu
printf '%-20s %10s %10s %9s %9s %9s %7s %11s %10s %8s\n' \
  run requests/s ratio p50_ms p99_ms max_ms errors reply_bytes cpu_us/call rss_kb
health_rate=""
for run in $runs; do
  rpc=${run%%:*}
  detail=full
  [ "$rpc" != "$run" ] && detail=${run#*:}
  before=$(cpu_ticks)
  out=$("$qili" load --addr "127.0.0.1:$port" --rpc "$rpc" --detail "$detail" \
    --concurrency "$concurrency" --duration "$seconds" "${cases[@]}")
  after=$(cpu_ticks)
  rate=$(sed -n 's/^requests\/s: //p' <<<"$out")
  requests=$(sed -n 's/^requests: //p' <<<"$out")
  errors=$(sed -n 's/^errors: //p' <<<"$out")
  bytes=$(sed -n 's/^reply bytes: \([0-9]*\).*/\1/p' <<<"$out")
  read -r p50 p99 max < <(sed -n 's/^latency: p50 \([0-9.]*\) ms p90 [0-9.]* ms p99 \([0-9.]*\) ms max \([0-9.]*\) ms/\1 \2 \3/p' <<<"$out")
  [ "$rpc" = health ] && health_rate=$rate
  ratio=-
  [ -n "$health_rate" ] && ratio=$(awk -v a="$rate" -v h="$health_rate" 'BEGIN {printf "%.0f%%", 100 * a / h}')
  cpu=$(awk -v t=$((after - before)) -v hz="$ticks" -v n="$requests" 'BEGIN {printf "%.0f", t / hz * 1e6 / (n > 0 ? n : 1)}')
  server_cpu[$run]=$cpu
  printf '%-20s %10s %10s %9s %9s %9s %7s %11s %10s %8s\n' \
    "$run" "$rate" "$ratio" "$p50" "$p99" "$max" "$errors" "$bytes" "$cpu" "$(rss_kb)"
done
# The edge's share: what the service adds to each ruling, against the transport's own cost.
edge_runs=""
for run in $runs; do
  case $run in adjudicate*) edge_runs="$edge_runs $run" ;; esac
done
if [ -n "$edge_runs" ]; then
  health_cpu=${server_cpu[health]:-}
  printf '%-20s %14s %14s %10s %14s %12s\n' \
    run server_us/call inproc_us/call edge_us health_us/call edge/health
  for run in $edge_runs; do
    detail=full
    [ "$run" != adjudicate ] && detail=${run#*:}
    out=$("$qili" load --rpc in-process --detail "$detail" --duration "$seconds" "${cases[@]}")
    inproc=$(sed -n 's/^cpu per call: \([0-9.]*\) us/\1/p' <<<"$out")
    edge=$(awk -v s="${server_cpu[$run]}" -v i="$inproc" 'BEGIN {printf "%.0f", s - i}')
    ratio=-
    [ -n "$health_cpu" ] && ratio=$(awk -v e="$edge" -v h="$health_cpu" 'BEGIN {printf "%.2f", e / (h > 0 ? h : 1)}')
    printf '%-20s %14s %14s %10s %14s %12s\n' \
      "$run" "${server_cpu[$run]}" "$inproc" "$edge" "${health_cpu:--}" "$ratio"
  done
fi
if [ -n "${SOAK:-}" ]; then
  "$qili" load --addr "127.0.0.1:$port" --rpc "${SOAK_RPC:-adjudicate}" \
    --concurrency "$concurrency" --duration "$SOAK" "${cases[@]}" >/tmp/qili-load-soak.txt &
  client=$!
  samples=""
  for _ in $(seq 0 10 "$SOAK"); do
    samples="$samples $(rss_kb)"
    sleep 10
  done
  wait "$client"
  echo "soak: $SOAK s, ${SOAK_RPC:-adjudicate} full, $(grep -E '^(requests/s|errors|latency)' /tmp/qili-load-soak.txt | tr '\n' ' ')"
  echo "soak: server RSS every 10 s (KB):$samples; peak $(awk '/VmHWM/ {print $2}' "/proc/$server/status") KB; threads $(awk '/Threads/ {print $2}' "/proc/$server/status"); descriptors $(ls "/proc/$server/fd" | wc -l)"
fi
echo "server log: $(wc -l </tmp/qili-load-serve.log) lines, $(du -k /tmp/qili-load-serve.log | cut -f1) KB"
