#!/usr/bin/env bash
# Adopted SmartLifecycle beans (run-all.sh item 7): SIGTERM -> process exit of the scale-app with
# 100 ordinary SmartLifecycle beans in one Spring phase, each stop() taking 100 ms on the thread
# that calls it (scale.mode=plain-sync: the way most hand-written lifecycle beans are written),
#   plain      plain Spring Boot (lifecycle.enabled=false): Spring stops them one after another
#   lifecycle  the same beans and jar with the starter on: adopted as components, stopped concurrently
#              (drain delay 0, signals trapped)
# plus none-plain (no beans, starter off) as the JVM + Spring Boot + Tomcat exit baseline.
# Ideal = drain delay (0) + 100 ms + none-plain median. Modes interleaved (one of each per round);
# each process is started, left idle 2 s after readiness 200, then SIGTERM; the time is taken around
# `kill` and bash's `wait` for the child.
#
# Usage: lifecycle-benchmarks/adoption-scale.sh [--runs N] [--plain-runs M] [--beans B] [--stop-ms S] [--out DIR]
#   defaults: 5 runs of lifecycle and none-plain, 3 of plain (~10 s each), 100 beans, 100 ms
# Output: DIR/adoption-scale.tsv (every run), DIR/adoption-scale.md, DIR/adoption-scale.summary.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

RUNS=5 PLAIN_RUNS=3 BEANS=100 STOP_MS=100 OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --plain-runs) PLAIN_RUNS=$2; shift 2 ;;
    --beans) BEANS=$2; shift 2 ;;
    --stop-ms) STOP_MS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
PORT=${SCALE_PORT:-18600}
[[ -f $SCALE_JAR ]] || die "no scale-app jar at $SCALE_JAR"
mkdir -p "$OUT"
WORK=$OUT/adoption-scale.work
rm -rf "$WORK"; mkdir -p "$WORK"
TSV=$OUT/adoption-scale.tsv
printf 'round\tmode\tstop_ms\texit_code\tsequence_ms\tload\n' >"$TSV"
PID=
trap '[[ -n $PID ]] && kill -KILL $PID 2>/dev/null' EXIT

BEAN_ARGS="--scale.components=$BEANS --scale.phases=1 --scale.min-stop-ms=$STOP_MS --scale.max-stop-ms=$STOP_MS"
mode_args() {
  case $1 in
    lifecycle) echo "--scale.mode=plain-sync $BEAN_ARGS --lifecycle.drain-delay=0s --lifecycle.signals.trap=true" ;;
    plain) echo "--scale.mode=plain-sync $BEAN_ARGS --lifecycle.enabled=false --spring.lifecycle.timeout-per-shutdown-phase=60s" ;;
    none-plain) echo "--scale.mode=none --lifecycle.enabled=false" ;;
  esac
}

measure() { # round mode
  local logf=$WORK/$2-$1.log
  port_free "$PORT" || die "port $PORT is in use"
  # shellcheck disable=SC2046
  "$JAVA" -jar "$SCALE_JAR" --server.port="$PORT" --lifecycle.pre-stop.path="$WORK/prestop" $(mode_args "$2") >"$logf" 2>&1 &
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
  local ms seq
  ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')
  seq=$(grep -o 'shutdown complete (clean=[a-z]*, exitCode=[0-9]*, elapsed=[0-9]* ms' "$logf" | grep -o 'elapsed=[0-9]*' | cut -d= -f2)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$ms" "$code" "${seq:--}" "$load" >>"$TSV"
  log "  round $1 $2: SIGTERM -> exit $ms ms (code $code, Lifecycle sequence ${seq:--} ms, load $load)"
}

log "adopted SmartLifecycle beans: $BEANS beans x $STOP_MS ms in one phase, $RUNS runs (plain $PLAIN_RUNS) (load $(load_avg))"
for ((r = 1; r <= RUNS; r++)); do
  measure "$r" none-plain
  measure "$r" lifecycle
  ((r <= PLAIN_RUNS)) && measure "$r" plain
done
last=$(ls -t "$WORK"/lifecycle-*.log 2>/dev/null | head -n 1)
adopted=$(grep -o 'adopted [0-9]* Spring lifecycle bean' "$last" 2>/dev/null | grep -o '[0-9]*' | head -n 1)

col() { awk -F'\t' -v m="$1" -v c="$2" '$2 == m { print $c }' "$TSV"; }
med() { col "$1" "$2" >"$WORK/col"; median "$WORK/col"; }
base=$(med none-plain 3)
ideal=$(awk -v a="$STOP_MS" -v b="$base" 'BEGIN { printf "%.0f", a + b }')
lmed=$(med lifecycle 3)
pmed=$(med plain 3)
{
  echo "$BEANS \`SmartLifecycle\` beans in Spring phase 0, each \`stop()\` sleeping $STOP_MS ms (Lifecycle's log of its last run: adopted ${adopted:-?} beans). Ideal = drain delay 0 + $STOP_MS ms + JVM exit baseline (none-plain median) **$base ms** = **$ideal ms**; goals: Lifecycle ≤ plain / 10 and ≤ ideal + 300 ms = $((ideal + 300)) ms."
  echo
  echo "| mode | runs | median SIGTERM→exit ms | min | max | all runs ms | exit codes | median − ideal ms | Lifecycle sequence ms (median) |"
  echo "|---|---:|---:|---:|---:|---|---|---:|---:|"
  for m in lifecycle plain none-plain; do
    col "$m" 3 >"$WORK/col"
    [[ -s $WORK/col ]] || continue
    local_med=$(median "$WORK/col")
    printf '| %s | %s | **%s** | %s | %s | %s | %s | %s | %s |\n' "$m" "$(wc -l <"$WORK/col")" "$local_med" \
      "$(sort -g "$WORK/col" | head -n 1)" "$(sort -g "$WORK/col" | tail -n 1)" "$(paste -sd' ' "$WORK/col")" \
      "$(col "$m" 4 | sort -u | paste -sd' ')" "$(awk -v a="$local_med" -v b="$ideal" 'BEGIN { printf "%+.0f", a - b }')" \
      "$(col "$m" 5 | grep -v -- - >"$WORK/seq"; [[ -s $WORK/seq ]] && median "$WORK/seq" || echo -)"
  done
  echo
  echo "Ratio of medians lifecycle / plain = **$(awk -v a="$lmed" -v b="$pmed" 'BEGIN { printf "%.3f", a / b }')**."
} >"$OUT/adoption-scale.md"
printf '%s\t%s\t%s\n' "$ideal" "$lmed" "$pmed" >"$OUT/adoption-scale.summary"
cat "$OUT/adoption-scale.md"
