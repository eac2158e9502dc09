#!/usr/bin/env bash
# Rolling restart under load (BENCHMARKS.md item 1).
#
# Three sample instances on loopback ports behind HAProxy configured like a Kubernetes Service
# (readiness checked every 1 s, removed after 1 failed check, added after 1 good one, no retries, no
# redispatch); wrk posts events with unique ids through the proxy while each instance in turn gets
# SIGTERM, exits, restarts on its own data directory, becomes ready and UP in HAProxy, then 2 s pass.
# Variants, interleaved per round (A B A B ...):
#   lifecycle  the sample as shipped, drain delay 5s (Kubernetes default), signals trapped
#   lifecycle-nodrain  the same with drain delay 0 (Lifecycle's default outside Kubernetes): readiness
#              turns DOWN and ingestion stops at once, as in plain Spring Boot (shows what the delay buys)
#   plain      the same jar with --lifecycle.enabled=false --server.shutdown=graceful
#              --spring.lifecycle.timeout-per-shutdown-phase=30s (plain Spring Boot graceful shutdown)
# Every event's key is its id, so each instance's final GET /counts lists the committed events by
# id: acknowledged-but-lost = ids wrk saw 202 for that no instance counts.
#
# Usage: lifecycle-benchmarks/rolling-restart.sh [--rounds N] [--restarts K] [--variants "lifecycle plain"]
#        [--delay-ms MS] [--out DIR]
#   --rounds   rounds of all variants (default 2)       --restarts  instances restarted per run (default 3)
#   --delay-ms wrk pause per request and connection (default 40: ~16 x 1000/(40+latency) req/s)
# Output: DIR/rolling-restart.tsv (one row per run), DIR/rolling-restart.md, per-run directories.
# Environment: SAMPLE_JAR, RR_BASE_PORT (default 18400), RR_DRAIN_DELAY (5s), RR_FALL (1).
set -uo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/scripts/lib.sh"

ROUNDS=2 RESTARTS=3 VARIANTS="lifecycle plain" DELAY_MS=40 OUT=$BENCH_DIR/target/results
while (($#)); do
  case $1 in
    --rounds) ROUNDS=$2; shift 2 ;;
    --restarts) RESTARTS=$2; shift 2 ;;
    --variants) VARIANTS=$2; shift 2 ;;
    --delay-ms) DELAY_MS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
BASE_PORT=${RR_BASE_PORT:-18400}
DRAIN_DELAY=${RR_DRAIN_DELAY:-5s}
FALL=${RR_FALL:-1}
FE_PORT=$BASE_PORT STATS_PORT=$((BASE_PORT + 1))
PORTS=($((BASE_PORT + 11)) $((BASE_PORT + 12)) $((BASE_PORT + 13)))
SETTLE_S=2 TAIL_S=3

for tool in haproxy wrk curl jq; do command -v $tool >/dev/null || die "$tool is not installed (run-all.sh installs it)"; done
[[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR"
mkdir -p "$OUT"
TSV=$OUT/rolling-restart.tsv
printf 'round\tvariant\trequests\t2xx\tnon2xx\tsocket_errors\tfailed\tstatuses\terrors\tp50_ms\tp99_ms\tmax_ms\tacked\tcounted\tlost\tunacked_counted\tduplicates\texit_codes\tstop_s\tready_s\tduration_s\tload_before\tload_after\tprobe_refused\n' >"$TSV"

PIDS=() HAPROXY_PID= WRK_PID=
cleanup() {
  local p
  for p in "${PIDS[@]}" $HAPROXY_PID $WRK_PID; do [[ -n $p ]] && kill -KILL "$p" 2>/dev/null; done
}
trap cleanup EXIT

variant_args() { # variant instance-dir
  case $1 in
    lifecycle) echo "--lifecycle.drain-delay=$DRAIN_DELAY --lifecycle.signals.trap=true --lifecycle.pre-stop.path=$2/prestop" ;;
    lifecycle-nodrain) echo "--lifecycle.drain-delay=0s --lifecycle.signals.trap=true --lifecycle.pre-stop.path=$2/prestop" ;;
    plain) echo "--lifecycle.enabled=false --server.shutdown=graceful --spring.lifecycle.timeout-per-shutdown-phase=30s" ;;
    *) die "unknown variant $1" ;;
  esac
}

start_instance() { # index variant rundir n(start count)
  local i=$1 dir=$3/i$1
  mkdir -p "$dir"
  # shellcheck disable=SC2046
  "$JAVA" -jar "$SAMPLE_JAR" --server.port="${PORTS[$i]}" --sample.data-dir="$dir/data" \
    --lifecycle.run-marker.path="$dir/running" $(variant_args "$2" "$dir") \
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

write_haproxy_cfg() { # file
  cat >"$1" <<CFG
global
  maxconn 2000
defaults
  mode http
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
  server s0 127.0.0.1:${PORTS[0]} check
  server s1 127.0.0.1:${PORTS[1]} check
  server s2 127.0.0.1:${PORTS[2]} check
listen stats
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

run_variant() { # round variant
  local round=$1 variant=$2 run=$OUT/rr-r$1-$2 i
  rm -rf "$run"; mkdir -p "$run"
  for p in "${PORTS[@]}" $FE_PORT $STATS_PORT; do port_free "$p" || die "port $p is in use"; done
  local load_before; load_before=$(load_avg)
  log "rolling restart: round $round, variant $variant (load $load_before)"
  for i in 0 1 2; do start_instance $i "$variant" "$run" 0; done
  for i in 0 1 2; do
    wait_http_200 "http://127.0.0.1:${PORTS[$i]}/actuator/health/readiness" 180 "${PIDS[$i]}" ||
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
  write_haproxy_cfg "$run/haproxy.cfg"
  haproxy -db -f "$run/haproxy.cfg" >"$run/haproxy.log" 2>&1 &
  HAPROXY_PID=$!
  for i in 0 1 2; do wait_haproxy_up "s$i" 30 || die "HAProxy never saw s$i UP"; done

  local t_start; t_start=$(now_ms)
  RR_OUT=$run RR_PREFIX="r$round$variant" RR_DELAY_MS=$DELAY_MS \
    wrk -t2 -c16 -d3600s --timeout 10s -s "$BENCH_DIR/scripts/post-events.lua" "http://127.0.0.1:$FE_PORT" \
    >"$run/wrk.txt" 2>&1 &
  WRK_PID=$!
  sleep 3
  local codes=() stops=() readies=() n
  for ((n = 0; n < RESTARTS; n++)); do
    i=$((n % 3))
    local t0 t1 t2
    t0=$(now_ms)
    kill -TERM "${PIDS[$i]}"
    wait_pid_exit "${PIDS[$i]}" 240
    t1=$(now_ms)
    codes+=("$EXIT_CODE"); stops+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1000 }')")
    start_instance $i "$variant" "$run" $((n + 1))
    wait_http_200 "http://127.0.0.1:${PORTS[$i]}/actuator/health/readiness" 180 "${PIDS[$i]}" ||
      die "instance $i ($variant) did not come back; see $run/i$i/start-$((n + 1)).log"
    wait_haproxy_up "s$i" 30 || log "WARNING: HAProxy did not mark s$i UP within 30 s"
    t2=$(now_ms)
    readies+=("$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", (b - a) / 1000 }')")
    log "  i$i: SIGTERM -> exit ${stops[-1]} s (code $EXIT_CODE), restart -> ready+UP ${readies[-1]} s"
    sleep "$SETTLE_S"
  done
  sleep "$TAIL_S"
  kill -INT "$WRK_PID"; wait "$WRK_PID"; WRK_PID=
  local t_end; t_end=$(now_ms)
  kill -TERM "$HAPROXY_PID" 2>/dev/null; wait "$HAPROXY_PID" 2>/dev/null; HAPROXY_PID=

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
  ok=$(jq '[.statuses | to_entries[] | select(.key | startswith("2")) | .value] | add // 0' "$s")
  non2xx=$(jq '[.statuses | to_entries[] | select(.key | startswith("2") | not) | .value] | add // 0' "$s")
  sock=$(jq '.errors | .connect + .read + .write + .timeout' "$s")
  statuses=$(jq -r '.statuses | to_entries | sort_by(.key) | map("\(.key):\(.value)") | join(" ")' "$s")
  errors=$(jq -r '.errors | "connect:\(.connect) read:\(.read) write:\(.write) timeout:\(.timeout)"' "$s")
  p50=$(jq '.latency_us.p50 / 1000' "$s"); p99=$(jq '.latency_us.p99 / 1000' "$s"); max=$(jq '.latency_us.max / 1000' "$s")
  local ok202; ok202=$(jq '.statuses["202"] // 0' "$s")
  ((acked == ok202 + $(cat "$run/acked-probe.txt" 2>/dev/null | wc -l))) ||
    log "WARNING: acked ids ($acked) != 202s ($ok202) + probes"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$round" "$variant" "$req" "$ok" "$non2xx" "$sock" $((non2xx + sock)) "$statuses" "$errors" "$p50" "$p99" "$max" \
    "$acked" "$counted" "$lost" "$unacked" "$dups" "${codes[*]}" "${stops[*]}" "${readies[*]}" \
    "$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.0f", (b - a) / 1000 }')" "$load_before" "$(load_avg)" \
    "${probe_notes[*]:-none}" >>"$TSV"
  log "  $variant: $req requests, failed $((non2xx + sock)) ($statuses; $errors), p50 $p50 ms, p99 $p99 ms, acked $acked, counted $counted, lost $lost"
  for i in 0 1 2; do
    kill -TERM "${PIDS[$i]}" 2>/dev/null; wait_pid_exit "${PIDS[$i]}" 240; PIDS[$i]=
  done
  if [[ ${RR_KEEP:-0} != 1 ]]; then rm -rf "$run"/i*/data; fi
}

for ((r = 1; r <= ROUNDS; r++)); do
  for v in $VARIANTS; do run_variant "$r" "$v"; done
done

# Markdown: one row per run and one summed row per variant.
{
  echo "| round | variant | requests (req/s) | 2xx | failed (non-2xx + socket) | statuses | socket errors | p50 ms | p99 ms | max ms | acked | counted | **lost** | counted, not acked | SIGTERM→exit s (exit codes) | restart→ready+UP s |"
  echo "|---:|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
  tail -n +2 "$TSV" | awk -F'\t' '{ printf "| %s | %s | %s (%.0f) | %s | **%s** | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | %s (%s) | %s |\n",
    $1, $2, $3, ($21 > 0 ? $3 / $21 : 0), $4, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $19, $18, $20 }'
  echo
  awk -F'\t' 'NR > 1 && $24 != "none" { printf "\n**Round %s, %s: a direct `POST /events` to each instance before any restart was refused (%s): this variant cannot ingest events at all, so its failures are not caused by the restarts.**\n", $1, $2, $24 }' "$TSV"
  echo
  echo "| variant | runs | requests | failed | failed % | lost | worst p99 ms |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$TSV" | awk -F'\t' '{ n[$2]++; req[$2] += $3; sk[$2] += $6; f[$2] += $7; l[$2] += $15; if ($11 > p[$2]) p[$2] = $11; order[$2] = NR }
    END { for (v in n) printf "| %s | %d | %d | **%d** | %.3f | **%d** | %s |\n", v, n[v], req[v], f[v], 100 * f[v] / (req[v] + sk[v]), l[v], p[v] }' | sort
} >"$OUT/rolling-restart.md"
cat "$OUT/rolling-restart.md"
