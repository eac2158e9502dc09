#!/usr/bin/env bash
# Rolling restart under load (run-all.sh item 1).
#
# Three sample instances on loopback ports behind HAProxy configured like a Kubernetes Service
# (readiness checked every 1 s on each instance's management port, removed after 1 failed check,
# added after 1 good one, no retries, no redispatch); wrk posts events with unique ids through the
# proxy while each instance in turn gets SIGTERM, exits, restarts on its own data directory, becomes
# ready and UP in HAProxy, then 2 s pass.
# Proxy modes (--modes):
#   http  HAProxy in HTTP mode: it balances every request over its own pooled server connections
#         (what an ingress controller or a layer-7 mesh does)
#   tcp   HAProxy in TCP mode, round robin per connection: a client's keep-alive connection stays on
#         the instance it was opened to until one side closes it (what kube-proxy does); Tomcat
#         closes a connection after 100 requests (server.tomcat.max-keep-alive-requests, Boot's default)
#   pinned tcp with server.tomcat.max-keep-alive-requests=-1: connections are never recycled by the
#         server (the default of Jetty and Reactor Netty), so a client stays on its instance until
#         that instance closes the connection
#   sse   tcp (RR_SSE_PROXY=http for HTTP mode) plus RR_SSE_CLIENTS (50) curl -N clients on
#         GET /counts/stream through the proxy for the whole run, each reconnecting when its stream ends
#   grpc  the sample's gRPC ingestion service (--sample.grpc.enabled=true, a gRPC port per instance)
#         behind HAProxy in TCP mode, so each HTTP/2 connection stays on the instance it was opened to
#         (what kube-proxy does); the load is GrpcLoad (this module's jar: grpc-java over Netty, retries
#         off) making unary Append calls over RR_GRPC_CHANNELS (8) channels, each id its own key, plus
#         RR_GRPC_STREAMS (20) WatchOffset server streams, each reopened when it ends. A stream ended
#         by the server with UNAVAILABLE is a clean end; one closed without the server's status is broken
# Loads (--loads, wrk pause per request and connection in ms): 40 (about 300 requests/s) and 0
# (saturation: as many requests/s as the three instances take). In grpc mode 0 is 16 calls always in
# flight (saturation) and N > 0 a fixed rate of 16 x 1000 / N calls/s started on schedule whatever the
# answers (open loop: 40 -> 400 calls/s).
# Variants (--variants), interleaved, the order rotated per cell and round (A B C, B C A, ...):
#   lifecycle          the sample as shipped (connection-close and GOAWAY on), drain delay 5s
#                      (Kubernetes default), signals trapped
#   lifecycle-adaptive the same with --lifecycle.drain-quiet-period=$RR_QUIET (1s)
#                      --lifecycle.drain-minimum=$RR_MINIMUM (2s): the drain ends once no request has
#                      arrived for the quiet period, 5 s staying the upper bound
#   lifecycle-nocc     lifecycle with --lifecycle.connection-close=false (keep-alive connections stay
#                      open through the drain)
#   lifecycle-cc, lifecycle-adaptive-cc  connection-close stated explicitly (the default since it
#                      was measured off; kept so older result files can be re-run)
#   lifecycle-nodrain  drain delay 0 (Lifecycle's default outside Kubernetes)
#   plain              --lifecycle.enabled=false --server.shutdown=graceful
#                      --spring.lifecycle.timeout-per-shutdown-phase=30s (plain Spring Boot graceful)
#   plain-sleep        plain plus --sample.plain.pre-stop-sleep=5s: the preStop "sleep 5" recipe of the
#                      Spring Boot documentation, emulated in-process (readiness turns REFUSING_TRAFFIC
#                      at context close, so HAProxy removes the instance, then the context sleeps 5 s
#                      before anything stops; on Kubernetes the endpoint goes because the pod is
#                      terminating, during the hook's sleep)
#   VARIANT+aot        any variant started from the JDK AOT cache instead (JDK 25+): the jar extracted
#                      once, one training run (-XX:AOTCacheOutput, -Dspring.context.exit=onRefresh,
#                      Lifecycle on), every instance of the variant started with -XX:AOTCache and
#                      -XX:AOTMode=on (the JVM refuses to start rather than run without the cache).
#                      Variants without the suffix run as before in the same run, on the same JDK, so
#                      the rollout with and without the cache is compared under the same load.
# The actuator has its own port (as in deploy/k8s), so HAProxy's checks are not application traffic.
# Every event's key is its id, so each instance's final GET /counts lists the committed events by
# id: acknowledged-but-lost = ids wrk saw 202 for that no instance counts.
# Rollout = sum over the restarts of SIGTERM -> exit + restart -> ready and UP (the fixed 2 s pauses
# excluded).
#
# Usage: lifecycle-benchmarks/rolling-restart.sh [--rounds N] [--restarts K] [--variants "lifecycle plain"]
#        [--modes "http tcp sse"] [--loads "40 0"] [--delay-ms MS] [--out DIR] [--append] [--first-round N]
#   --rounds   rounds of all cells (default 2)          --restarts  instances restarted per run (default 3)
#   --delay-ms one load (same as --loads MS)           --append    add rows to an existing TSV
#   --first-round  number of the first round (default 1; with --append, to add rounds later)
#   --report-only  no runs: rewrite DIR/rolling-restart.md from DIR/rolling-restart.tsv
# Output: DIR/rolling-restart.tsv (one row per run), DIR/rolling-restart.md, per-run directories.
# Environment: SAMPLE_JAR, BENCH_JAR (grpc mode: lifecycle-benchmarks/target/benchmarks.jar), RR_BASE_PORT (default 18400), RR_DRAIN_DELAY (5s), RR_FALL (1), RR_CDS (1:
# start every JVM from an application class-data archive made by one training run), RR_AOT (1: run
# every variant of --variants also as VARIANT+aot), RR_HTTPLOG (1: HAProxy logs every request with its
# termination state to haproxy-requests.log), RR_FINAL_STOP (TERM: the signal that ends the three
# instances after a run's final counts; KILL skips their unmeasured drain). JAVA_HOME picks the JDK of every variant.
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

ROUNDS=2 RESTARTS=3 VARIANTS="lifecycle plain" MODES=http LOADS=40 OUT=$BENCH_DIR/target/results APPEND=0 FIRST_ROUND=1 REPORT_ONLY=0
while (($#)); do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --restarts) RESTARTS=$2; shift 2 ;;
    --variants) VARIANTS=$2; shift 2 ;;
    --modes) MODES=$2; shift 2 ;;
    --loads) LOADS=$2; shift 2 ;;
    --delay-ms) LOADS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --append) APPEND=1; shift ;;
    --first-round) FIRST_ROUND=$2; shift 2 ;;
    --report-only) REPORT_ONLY=1; APPEND=1; shift ;;
    *) die "unknown argument $1" ;;
  esac
done
OUT=$(realpath -m "$OUT") # the instances get paths under it, and Lifecycle takes absolute paths only
if [[ ${RR_AOT:-0} == 1 ]]; then
  for v in $VARIANTS; do [[ $v == *+aot ]] || VARIANTS="$VARIANTS $v+aot"; done
fi
BASE_PORT=${RR_BASE_PORT:-18400}
DRAIN_DELAY=${RR_DRAIN_DELAY:-5s}
FALL=${RR_FALL:-1}
QUIET=${RR_QUIET:-1s} MINIMUM=${RR_MINIMUM:-2s}
SSE_CLIENTS=${RR_SSE_CLIENTS:-50} SSE_PROXY=${RR_SSE_PROXY:-tcp}
FE_PORT=$BASE_PORT STATS_PORT=$((BASE_PORT + 1))
PORTS=($((BASE_PORT + 11)) $((BASE_PORT + 12)) $((BASE_PORT + 13)))
MPORTS=($((BASE_PORT + 21)) $((BASE_PORT + 22)) $((BASE_PORT + 23)))
GPORTS=($((BASE_PORT + 31)) $((BASE_PORT + 32)) $((BASE_PORT + 33)))
GRPC_STREAMS=${RR_GRPC_STREAMS:-20} GRPC_CHANNELS=${RR_GRPC_CHANNELS:-8}
BENCH_JAR=${BENCH_JAR:-$BENCH_DIR/target/benchmarks.jar}
SETTLE_S=2 TAIL_S=3
DRAIN_S=$(sed 's/s$//' <<<"$DRAIN_DELAY")
for m in $MODES; do [[ $m == http || $m == tcp || $m == pinned || $m == sse || $m == grpc ]] || die "unknown mode $m (http, tcp, pinned, sse or grpc)"; done
if [[ " $MODES " == *" grpc "* ]] && ((!REPORT_ONLY)); then
  [[ -f $BENCH_JAR ]] || die "no load client at $BENCH_JAR (./mvnw -pl lifecycle-benchmarks -am -DskipTests package)"
fi

for tool in haproxy wrk curl jq; do command -v $tool >/dev/null || die "$tool is not installed (run-all.sh installs it)"; done
[[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR"
mkdir -p "$OUT"
TSV=$OUT/rolling-restart.tsv
if ((!APPEND)) || [[ ! -s $TSV ]]; then
  printf 'round\tvariant\trequests\t2xx\tnon2xx\tsocket_errors\tfailed\tstatuses\terrors\tp50_ms\tp99_ms\tmax_ms\tacked\tcounted\tlost\tunacked_counted\tduplicates\texit_codes\tstop_s\tready_s\tduration_s\tload_before\tload_after\tprobe_refused\tmode\tdelay_ms\trollout_s\tshutdown_s\tsse_streams\tsse_clean_ends\tsse_broken_ends\tsse_refused\tsse_end_after_sigterm_s\tstop_max_s\tproxy_states\tunanswered\n' >"$TSV"
fi

PIDS=() HAPROXY_PID= WRK_PID= SSE_PIDS=() SSE_DIR=
cleanup() {
  local p
  [[ -n ${SSE_DIR:-} ]] && touch "$SSE_DIR/stop"
  for p in "${PIDS[@]}" $HAPROXY_PID $WRK_PID "${SSE_PIDS[@]}"; do [[ -n $p ]] && kill -KILL "$p" 2>/dev/null; done
  [[ -n ${SSE_DIR:-} ]] && for p in "$SSE_DIR"/*.pid; do [[ -s $p ]] && kill -KILL "$(cat "$p")" 2>/dev/null; done
}
trap cleanup EXIT

variant_args() { # variant instance-dir (a +aot variant takes the arguments of its base variant)
  local lc="--lifecycle.drain-delay=$DRAIN_DELAY --lifecycle.signals.trap=true --lifecycle.pre-stop.path=$2/prestop"
  local plain="--lifecycle.enabled=false --server.shutdown=graceful --spring.lifecycle.timeout-per-shutdown-phase=30s"
  case ${1%+aot} in
    lifecycle) echo "$lc" ;;
    lifecycle-adaptive) echo "$lc --lifecycle.drain-quiet-period=$QUIET --lifecycle.drain-minimum=$MINIMUM" ;;
    lifecycle-cc) echo "$lc --lifecycle.connection-close=true" ;;
    lifecycle-nocc) echo "$lc --lifecycle.connection-close=false" ;;
    lifecycle-adaptive-cc) echo "$lc --lifecycle.drain-quiet-period=$QUIET --lifecycle.drain-minimum=$MINIMUM --lifecycle.connection-close=true" ;;
    lifecycle-nodrain) echo "--lifecycle.drain-delay=0s --lifecycle.signals.trap=true --lifecycle.pre-stop.path=$2/prestop" ;;
    plain) echo "$plain" ;;
    plain-sleep) echo "$plain --sample.plain.pre-stop-sleep=$DRAIN_DELAY" ;;
    *) die "unknown variant $1" ;;
  esac
}
for v in $VARIANTS; do variant_args "$v" x >/dev/null; done

# Application class-data sharing: the jar extracted once, one training run records the classes it
# loads, every instance starts from that archive (class loading only: a shorter restart, the same code).
JAVA_ARGS=(-jar "$SAMPLE_JAR")
if [[ ${RR_CDS:-1} == 1 ]] && ((!REPORT_ONLY)); then
  CDS=$OUT/cds
  if [[ ! -s $CDS/app.jsa ]]; then
    rm -rf "$CDS"; mkdir -p "$CDS"
    "$JAVA" -Djarmode=tools -jar "$SAMPLE_JAR" extract --destination "$CDS/app" >"$CDS/extract.log" 2>&1 &&
      "$JAVA" -XX:ArchiveClassesAtExit="$CDS/app.jsa" -Dspring.context.exit=onRefresh -jar "$CDS/app/$(basename "$SAMPLE_JAR")" \
        --server.port=0 --management.server.port=0 --sample.data-dir="$CDS/train" --lifecycle.pre-stop.enabled=false \
        --lifecycle.run-marker.enabled=false --sample.grpc.enabled=true --spring.grpc.server.port=0 >"$CDS/train.log" 2>&1
  fi
  if [[ -s $CDS/app.jsa ]]; then
    JAVA_ARGS=(-XX:SharedArchiveFile="$CDS/app.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$CDS/app/$(basename "$SAMPLE_JAR")")
  else
    log "WARNING: no class-data archive (see $CDS/*.log); starting from the plain jar"
  fi
fi

# The JDK AOT cache (JDK 25+) for the +aot variants, as deploy/aot-cache/build-aot-cache.sh builds it:
# the jar extracted once, one training run that halts as the context refreshes, the cache written at
# its exit. The training run has a run marker path of its own, which it must leave absent.
AOT_JAVA_ARGS=()
if [[ " $VARIANTS " == *+aot* ]] && ((!REPORT_ONLY)); then
  feature=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  [[ $feature =~ ^[0-9]+$ ]] && ((feature >= 25)) || die "+aot variants need JDK 25 or later: $JAVA is Java ${feature:-?} (set JAVA_HOME)"
  AOT=$OUT/aot
  if [[ ! -s $AOT/app.aot ]]; then
    rm -rf "$AOT"; mkdir -p "$AOT/train"
    log "AOT cache: extract and training run ($("$JAVA" -version 2>&1 | head -n 1))"
    "$JAVA" -Djarmode=tools -jar "$SAMPLE_JAR" extract --destination "$AOT/app" >"$AOT/extract.log" 2>&1 ||
      die "extract failed; see $AOT/extract.log"
    "$JAVA" -XX:AOTCacheOutput="$AOT/app.aot" -Dspring.context.exit=onRefresh -jar "$AOT/app/$(basename "$SAMPLE_JAR")" \
      --server.port=0 --management.server.port=0 --sample.data-dir="$AOT/train/data" \
      --lifecycle.pre-stop.path="$AOT/train/prestop" --lifecycle.run-marker.path="$AOT/train/running" >"$AOT/train.log" 2>&1 ||
      die "the AOT training run failed; see $AOT/train.log"
    [[ -s $AOT/app.aot ]] || die "the AOT training run wrote no cache; see $AOT/train.log"
    [[ -e $AOT/train/running ]] && die "the AOT training run left a run marker behind"
  fi
  AOT_JAVA_ARGS=(-XX:AOTCache="$AOT/app.aot" -XX:AOTMode=on -jar "$AOT/app/$(basename "$SAMPLE_JAR")")
fi

start_instance() { # index variant rundir n(start count) [mode]
  local i=$1 dir=$3/i$1 extra= jargs=("${JAVA_ARGS[@]}")
  [[ ${5:-} == pinned ]] && extra=--server.tomcat.max-keep-alive-requests=-1
  [[ ${5:-} == grpc ]] && extra="--sample.grpc.enabled=true --spring.grpc.server.port=${GPORTS[$i]}"
  [[ $2 == *+aot ]] && jargs=("${AOT_JAVA_ARGS[@]}")
  mkdir -p "$dir"
  # shellcheck disable=SC2046
  "$JAVA" "${jargs[@]}" --server.port="${PORTS[$i]}" --management.server.port="${MPORTS[$i]}" \
    --sample.data-dir="$dir/data" --lifecycle.run-marker.path="$dir/running" $(variant_args "$2" "$dir") $extra \
    >"$dir/start-$4.log" 2>&1 &
  PIDS[$i]=$!
}

haproxy_status() { # server name -> UP / DOWN / ...
  curl -s -m 2 "http://127.0.0.1:$STATS_PORT/stats;csv" | awk -F, -v s="$1" '$1 == "be" && $2 == s { print $18 }'
}

wait_haproxy_up() { # server timeout_s
  local deadline=$((SECONDS + $2))
  until [[ $(haproxy_status "$1") == UP* ]]; do
    ((SECONDS > deadline)) && return 1
    sleep 0.1
  done
}

write_haproxy_cfg() { # file proxy-mode(http|tcp) [grpc: the backends are the instances' gRPC ports]
  local logging= logformat= sp=("${PORTS[@]}")
  [[ ${3:-} == grpc ]] && sp=("${GPORTS[@]}")
  if [[ ${RR_HTTPLOG:-1} == 1 ]]; then
    # Every request (http) or connection (tcp) with its termination state, on HAProxy's stdout.
    logging="log stdout format raw local0 info"
    if [[ $2 == http ]]; then logformat="option httplog"; else logformat="option tcplog"; fi
  fi
  cat >"$1" <<CFG
global
  maxconn 4000
  $logging
defaults
  mode $2
  log global
  $logformat
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout check 1s
  retries 0
  no option redispatch
  default-server inter 1s fall $FALL rise 1
frontend fe
  bind 127.0.0.1:$FE_PORT
  default_backend be
backend be
  balance roundrobin
  option httpchk GET /actuator/health/readiness
  http-check expect status 200
  server s0 127.0.0.1:${sp[0]} check port ${MPORTS[0]}
  server s1 127.0.0.1:${sp[1]} check port ${MPORTS[1]}
  server s2 127.0.0.1:${sp[2]} check port ${MPORTS[2]}
listen stats
  mode http
  bind 127.0.0.1:$STATS_PORT
  stats enable
  stats uri /stats
CFG
}

counts_total() { # port -> prints the /counts JSON, every page merged, once the pipeline has stopped moving
  local port=$1 prev= cur deadline=$((SECONDS + 60)) after= page pages
  while ((SECONDS < deadline)); do
    cur=$(curl -s -m 10 "http://127.0.0.1:$port/counts?limit=1" | jq -c '[.offset, .pipeline]' 2>/dev/null)
    [[ -n $cur && $cur == "$prev" ]] && break
    prev=$cur
    sleep 1
  done
  # GET /counts answers a page of keys at a time; "next" is the "after" of the following page.
  pages=$(mktemp)
  while :; do
    page=$(curl -s -m 30 -G "http://127.0.0.1:$port/counts" --data-urlencode limit=10000 ${after:+--data-urlencode "after=$after"})
    printf '%s\n' "$page" >>"$pages"
    after=$(jq -r '.next // empty' <<<"$page" 2>/dev/null)
    [[ -n $after ]] || break
  done
  jq -s '{offset: .[0].offset, pipeline: .[0].pipeline, keys: (map(.keys) | add)}' "$pages"
  rm -f "$pages"
}

# A --trace-time line's time of day (UTC) as epoch milliseconds: the day is today's, or
# yesterday's for a time later than now (a stream across midnight).
trace_ms() { # "HH:MM:SS.uuuuuu ..."
  local now day t=${1%% *} h m sec
  now=$(now_ms)
  [[ $t =~ ^([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{3}) ]] || { echo "$now"; return; }
  h=$((10#${BASH_REMATCH[1]})) m=$((10#${BASH_REMATCH[2]})) sec=$((10#${BASH_REMATCH[3]}))
  day=$((now - now % 86400000))
  t=$((day + ((h * 60 + m) * 60 + sec) * 1000 + 10#${BASH_REMATCH[4]}))
  ((t > now + 1000)) && t=$((t - 86400000))
  echo "$t"
}

# One SSE client: GET /counts/stream through the proxy again and again until the stop file exists; one
# line per stream: start_ms end_ms curl_exit http_code bytes (curl exit 0 = the server ended the
# response cleanly; 18/52/56 = the connection broke or closed without an answer). Start and end are
# curl's own clock (--trace-time stamps its first and last verbose lines), not the time this loop
# gets to run again, which on a busy machine made ends look up to a second late.
sse_client() { # dir id
  local dir=$1 id=$2 rc cpid code bytes first last
  while [[ ! -e $dir/stop ]]; do
    (
      export TZ=UTC
      exec curl -sN -v --trace-time -m 600 -o /dev/null -w '%{http_code} %{size_download}' \
        "http://127.0.0.1:$FE_PORT/counts/stream" >"$dir/$id.cur" 2>"$dir/$id.trace"
    ) &
    cpid=$!; echo "$cpid" >"$dir/$id.pid"
    wait "$cpid"; rc=$?
    [[ -e $dir/stop ]] && break
    read -r code bytes <"$dir/$id.cur" || true
    first=$(trace_ms "$(head -n 1 "$dir/$id.trace")")
    last=$(trace_ms "$(tail -n 1 "$dir/$id.trace")")
    echo "$first $last $rc ${code:-000} ${bytes:-0}" >>"$dir/$id.streams"
    # A refused or broken connect is retried after a short pause, as an EventSource does.
    [[ $code == 200 ]] || sleep 0.2
  done
}

run_variant() { # round mode delay_ms variant
  local round=$1 mode=$2 delay=$3 variant=$4 run=$OUT/rr-r$1-$2-d$3-$4 i proxy=$2
  [[ $mode == sse ]] && proxy=$SSE_PROXY
  [[ $mode == pinned || $mode == grpc ]] && proxy=tcp
  rm -rf "$run"; mkdir -p "$run"
  for p in "${PORTS[@]}" "${MPORTS[@]}" "${GPORTS[@]}" $FE_PORT $STATS_PORT; do port_free "$p" || die "port $p is in use"; done
  local load_before; load_before=$(load_avg)
  log "rolling restart: round $round, mode $mode, delay $delay ms, variant $variant (load $load_before)"
  for i in 0 1 2; do start_instance $i "$variant" "$run" 0 "$mode"; done
  for i in 0 1 2; do
    wait_http_200 "http://127.0.0.1:${MPORTS[$i]}/actuator/health/readiness" 180 "${PIDS[$i]}" ||
      die "instance $i ($variant) did not become ready; see $run/i$i/start-0.log"
  done
  # One event straight to each instance: a variant that refuses events is reported, not hidden.
  local probe_notes=()
  for i in 0 1 2; do
    local code; code=$(curl -s -o "$run/probe-$i.json" -w '%{http_code}' -m 10 -H 'Content-Type: application/json' \
      -d "{\"id\":\"probe-$i\",\"key\":\"probe-$i\",\"value\":1}" "http://127.0.0.1:${PORTS[$i]}/events")
    if [[ $code == 202 ]]; then echo "probe-$i" >>"$run/acked-probe.txt"; else probe_notes+=("i$i:$code"); fi
  done
  ((${#probe_notes[@]})) && log "WARNING: $variant instances refuse a direct POST /events before any restart: ${probe_notes[*]}"
  write_haproxy_cfg "$run/haproxy.cfg" "$proxy" "$mode"
  haproxy -db -f "$run/haproxy.cfg" >"$run/haproxy.log" 2>&1 &
  HAPROXY_PID=$!
  for i in 0 1 2; do wait_haproxy_up "s$i" 30 || die "HAProxy never saw s$i UP"; done

  SSE_PIDS=() SSE_DIR=
  if [[ $mode == sse ]]; then
    SSE_DIR=$run/sse; mkdir -p "$SSE_DIR"
    for ((c = 0; c < SSE_CLIENTS; c++)); do sse_client "$SSE_DIR" "c$c" & SSE_PIDS+=($!); done
  fi
  local t_start; t_start=$(now_ms)
  if [[ $mode == grpc ]]; then
    # The same summary and acked-id files as the wrk script, plus sse-streams.txt for the streams.
    "$JAVA" -Xmx256m -cp "$BENCH_JAR" dev.lifecycle.benchmarks.grpc.GrpcLoad --target="127.0.0.1:$FE_PORT" --out="$run" \
      --stop-file="$run/grpc-stop" --prefix="r$round$mode$delay${variant//+/.}" \
      --rate="$(awk -v d="$delay" 'BEGIN { print (d > 0) ? 16000 / d : 0 }')" --concurrency=16 \
      --channels="$GRPC_CHANNELS" --streams="$GRPC_STREAMS" --deadline-ms=10000 >"$run/wrk.txt" 2>&1 &
  else
    RR_OUT=$run RR_PREFIX="r$round$mode$delay${variant//+/.}" RR_DELAY_MS=$delay \
      wrk -t2 -c16 -d3600s --timeout 10s -s "$BENCH_DIR/scripts/post-events.lua" "http://127.0.0.1:$FE_PORT" \
      >"$run/wrk.txt" 2>&1 &
  fi
  WRK_PID=$!
  sleep 3
  local codes=() stops=() readies=() sigterms=() n
  for ((n = 0; n < RESTARTS; n++)); do
    i=$((n % 3))
    local t0 t1 t2
    t0=$(now_ms); sigterms+=("$t0")
    kill -TERM "${PIDS[$i]}"
    wait_pid_exit "${PIDS[$i]}" 240
    t1=$(now_ms)
    codes+=("$EXIT_CODE"); stops+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')")
    start_instance $i "$variant" "$run" $((n + 1)) "$mode"
    wait_http_200 "http://127.0.0.1:${MPORTS[$i]}/actuator/health/readiness" 180 "${PIDS[$i]}" ||
      die "instance $i ($variant) did not come back; see $run/i$i/start-$((n + 1)).log"
    wait_haproxy_up "s$i" 30 || log "WARNING: HAProxy did not mark s$i UP within 30 s"
    t2=$(now_ms)
    readies+=("$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", (b - a) / 1000 }')")
    log "  i$i: SIGTERM -> exit ${stops[-1]} s (code $EXIT_CODE), restart -> ready+UP ${readies[-1]} s"
    sleep "$SETTLE_S"
  done
  sleep "$TAIL_S"
  if [[ $mode == grpc ]]; then touch "$run/grpc-stop"; else kill -INT "$WRK_PID"; fi
  wait "$WRK_PID"; WRK_PID=
  local t_end; t_end=$(now_ms)
  if [[ -n $SSE_DIR ]]; then
    touch "$SSE_DIR/stop"
    for p in "$SSE_DIR"/*.pid; do kill -TERM "$(cat "$p")" 2>/dev/null; done
    for p in "${SSE_PIDS[@]}"; do wait "$p" 2>/dev/null; done
    SSE_PIDS=()
  fi
  kill -TERM "$HAPROXY_PID" 2>/dev/null; wait "$HAPROXY_PID" 2>/dev/null; HAPROXY_PID=
  # Termination states other than normal (HAProxy log: the field before the last a/b/c/d/e group,
  # act/fe/be/srv/retries; the request timers before it have the same shape).
  local px_states; px_states=$(awk '{ st = ""; for (f = 2; f <= NF; f++) if ($f ~ /^[0-9]+\/[0-9]+\/[0-9]+\/[0-9]+\/\+?[0-9]+$/) st = $(f - 1)
      if (st != "" && st !~ /^-+$/ && st !~ /^LR/) c[st]++ }
    END { for (k in c) printf "%s%s:%d", (n++ ? " " : ""), k, c[k] }' "$run/haproxy.log")
  local sse_streams=0 sse_clean=0 sse_broken=0 sse_refused=0 sse_after=-
  if [[ -n $SSE_DIR || $mode == grpc ]]; then
    if [[ -n $SSE_DIR ]]; then cat "$SSE_DIR"/*.streams 2>/dev/null | sort -n >"$run/sse-streams.txt"; else sort -n -o "$run/sse-streams.txt" "$run/sse-streams.txt"; fi
    read -r sse_streams sse_clean sse_broken sse_refused <<<"$(awk '{ n++; if ($4 != 200) r++; else if ($3 == 0) c++; else b++ }
      END { print n + 0, c + 0, b + 0, r + 0 }' "$run/sse-streams.txt")"
    # Per restart: the latest end of a stream that was open at its SIGTERM, in s after that SIGTERM.
    sse_after=$(for n in "${!sigterms[@]}"; do
      awk -v t="${sigterms[$n]}" -v e="$(awk -v a="${sigterms[$n]}" -v s="${stops[$n]}" 'BEGIN { printf "%.0f", a + s * 1000 + 1000 }')" \
        '$1 < t && $2 >= t && $2 <= e { if ($2 - t > m) m = $2 - t } END { printf "%.1f\n", m / 1000 }' "$run/sse-streams.txt"
    done | paste -sd' ')
  fi

  # Verification against the final /counts of every instance.
  for i in 0 1 2; do counts_total "${PORTS[$i]}" >"$run/counts-$i.json"; done
  cat "$run"/acked-*.txt 2>/dev/null | sort >"$run/acked.sorted"
  jq -r '.keys | to_entries[] | "\(.key)\t\(.value.count)"' "$run"/counts-*.json | sort >"$run/counted.tsv"
  cut -f1 "$run/counted.tsv" | sort >"$run/counted.sorted"
  local acked counted lost unacked dups
  acked=$(wc -l <"$run/acked.sorted")
  counted=$(awk -F'\t' '{ s += $2 } END { print s + 0 }' "$run/counted.tsv")
  lost=$(comm -23 "$run/acked.sorted" "$run/counted.sorted" | tee "$run/lost.txt" | wc -l)
  unacked=$(comm -13 "$run/acked.sorted" "$run/counted.sorted" | wc -l)
  dups=$(awk -F'\t' '$2 != 1' "$run/counted.tsv" | wc -l)
  [[ -f $run/wrk-summary.json ]] || die "wrk wrote no summary; see $run/wrk.txt"
  local s=$run/wrk-summary.json
  local req ok non2xx sock statuses errors p50 p99 max
  req=$(jq .requests "$s")
  # HTTP status codes from wrk; gRPC code names (OK, UNAVAILABLE, ...) from GrpcLoad.
  ok=$(jq '[.statuses | to_entries[] | select(.key | startswith("2") or . == "OK") | .value] | add // 0' "$s")
  non2xx=$(jq '[.statuses | to_entries[] | select(.key | startswith("2") or . == "OK" | not) | .value] | add // 0' "$s")
  sock=$(jq '.errors | .connect + .read + .write + .timeout' "$s")
  statuses=$(jq -r '.statuses | to_entries | sort_by(.key) | map("\(.key):\(.value)") | join(" ")' "$s")
  errors=$(jq -r '.errors | "connect:\(.connect) read:\(.read) write:\(.write) timeout:\(.timeout)"' "$s")
  p50=$(jq '.latency_us.p50 / 1000' "$s"); p99=$(jq '.latency_us.p99 / 1000' "$s"); max=$(jq '.latency_us.max / 1000' "$s")
  local ok202; ok202=$(jq '.statuses["202"] // .statuses["OK"] // 0' "$s")
  # Requests sent without an answer: the true failures behind wrk's socket errors (at most one per
  # connection is in flight when wrk stops). wrk also counts a read error for every response whose body
  # ends with the connection (Tomcat's framing of a response that carries Connection: close) although
  # the response arrived whole.
  local unanswered; unanswered=$(jq 'if .sent then .sent - .requests else "-" end' "$s")
  ((acked == ok202 + $(cat "$run/acked-probe.txt" 2>/dev/null | wc -l))) ||
    log "WARNING: acked ids ($acked) != 202s ($ok202) + probes"
  local rollout shutdown stop_max
  rollout=$(printf '%s\n' "${stops[@]}" "${readies[@]}" | awk '{ s += $1 } END { printf "%.1f", s }')
  shutdown=$(printf '%s\n' "${stops[@]}" | awk '{ s += $1 } END { printf "%.1f", s }')
  stop_max=$(printf '%s\n' "${stops[@]}" | sort -g | tail -n 1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$round" "$variant" "$req" "$ok" "$non2xx" "$sock" $((non2xx + sock)) "$statuses" "$errors" "$p50" "$p99" "$max" \
    "$acked" "$counted" "$lost" "$unacked" "$dups" "${codes[*]}" "${stops[*]}" "${readies[*]}" \
    "$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", (b - a) / 1000 }')" "$load_before" "$(load_avg)" \
    "${probe_notes[*]:-none}" "$mode" "$delay" "$rollout" "$shutdown" "$sse_streams" "$sse_clean" "$sse_broken" "$sse_refused" \
    "$sse_after" "$stop_max" "${px_states:-none}" "$unanswered" >>"$TSV"
  local streams_note=
  [[ $sse_after != - ]] && streams_note=", streams $sse_streams (clean $sse_clean, broken $sse_broken, refused $sse_refused), last stream end after SIGTERM $sse_after s"
  log "  $mode/$delay/$variant: $req requests ($unanswered unanswered), failed $((non2xx + sock)) ($statuses; $errors), p50 $p50 ms, p99 $p99 ms, acked $acked, counted $counted, lost $lost, rollout $rollout s (shutdown $shutdown s), proxy states ${px_states:-none}${streams_note}"
  # The instances stop together: this stop is not measured, and one by one it took three drain delays.
  # RR_FINAL_STOP=KILL (the CI smoke) ends them at once: nothing after their final counts is checked.
  for i in 0 1 2; do kill -"${RR_FINAL_STOP:-TERM}" "${PIDS[$i]}" 2>/dev/null; done
  for i in 0 1 2; do wait_pid_exit "${PIDS[$i]}" 240; PIDS[$i]=; done
  if [[ ${RR_KEEP:-0} != 1 ]]; then rm -rf "$run"/i*/data; gzip -f "$run/haproxy.log"; fi
}

((REPORT_ONLY)) && ROUNDS=0
cell=0
for ((r = FIRST_ROUND; r < FIRST_ROUND + ROUNDS; r++)); do
  for m in $MODES; do
    for d in $LOADS; do
      # Each cell starts one variant further than the one before (A B C, B C A, C A B ...), and
      # each round one further again: with fewer rounds than variants every variant still runs
      # first in some cells, so none always follows a light cell or precedes a heavy one.
      read -ra vs <<<"$VARIANTS"
      for ((vi = 0; vi < ${#vs[@]}; vi++)); do
        run_variant "$r" "$m" "$d" "${vs[(vi + r - 1 + cell) % ${#vs[@]}]}"
      done
      cell=$((cell + 1))
    done
  done
done

# Markdown: one row per run, then one row per cell (mode x load x variant) with sums and medians.
# Columns of the TSV: 1 round, 2 variant, 3 requests, 7 failed, 8 statuses, 9 errors, 11 p99, 15 lost,
# 18 exit codes, 19 stop_s, 20 ready_s, 21 duration, 22/23 load, 25 mode, 26 delay, 27 rollout,
# 28 shutdown, 29-32 sse streams/clean/broken/refused, 33 last stream end after SIGTERM, 34 stop max,
# 35 proxy termination states, 36 requests sent without an answer.
{
  echo "| mode | load | variant | round | requests (req/s) | failed (wrk) | unanswered | statuses; socket errors | p99 ms | lost | SIGTERM→exit s (codes) | restart→ready+UP s | rollout s | streams (SSE, gRPC): clean / broken / refused ends | last stream end after SIGTERM s | HAProxy states | load before → after |"
  echo "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---|---|---:|---|---|---|---|"
  tail -n +2 "$TSV" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s (%.0f) | **%s** | %s | %s; %s | %s | **%s** | %s (%s) | %s | %s | %s | %s | %s | %s → %s |\n",
    $25, ($26 == 0 ? "saturation" : $26 " ms"), $2, $1, $3, ($21 > 0 ? $3 / $21 : 0), $7, ($36 == "" ? "-" : $36), $8, $9, $11, $15, $19, $18, $20, $27,
    ($29 > 0 ? $29 ": " $30 " / " $31 " / " $32 : "-"), $33, $35, $22, $23 }'
  echo
  awk -F'\t' 'NR > 1 && $24 != "none" { printf "\n**Round %s, %s: a direct `POST /events` to each instance before any restart was refused (%s): this variant cannot ingest events at all, so its failures are not caused by the restarts.**\n", $1, $2, $24 }' "$TSV"
  echo
  echo "| mode | load | variant | runs | requests | failed (wrk) | unanswered | lost | p99 ms (median of runs) | rollout s (median) | SIGTERM→exit s (median per pod, max) | stream broken / all ends | last stream end after SIGTERM s (max) |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"
  tail -n +2 "$TSV" | awk -F'\t' '
    function med(list,   a, n, i, j, t) { n = split(list, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n == 0 ? "-" : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }
    { k = $25 "\t" $26 "\t" $2; if (!(k in n)) order[++cells] = k; n[k]++; req[k] += $3; f[k] += $7; l[k] += $15; if ($36 ~ /^-?[0-9]+$/) { u[k] += $36; un[k]++ }
      p99[k] = p99[k] " " $11; ro[k] = ro[k] " " $27; st[k] = st[k] " " $19; if ($34 + 0 > smax[k]) smax[k] = $34 + 0
      sb[k] += $31 + $32; sa[k] += $29; m = split($33, e, " "); for (i = 1; i <= m; i++) if (e[i] + 0 > se[k]) se[k] = e[i] + 0; if ($29 > 0) sse[k] = 1 }
    END { for (c = 1; c <= cells; c++) { k = order[c]; split(k, a, "\t")
      printf "| %s | %s | %s | %d | %d | **%d** | %s | **%d** | %s | %s | %s, %s | %s | %s |\n", a[1], (a[2] == 0 ? "saturation" : a[2] " ms"), a[3], n[k], req[k], f[k], (un[k] ? u[k] : "-"), l[k],
        med(p99[k]), med(ro[k]), med(st[k]), smax[k], (sse[k] ? sb[k] " / " sa[k] : "-"), (sse[k] ? se[k] : "-") } }' |
    sort -t'|' -k2,2 -k3,3r -k4,4
  # With and without the JDK AOT cache, when the TSV has +aot variants: the medians of the runs per
  # cell, and each variant's rollout against plain-sleep's and plain's with the same start-up.
  if tail -n +2 "$TSV" | cut -f2 | grep -q '+aot$'; then
    echo
    echo "| mode | load | variant | runs without / with the cache | rollout s without (median) | **with the cache** | with / without | restart→ready+UP summed s without | with | **rollout / plain-sleep's** without | **with** | rollout / plain's without | with |"
    echo "|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    tail -n +2 "$TSV" | awk -F'\t' '
      function med(list,   a, n, i, j, t) { n = split(list, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n == 0 ? "" : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }
      function r(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
      function f(x) { return x == "" ? "-" : sprintf("%.1f", x) }
      { base = $2; aot = sub(/\+aot$/, "", base); c = $25 "\t" $26; k = c "\t" base "\t" aot
        if (!((c "\t" base) in seen)) { seen[c "\t" base] = 1; order[++nk] = c "\t" base }
        n[k]++; ro[k] = ro[k] " " $27; m = split($20, e, " "); t = 0; for (i = 1; i <= m; i++) t += e[i]; rd[k] = rd[k] " " t }
      END { for (o = 1; o <= nk; o++) { split(order[o], a, "\t"); c = a[1] "\t" a[2]
        for (x = 0; x <= 1; x++) { R[x] = med(ro[order[o] "\t" x]); D[x] = med(rd[order[o] "\t" x]); S[x] = med(ro[c "\tplain-sleep\t" x]); P[x] = med(ro[c "\tplain\t" x]) }
        printf "| %s | %s | %s | %d / %d | %s | **%s** | %s | %s | %s | %s | **%s** | %s | %s |\n", a[1], (a[2] == 0 ? "saturation" : a[2] " ms"), a[3],
          n[order[o] "\t0"], n[order[o] "\t1"], f(R[0]), f(R[1]), r(R[1], R[0]), f(D[0]), f(D[1]), r(R[0], S[0]), r(R[1], S[1]), r(R[0], P[0]), r(R[1], P[1]) } }'
  fi
} >"$OUT/rolling-restart.md"
cat "$OUT/rolling-restart.md"
