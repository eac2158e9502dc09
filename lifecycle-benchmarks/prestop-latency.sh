#!/usr/bin/env bash
# Pre-stop latency (run-all.sh item 4): time from creating the pre-stop file to readiness 503.
# A pre-stop file starts its process's shutdown, so every sample needs a fresh application. Two
# methods, both over real HTTP against /actuator/health/readiness polled about every 1 ms on one
# keep-alive connection, latency = just before the file is created -> first non-200 answer:
#   in-process (default 100 samples): scale-app --harness=prestop starts a fresh Spring Boot
#     application context (Tomcat, actuator, the Lifecycle starter and its pre-stop watcher, no
#     components) N times one after another in one JVM (signals.trap=false keeps the JVM alive
#     after each pre-stop shutdown). The JVM is warm after the first samples, like a pod that has
#     been serving for a while; the first sample is a cold one.
#   fresh JVMs (default 10 samples): the sample jar itself, one fresh JVM per sample, started in
#     parallel batches; each batch is measured one instance after another once all are ready, by
#     scale-app --harness=probe (the same measurement code as the in-process harness).
#     Cold code paths; costs one full JVM start (~5-15 s of CPU here) per sample.
# Drain delay is 250 ms in both (the 503 stays observable before the server stops).
#
# Usage: lifecycle-benchmarks/prestop-latency.sh [--inprocess N] [--fresh N] [--batch B] [--out DIR]
# Output: DIR/prestop.md, DIR/prestop.tsv, raw samples in DIR/prestop-{inprocess,fresh}.txt.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

INPROCESS=100 FRESH=10 BATCH=5 OUT=$BENCH_DIR/target/results SETTLE_MS=${PRESTOP_SETTLE_MS:-100}
while (($#)); do
  case $1 in
    --inprocess) INPROCESS=$2; shift 2 ;;
    --fresh) FRESH=$2; shift 2 ;;
    --batch) BATCH=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
BASE_PORT=${PRESTOP_BASE_PORT:-18500}
mkdir -p "$OUT"
WORK=$OUT/prestop.work
rm -rf "$WORK"; mkdir -p "$WORK"
PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done; }
trap cleanup EXIT

printf 'method\tsamples\tother\tmin_ms\tp50_ms\tp90_ms\tp99_ms\tmax_ms\tmean_ms\twall_s\tload_before\tload_after\n' >"$OUT/prestop.tsv"
summarize() { # method rawfile(latency status per line) wall load_before
  awk '$2 == 503 { print $1 }' "$2" >"$WORK/$1.lat"
  local other n min p50 p90 p99 max mean
  other=$(awk '$2 != 503' "$2" | wc -l)
  read -r n min p50 p90 p99 max mean < <(stats "$WORK/$1.lat")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$n" "$other" "$min" "$p50" "$p90" "$p99" "$max" "$mean" \
    "$3" "$4" "$(load_avg)" >>"$OUT/prestop.tsv"
  log "  $1: $n samples, p50 $p50 ms, p99 $p99 ms, max $max ms, other outcomes $other"
}

if ((INPROCESS > 0)); then
  [[ -f $SCALE_JAR ]] || die "no scale-app jar at $SCALE_JAR"
  lb=$(load_avg) t=$SECONDS
  log "pre-stop latency, in-process: $INPROCESS samples (load $lb)"
  "$JAVA" -jar "$SCALE_JAR" --harness=prestop --harness.samples="$INPROCESS" --harness.settle-ms="$SETTLE_MS" \
    --harness.dir="$WORK/inprocess" >"$WORK/inprocess.log" 2>&1 || die "harness failed; see $WORK/inprocess.log"
  awk '$1 == "prestop-sample" && NF == 5 { print $3, $4, $5 }' "$WORK/inprocess.log" >"$OUT/prestop-inprocess.txt"
  summarize inprocess "$OUT/prestop-inprocess.txt" $((SECONDS - t)) "$lb"
fi

if ((FRESH > 0)); then
  [[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR"
  [[ -f $SCALE_JAR ]] || die "no scale-app jar at $SCALE_JAR (it holds the probe)"
  : >"$OUT/prestop-fresh.txt"
  lb=$(load_avg) t=$SECONDS done_n=0
  log "pre-stop latency, fresh sample JVMs: $FRESH samples in batches of $BATCH (load $lb)"
  while ((done_n < FRESH)); do
    n=$((FRESH - done_n < BATCH ? FRESH - done_n : BATCH))
    PIDS=() targets=()
    for ((k = 0; k < n; k++)); do
      port=$((BASE_PORT + k)) dir=$WORK/fresh-$((done_n + k))
      mkdir -p "$dir"
      port_free "$port" || die "port $port is in use"
      "$JAVA" -jar "$SAMPLE_JAR" --server.port="$port" --sample.data-dir="$dir/data" \
        --lifecycle.pre-stop.enabled=true --lifecycle.pre-stop.path="$dir/prestop" \
        --lifecycle.run-marker.path="$dir/running" --lifecycle.drain-delay=250ms --lifecycle.signals.trap=true \
        >"$dir/app.log" 2>&1 &
      PIDS+=($!)
      targets+=("$port:$dir/prestop")
    done
    "$JAVA" -jar "$SCALE_JAR" --harness=probe --harness.settle-ms="$SETTLE_MS" "${targets[@]}" |
      awk '{ print $2, $3, $4 }' >>"$OUT/prestop-fresh.txt"
    for p in "${PIDS[@]}"; do wait_pid_exit "$p" 120; done
    done_n=$((done_n + n))
  done
  summarize fresh "$OUT/prestop-fresh.txt" $((SECONDS - t)) "$lb"
fi

{
  echo "| method | samples (503 seen) | other outcomes | min ms | p50 ms | p90 ms | **p99 ms** | max ms | mean ms | wall s | load before → after |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  tail -n +2 "$OUT/prestop.tsv" | awk -F'\t' '{ m = ($1 == "inprocess") ? "in-process (scale-app, fresh context per sample)" : "fresh JVM per sample (sample-app)";
    printf "| %s | %s | %s | %s | %s | %s | **%s** | %s | %s | %s | %s → %s |\n", m, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
} >"$OUT/prestop.md"
cat "$OUT/prestop.md"
rm -rf "$WORK"/fresh-* "$WORK"/inprocess
