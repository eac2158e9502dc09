#!/usr/bin/env bash
# What the starter costs per request: the request-cost app (a GET /hello on MVC/Tomcat, the same on
# WebFlux/Reactor Netty, and a gRPC unary echo, with the actuator and the Prometheus registry) run with Lifecycle's jars on its class path and
# without them (the app uses no Lifecycle type, so the classes are the same), in interleaved rounds
# (with, without, with, ... the order alternating per round) after one discarded warm-up round each
# (WARMUP seconds, default 20).
# Every variant's server runs for the whole stack (started afresh for each stack); only one is under
# load at a time.
#   cpu_us_per_req  server JVM CPU time (utime + stime from /proc/<pid>/stat) over the round / requests
#                   answered: robust on a shared machine, where wall-clock figures are not
#   rps             requests (calls) answered per second
#   p99_ms          99th percentile latency reported by the load client
# The table gives each measure's median over the rounds for each variant and, beside it, its minimum
# over the rounds (for CPU per request the least disturbed round: the machine's noise only adds), with
# the ratio with/without of the medians, and for CPU per request of the minima too.
#
# Load: HTTP (stacks http and webflux) with wrk (1 thread, CONNECTIONS keep-alive connections); gRPC with the project's GrpcLoad
# (saturation: CONCURRENCY calls in flight over 2 channels, no streams).
#
# Usage: lifecycle-benchmarks/request-cost.sh [--rounds 6] [--seconds 10] [--warmup 20] [--stacks "http grpc webflux"]
#          [--baseline DIR] [--out DIR]
#   --baseline DIR  adds a variant "baseline": Lifecycle's jars from DIR (lifecycle-core, -autoconfigure
#                   and -starter jars of another build) instead of the current ones, so a change is
#                   measured before and after in the same run
# Needs: mvn install of Lifecycle and package of lifecycle-benchmarks and request-cost-app (the app's
# target/classpath.txt names the Lifecycle jars in the local repository); wrk.
# Output: DIR/request-cost.tsv (every round), DIR/request-cost.md.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

ROUNDS=6 SECONDS_PER_ROUND=10 WARMUP=20 STACKS="http grpc webflux" BASELINE= OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --seconds) SECONDS_PER_ROUND=$2; shift 2 ;;
    --warmup) WARMUP=$2; shift 2 ;;
    --stacks) STACKS=$2; shift 2 ;;
    --baseline) BASELINE=$(cd "$2" && pwd); shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
APP_DIR=$BENCH_DIR/request-cost-app/target
LOAD_JAR=$BENCH_DIR/target/benchmarks.jar
CONNECTIONS=${COST_CONNECTIONS:-16} CONCURRENCY=${COST_CONCURRENCY:-16}
BASE_PORT=${COST_BASE_PORT:-18800}
[[ -f $APP_DIR/classpath.txt && -d $APP_DIR/classes ]] || die "build the app first: ./mvnw -pl lifecycle-benchmarks/request-cost-app -am install -DskipTests"
[[ -f $LOAD_JAR ]] || die "no $LOAD_JAR: ./mvnw -pl lifecycle-benchmarks package"
command -v wrk >/dev/null || die "wrk is needed (apt-get install wrk)"
TICK=$(getconf CLK_TCK)
VARIANTS="with without"
[[ -n $BASELINE ]] && VARIANTS="with without baseline"
mkdir -p "$OUT"
WORK=$OUT/request-cost.work
rm -rf "$WORK"; mkdir -p "$WORK"
TSV=$OUT/request-cost.tsv
printf 'stack\tround\tvariant\trequests\tcpu_s\tcpu_us_per_req\trps\tp99_ms\tload\n' >"$TSV"
declare -A PIDS=()
stop_all() { local p; for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done; }
trap stop_all EXIT

classpath() { # variant -> the app's class path for it
  local cp
  cp=$APP_DIR/classes:$(cat "$APP_DIR/classpath.txt")
  case $1 in
    with) echo "$cp" ;;
    without) tr ':' '\n' <<<"$cp" | grep -v '/lifecycle-\(core\|autoconfigure\|starter\)-[^/]*\.jar$' | paste -sd: ;;
    baseline) tr ':' '\n' <<<"$cp" | sed "s#^.*/\(lifecycle-\(core\|autoconfigure\|starter\)-[^/]*\.jar\)\$#$BASELINE/\1#" | paste -sd: ;;
  esac
}

start() { # variant index stack -> starts the server, sets PIDS[variant]
  local v=$1 http=$((BASE_PORT + 2 * $2)) grpc=$((BASE_PORT + 2 * $2 + 1)) dir=$WORK/$1-$3 extra=()
  mkdir -p "$dir"
  [[ $3 == webflux ]] && extra=(--spring.main.web-application-type=reactive
    --spring.autoconfigure.exclude=org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration)
  port_free "$http" && port_free "$grpc" || die "port $http or $grpc is in use"
  "$JAVA" -Xms256m -Xmx256m -cp "$(classpath "$v")" dev.lifecycle.benchmarks.cost.RequestCostApplication \
    --server.port="$http" --spring.grpc.server.port="$grpc" \
    --lifecycle.pre-stop.path="$dir/prestop" --lifecycle.run-marker.path="$dir/running" "${extra[@]}" \
    >"$dir/app.log" 2>&1 &
  PIDS[$v]=$!
  if [[ $v == without ]] && grep -q '/lifecycle-\(core\|autoconfigure\)' <(classpath without | tr ':' '\n'); then
    die "the variant without the starter has Lifecycle on its class path"
  fi
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

to_ms() { # wrk latency like 1.23ms, 456.00us, 1.02s -> ms
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'
}

round() { # stack round variant index
  local stack=$1 r=$2 v=$3 pid=${PIDS[$3]} http=$((BASE_PORT + 2 * $4)) grpc=$((BASE_PORT + 2 * $4 + 1))
  local dir=$WORK/$v/$stack-$r requests rps p99 t0 t1 load seconds=$SECONDS_PER_ROUND
  [[ $r == warmup ]] && seconds=$WARMUP
  mkdir -p "$dir"
  load=$(load_avg)
  t0=$(cpu_ticks "$pid")
  if [[ $stack != grpc ]]; then
    wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --latency "http://127.0.0.1:$http/hello" >"$dir/wrk.txt" 2>&1
    t1=$(cpu_ticks "$pid")
    requests=$(awk '/requests in/ { print $1 }' "$dir/wrk.txt")
    rps=$(awk '/^Requests\/sec/ { print $2 }' "$dir/wrk.txt")
    p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$dir/wrk.txt")")
    grep -q 'Non-2xx' "$dir/wrk.txt" && die "$v answered errors; see $dir/wrk.txt"
  else
    "$JAVA" -cp "$LOAD_JAR" dev.lifecycle.benchmarks.grpc.GrpcLoad --target="127.0.0.1:$grpc" --out="$dir" \
      --stop-file="$dir/never" --max-seconds="$seconds" --streams=0 --channels=2 \
      --concurrency="$CONCURRENCY" --deadline-ms=60000 >"$dir/load.log" 2>&1 || die "GrpcLoad failed; see $dir/load.log"
    t1=$(cpu_ticks "$pid")
    requests=$(jq '.statuses.OK // 0' "$dir/wrk-summary.json")
    rps=$(jq '.statuses.OK / .duration_us * 1e6' "$dir/wrk-summary.json")
    p99=$(jq '.latency_us.p99 / 1000' "$dir/wrk-summary.json")
    # A failed call is a broken run, except while warming up on a starved machine.
    [[ $r == warmup || $(jq '.requests - (.statuses.OK // 0)' "$dir/wrk-summary.json") == 0 ]] || die "$v failed calls; see $dir"
    rm -f "$dir/acked-grpc.txt"
  fi
  ((requests > 0)) || die "$v answered nothing in $stack round $r"
  local cpu per
  cpu=$(awk -v a="$t0" -v b="$t1" -v t="$TICK" 'BEGIN { printf "%.2f", (b - a) / t }')
  per=$(awk -v c="$cpu" -v n="$requests" 'BEGIN { printf "%.2f", c * 1e6 / n }')
  [[ $r == warmup ]] || printf '%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\t%s\n' "$stack" "$r" "$v" "$requests" "$cpu" "$per" "$rps" "$p99" "$load" >>"$TSV"
  log "  $stack $v round $r: $requests requests, CPU $cpu s = $per us/request, $rps/s, p99 $p99 ms (load $load)"
}

log "request cost: stacks $STACKS, variants $VARIANTS, $ROUNDS rounds of $SECONDS_PER_ROUND s after $WARMUP s of warm-up (load $(load_avg))"
read -ra ORDER <<<"$VARIANTS"
for stack in $STACKS; do
  # Started together, then awaited: a busy machine takes minutes to start three JVMs one by one.
  i=0; for v in "${ORDER[@]}"; do start "$v" "$i" "$stack"; i=$((i + 1)); done
  i=0; for v in "${ORDER[@]}"; do
    wait_http_200 "http://127.0.0.1:$((BASE_PORT + 2 * i))/actuator/health/readiness" 600 "${PIDS[$v]}" ||
      die "$v did not start; see $WORK/$v-$stack/app.log"
    i=$((i + 1))
  done
  i=0; for v in "${ORDER[@]}"; do round "$stack" warmup "$v" "$i"; i=$((i + 1)); done
  for ((r = 1; r <= ROUNDS; r++)); do
    # The order alternates, so no variant always runs right after the same one.
    if ((r % 2)); then seq=$(seq 0 $((${#ORDER[@]} - 1))); else seq=$(seq $((${#ORDER[@]} - 1)) -1 0); fi
    for k in $seq; do round "$stack" "$r" "${ORDER[$k]}" "$k"; done
  done
  for v in "${ORDER[@]}"; do kill -TERM "${PIDS[$v]}" 2>/dev/null; done
  for v in "${ORDER[@]}"; do wait_pid_exit "${PIDS[$v]}" 60; done
  PIDS=()
done

col() { awk -F'\t' -v s="$1" -v v="$2" -v c="$3" '$1 == s && $3 == v { print $c }' "$TSV" >"$WORK/col"; }
med() { col "$@"; median "$WORK/col"; }
lowest() { col "$@"; sort -g "$WORK/col" | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
{
  echo "| stack | variant | CPU µs/request median | min | ratio | ratio of min | requests/s median | min | ratio | p99 ms median | min | ratio |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for stack in $STACKS; do
    bc=$(med "$stack" without 6) br=$(med "$stack" without 7) bp=$(med "$stack" without 8) bcm=$(lowest "$stack" without 6)
    for v in $VARIANTS; do
      c=$(med "$stack" "$v" 6) q=$(med "$stack" "$v" 7) p=$(med "$stack" "$v" 8)
      cm=$(lowest "$stack" "$v" 6) qm=$(lowest "$stack" "$v" 7) pm=$(lowest "$stack" "$v" 8)
      echo "| $stack | $v | $c | $cm | **$(ratio "$c" "$bc")** | $(ratio "$cm" "$bcm") | $q | $qm | $(ratio "$q" "$br") | $p | $pm | $(ratio "$p" "$bp") |"
    done
  done
  echo
  echo "Medians and minima over $ROUNDS interleaved rounds of $SECONDS_PER_ROUND s; ratios against \"without\". Per-round ratios with/without (CPU per request):"
  for stack in $STACKS; do
    printf -- '- %s: %s\n' "$stack" "$(awk -F'\t' -v s="$stack" '$1 == s { c[$2, $3] = $6; r[$2] = 1 }
      END { for (k in r) printf "%s ", (c[k, "with"] / c[k, "without"]) }' "$TSV" | tr ' ' '\n' | sort -g | awk 'NF { printf "%.2f ", $1 }')"
  done
} >"$OUT/request-cost.md"
cat "$OUT/request-cost.md"
