#!/usr/bin/env bash
# Start-up cost (run-all.sh item 3): the sample jar with the starter on (as shipped) and off
# (--lifecycle.enabled=false: Lifecycle's auto-configurations back off and the sample starts the same
# ingestion and pipeline from its plain SmartLifecycle;
# its jars stay on the class path, since the sample's code uses Lifecycle's types and cannot be
# built without them). Runs are interleaved (with, without, with, ...) after one discarded warm-up
# of each; every run has a fresh data directory.
#   started_s  JVM uptime when Spring Boot logs "Started ..." ("process running for X")
#   ready_s    wall clock from launch to the first GET /actuator/health/readiness = 200 (polled
#              every 20 ms)
#
# Usage: lifecycle-benchmarks/startup.sh [--runs N] [--out DIR]     (default 10 runs each)
# Output: DIR/startup.tsv (every run), DIR/startup.md.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

RUNS=10 OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
PORT=${STARTUP_PORT:-18700}
[[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR"
mkdir -p "$OUT"
WORK=$OUT/startup.work
rm -rf "$WORK"; mkdir -p "$WORK"
TSV=$OUT/startup.tsv
printf 'run\tvariant\tstarted_s\tready_s\tload\n' >"$TSV"
PID=
trap '[[ -n $PID ]] && kill -KILL $PID 2>/dev/null' EXIT

one() { # run variant
  local dir=$WORK/$2-$1 extra=()
  mkdir -p "$dir"
  [[ $2 == without ]] && extra=(--lifecycle.enabled=false)
  port_free "$PORT" || die "port $PORT is in use"
  local load t0 t1
  load=$(load_avg)
  t0=${EPOCHREALTIME/./}
  "$JAVA" -jar "$SAMPLE_JAR" --server.port="$PORT" --sample.data-dir="$dir/data" \
    --lifecycle.pre-stop.path="$dir/prestop" --lifecycle.run-marker.path="$dir/running" "${extra[@]}" \
    >"$dir/app.log" 2>&1 &
  PID=$!
  local deadline=$((SECONDS + 300))
  until [[ $(curl -s -o /dev/null -m 1 -w '%{http_code}' "http://127.0.0.1:$PORT/actuator/health/readiness") == 200 ]]; do
    kill -0 "$PID" 2>/dev/null || die "$2 run $1 died; see $dir/app.log"
    ((SECONDS > deadline)) && die "$2 run $1 not ready in 300 s"
    sleep 0.02
  done
  t1=${EPOCHREALTIME/./}
  local started
  started=$(grep -o 'process running for [0-9.]*' "$dir/app.log" | awk '{ print $4 }')
  kill -TERM "$PID"; wait_pid_exit "$PID" 120; PID=
  local ready; ready=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
  [[ $1 == warmup ]] || printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$started" "$ready" "$load" >>"$TSV"
  log "  $2 run $1: Started at JVM uptime ${started} s, readiness 200 after $ready s (load $load)"
  rm -rf "$dir/data"
}

log "start-up cost: $RUNS runs each, interleaved (load $(load_avg))"
one warmup with; one warmup without
for ((r = 1; r <= RUNS; r++)); do
  if ((r % 2)); then one "$r" with; one "$r" without; else one "$r" without; one "$r" with; fi
done

med() { awk -F'\t' -v v="$1" -v c="$2" '$2 == v { print $c }' "$TSV" >"$WORK/col"; median "$WORK/col"; }
all() { awk -F'\t' -v v="$1" -v c="$2" '$2 == v { print $c }' "$TSV" | paste -sd' '; }
ws=$(med with 3) wos=$(med without 3) wr=$(med with 4) wor=$(med without 4)
rs=$(awk -v a="$ws" -v b="$wos" 'BEGIN { printf "%.3f", a / b }')
rr=$(awk -v a="$wr" -v b="$wor" 'BEGIN { printf "%.3f", a / b }')
{
  echo "| measure | with starter (median) | without (median) | **ratio** | with: all runs | without: all runs |"
  echo "|---|---:|---:|---:|---|---|"
  echo "| launch → \"Started\" (JVM uptime, s) | $ws | $wos | **$rs** | $(all with 3) | $(all without 3) |"
  echo "| launch → readiness 200 (wall, s) | $wr | $wor | **$rr** | $(all with 4) | $(all without 4) |"
} >"$OUT/startup.md"
printf '%s\t%s\n' "$rs" "$rr" >"$OUT/startup.summary"
cat "$OUT/startup.md"
