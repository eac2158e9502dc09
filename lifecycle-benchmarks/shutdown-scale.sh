#!/usr/bin/env bash
# Shutdown time at scale (run-all.sh item 2): SIGTERM -> process exit of the scale-app with 1,000
# components in 10 phases, each taking a random 20-50 ms to stop (seed 42), written
#   lifecycle    as Lifecycle @ManagedComponent passive components (drain delay 0, signals trapped)
#   plain-async  as plain SmartLifecycle beans whose stop(Runnable) works on its own thread
#   plain-sync   as plain SmartLifecycle beans whose stop() works on the closing thread
# plus two baselines without components: none-plain (lifecycle.enabled=false: JVM + Spring Boot +
# Tomcat exit) and none-lifecycle (the starter on, nothing registered).
# Ideal = drain delay (0) + sum over phases of the slowest stop (printed by the app) + none-plain.
# Runs are interleaved (one of each mode per round); each process is started, left idle 2 s after
# readiness 200, then SIGTERM; the time is taken around `kill` and bash's `wait` for the child.
#
# Usage: lifecycle-benchmarks/shutdown-scale.sh [--runs N] [--sync-runs M] [--components C] [--out DIR]
#   defaults: 5 runs of lifecycle, plain-async and both baselines; 2 of plain-sync (~36 s each)
# Output: DIR/shutdown-scale.tsv (every run), DIR/shutdown-scale.md.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

RUNS=5 SYNC_RUNS=2 COMPONENTS=1000 OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --sync-runs) SYNC_RUNS=$2; shift 2 ;;
    --components) COMPONENTS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
PORT=${SCALE_PORT:-18600}
[[ -f $SCALE_JAR ]] || die "no scale-app jar at $SCALE_JAR"
mkdir -p "$OUT"
WORK=$OUT/shutdown-scale.work
rm -rf "$WORK"; mkdir -p "$WORK"
TSV=$OUT/shutdown-scale.tsv
printf 'round\tmode\tstop_ms\texit_code\tphase_max_sum_ms\tsequence_ms\tload\n' >"$TSV"
PID=
trap '[[ -n $PID ]] && kill -KILL $PID 2>/dev/null' EXIT

mode_args() {
  case $1 in
    lifecycle) echo "--scale.mode=lifecycle --lifecycle.drain-delay=0s --lifecycle.signals.trap=true" ;;
    plain-async) echo "--scale.mode=plain-async --lifecycle.enabled=false --spring.lifecycle.timeout-per-shutdown-phase=30s" ;;
    plain-sync) echo "--scale.mode=plain-sync --lifecycle.enabled=false --spring.lifecycle.timeout-per-shutdown-phase=30s" ;;
    none-plain) echo "--scale.mode=none --lifecycle.enabled=false" ;;
    none-lifecycle) echo "--scale.mode=none --lifecycle.drain-delay=0s --lifecycle.signals.trap=true" ;;
  esac
}

measure() { # round mode
  local logf=$WORK/$2-$1.log
  port_free "$PORT" || die "port $PORT is in use"
  # shellcheck disable=SC2046
  "$JAVA" -jar "$SCALE_JAR" --server.port="$PORT" --scale.components="$COMPONENTS" \
    --lifecycle.pre-stop.path="$WORK/prestop" $(mode_args "$2") >"$logf" 2>&1 &
  PID=$!
  wait_http_200 "http://127.0.0.1:$PORT/actuator/health/readiness" 300 "$PID" || die "$2 never became ready; see $logf"
  sleep 2
  local load t0 t1 code
  load=$(load_avg)
  t0=${EPOCHREALTIME/./}
  kill -TERM "$PID"
  wait "$PID"; code=$?
  t1=${EPOCHREALTIME/./}
  PID=
  local ms ideal seq
  ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')
  ideal=$(grep -o 'phaseMaxSumMs=[0-9]*' "$logf" | cut -d= -f2)
  seq=$(grep -o 'shutdown complete (clean=[a-z]*, exitCode=[0-9]*, elapsed=[0-9]* ms' "$logf" | grep -o 'elapsed=[0-9]*' | cut -d= -f2)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$ms" "$code" "${ideal:-0}" "${seq:--}" "$load" >>"$TSV"
  log "  round $1 $2: SIGTERM -> exit $ms ms (code $code, Lifecycle sequence ${seq:--} ms, load $load)"
}

log "shutdown at scale: $COMPONENTS components, $RUNS runs (plain-sync $SYNC_RUNS) (load $(load_avg))"
for ((r = 1; r <= RUNS; r++)); do
  measure "$r" none-plain
  measure "$r" lifecycle
  measure "$r" plain-async
  measure "$r" none-lifecycle
  ((r <= SYNC_RUNS)) && measure "$r" plain-sync
done

col() { awk -F'\t' -v m="$1" -v c="$2" '$2 == m { print $c }' "$TSV"; }
med() { col "$1" "$2" >"$WORK/col"; median "$WORK/col"; }
ideal_sum=$(awk -F'\t' '$2 == "lifecycle" { print $5; exit }' "$TSV")
base=$(med none-plain 3)
ideal=$(awk -v a="$ideal_sum" -v b="$base" 'BEGIN { printf "%.0f", a + b }')
{
  echo "Ideal = drain delay 0 + Σ per-phase max **$ideal_sum ms** + JVM exit baseline (none-plain median) **$base ms** = **$ideal ms**; goal: Lifecycle ≤ ideal + 300 ms = $((ideal + 300)) ms."
  echo
  echo "| mode | runs | median SIGTERM→exit ms | min | max | all runs ms | exit codes | median − ideal ms | Lifecycle sequence ms (median) |"
  echo "|---|---:|---:|---:|---:|---|---|---:|---:|"
  for m in lifecycle plain-async plain-sync none-plain none-lifecycle; do
    col "$m" 3 >"$WORK/col"
    [[ -s $WORK/col ]] || continue
    local_med=$(median "$WORK/col")
    printf '| %s | %s | **%s** | %s | %s | %s | %s | %s | %s |\n' "$m" "$(wc -l <"$WORK/col")" "$local_med" \
      "$(sort -g "$WORK/col" | head -n 1)" "$(sort -g "$WORK/col" | tail -n 1)" "$(paste -sd' ' "$WORK/col")" \
      "$(col "$m" 4 | sort -u | paste -sd' ')" "$(awk -v a="$local_med" -v b="$ideal" 'BEGIN { printf "%+.0f", a - b }')" \
      "$(col "$m" 6 | grep -v -- - >"$WORK/seq"; [[ -s $WORK/seq ]] && median "$WORK/seq" || echo -)"
  done
  last=$(ls -t "$WORK"/lifecycle-*.log 2>/dev/null | head -n 1)
  if [[ -n $last ]]; then
    echo
    echo "Lifecycle's own log of its last run ($(basename "$last")), wall ms from each \"stopping phase\" line to the next (to \"shutdown complete\" for phase 0), against that phase's slowest stop:"
    echo
    echo '```'
    awk '/Lifecycle: shutdown initiated|Lifecycle: stopping phase|Lifecycle: shutdown complete/ {
        split($1, t, "T"); split(t[2], hms, ":"); ms = (hms[1] * 3600 + hms[2] * 60 + hms[3]) * 1000
        if (prev != "") printf "%s: %.0f ms\n", prev, ms - pms
        if ($0 ~ /stopping phase/) { match($0, /phase [0-9]+/); prev = substr($0, RSTART, RLENGTH) }
        else if ($0 ~ /initiated/) prev = "initiated -> first phase"; else prev = ""
        pms = ms }' "$last"
    grep -o 'phaseMaxes=[0-9,]*' "$last" | head -n 1
    echo '```'
  fi
} >"$OUT/shutdown-scale.md"
printf '%s\t%s\t%s\n' "$ideal" "$(med lifecycle 3)" "$(med plain-async 3)" >"$OUT/shutdown-scale.summary"
cat "$OUT/shutdown-scale.md"
