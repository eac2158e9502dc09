#!/usr/bin/env bash
# Start-up with the JDK AOT cache (JDK 25+), Spring Boot's recipe as deploy/aot-cache/ ships it: for
# the sample jar and for a bare starter app (scale-app with --scale.mode=none: the starter and
# Spring MVC, no component), the jar is extracted and trained once (-XX:AOTCacheOutput with
# -Dspring.context.exit=onRefresh), then three variants are started in turn, interleaved, after one
# discarded warm-up of each:
#   jar        java -jar APP.jar                             (the fat jar, as most users start it)
#   extracted  java -jar app/APP.jar                         (extracted, no cache)
#   cache      java -XX:AOTCache=app.aot -jar app/APP.jar    (extracted, with the cache)
# Each run measures the wall clock from launch to the first GET /actuator/health/readiness = 200
# (polled every 20 ms; port 0, read back from the log), then SIGTERM and a clean exit. Every run
# has a fresh data directory and run marker; the run after the training run must not report an
# unclean previous run (checked on every cache run).
#
# Usage: lifecycle-benchmarks/aot-cache-startup.sh [--runs N] [--out DIR]    (default 5 runs each)
# JAVA defaults to Temurin 25 under /usr/lib/jvm when JAVA_HOME is not a JDK 25+.
# Output: DIR/aot-cache-startup.tsv (every run, with the load average at its launch),
# DIR/aot-cache-startup.md (medians; ratios as the median of the per-run ratios, since the three
# variants of a run start back to back under the same load, and as the ratio of the medians).
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

RUNS=5 OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
feature() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p'; }
if [[ $(feature "$JAVA") -lt 25 ]] 2>/dev/null || [[ -z $(feature "$JAVA") ]]; then
  JAVA=$(ls -d /usr/lib/jvm/temurin-25*/bin/java 2>/dev/null | head -n 1)
  [[ -n $JAVA ]] || die "the JDK AOT cache needs JDK 25 or later: set JAVA_HOME"
fi
[[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR (./mvnw -pl sample-app -am package)"
[[ -f $SCALE_JAR ]] || die "no scale-app jar at $SCALE_JAR (./mvnw -pl lifecycle-benchmarks/scale-app -am package)"
mkdir -p "$OUT"
WORK=$OUT/aot-cache-startup.work
rm -rf "$WORK"; mkdir -p "$WORK"
TSV=$OUT/aot-cache-startup.tsv
printf 'run\tapp\tvariant\tready_s\tload\n' >"$TSV"
PID=
trap '[[ -n $PID ]] && kill -KILL $PID 2>/dev/null' EXIT

jar_of() { if [[ $1 == sample ]]; then echo "$SAMPLE_JAR"; else echo "$SCALE_JAR"; fi; }
args_of() { # app dir -> the application's arguments
  if [[ $1 == sample ]]; then
    echo "--server.port=0 --sample.data-dir=$2/data --lifecycle.pre-stop.path=$2/prestop --lifecycle.run-marker.path=$2/running"
  else
    echo "--server.port=0 --scale.mode=none --spring.application.name=bare --lifecycle.pre-stop.path=$2/prestop --lifecycle.run-marker.path=$2/running"
  fi
}

train() { # app: extract and train into WORK/app
  local dir=$WORK/$1 jar
  jar=$(jar_of "$1")
  mkdir -p "$dir/training"
  log "$1: extract and training run ($JAVA)"
  "$JAVA" -Djarmode=tools -jar "$jar" extract --destination "$dir/app" >"$dir/extract.log" 2>&1 || die "$1: extract failed"
  # shellcheck disable=SC2046
  (cd "$dir" && "$JAVA" -XX:AOTCacheOutput=app.aot -Dspring.context.exit=onRefresh -jar "app/$(basename "$jar")" \
    $(args_of "$1" "$dir/training") >"$dir/training.log" 2>&1) || die "$1: training run failed; see $dir/training.log"
  [[ -s $dir/app.aot ]] || die "$1: no cache written"
  [[ -e $dir/training/running ]] && die "$1: the training run left a run marker"
  rm -rf "$dir/training"
}

one() { # run app variant
  local app=$2 variant=$3 dir=$WORK/$2 run=$WORK/$2/$3-$1 jar cmd=()
  jar=$(jar_of "$app")
  mkdir -p "$run"
  case $variant in
    jar) cmd=("$JAVA" -jar "$jar") ;;
    extracted) cmd=("$JAVA" -jar "app/$(basename "$jar")") ;;
    cache) cmd=("$JAVA" -XX:AOTCache=app.aot -XX:AOTMode=on -jar "app/$(basename "$jar")") ;;
  esac
  local load t0 t1 port=
  load=$(load_avg)
  t0=${EPOCHREALTIME/./}
  # shellcheck disable=SC2046
  (cd "$dir" && exec "${cmd[@]}" $(args_of "$app" "$run")) >"$run/app.log" 2>&1 &
  PID=$!
  local deadline=$((SECONDS + 300))
  while :; do
    kill -0 "$PID" 2>/dev/null || die "$app $variant run $1 died; see $run/app.log"
    ((SECONDS > deadline)) && die "$app $variant run $1 not ready in 300 s"
    [[ -z $port ]] && port=$(grep -so 'Tomcat started on port [0-9]*' "$run/app.log" | awk '{ print $5 }')
    [[ -n $port && $(curl -s -o /dev/null -m 1 -w '%{http_code}' "http://127.0.0.1:$port/actuator/health/readiness") == 200 ]] && break
    sleep 0.02
  done
  t1=${EPOCHREALTIME/./}
  if [[ $variant == cache ]] && grep -q 'previous process did not finish' "$run/app.log"; then
    die "$app run $1 counted an unclean previous run after the training run; see $run/app.log"
  fi
  kill -TERM "$PID"; wait_pid_exit "$PID" 120; PID=
  ((EXIT_CODE == 0)) || die "$app $variant run $1 exited $EXIT_CODE; see $run/app.log"
  local ready; ready=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
  [[ $1 == warmup ]] || printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$app" "$variant" "$ready" "$load" >>"$TSV"
  log "  $app $variant run $1: readiness 200 after $ready s (load $load)"
  rm -rf "$run/data"
}

VARIANTS=(jar extracted cache)
log "AOT cache start-up: $RUNS runs each, $JAVA, load $(load_avg)"
for app in sample bare; do
  train "$app"
  for v in "${VARIANTS[@]}"; do one warmup "$app" "$v"; done
  for ((r = 1; r <= RUNS; r++)); do
    # Rotate the order every run: each variant runs first, second and third equally often.
    for ((i = 0; i < ${#VARIANTS[@]}; i++)); do
      one "$r" "$app" "${VARIANTS[(r + i) % ${#VARIANTS[@]}]}"
    done
  done
done

med() { awk -F'\t' -v a="$1" -v v="$2" '$2 == a && $3 == v { print $4 }' "$TSV" >"$WORK/col"; median "$WORK/col"; }
all() { awk -F'\t' -v a="$1" -v v="$2" '$2 == a && $3 == v { print $4 }' "$TSV" | paste -sd' '; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# The median of the per-run ratios: the variants of one run ran back to back, under the same load.
paired() { # app variant baseline
  awk -F'\t' -v a="$1" -v v="$2" -v b="$3" '$2 == a && $3 == v { x[$1] = $4 } $2 == a && $3 == b { y[$1] = $4 }
    END { for (r in x) if (r in y) print x[r] / y[r] }' "$TSV" >"$WORK/col"
  awk '{ printf "%.2f\n", $1 }' <<<"$(median "$WORK/col")"
}
{
  echo "$(machine_line)"
  echo
  echo "| app | jar (median s) | extracted (median s) | cache (median s) | **cache / extracted** (paired) | **cache / jar** (paired) | ratio of medians: cache / extracted, cache / jar | all runs: jar; extracted; cache |"
  echo "|---|---:|---:|---:|---:|---:|---|---|"
  for app in sample bare; do
    j=$(med "$app" jar) e=$(med "$app" extracted) c=$(med "$app" cache)
    echo "| $app | $j | $e | $c | **$(paired "$app" cache extracted)** | **$(paired "$app" cache jar)** | $(ratio "$c" "$e"), $(ratio "$c" "$j") | $(all "$app" jar); $(all "$app" extracted); $(all "$app" cache) |"
  done
} >"$OUT/aot-cache-startup.md"
cat "$OUT/aot-cache-startup.md"
