#!/usr/bin/env bash
# Runs every Lifecycle benchmark against plain Spring Boot and writes the run's tables, goals and
# machine to a new file lifecycle-benchmarks/results/<UTC date and time>-run-all.md (one per run).
# BENCHMARKS.md, the short page of goals and latest figures, is updated by hand from it.
#
#   lifecycle-benchmarks/run-all.sh            full run (about 90 min on 2 cores, 60 of them the rolling-restart
#                                              matrix; RR_MODES/RR_LOADS/RR_VARIANTS narrow it), writes a results file
#   lifecycle-benchmarks/run-all.sh --rr-goals DIR/rolling-restart.tsv   item 1's goal verdicts from a matrix run
#                                              by rolling-restart.sh (prints a Markdown table; runs nothing)
#   lifecycle-benchmarks/run-all.sh --smoke    CI smoke of items 1 and 4 (~4-5 min); writes no results file;
#                                              exit 1 if Lifecycle failed a request or call, lost an event, or a
#                                              stream broke or held a shutdown (one restart in each proxy
#                                              mode: http, tcp, sse and grpc, Lifecycle as shipped)
#
# Items: 1 rolling-restart.sh, 2 shutdown-scale.sh, 3 startup.sh, 4 prestop-latency.sh,
#        5 sample-app/scripts/torture.sh 100, 6 run-jmh.sh, 7 adoption-scale.sh. Results: lifecycle-benchmarks/target/results/.
# Installs haproxy, wrk, jq and curl with apt-get when missing (timings use bash loops around kill/wait,
# which time SIGTERM -> exit exactly; hyperfine can only time whole commands). Builds with Maven unless
# SKIP_BUILD=1 (then the jars must exist). Environment knobs: ONLY="1 4" (items to run),
# MVN_FLAGS (e.g. -o), RR_ROUNDS (3, interleaved), RR_VARIANTS ("lifecycle lifecycle-adaptive plain plain-sleep";
# lifecycle-nodrain is drain delay 0), RR_MODES ("http tcp sse"), RR_LOADS ("40 0": ms of pause per request,
# 0 = saturation), SCALE_RUNS (3), STARTUP_RUNS (10), PRESTOP_INPROCESS (100),
# PRESTOP_FRESH (10), TORTURE_N (100), JMH_OPTS (extra JMH options, passed through to run-jmh.sh),
# ADOPT_RUNS (5; plain Spring Boot gets min(3, ADOPT_RUNS) runs of ~10 s).
set -uo pipefail
KNOBS= # the environment knobs given, for the record
for v in SKIP_BUILD MVN_FLAGS RR_ROUNDS RR_RESTARTS RR_VARIANTS RR_MODES RR_LOADS SCALE_RUNS STARTUP_RUNS PRESTOP_INPROCESS PRESTOP_FRESH TORTURE_N JMH_OPTS ADOPT_RUNS ONLY SAMPLE_JAR; do
  [[ -n ${!v:-} ]] && KNOBS+="$v=\"${!v}\" "
done
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT_DIR=$(cd "$BENCH_DIR/.." && pwd)
# shellcheck source=scripts/lib.sh
source "$BENCH_DIR/scripts/lib.sh"

verdict() { if [[ $1 == 1 ]]; then echo "**MET**"; else echo "**NOT MET**"; fi; }
# Goals of item 1 from its TSV (columns: see rolling-restart.sh): Lifecycle (default and adaptive) 0 failed
# and 0 lost per mode and load; adaptive rollout <= 0.8 x plain-sleep; streams never extend a shutdown
# beyond the drain delay + 1 s.
rr_goals() { # tsv
  local tsv=$1 mode load lf ll lr ar pr as ps
  while IFS=$'\t' read -r mode load; do
    # Failed: non-2xx, plus requests sent without an answer beyond one per connection (16) in flight when wrk stops.
    read -r lf ll lr <<<"$(awk -F'\t' -v m="$mode" -v d="$load" '$25 == m && $26 == d && ($2 == "lifecycle" || $2 == "lifecycle-adaptive") { u = ($36 ~ /^[0-9]+$/ && $36 > 16) ? $36 - 16 : 0; f += $5 + u; l += $15; r += $3 } END { print f + 0, l + 0, r + 0 }' "$tsv")"
    echo "| 1. rolling restart ($mode, $( ((load == 0)) && echo saturation || echo "$load ms")): Lifecycle 0 failed, 0 lost | lifecycle and lifecycle-adaptive: $lf failed (non-2xx or unanswered) / $lr requests, $ll lost | $(verdict $((lf == 0 && ll == 0))) |"
    ar=$(awk -F'\t' -v m="$mode" -v d="$load" '$25 == m && $26 == d && $2 == "lifecycle-adaptive" { print $27 }' "$tsv" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
    pr=$(awk -F'\t' -v m="$mode" -v d="$load" '$25 == m && $26 == d && $2 == "plain-sleep" { print $27 }' "$tsv" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
    if [[ -n $ar && -n $pr ]]; then
      echo "| 1. rollout ($mode, $( ((load == 0)) && echo saturation || echo "$load ms")): adaptive ≤ 0.8 × plain-sleep | median $ar s vs $pr s = $(awk -v a="$ar" -v b="$pr" 'BEGIN { printf "%.2f", a / b }')× (restarts included) | $(verdict "$(awk -v a="$ar" -v b="$pr" 'BEGIN { print (a <= 0.8 * b) ? 1 : 0 }')") |"
      as=$(awk -F'\t' -v m="$mode" -v d="$load" '$25 == m && $26 == d && $2 == "lifecycle-adaptive" { print $28 }' "$tsv" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
      ps=$(awk -F'\t' -v m="$mode" -v d="$load" '$25 == m && $26 == d && $2 == "plain-sleep" { print $28 }' "$tsv" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
      echo "| 1. shutdowns ($mode, $( ((load == 0)) && echo saturation || echo "$load ms")): adaptive vs plain-sleep, SIGTERM → exit summed over the restarts | median $as s vs $ps s = $(awk -v a="$as" -v b="$ps" 'BEGIN { printf "%.2f", a / b }')× | (for the record) |"
    fi
  done < <(tail -n +2 "$tsv" | cut -f25,26 | sort -u)
  local smax
  # Streams: the last end, after its SIGTERM, of a stream open on the stopping pod (the streams' part of
  # the shutdown); and SIGTERM -> exit with streams (sse) against without (tcp), same variant.
  smax=$(awk -F'\t' '$25 == "sse" && ($2 == "lifecycle" || $2 == "lifecycle-adaptive") { n = split($33, a, " "); for (i = 1; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0; f = 1 } END { if (f) print m + 0 }' "$tsv")
  if [[ -n $smax ]]; then
    echo "| 1. streams (sse): every stream open at a SIGTERM ended ≤ drain delay 5 s + 1 s after it (Lifecycle variants) | latest $smax s | $(verdict "$(awk -v a="$smax" 'BEGIN { print (a <= 6) ? 1 : 0 }')") |"
    for v in lifecycle lifecycle-adaptive; do
      local ws wo
      ws=$(awk -F'\t' -v v="$v" '$25 == "sse" && $26 == 0 && $2 == v { s += $28; n++ } END { if (n) printf "%.1f", s / n }' "$tsv")
      wo=$(awk -F'\t' -v v="$v" '$25 == "tcp" && $26 == 0 && $2 == v { s += $28; n++ } END { if (n) printf "%.1f", s / n }' "$tsv")
      [[ -n $ws && -n $wo ]] && echo "| 1. streams ($v, saturation): SIGTERM → exit summed over the restarts, with 50 streams (sse) vs without (tcp) | $ws s vs $wo s | (for the record) |"
    done
  fi
  # gRPC (grpc mode): every server stream ended by the server with UNAVAILABLE, none broken; the streams'
  # and the shutdowns' length against the drain delay + 1 s; plain Spring Boot's figures beside.
  if awk -F'\t' '$25 == "grpc" { f = 1 } END { exit !f }' "$tsv"; then
    local gs gb gl gx
    read -r gs gb <<<"$(awk -F'\t' '$25 == "grpc" && $2 == "lifecycle" { s += $29; b += $31 + $32 } END { print s + 0, b + 0 }' "$tsv")"
    echo "| 1. gRPC streams: every stream ended by the server with UNAVAILABLE, none broken (Lifecycle) | $((gs - gb)) of $gs ended clean, $gb broken or refused | $(verdict $((gs > 0 && gb == 0))) |"
    gl=$(awk -F'\t' '$25 == "grpc" && $2 == "lifecycle" { n = split($33, a, " "); for (i = 1; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0 } END { print m + 0 }' "$tsv")
    gx=$(awk -F'\t' '$25 == "grpc" && $2 == "lifecycle" { n = split($19, a, " "); for (i = 1; i <= n; i++) if (a[i] + 0 > m) m = a[i] + 0 } END { print m + 0 }' "$tsv")
    echo "| 1. gRPC: every stream open at a SIGTERM ended ≤ drain delay 5 s + 1 s after it (Lifecycle) | latest $gl s | $(verdict "$(awk -v a="$gl" 'BEGIN { print (a <= 6) ? 1 : 0 }')") |"
    echo "| 1. gRPC: SIGTERM → exit ≤ drain delay 5 s + 1 s (Lifecycle) | longest $gx s | $(verdict "$(awk -v a="$gx" 'BEGIN { print (a <= 6) ? 1 : 0 }')") |"
    awk -F'\t' '$25 == "grpc" && $2 != "lifecycle" { k = $2; if (!(k in n)) o[++c] = k; n[k] = 1; f[k] += $7; l[k] += $15; s[k] += $29; b[k] += $31 + $32
        m = split($19, a, " "); for (i = 1; i <= m; i++) if (a[i] + 0 > x[k]) x[k] = a[i] + 0 }
      END { for (i = 1; i <= c; i++) { k = o[i]; printf "| 1. gRPC, %s (same run) | %d failed calls, %d lost, streams %d broken or refused of %d, longest SIGTERM → exit %s s | (for the record) |\n", k, f[k], l[k], b[k], s[k], x[k] } }' "$tsv"
  fi
}

if [[ ${1:-} == --rr-goals ]]; then # the goals table of item 1 from a rolling-restart.sh TSV, nothing run
  [[ -s ${2:-} ]] || die "usage: run-all.sh --rr-goals DIR/rolling-restart.tsv"
  rr_goals "$2"; exit 0
fi
SMOKE=0
for arg in "$@"; do
  case $arg in
    --smoke) SMOKE=1 ;;
    *) die "unknown argument $arg (use --smoke, --rr-goals TSV or nothing)" ;;
  esac
done
if ((SMOKE)); then ONLY=${ONLY:-"1 4"}; OUT=$BENCH_DIR/target/results-smoke; else ONLY=${ONLY:-"1 2 3 4 5 6 7"}; OUT=$BENCH_DIR/target/results; fi
want() { [[ " $ONLY " == *" $1 "* ]]; }
rm -rf "$OUT"; mkdir -p "$OUT"
T0=$SECONDS
STARTED_AT=$(date -u '+%Y-%m-%d %H:%M UTC')

# ---- tools -------------------------------------------------------------------------------------
missing=()
for t in haproxy wrk jq curl; do command -v "$t" >/dev/null || missing+=("$t"); done
if ((${#missing[@]})); then
  log "installing ${missing[*]} with apt-get"
  SUDO=; ((EUID)) && SUDO=sudo
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null || die "apt-get install ${missing[*]} failed"
fi
command -v java >/dev/null && command -v javac >/dev/null || die "a JDK 17+ is required"

# ---- build -------------------------------------------------------------------------------------
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  # shellcheck disable=SC2086
  if ((SMOKE)); then
    log "building the sample, the gRPC load client and the scale app (./mvnw package -DskipTests -pl sample-app,lifecycle-benchmarks,lifecycle-benchmarks/scale-app -am)"
    (cd "$ROOT_DIR" && ./mvnw -B -q ${MVN_FLAGS:-} package -DskipTests -pl sample-app,lifecycle-benchmarks,lifecycle-benchmarks/scale-app -am) ||
      die "build failed"
  else
    log "building everything (./mvnw package -DskipTests)"
    (cd "$ROOT_DIR" && ./mvnw -B -q ${MVN_FLAGS:-} package -DskipTests) || die "build failed"
  fi
fi
[[ -f $SAMPLE_JAR ]] || die "no sample jar at $SAMPLE_JAR"
# Private copies: a build elsewhere in the tree that rewrites a jar while a benchmark JVM reads it
# would break that JVM's class loading half-way through a run.
mkdir -p "$OUT/jars"
cp "$SAMPLE_JAR" "$OUT/jars/sample-app.jar" && export SAMPLE_JAR=$OUT/jars/sample-app.jar
jar tf "$SAMPLE_JAR" >/dev/null 2>&1 || die "the sample jar is unreadable (rewritten by another build while copied?); run again"
if [[ -f $SCALE_JAR ]]; then cp "$SCALE_JAR" "$OUT/jars/scale-app.jar" && export SCALE_JAR=$OUT/jars/scale-app.jar; fi
BENCH_JAR=${BENCH_JAR:-$BENCH_DIR/target/benchmarks.jar}
if [[ -f $BENCH_JAR ]]; then cp "$BENCH_JAR" "$OUT/jars/benchmarks.jar" && export BENCH_JAR=$OUT/jars/benchmarks.jar; fi

declare -A WALL LOADS RC
item() { # number name command...
  local n=$1 name=$2; shift 2
  want "$n" || return 0
  local t=$SECONDS lb; lb=$(load_avg)
  log "==> item $n: $name"
  "$@" 2>&1 | tee "$OUT/item$n.log"
  local rc=${PIPESTATUS[0]}
  WALL[$n]=$((SECONDS - t)); LOADS[$n]="$lb → $(load_avg)"; RC[$n]=$rc
  ((rc == 0)) || log "item $n ($name) exited with $rc; see $OUT/item$n.log"
  return 0
}

if ((SMOKE)); then
  # Lifecycle as shipped (connection-close on) behind a layer-7 proxy, a layer-4 one (tcp), a
  # layer-4 one with 50 event streams open (sse) and a layer-4 one in front of the gRPC service with
  # 20 server streams open (grpc): no failed request or call, no lost event, every stream ended.
  item 1 "rolling restart (smoke)" env RR_FINAL_STOP=KILL "$BENCH_DIR/rolling-restart.sh" --rounds 1 --restarts 1 --variants lifecycle \
    --modes "http tcp sse grpc" --loads 40 --out "$OUT"
  item 4 "pre-stop latency (smoke)" "$BENCH_DIR/prestop-latency.sh" --inprocess 10 --fresh 0 --out "$OUT"
  passed=0 failed=0
  # The smoke gates defects, not figures: a stream the drain failed to end lasts until the server's
  # graceful-shutdown budget (30 s) or is broken, while a loaded two-core runner adds seconds of
  # scheduling to a stream the drain did end. The gate is drain delay 5 s + SMOKE_STREAM_MARGIN_S
  # (5 s); the goal of drain delay + 1 s is measured and reported by the full run (rr_goals), and
  # the smoke's own figures are printed below.
  margin=${SMOKE_STREAM_MARGIN_S:-5} stream_bound=$((5 + ${SMOKE_STREAM_MARGIN_S:-5}))
  check() { if eval "$2"; then passed=$((passed + 1)); log "PASS $1"; else failed=$((failed + 1)); log "FAIL $1"; fi; }
  if want 1; then
    for mode in http tcp sse grpc; do
      row=$(awk -F'\t' -v m="$mode" '$2 ~ /^lifecycle(-cc)?$/ && $25 == m' "$OUT/rolling-restart.tsv" 2>/dev/null | head -n 1)
      check "rolling restart ($mode) ran" '[[ -n $row ]]'
      # Failed = a non-2xx answer, a socket error (a response whose body ends with the connection counts
      # as a read error in wrk 4.1: the drain keeps responses framed), or a request sent that got no
      # answer beyond the one per wrk connection (16) in flight when wrk stops.
      check "rolling restart ($mode): 0 failed requests for Lifecycle (non-2xx, socket errors, unanswered)" \
        '[[ -n $row && $(cut -f7 <<<"$row") == 0 && $(cut -f36 <<<"$row") -le 16 ]]'
      check "rolling restart ($mode): 0 acknowledged events lost for Lifecycle" '[[ -n $row && $(cut -f15 <<<"$row") == 0 ]]'
    done
    row=$(awk -F'\t' '$2 ~ /^lifecycle/ && $25 == "sse"' "$OUT/rolling-restart.tsv" 2>/dev/null | head -n 1)
    check "rolling restart (sse): streams ended cleanly, none broken or refused" \
      '[[ -n $row && $(cut -f30 <<<"$row") -gt 0 && $(cut -f31 <<<"$row") == 0 && $(cut -f32 <<<"$row") == 0 ]]'
    check "rolling restart (sse): every stream open at the SIGTERM ended within drain delay 5 s + $margin s (goal: + 1 s, reported)" \
      '[[ -n $row ]] && awk -v s="$(cut -f33 <<<"$row")" -v b="$stream_bound" "BEGIN { n = split(s, a, \" \"); for (i = 1; i <= n; i++) if (a[i] + 0 > b) exit 1; exit !(n > 0) }"'
    # gRPC: a stream ended by the server with UNAVAILABLE is clean; one closed without the server's
    # status is broken, one that never got its first message refused.
    row=$(awk -F'\t' '$2 ~ /^lifecycle/ && $25 == "grpc"' "$OUT/rolling-restart.tsv" 2>/dev/null | head -n 1)
    check "rolling restart (grpc): every stream ended by the server with UNAVAILABLE, none broken or refused" \
      '[[ -n $row && $(cut -f30 <<<"$row") -gt 0 && $(cut -f31 <<<"$row") == 0 && $(cut -f32 <<<"$row") == 0 ]]'
    check "rolling restart (grpc): every stream open at the SIGTERM ended within drain delay 5 s + $margin s (goal: + 1 s, reported)" \
      '[[ -n $row ]] && awk -v s="$(cut -f33 <<<"$row")" -v b="$stream_bound" "BEGIN { n = split(s, a, \" \"); for (i = 1; i <= n; i++) if (a[i] + 0 > b) exit 1; exit !(n > 0) }"'
  fi
  if want 4; then
    row=$(awk -F'\t' '$1 == "inprocess"' "$OUT/prestop.tsv" 2>/dev/null)
    check "pre-stop latency: 10 samples saw readiness 503" '[[ -n $row && $(cut -f2 <<<"$row") == 10 ]]'
  fi
  cat "$OUT"/rolling-restart.md "$OUT"/prestop.md 2>/dev/null
  log "smoke finished in $((SECONDS - T0)) s"
  echo "smoke: $passed passed, $failed failed"
  ((failed == 0))
  exit
fi

item 1 "rolling restart under load" "$BENCH_DIR/rolling-restart.sh" --rounds "${RR_ROUNDS:-3}" --restarts "${RR_RESTARTS:-3}" \
  --variants "${RR_VARIANTS:-lifecycle lifecycle-adaptive plain plain-sleep}" --modes "${RR_MODES:-http tcp sse}" \
  --loads "${RR_LOADS:-40 0}" --out "$OUT"
item 2 "shutdown time at scale" "$BENCH_DIR/shutdown-scale.sh" --runs "${SCALE_RUNS:-3}" --sync-runs 1 --out "$OUT"
item 3 "start-up cost" "$BENCH_DIR/startup.sh" --runs "${STARTUP_RUNS:-10}" --out "$OUT"
item 4 "pre-stop latency" "$BENCH_DIR/prestop-latency.sh" --inprocess "${PRESTOP_INPROCESS:-100}" --fresh "${PRESTOP_FRESH:-10}" --out "$OUT"
TORTURE=$ROOT_DIR/sample-app/scripts/torture.sh
if [[ -x $TORTURE || -f $TORTURE ]]; then
  item 5 "torture" bash "$TORTURE" "${TORTURE_N:-100}"
else
  want 5 && { log "item 5: $TORTURE does not exist; skipped"; echo "sample-app/scripts/torture.sh is missing" >"$OUT/item5.log"; WALL[5]=0; LOADS[5]="-"; }
fi
want 6 && rm -f "$BENCH_DIR/target/jmh-summary.md"
item 6 "JMH hot path" env SKIP_BUILD=1 JMH_OPTS="${JMH_OPTS:-}" "$BENCH_DIR/run-jmh.sh"
ADOPT_RUNS=${ADOPT_RUNS:-5}
item 7 "adopted SmartLifecycle beans" "$BENCH_DIR/adoption-scale.sh" --runs "$ADOPT_RUNS" \
  --plain-runs $((ADOPT_RUNS < 3 ? ADOPT_RUNS : 3)) --out "$OUT"
TOTAL=$((SECONDS - T0))

# ---- the results file --------------------------------------------------------------------------
section() { # file item
  if [[ ${RC[$2]:-0} != 0 ]]; then
    echo "**This item's script exited with status ${RC[$2]}; its log is \`lifecycle-benchmarks/target/results/item$2.log\`:**"
    echo; echo '```'; tail -n 5 "$OUT/item$2.log"; echo '```'; echo
  fi
  if [[ -s $1 ]]; then cat "$1"; else echo "_no results_"; fi
}
gen=$OUT/benchmarks-section.md
{
  echo "# Process-level benchmarks against plain Spring Boot (run-all.sh, $STARTED_AT)"
  echo
  echo "- **Date:** $STARTED_AT; total wall time **$((TOTAL / 60)) min $((TOTAL % 60)) s** (items $ONLY)."
  echo "- **Machine:** $(machine_line)."
  echo "- **Command** (repository root): \`${KNOBS}lifecycle-benchmarks/run-all.sh\` (CI smoke: \`lifecycle-benchmarks/run-all.sh --smoke\`)."
  echo "- **Load:** load average (1/5/15 min) before → after each item is given with it; other builds may share this 2-core machine, so read ratios and counts, not absolute times."
  echo "- **Raw data:** \`lifecycle-benchmarks/target/results/\` (TSV per item, logs, wrk summaries)."
  echo
  if want 1; then
    echo "### 1. Rolling restart under load"
    echo
    echo "3 sample instances (own SQLite each, actuator on a port of its own as in \`deploy/k8s\`, started from an application class-data archive) behind HAProxy $(haproxy -v 2>/dev/null | head -n 1 | awk '{ print $3 }') modelling a Kubernetes Service: \`option httpchk GET /actuator/health/readiness\`, \`http-check expect status 200\`, \`default-server inter 1s fall 1 rise 1\`, \`retries 0\`, no redispatch. wrk 4.1 \`-t2 -c16 --timeout 10s\` POSTs \`/events\` with a unique id per request (key = id, value 1) through the proxy; each instance in turn: SIGTERM, wait for exit, restart on its data directory, wait for readiness 200 and HAProxy UP, wait 2 s. **Modes:** \`http\` = HAProxy HTTP mode (balances every request); \`tcp\` = HAProxy TCP mode, round robin per connection, like kube-proxy (Tomcat still closes a connection after 100 requests, Boot's default); \`pinned\` = tcp with \`server.tomcat.max-keep-alive-requests=-1\` (connections never recycled by the server, as on Jetty and Reactor Netty); \`sse\` = tcp plus 50 \`curl -N\` clients on \`GET /counts/stream\` through the proxy, each reconnecting when its stream ends. **Loads:** 40 ms pause per request and connection (about 300 requests/s) and saturation (no pause). **Variants:** **lifecycle** = the sample as shipped (\`connection-close\` and GOAWAY on), \`--lifecycle.drain-delay=5s\` (the Kubernetes default), signals trapped; **lifecycle-adaptive** = the same with \`--lifecycle.drain-quiet-period=1s --lifecycle.drain-minimum=2s\`; **lifecycle-nocc** = lifecycle with \`--lifecycle.connection-close=false\`; **plain** = \`--lifecycle.enabled=false --server.shutdown=graceful --spring.lifecycle.timeout-per-shutdown-phase=30s\` (the sample's hand-written \`SmartLifecycle\`, \`PlainSpringLifecycle\`; SIGTERM exits 143); **plain-sleep** = plain with \`--sample.plain.pre-stop-sleep=5s\`, the preStop \`sleep 5\` recipe of the Spring Boot documentation emulated in-process (readiness turns REFUSING_TRAFFIC at context close, then the context sleeps 5 s before anything stops). Failed (wrk) = non-2xx + wrk socket errors; unanswered = requests sent without an answer (wrk's Lua counter; at most one per connection is in flight when wrk stops); lost = ids wrk saw a 202 for that no instance's final \`GET /counts\` lists. Rollout = sum over the restarts of SIGTERM → exit + restart → ready and UP. Load before → after: ${LOADS[1]}; ${WALL[1]} s."
    echo
    section "$OUT/rolling-restart.md" 1
    echo
  fi
  if want 2; then
    echo "### 2. Shutdown time at scale"
    echo
    echo "\`lifecycle-benchmarks/scale-app\` (a module of the build): 1,000 components in 10 phases (component i in phase i mod 10), each stopping in 20–50 ms drawn from \`java.util.Random(42)\`. SIGTERM → process exit measured around \`kill\` and bash's \`wait\`, the process idle 2 s after readiness 200, modes interleaved. **lifecycle**: \`@ManagedComponent\` passive components, drain delay 0; **plain-async**: \`SmartLifecycle\` beans whose \`stop(Runnable)\` works on a thread of its own (Spring drains a phase in parallel); **plain-sync**: \`SmartLifecycle\` whose \`stop()\` does the work (the common way; Spring stops the beans of a phase one by one); **none-plain** / **none-lifecycle**: no components, starter off / on. Load before → after: ${LOADS[2]}; ${WALL[2]} s."
    echo
    section "$OUT/shutdown-scale.md" 2
    echo
  fi
  if want 3; then
    echo "### 3. Start-up cost"
    echo
    echo "The sample jar with the starter on (as shipped) and off (\`--lifecycle.enabled=false\`: Lifecycle's auto-configurations back off and the sample starts the same ingestion and pipeline from its plain \`SmartLifecycle\`; Lifecycle's jars stay on the class path because the sample's code uses its types). Interleaved, one discarded warm-up each, fresh data directory per run. \"Started\" = JVM uptime printed in Spring Boot's \`Started … (process running for X)\` line; readiness = wall clock from launch to the first 200 (polled every 20 ms). Load before → after: ${LOADS[3]}; ${WALL[3]} s."
    echo
    section "$OUT/startup.md" 3
    echo
  fi
  if want 4; then
    echo "### 4. Pre-stop latency"
    echo
    echo "Time from just before creating the pre-stop file to the first non-200 answer of \`/actuator/health/readiness\`, polled about every 1 ms over one keep-alive connection (Java \`HttpClient\`), drain delay 250 ms so the 503 is observable. Each sample needs a fresh application (the file starts its shutdown): **in-process** = \`scale-app --harness=prestop\` starts a fresh Spring Boot context (Tomcat, actuator, the starter and its watcher, no components) for every sample, one after another in one JVM (\`lifecycle.signals.trap=false\` keeps the JVM alive; warm JIT after the first samples, like a pod that has been serving); **fresh JVM** = the sample jar, one new JVM per sample (cold code paths), started in parallel batches and measured one after another. Load before → after: ${LOADS[4]}; ${WALL[4]} s."
    echo
    section "$OUT/prestop.md" 4
    echo
  fi
  if want 5; then
    echo "### 5. Torture"
    echo
    echo "\`sample-app/scripts/torture.sh ${TORTURE_N:-100}\` (written with the sample; with N ≥ 10 every JVM starts from an application class-data archive made by one training run, which shortens each restart and changes nothing the test checks): N cycles of load → SIGTERM or SIGKILL (random, about half each) → restart → every acknowledged event so far counted exactly once, SIGTERM exits 0 with a backup equal to the final checkpoint. Load before → after: ${LOADS[5]}; ${WALL[5]} s. Its last lines:"
    echo
    echo '```'
    if [[ -s $OUT/item5.log ]]; then grep -E 'FAIL|elapsed|passed' "$OUT/item5.log" | sed -E 's#; work directory .*##' | tail -n 12; else echo "not run"; fi
    echo '```'
    echo
  fi
  if want 6; then
    echo "### 6. Engine hot path (JMH, re-run)"
    echo
    echo "\`SKIP_BUILD=1 lifecycle-benchmarks/run-jmh.sh\` (the jar comes from the build step; same settings as the section above: 1 fork, 3 × 1 s warm-up, 5 × 1 s measured, \`-prof gc\`). Load before → after: ${LOADS[6]}; ${WALL[6]} s."
    echo
    section "$BENCH_DIR/target/jmh-summary.md" 6
    echo
  fi
  if want 7; then
    echo "### 7. Adopted SmartLifecycle beans"
    echo
    echo "\`lifecycle-benchmarks/adoption-scale.sh\` on the scale-app: ordinary \`SmartLifecycle\` beans Lifecycle did not write (\`scale.mode=plain-sync\`: \`stop()\` does the work on the calling thread), all in one Spring phase. **plain** = \`--lifecycle.enabled=false --spring.lifecycle.timeout-per-shutdown-phase=60s\` (Spring's \`DefaultLifecycleProcessor\` stops them one after another on the closing thread); **lifecycle** = the same jar and beans with the starter on (every bean adopted as a component and stopped concurrently in the standard drain; drain delay 0, signals trapped); **none-plain** = no beans, starter off. SIGTERM → exit around \`kill\` and bash's \`wait\`, process idle 2 s after readiness 200, modes interleaved. Load before → after: ${LOADS[7]}; ${WALL[7]} s."
    echo
    section "$OUT/adoption-scale.md" 7
    echo
  fi
  echo "### Goals"
  echo
  echo "| goal | measured | verdict |"
  echo "|---|---|---|"
  if want 1 && [[ -s $OUT/rolling-restart.tsv ]]; then
    rr_goals "$OUT/rolling-restart.tsv"
  fi
  if want 2 && [[ -s $OUT/shutdown-scale.summary ]]; then
    read -r ideal lmed amed <"$OUT/shutdown-scale.summary"
    echo "| 2. shutdown at scale: Lifecycle ≤ ideal + 300 ms | Lifecycle median $lmed ms vs ideal $ideal ms (+$(awk -v a="$lmed" -v b="$ideal" 'BEGIN { printf "%.0f", a - b }') ms); plain-async $amed ms | $(verdict "$(awk -v a="$lmed" -v b="$ideal" 'BEGIN { print (a <= b + 300) ? 1 : 0 }')") |"
  fi
  if want 3 && [[ -s $OUT/startup.summary ]]; then
    read -r rs rr <"$OUT/startup.summary"
    echo "| 3. start-up: ratio of medians ≤ 1.05 | Started $rs, readiness $rr | $(verdict "$(awk -v a="$rs" -v b="$rr" 'BEGIN { print (a <= 1.05 && b <= 1.05) ? 1 : 0 }')") |"
  fi
  if want 4 && [[ -s $OUT/prestop.tsv ]]; then
    while IFS=$'\t' read -r m n o mn p50 p90 p99 rest; do
      echo "| 4. pre-stop: p99 ≤ 50 ms ($m) | $n samples: p50 $p50 ms, p99 $p99 ms | $(verdict "$(awk -v a="$p99" 'BEGIN { print (a <= 50) ? 1 : 0 }')") |"
    done < <(tail -n +2 "$OUT/prestop.tsv")
  fi
  if want 5; then
    tl=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/item5.log" 2>/dev/null | tail -n 1)
    tp=$(awk '{ print $1 }' <<<"${tl:-0 passed}"); tf=$(awk '{ print $3 }' <<<"${tl:-x x 1}")
    echo "| 5. torture: ${TORTURE_N:-100} passed, 0 lost | ${tl:-not run} | $(verdict $((tp == ${TORTURE_N:-100} && tf == 0))) |"
  fi
  if want 6 && [[ ${RC[6]:-1} == 0 ]]; then
    for t in 1 2; do
      f=$BENCH_DIR/target/jmh-handle-t$t.json
      [[ -s $f ]] || continue
      sc() { jq -r --arg b "$1" '.[] | select(.benchmark | endswith("." + $b)) | .primaryMetric.score' "$f" | awk '{ printf "%.3f\n", $1 }'; }
      al() { jq -r --arg b "$1" '.[] | select(.benchmark | endswith("." + $b)) | .secondaryMetrics["gc.alloc.rate.norm"].score // 0' "$f" | awk '{ printf "%.3f\n", $1 }'; }
      rd=$(sc baselineVolatileRead) wr=$(sc baselineVolatileWrite)
      for b in isShuttingDown isHealthy; do
        r=$(awk -v a="$(sc $b)" -v b="$rd" 'BEGIN { printf "%.2f", a / b }')
        echo "| 6. \`$b\` ≤ 1.5× a volatile read ($t thread(s)) | $(sc $b) ns vs $rd ns = ${r}× | $(verdict "$(awk -v r="$r" 'BEGIN { print (r <= 1.5) ? 1 : 0 }')") |"
      done
      r=$(awk -v a="$(sc reportHealthy)" -v b="$wr" 'BEGIN { printf "%.2f", a / b }')
      echo "| 6. \`reportHealthy\` ≤ 3× a volatile write, 0 B/op ($t thread(s)) | ${r}×, $(al reportHealthy) B/op | $(verdict "$(awk -v r="$r" -v b="$(al reportHealthy)" 'BEGIN { print (r <= 3 && b < 0.01) ? 1 : 0 }')") |"
    done
    f=$BENCH_DIR/target/jmh-healthpoll.json
    if [[ -s $f ]]; then
      worst=$(jq -r '[.[] | .primaryMetric.score] | max' "$f" | awk '{ printf "%.1f", $1 }')
      echo "| 6. one health poll over 10,000 components < 1 ms | worst $worst µs | $(verdict "$(awk -v w="$worst" 'BEGIN { print (w < 1000) ? 1 : 0 }')") |"
    fi
  fi
  if want 7 && [[ -s $OUT/adoption-scale.summary ]]; then
    read -r ideal lmed pmed <"$OUT/adoption-scale.summary"
    echo "| 7. adopted beans: Lifecycle ≤ plain / 10 | Lifecycle median $lmed ms vs plain $pmed ms (ratio $(awk -v a="$lmed" -v b="$pmed" 'BEGIN { printf "%.3f", a / b }')) | $(verdict "$(awk -v a="$lmed" -v b="$pmed" 'BEGIN { print (a * 10 <= b) ? 1 : 0 }')") |"
    echo "| 7. adopted beans: Lifecycle ≤ ideal + 300 ms | Lifecycle median $lmed ms vs ideal $ideal ms (+$(awk -v a="$lmed" -v b="$ideal" 'BEGIN { printf "%.0f", a - b }') ms) | $(verdict "$(awk -v a="$lmed" -v b="$ideal" 'BEGIN { print (a <= b + 300) ? 1 : 0 }')") |"
  fi
} >"$gen"

RESULT=$BENCH_DIR/results/$(date -u -d "$STARTED_AT" '+%Y-%m-%d-%H%M' 2>/dev/null || date -u '+%Y-%m-%d-%H%M')-run-all.md
mkdir -p "$BENCH_DIR/results"
cp "$gen" "$RESULT"
log "results written to lifecycle-benchmarks/results/$(basename "$RESULT"); total $TOTAL s (update BENCHMARKS.md's figures from it)"
cat "$gen"
