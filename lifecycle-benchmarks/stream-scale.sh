#!/usr/bin/env bash
# Long-lived streams at scale (issue 40): what ending thousands of streams in one instant costs the
# instances that stay up, and what pacing the ends saves.
#
# Three instances of the stream app (lifecycle-benchmarks/stream-app: GET /sse, an event a second with
# an id, resumable by Last-Event-ID; /ws, a WebSocket ticking once a second; GET /hello) on loopback
# ports, drain delay 5 s, behind HAProxy in TCP mode (what kube-proxy does: each connection stays on
# the instance it was opened to) with random balance, readiness checked on each instance's management
# port (every SS_INTER, removed after 1 failed check), no retries, no redispatch. One client JVM
# (StreamLoad, in this module's jar: the JDK HttpClient and WebSocket, non-blocking) opens N streams
# through the proxy, half SSE and half WebSocket, spread over N / SS_OPEN_RATE seconds; each stream that
# ends is reopened at once (SSE: resumed with Last-Event-ID, after the last `retry:` received if any),
# each on a new connection; a stream that received nothing for 5 s is closed by the client and ends
# as stale (counted as broken; column stale). Beside them it probes GET /hello at SS_PROBE_RATE a second on a fixed
# schedule (open loop, a new connection each; latency from the scheduled instant). Once every stream
# is open and SS_SETTLE_S + SS_WINDOW_S seconds have passed, instance i$SS_VICTIM gets SIGTERM and is
# not restarted: its streams end and reconnect to the two survivors. SS_TAIL_S seconds after it exits
# the client stops.
# Variants (--variants), interleaved, the order rotated per round (A B C, B C A, ...):
#   paced         Lifecycle, --lifecycle.streams.end-window=$SS_END_WINDOW (5s),
#                 --lifecycle.streams.end-rate=$SS_END_RATE (100 a second, so that the ~670 streams of
#                 the stopped instance take the whole window) and --lifecycle.streams.sse-retry=0s: the
#                 streams end spread over the window after the drain delay, with no reconnection advice
#   instant       Lifecycle, --lifecycle.streams.end-window=0s --lifecycle.streams.sse-retry=0s: every
#                 stream ends in the same instant (the behaviour before the window existed)
#   plain         --lifecycle.enabled=false --server.shutdown=graceful
#                 --spring.lifecycle.timeout-per-shutdown-phase=30s: plain Spring Boot holds the streams
#                 30 s, then cuts them
#   default       Lifecycle with no lifecycle.streams.* setting (the window's default: the drain delay;
#                 SSE `retry:` advice drawn from 2.5..5 s)
#   paced-advice  paced with --lifecycle.streams.sse-retry=$SS_END_WINDOW (SSE `retry:` drawn from
#                 half of it to all of it) and --lifecycle.streams.websocket-close-code=service-restart
#                 (1012)
# Figures per run (the window of the figures "after" is the SS_WINDOW_S (6) seconds from the first end
# of a stream on the stopped instance; "before" the SS_WINDOW_S seconds before SIGTERM):
#   ends          streams on the stopped instance that ended after its SIGTERM: clean (SSE response
#                 completed, WebSocket close frame, with its codes) / broken (connection cut, or stale:
#                 no close seen, found idle by the client); the first end's time after SIGTERM; their
#                 spread (first end to last end, stale ones left out)
#   new streams   streams opened at the two survivors per 100 ms after SIGTERM: the peak (both summed),
#                 against the even rate the issue's goal sets (streams ended / SS_END_WINDOW, per 100 ms)
#   CPU           the survivors' CPU (utime + stime from /proc, both summed, % of one core) before and
#                 after; the client's over the whole run (its own report) and after
#   probes        p99 (and p50) latency before and after; failed = not 200 (a connection refused or cut
#                 by the proxy, a timeout) over the whole run
#   SSE events    lost (an id skipped) or delivered twice, over every client and the whole run
#   exit          SIGTERM -> exit of the stopped instance and its exit code
#
# Usage: lifecycle-benchmarks/stream-scale.sh [--streams N] [--rounds R] [--variants "paced instant plain"]
#          [--probe-rate R] [--out DIR] [--append] [--first-round N] [--report-only]
#   --streams  streams open at once (default 2000; half SSE, half WebSocket)   --rounds  default 2
#   --append   add rows to an existing TSV    --first-round  number of the first round (default 1)
#   --report-only  no runs: rewrite DIR/stream-scale.md from DIR/stream-scale.tsv
# Needs: mvn -B -o -pl lifecycle-benchmarks,lifecycle-benchmarks/stream-app -am package -DskipTests (the
# stream app's jar and this module's benchmarks.jar); haproxy, jq, curl.
# Output: DIR/stream-scale.tsv (one row per run), DIR/stream-scale.md, per-run directories ss-r<R>-<variant>
# (client/streams.tsv: every stream; client/probes.tsv: every probe; cpu.tsv: CPU ticks of i0 i1 i2,
# HAProxy and the client every 200 ms).
# Environment: STREAM_JAR, BENCH_JAR, SS_BASE_PORT (18900), SS_DRAIN_DELAY (5s), SS_END_WINDOW (5s), SS_END_RATE (100),
# SS_PROBE_RATE (50/s), SS_OPEN_RATE (200 streams/s while opening: the instances are cold, and at 500/s on 2 busy cores
# opening took 5-15 s a stream), SS_RECONNECT_DELAY_MS (0: the
# client's reconnection time without `retry:`), SS_SETTLE_S (2), SS_WINDOW_S (6), SS_TAIL_S (7),
# SS_INTER (1s), SS_VICTIM (1), SS_HEAP (256m per instance), SS_CDS (1: start the instances from a
# class-data archive made by one training run), SS_EXTRA_ARGS (added to every instance),
# SS_FINAL_STOP (KILL: how the survivors end after a run; not measured), SS_PROXYLOG (0; 1: HAProxy logs
# every connection to haproxy.log). A whole default run (3 variants x 2 rounds, N = 2000) takes about
# 7 minutes on 2 cores (411 s at load 11-15; each plain run waits 33 s for its held streams to be cut).
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

ROUNDS=2 STREAMS=2000 VARIANTS="paced instant plain" OUT=$BENCH_DIR/target/results APPEND=0 FIRST_ROUND=1 REPORT_ONLY=0
PROBE_RATE=${SS_PROBE_RATE:-50}
ARGS_GIVEN="$*"
while (($#)); do
  case $1 in
    --streams) STREAMS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --variants) VARIANTS=$2; shift 2 ;;
    --probe-rate) PROBE_RATE=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --append) APPEND=1; shift ;;
    --first-round) FIRST_ROUND=$2; shift 2 ;;
    --report-only) REPORT_ONLY=1; APPEND=1; shift ;;
    *) die "unknown argument $1" ;;
  esac
done
OUT=$(realpath -m "$OUT") # the instances get paths under it, and Lifecycle takes absolute paths only
STREAM_JAR=${STREAM_JAR:-$BENCH_DIR/stream-app/target/stream-app.jar}
BENCH_JAR=${BENCH_JAR:-$BENCH_DIR/target/benchmarks.jar}
BASE_PORT=${SS_BASE_PORT:-18900}
DRAIN_DELAY=${SS_DRAIN_DELAY:-5s} END_WINDOW=${SS_END_WINDOW:-5s} END_RATE=${SS_END_RATE:-100}
OPEN_RATE=${SS_OPEN_RATE:-200} RECONNECT_DELAY_MS=${SS_RECONNECT_DELAY_MS:-0}
SETTLE_S=${SS_SETTLE_S:-2} WINDOW_S=${SS_WINDOW_S:-6} TAIL_S=${SS_TAIL_S:-7}
INTER=${SS_INTER:-1s} VICTIM=${SS_VICTIM:-1} HEAP=${SS_HEAP:-256m}
FE_PORT=$BASE_PORT STATS_PORT=$((BASE_PORT + 1))
PORTS=($((BASE_PORT + 11)) $((BASE_PORT + 12)) $((BASE_PORT + 13)))
MPORTS=($((BASE_PORT + 21)) $((BASE_PORT + 22)) $((BASE_PORT + 23)))
TICK=$(getconf CLK_TCK)
DRAIN_S=${DRAIN_DELAY%s} WINDOW_END_S=${END_WINDOW%s}
[[ $DRAIN_S =~ ^[0-9]+$ && $WINDOW_END_S =~ ^[0-9]+$ ]] || die "SS_DRAIN_DELAY and SS_END_WINDOW take whole seconds (5s)"
[[ $STREAMS =~ ^[0-9]+$ ]] && ((STREAMS >= 2)) || die "--streams takes a number >= 2"
[[ $VICTIM =~ ^[012]$ ]] || die "SS_VICTIM is 0, 1 or 2"

variant_args() { # variant instance-dir -> the instance's arguments but its lifecycle.streams.* settings
  local lc="--lifecycle.drain-delay=$DRAIN_DELAY --lifecycle.signals.trap=true --lifecycle.pre-stop.path=$2/prestop"
  case $1 in
    paced | instant | default | paced-advice) echo "$lc" ;;
    plain) echo "--lifecycle.enabled=false --server.shutdown=graceful --spring.lifecycle.timeout-per-shutdown-phase=30s" ;;
    *) die "unknown variant $1 (paced, instant, plain, default, paced-advice)" ;;
  esac
}
variant_settings() { # variant -> its lifecycle.streams.* settings, key=value words
  case $1 in
    paced) echo "lifecycle.streams.end-window=$END_WINDOW lifecycle.streams.end-rate=$END_RATE lifecycle.streams.sse-retry=0s" ;;
    instant) echo "lifecycle.streams.end-window=0s lifecycle.streams.sse-retry=0s" ;;
    paced-advice) echo "lifecycle.streams.end-window=$END_WINDOW lifecycle.streams.sse-retry=$END_WINDOW lifecycle.streams.websocket-close-code=service-restart" ;;
  esac
}
# Whether the starter in the stream app's jar knows a property (its configuration metadata lists it).
# Lifecycle refuses to start on a lifecycle.* command-line key it does not know, so a setting it does
# not know yet is passed as its environment variable instead (LIFECYCLE_STREAMS_ENDWINDOW=5s), which
# Lifecycle's key check skips and Spring binds once the property exists; the run says which (TSV
# column stream_settings, a WARNING, the Markdown header). A known setting goes on the command line,
# where a misspelt key fails the start.
KNOWN_STREAM_KEYS=
stream_keys_known() { # -> sets KNOWN_STREAM_KEYS from the jar's metadata
  local tmp key
  tmp=$(mktemp -d)
  unzip -p "$STREAM_JAR" 'BOOT-INF/lib/lifecycle-autoconfigure-*.jar' >"$tmp/a.jar" 2>/dev/null
  unzip -p "$tmp/a.jar" META-INF/spring-configuration-metadata.json >"$tmp/m.json" 2>/dev/null
  for key in end-window end-rate sse-retry websocket-close-code; do
    grep -q "\"lifecycle.streams.$key\"" "$tmp/m.json" && KNOWN_STREAM_KEYS+=" lifecycle.streams.$key"
  done
  rm -rf "$tmp"
}
settings_note() { # variant -> "end-window=5s(cli) ..." or "none"
  local kv note=
  for kv in $(variant_settings "$1"); do
    if [[ " $KNOWN_STREAM_KEYS " == *" ${kv%%=*} "* ]]; then note+=" ${kv#lifecycle.streams.}(cli)"; else note+=" ${kv#lifecycle.streams.}(env,unknown)"; fi
  done
  echo "${note:- none}" | sed 's/^ //'
}
variant_window_s() { # variant -> the end window it asks for, in s (the goal's exit bound)
  case $1 in paced | paced-advice) echo "$WINDOW_END_S" ;; default) echo "$DRAIN_S" ;; *) echo 0 ;; esac
}
for v in $VARIANTS; do variant_args "$v" x >/dev/null; done

mkdir -p "$OUT"
TSV=$OUT/stream-scale.tsv
if ((!REPORT_ONLY)); then
  for tool in haproxy curl jq; do command -v $tool >/dev/null || die "$tool is not installed (apt-get install -y $tool)"; done
  [[ -f $STREAM_JAR ]] || die "no stream app at $STREAM_JAR (./mvnw -B -o -pl lifecycle-benchmarks,lifecycle-benchmarks/stream-app -am package -DskipTests)"
  [[ -f $BENCH_JAR ]] || die "no client at $BENCH_JAR (same command)"
  command -v unzip >/dev/null || die "unzip is not installed (apt-get install -y unzip)"
  stream_keys_known
  for v in $VARIANTS; do
    [[ $(settings_note "$v") == *unknown* ]] &&
      log "WARNING: $v: this starter does not know $(settings_note "$v" | tr ' ' '\n' | grep unknown | sed 's/(env,unknown)//' | paste -sd' '): passed as environment variables, which it ignores (no effect until it knows them)"
  done
  (($(ulimit -n) >= 2 * STREAMS + 1000)) || die "ulimit -n is $(ulimit -n): N = $STREAMS streams need at least $((2 * STREAMS + 1000))"
fi
if ((!APPEND)) || [[ ! -s $TSV ]]; then
  printf 'round\tvariant\tstreams\tvictim_ended\tclean\tbroken\tleft_open\tclose_codes\tfirst_end_s\tspread_s\treconnected\tpeak_per_100ms\teven_per_100ms\trefused_after_sigterm\tsurv_cpu_before_pct\tsurv_cpu_after_pct\tp99_before_ms\tp99_after_ms\tp50_before_ms\tp50_after_ms\tprobes_sent\tprobes_failed\tfailed_statuses\tevents\tlost\ttwice\tretry_fields\texit_code\tstop_s\tclient_cpu_s\tclient_cpu_pct\tclient_cpu_after_pct\thaproxy_cpu_after_pct\tnever_opened\tload_before\tload_after\tstream_settings\tstale\n' >"$TSV"
fi

PIDS=() HAPROXY_PID= CLIENT_PID= SAMPLER_PID=
cleanup() {
  local p
  for p in "${PIDS[@]}" $HAPROXY_PID $CLIENT_PID $SAMPLER_PID; do [[ -n $p ]] && kill -KILL "$p" 2>/dev/null; done
}
trap cleanup EXIT

# Application class-data sharing, as rolling-restart.sh: the jar extracted once, one training run
# records the classes it loads, every instance starts from that archive (a shorter start, same code).
JAVA_ARGS=(-jar "$STREAM_JAR")
if [[ ${SS_CDS:-1} == 1 ]] && ((!REPORT_ONLY)); then
  CDS=$OUT/stream-cds
  if [[ ! -s $CDS/app.jsa || $STREAM_JAR -nt $CDS/app.jsa ]]; then
    rm -rf "$CDS"; mkdir -p "$CDS"
    log "class-data archive of the stream app (one training run)"
    "$JAVA" -Djarmode=tools -jar "$STREAM_JAR" extract --destination "$CDS/app" >"$CDS/extract.log" 2>&1 &&
      "$JAVA" -XX:ArchiveClassesAtExit="$CDS/app.jsa" -Dspring.context.exit=onRefresh -jar "$CDS/app/$(basename "$STREAM_JAR")" \
        --server.port=0 --management.server.port=0 --lifecycle.pre-stop.enabled=false >"$CDS/train.log" 2>&1
  fi
  if [[ -s $CDS/app.jsa ]]; then
    JAVA_ARGS=(-XX:SharedArchiveFile="$CDS/app.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$CDS/app/$(basename "$STREAM_JAR")")
  else
    log "WARNING: no class-data archive (see $CDS/*.log); starting from the plain jar"
  fi
fi

start_instance() { # index variant rundir
  local i=$1 dir=$3/i$1 kv key cli=() envs=()
  mkdir -p "$dir"
  for kv in $(variant_settings "$2"); do
    key=${kv%%=*}
    if [[ " $KNOWN_STREAM_KEYS " == *" $key "* ]]; then cli+=("--$kv"); else
      key=${key//-/}; key=${key//./_}; envs+=("${key^^}=${kv#*=}")
    fi
  done
  # shellcheck disable=SC2046,SC2086
  env "${envs[@]}" "$JAVA" -Xmx"$HEAP" "${JAVA_ARGS[@]}" --server.port="${PORTS[$i]}" --management.server.port="${MPORTS[$i]}" \
    --stream.instance="i$i" $(variant_args "$2" "$dir") "${cli[@]}" ${SS_EXTRA_ARGS:-} >"$dir/app.log" 2>&1 &
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

write_haproxy_cfg() { # file
  local logging= logformat= maxconn=$((2 * STREAMS + 2000))
  if [[ ${SS_PROXYLOG:-0} == 1 ]]; then logging="log stdout format raw local0 info" logformat="option tcplog"; fi
  cat >"$1" <<CFG
global
  maxconn $maxconn
  $logging
defaults
  mode tcp
  log global
  $logformat
  maxconn $maxconn
  timeout connect 2s
  timeout client 10m
  timeout server 10m
  timeout check 1s
  retries 0
  no option redispatch
  default-server inter $INTER fall 1 rise 1
frontend fe
  bind 127.0.0.1:$FE_PORT
  default_backend be
backend be
  balance random
  option httpchk GET /actuator/health/readiness
  http-check expect status 200
  server s0 127.0.0.1:${PORTS[0]} check port ${MPORTS[0]}
  server s1 127.0.0.1:${PORTS[1]} check port ${MPORTS[1]}
  server s2 127.0.0.1:${PORTS[2]} check port ${MPORTS[2]}
listen stats
  mode http
  bind 127.0.0.1:$STATS_PORT
  stats enable
  stats uri /stats
CFG
}

# CPU ticks (utime + stime) of each pid every 200 ms until the stop file exists: "ms ticks ticks ...",
# "-" for a pid that is gone. Builtins only (no fork per sample but the sleep).
cpu_sampler() { # out-file stop-file pid...
  local f=$1 stop=$2 p t line s
  shift 2
  while [[ ! -e $stop ]]; do
    t=${EPOCHREALTIME/./}; line=$((t / 1000))
    for p in "$@"; do
      if read -r -a s 2>/dev/null <"/proc/$p/stat"; then line+=" $((s[13] + s[14]))"; else line+=" -"; fi
    done
    echo "$line" >>"$f"
    sleep 0.2
  done
}

# Cores used (% of one) by the processes of the given cpu.tsv columns (2 = i0, 3 = i1, 4 = i2,
# 5 = HAProxy, 6 = client), summed, between two instants (ms): from the first sample at or after the
# start to the last one at or before the end.
cpu_pct() { # cpu.tsv "cols" from_ms to_ms
  awk -v cols="$2" -v a="$3" -v b="$4" -v tick="$TICK" '
    function sum(   i, s) { s = 0; for (i = 1; i <= n; i++) { if ($c[i] == "-") return -1; s += $c[i] } return s }
    BEGIN { n = split(cols, c, " ") }
    $1 >= a && !t0 { v = sum(); if (v >= 0) { t0 = $1; s0 = v } }
    $1 <= b && t0 { v = sum(); if (v >= 0) { t1 = $1; s1 = v } }
    END { if (t0 && t1 > t0) printf "%.0f", (s1 - s0) / tick / ((t1 - t0) / 1000) * 100; else print "-" }' "$1"
}

# p50 and p99 of the probes scheduled in [from, to) ms: "p50 p99", or "- -" when none
probe_pcts() { # probes.tsv from_ms to_ms
  local tmp; tmp=$(mktemp)
  awk -F'\t' -v a="$2" -v b="$3" '$1 >= a && $1 < b { print $2 }' "$1" >"$tmp"
  if [[ -s $tmp ]]; then stats "$tmp" | awk '{ print $3, $5 }'; else echo "- -"; fi
  rm -f "$tmp"
}

run_variant() { # round variant
  local round=$1 variant=$2 run=$OUT/ss-r$1-$2 i p
  rm -rf "$run"; mkdir -p "$run"
  for p in "${PORTS[@]}" "${MPORTS[@]}" $FE_PORT $STATS_PORT; do port_free "$p" || die "port $p is in use"; done
  local load_before; load_before=$(load_avg)
  log "stream scale: round $round, variant $variant, $STREAMS streams (load $load_before)"
  for i in 0 1 2; do start_instance $i "$variant" "$run"; done
  for i in 0 1 2; do
    wait_http_200 "http://127.0.0.1:${MPORTS[$i]}/actuator/health/readiness" 180 "${PIDS[$i]}" ||
      die "instance $i ($variant) did not become ready; see $run/i$i/app.log"
  done
  write_haproxy_cfg "$run/haproxy.cfg"
  haproxy -db -f "$run/haproxy.cfg" >"$run/haproxy.log" 2>&1 &
  HAPROXY_PID=$!
  for i in 0 1 2; do wait_haproxy_up "s$i" 30 || die "HAProxy never saw s$i UP; see $run/haproxy.log"; done

  local sse=$((STREAMS / 2)) ws=$((STREAMS - STREAMS / 2))
  # A common pool of 2 threads at least: with fewer (2 cores) CompletableFuture starts a thread for
  # every asynchronous completion of the JDK's HttpClient.
  "$JAVA" -Xmx384m -XX:+UseSerialGC -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 -cp "$BENCH_JAR" dev.lifecycle.benchmarks.streams.StreamLoad \
    --target="127.0.0.1:$FE_PORT" --out="$run/client" --stop-file="$run/client-stop" --sse=$sse --ws=$ws \
    --open-rate="$OPEN_RATE" --probe-rate="$PROBE_RATE" --reconnect-delay-ms="$RECONNECT_DELAY_MS" >"$run/client.log" 2>&1 &
  CLIENT_PID=$!
  cpu_sampler "$run/cpu.tsv" "$run/sampler-stop" "${PIDS[0]}" "${PIDS[1]}" "${PIDS[2]}" "$HAPROXY_PID" "$CLIENT_PID" &
  SAMPLER_PID=$!
  local deadline=$((SECONDS + STREAMS / OPEN_RATE + 60))
  until [[ -s $run/client/opened ]]; do
    kill -0 "$CLIENT_PID" 2>/dev/null || die "the client died; see $run/client.log"
    if ((SECONDS > deadline)); then log "WARNING: not every stream opened within $((STREAMS / OPEN_RATE + 60)) s; going on"; break; fi
    sleep 0.2
  done
  sleep $((SETTLE_S + WINDOW_S))
  local t_sig t_exit stop_s
  t_sig=$(now_ms)
  kill -TERM "${PIDS[$VICTIM]}"
  wait_pid_exit "${PIDS[$VICTIM]}" 90
  t_exit=$(now_ms); PIDS[$VICTIM]=
  stop_s=$(awk -v a="$t_sig" -v b="$t_exit" 'BEGIN { printf "%.1f", (b - a) / 1000 }')
  local exit_code=$EXIT_CODE
  log "  i$VICTIM: SIGTERM -> exit $stop_s s (code $exit_code)"
  sleep "$TAIL_S"
  # The sockets left at the end of the tail, per state and port (the proxy's front end, each instance):
  # connections of the stopped instance that neither side closed show here.
  ss -tanH 2>/dev/null | awk -v fe="$FE_PORT" -v p="${PORTS[*]}" 'BEGIN { n = split(p, a, " "); for (i = 1; i <= n; i++) port[a[i]] = "i" (i - 1) }
    { split($4, l, ":"); split($5, r, ":"); lp = l[length(l)]; rp = r[length(r)]
      k = (lp == fe || rp == fe) ? "proxy" : (lp in port) ? port[lp] : (rp in port) ? port[rp] "(proxy side)" : ""
      if (k != "") c[$1 " " k]++ }
    END { for (x in c) print c[x], x }' | sort -k3 >"$run/sockets-end.txt"
  touch "$run/client-stop"
  local waited=0
  while kill -0 "$CLIENT_PID" 2>/dev/null && ((waited < 300)); do sleep 0.1; waited=$((waited + 1)); done
  kill -KILL "$CLIENT_PID" 2>/dev/null; wait "$CLIENT_PID" 2>/dev/null; CLIENT_PID=
  touch "$run/sampler-stop"; wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=
  kill -TERM "$HAPROXY_PID" 2>/dev/null; wait "$HAPROXY_PID" 2>/dev/null; HAPROXY_PID=
  # The survivors' own stop is not measured.
  for i in 0 1 2; do [[ -n ${PIDS[$i]} ]] && kill -"${SS_FINAL_STOP:-KILL}" "${PIDS[$i]}" 2>/dev/null; done
  for i in 0 1 2; do [[ -n ${PIDS[$i]} ]] && wait_pid_exit "${PIDS[$i]}" 60 2>/dev/null; PIDS[$i]=; done

  local st=$run/client/streams.tsv pr=$run/client/probes.tsv sm=$run/client/summary.json
  [[ -s $sm ]] || die "the client wrote no summary; see $run/client.log"
  # Streams on the stopped instance that ended (or were left open) after its SIGTERM. The first and
  # last end leave out the stale ones (the client found them idle for 5 s: their end is its timeout).
  local ended clean broken left first last codes first_end_s=- spread_s=- stale
  read -r ended clean broken left first last <<<"$(awk -F'\t' -v v="i$VICTIM" -v t="$t_sig" '
    $7 == v && $6 >= t && $8 != "refused" { if ($8 == "open") { o++; next } n++; if ($8 == "clean") c++; else b++
      if ($8 == "stale") next
      if (!f || $6 < f) f = $6; if ($6 > l) l = $6 }
    END { printf "%d %d %d %d %.0f %.0f\n", n, c, b, o, f, l }' "$st")"
  stale=$(awk -F'\t' -v v="i$VICTIM" -v t="$t_sig" '$7 == v && $6 >= t && $8 == "stale"' "$st" | wc -l)
  codes=$(awk -F'\t' -v v="i$VICTIM" -v t="$t_sig" '$7 == v && $6 >= t && $1 == "ws" && $8 == "clean" { c[$9]++ }
    END { for (k in c) printf "%s%s:%d", (n++ ? " " : ""), k, c[k] }' "$st")
  if ((ended > 0)); then
    first_end_s=$(awk -v a="$t_sig" -v b="$first" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
    spread_s=$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
  fi
  # New streams at the survivors per 100 ms after SIGTERM (both summed): the peak; the even rate of
  # the issue's goal is the streams ended over the window (SS_END_WINDOW), per 100 ms.
  local reconnected peak even refused_after
  read -r reconnected peak <<<"$(awk -F'\t' -v v="i$VICTIM" -v t="$t_sig" '
    $5 >= t && $7 != v && $7 != "-" { n++; b[int(($5 - t) / 100)]++ }
    END { for (k in b) if (b[k] > m) m = b[k]; print n + 0, m + 0 }' "$st")"
  even=$(awk -v n="$ended" -v w="$WINDOW_END_S" 'BEGIN { if (w > 0) printf "%.1f", n / (w * 10); else print "-" }')
  refused_after=$(awk -F'\t' -v t="$t_sig" '$4 >= t && $8 == "refused"' "$st" | wc -l)
  # The windows: before = the WINDOW_S before SIGTERM; after = WINDOW_S from the first end.
  local wb=$((t_sig - WINDOW_S * 1000)) wa=$first
  ((ended > 0)) || wa=$t_sig
  local surv_cols="" cpu_before cpu_after client_after haproxy_after
  for i in 0 1 2; do ((i == VICTIM)) || surv_cols+="$((i + 2)) "; done
  cpu_before=$(cpu_pct "$run/cpu.tsv" "$surv_cols" "$wb" "$t_sig")
  cpu_after=$(cpu_pct "$run/cpu.tsv" "$surv_cols" "$wa" $((wa + WINDOW_S * 1000)))
  client_after=$(cpu_pct "$run/cpu.tsv" 6 "$wa" $((wa + WINDOW_S * 1000)))
  haproxy_after=$(cpu_pct "$run/cpu.tsv" 5 "$wa" $((wa + WINDOW_S * 1000)))
  local p50b p99b p50a p99a
  read -r p50b p99b <<<"$(probe_pcts "$pr" "$wb" "$t_sig")"
  read -r p50a p99a <<<"$(probe_pcts "$pr" "$wa" $((wa + WINDOW_S * 1000)))"
  local sent failed statuses
  sent=$(wc -l <"$pr")
  failed=$(awk -F'\t' '$3 != 200' "$pr" | wc -l)
  statuses=$(awk -F'\t' '$3 != 200 { c[$3]++ } END { for (k in c) printf "%s%s:%d", (n++ ? " " : ""), k, c[k] }' "$pr")
  local events lost twice retries client_cpu client_pct never
  read -r events lost twice retries client_cpu client_pct never <<<"$(jq -r '[.events, .lost, .twice, .retry_fields, (.cpu_s * 10 | round / 10), (.cpu_cores * 100 | round), .never_opened] | @tsv' "$sm")"
  ((never > 0)) && log "WARNING: $never clients never had a stream open"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$round" "$variant" "$STREAMS" "$ended" "$clean" "$broken" "$left" "${codes:-none}" "$first_end_s" "$spread_s" \
    "$reconnected" "$peak" "$even" "$refused_after" "$cpu_before" "$cpu_after" "$p99b" "$p99a" "$p50b" "$p50a" \
    "$sent" "$failed" "${statuses:-none}" "$events" "$lost" "$twice" "$retries" "$exit_code" "$stop_s" \
    "$client_cpu" "$client_pct" "$client_after" "$haproxy_after" "$never" "$load_before" "$(load_avg)" "$(settings_note "$variant")" "$stale" >>"$TSV"
  log "  $variant: $ended streams ended on i$VICTIM ($clean clean, $broken broken, $left left open; WebSocket ${codes:-none}), first end +$first_end_s s, spread $spread_s s; survivors: $reconnected new streams, peak $peak per 100 ms (even $even), CPU $cpu_before % -> $cpu_after %; probe p99 $p99b -> $p99a ms, $failed of $sent failed; SSE lost $lost, twice $twice; exit $stop_s s (code $exit_code); client CPU ${client_pct} % (after $client_after %)"
  for i in 0 1 2; do gzip -f "$run/i$i/app.log" 2>/dev/null; done
}

if ((!REPORT_ONLY)); then
  T_START=$SECONDS
  for ((r = FIRST_ROUND; r < FIRST_ROUND + ROUNDS; r++)); do
    # Each round starts one variant further (A B C, B C A, C A B ...).
    read -ra vs <<<"$VARIANTS"
    for ((vi = 0; vi < ${#vs[@]}; vi++)); do
      run_variant "$r" "${vs[(vi + r - 1) % ${#vs[@]}]}"
    done
  done
  log "done in $((SECONDS - T_START)) s"
fi

# Markdown: one row per run, one row per variant (each run's figure in run order, "a / b"), and the
# goals of issue 40 per variant. TSV columns: 1 round, 2 variant, 3 streams, 4 victim_ended, 5 clean,
# 6 broken, 7 left_open, 8 close_codes, 9 first_end_s, 10 spread_s, 11 reconnected, 12 peak, 13 even,
# 14 refused_after, 15/16 survivors' CPU before/after, 17/18 p99 before/after, 19/20 p50, 21 probes sent,
# 22 failed, 23 failed statuses, 24 events, 25 lost, 26 twice, 27 retry fields, 28 exit code, 29 stop_s,
# 30 client CPU s, 31 client CPU % (run), 32 client CPU % after, 33 HAProxy CPU % after, 34 never opened,
# 35/36 load, 37 stream settings (how each lifecycle.streams.* setting was passed), 38 stale (of broken).
{
  echo "Streams: N open at once (half SSE, half WebSocket); i$VICTIM stopped; \"after\" = the $WINDOW_S s from the first end of a stream on i$VICTIM, \"before\" = the $WINDOW_S s before its SIGTERM. Probes: GET /hello at $PROBE_RATE/s, open loop. Drain delay $DRAIN_DELAY, paced window $END_WINDOW."
  echo
  echo "Stream settings as passed: $(tail -n +2 "$TSV" | awk -F'\t' '!s[$2]++ { printf "%s%s: %s", (n++ ? "; " : ""), $2, $37 }') (cli: on the command line; env,unknown: the starter of the run did not know the property, passed as an environment variable, so without effect)."
  echo
  echo "| variant | round | N | ended on i$VICTIM: clean / broken (WebSocket codes) | first end after SIGTERM s | ends spread s | new streams / 100 ms at survivors: peak (even) | survivors CPU % before → after | probe p99 ms before → after (p50) | failed / probes | SSE events: lost / twice (retry: seen) | SIGTERM→exit s (code) | client CPU % run, after (HAProxy after) | load before → after |"
  echo "|---|---:|---:|---|---:|---:|---|---|---|---|---|---|---|---|"
  tail -n +2 "$TSV" | awk -F'\t' '{ printf "| %s | %s | %s | %s: %s / **%s**%s (%s) | %s | **%s** | **%s** (%s) | %s → %s | %s → **%s** (%s → %s) | **%s** / %s%s | %s / %s (%s) | %s (%s) | %s, %s (%s) | %s → %s |\n",
    $2, $1, $3, $4, $5, $6, ($38 > 0 ? " (" $38 " stale)" : "") ($7 > 0 ? ", " $7 " left open" : ""), $8, $9, $10, $12, $13, $15, $16, $17, $18, $19, $20, $22, $21, ($23 != "none" ? " (" $23 ")" : ""),
    $25, $26, $27, $29, $28, $31, $32, $33, $35, $36 }'
  echo
  echo "| variant | runs | ends spread s | new streams / 100 ms at survivors (peak) | survivors CPU % after | probe p99 ms before | probe p99 ms after first end | failed | lost / twice | SIGTERM→exit s | client CPU % |"
  echo "|---|---:|---|---|---|---|---|---:|---|---|---|"
  tail -n +2 "$TSV" | awk -F'\t' '
    function add(k, f, v) { L[k, f] = L[k, f] (L[k, f] == "" ? "" : " / ") v }
    { k = $2; if (!(k in n)) order[++nv] = k; n[k]++
      add(k, 1, $10); add(k, 2, $12); add(k, 3, $16); add(k, 4, $17); add(k, 5, $18); add(k, 6, $29); add(k, 7, $31)
      f[k] += $22; l[k] += $25; t[k] += $26 }
    END { for (i = 1; i <= nv; i++) { k = order[i]
      printf "| %s | %d | %s | **%s** | %s | %s | **%s** | **%d** | **%d / %d** | %s | %s |\n", k, n[k], L[k, 1], L[k, 2], L[k, 3], L[k, 4], L[k, 5], f[k], l[k], t[k], L[k, 6], L[k, 7] } }'
  echo
  echo "Goals of issue 40, runs that met each (the survivors' peak ≤ 1.25 × the even rate; p99 after ≤ 1.5 × before; 0 failed; 0 lost, 0 twice; exit ≤ drain delay + the variant's window + 1 s):"
  echo
  echo "| variant | peak ≤ 1.25 × even | p99 after ≤ 1.5 × before | 0 failed | 0 lost, 0 twice | exit ≤ drain + window + 1 s |"
  echo "|---|---|---|---|---|---|"
  tail -n +2 "$TSV" | while IFS=$'\t' read -r -a c; do echo "${c[1]} $(variant_window_s "${c[1]}")"; done | paste - <(tail -n +2 "$TSV") |
    awk -F'\t' -v d="$DRAIN_S" '
    { split($1, a, " "); k = a[1]; w = a[2]; if (!(k in n)) order[++nv] = k; n[k]++
      if ($14 != "-" && $13 + 0 <= 1.25 * $14) g1[k]++
      if ($18 != "-" && $19 != "-" && $19 + 0 <= 1.5 * $18) g2[k]++
      if ($23 == 0) g3[k]++
      if ($26 == 0 && $27 == 0) g4[k]++
      if ($30 + 0 <= d + w + 1) g5[k]++ }
    END { for (i = 1; i <= nv; i++) { k = order[i]
      printf "| %s | %d of %d | %d of %d | %d of %d | %d of %d | %d of %d |\n", k, g1[k], n[k], g2[k], n[k], g3[k], n[k], g4[k], n[k], g5[k], n[k] } }'
  echo
  echo "Machine: $(machine_line); load $(load_avg). Command: \`lifecycle-benchmarks/stream-scale.sh${ARGS_GIVEN:+ $ARGS_GIVEN}\`; commit $(git -C "$ROOT_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')."
} >"$OUT/stream-scale.md"
cat "$OUT/stream-scale.md"
