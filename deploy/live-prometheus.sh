#!/usr/bin/env bash
# The shipped rules against real parts: a real Prometheus (Debian's) scraping three sample
# instances and a real Pushgateway every second, with deploy/prometheus/lifecycle-rules.yml loaded
# as they are, and the verdicts read from Prometheus' HTTP API:
#   1. a rolling restart of the three (SIGTERM, exit 0, restart): Prometheus shows three clean
#      completed shutdowns (pushed) and no Lifecycle alert fires or is pending;
#   2. a SIGKILL of one, then its restart: LifecycleUncleanPreviousShutdown fires;
#   3. a component that ignores its stop (the sample's test-only switch), short budgets:
#      LifecycleComponentShutdownTimeout fires;
#   4. that instance restarted: its previous shutdown's SVG timeline (/actuator/lifecycle/previous/
#      timeline), rendered by headless Chromium, kept as target/live-prometheus/previous-shutdown.png.
#
#   deploy/live-prometheus.sh     (needs sample-app/target/sample-app.jar, or SAMPLE_JAR; installs
#                                  prometheus, prometheus-pushgateway, curl, jq and chromium with
#                                  apt-get when missing)
#
# Exit 0 when every verdict holds; otherwise 1, with the Prometheus answer and the logs.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${SAMPLE_JAR:-$root/sample-app/target/sample-app.jar}"
rules="$root/deploy/prometheus/lifecycle-rules.yml"
[[ -f "$jar" ]] || { echo "live-prometheus: $jar is missing; run './mvnw -B verify' (or package) first" >&2; exit 2; }

# ------------------------------------------------------------------------------------ tools
missing=()
[[ -x /usr/bin/prometheus ]] || missing+=(prometheus)
[[ -x /usr/bin/prometheus-pushgateway ]] || missing+=(prometheus-pushgateway)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if ((${#missing[@]})); then
  [[ "$(id -u)" == 0 ]] || { echo "live-prometheus: missing ${missing[*]} (apt-get install -y ${missing[*]})" >&2; exit 2; }
  echo "live-prometheus: installing ${missing[*]} from Debian" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# ------------------------------------------------------------------------------------ set-up
work="$(mktemp -d)"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do { kill -9 "$p" && wait "$p"; } 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Ports below the kernel's ephemeral range (32768 and up here), where the outgoing connections of
# Prometheus, curl and the JVMs could take a port between this check and the bind; never one twice.
taken=" "
free_port() { # sets REPLY
  local p
  while :; do
    p=$((20000 + RANDOM % 12000))
    [[ $taken == *" $p "* ]] && continue
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue
    taken+="$p "
    REPLY=$p
    return
  done
}

fail() {
  echo "live-prometheus: FAIL: $*" >&2
  local f
  for f in "$work"/*.log; do
    echo "----- $(basename "$f") (last 40 lines)" >&2
    tail -40 "$f" >&2
  done
  exit 1
}

free_port; prom_port=$REPLY
free_port; gw_port=$REPLY
ports=()
for _ in 1 2 3; do free_port; ports+=("$REPLY"); done
instance_pids=("" "" "")
# Each start is a new "pod": like a Deployment's rollout, a new process pushes to a group of its own.
generation=(0 0 0)

# In memory only: Debian's Pushgateway persists to /var/lib/prometheus/pushgateway.data by default,
# and a run must never see the groups an earlier run (or anything else on the machine) pushed.
/usr/bin/prometheus-pushgateway --web.listen-address="127.0.0.1:$gw_port" --persistence.file="" \
  --log.level=warn >"$work/pushgateway.log" 2>&1 &
pids+=($!)

cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules
scrape_configs:
  - job_name: sample-app
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ['127.0.0.1:${ports[0]}', '127.0.0.1:${ports[1]}', '127.0.0.1:${ports[2]}']
  # The pushed groups keep the job and instance they were pushed with.
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$gw_port']
EOF
/usr/bin/prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$work/prometheus.log" 2>&1 &
pids+=($!)

# start_instance I [extra args...]: sample instance I (0-2) with its own port, data dir and group
start_instance() {
  local i="$1"
  shift
  generation[$i]=$((generation[$i] + 1))
  mkdir -p "$work/data-$i"
  java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx192m -jar "$jar" \
    --server.port="${ports[$i]}" --sample.data-dir="$work/data-$i" \
    --lifecycle.pre-stop.path="$work/prestop-$i" --lifecycle.drain-delay=1s \
    --management.prometheus.metrics.export.pushgateway.enabled=true \
    --management.prometheus.metrics.export.pushgateway.address="127.0.0.1:$gw_port" \
    --management.prometheus.metrics.export.pushgateway.grouping-key.instance="sample-$i-${generation[$i]}" \
    "$@" >>"$work/sample-$i.log" 2>&1 &
  instance_pids[$i]=$!
  pids+=($!)
}

await_ready() {
  local i="$1"
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:${ports[$i]}/actuator/health/readiness" >/dev/null 2>&1 && return 0
    kill -0 "${instance_pids[$i]}" 2>/dev/null || break
    sleep 0.1
  done
  fail "sample-$i did not become ready"
}

# stop_instance I SIGNAL: sends the signal, waits for the exit and sets rc to its code
stop_instance() {
  rc=0
  kill -"$2" "${instance_pids[$1]}"
  wait "${instance_pids[$1]}" 2>/dev/null || rc=$?
}

# query PROMQL: Prometheus' instant answer (the "result" array, as JSON)
query() {
  curl -fsG "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$1" | jq -c '.data.result'
}

# await_query PROMQL JQ_TEST SECONDS: waits until the answer satisfies the jq test
await_query() {
  local answer=""
  for _ in $(seq 1 $((${3} * 4))); do
    if answer="$(query "$1" 2>/dev/null)" && jq -e "$2" >/dev/null <<<"$answer"; then
      return 0
    fi
    sleep 0.25
  done
  echo "live-prometheus: query: $1" >&2
  echo "live-prometheus: answer: ${answer:-none}" >&2
  echo "live-prometheus: ALERTS: $(query 'ALERTS' 2>/dev/null || true)" >&2
  return 1
}

verdict() { printf 'live-prometheus: %-4s %s\n' "$1" "$2"; }

started=$SECONDS
for i in 0 1 2; do start_instance "$i"; done
for i in 0 1 2; do await_ready "$i"; done
await_query 'count(up{job="sample-app"} == 1) + count(up{job="pushgateway"} == 1)' '.[0].value[1] == "4"' 30 \
  || fail "Prometheus does not scrape the three instances and the Pushgateway"
idle_lines="$(curl -fs "http://127.0.0.1:${ports[0]}/actuator/prometheus" | grep -c '^lifecycle_')"
echo "live-prometheus: up in $((SECONDS - started)) s; an idle instance exports $idle_lines lifecycle_* series"

# ------------------------------------------------------------------------------------ 1. rollout
rollout_start=$SECONDS
for i in 0 1 2; do
  stop_instance "$i" TERM
  [[ "$rc" == 0 ]] || fail "sample-$i exited with $rc after SIGTERM, not 0"
  start_instance "$i"
  await_ready "$i"
done
await_query 'count(lifecycle_shutdown_completed_total{job="sample-app",clean="true"} == 1 and on (job, instance) push_time_seconds)' \
  '.[0].value[1] == "3"' 20 || fail "Prometheus does not show three clean completed shutdowns"
await_query 'lifecycle:shutdown_completed:increase1h{clean="true"}' '.[0].value[1] == "3"' 10 \
  || fail "the recording rule does not count three clean completed shutdowns"
# Two more evaluations, then nothing Lifecycle may be pending or firing, nor have fired during the rollout.
sleep 2
window=$((SECONDS - rollout_start + 2))
answer="$(query "ALERTS{alertname=~\"Lifecycle.*\"} or max_over_time(ALERTS{alertname=~\"Lifecycle.*\",alertstate=\"firing\"}[${window}s])")"
[[ "$answer" == "[]" ]] || fail "alerts during or after a clean rollout: $answer"
verdict ok "rolling restart: 3 x SIGTERM -> exit 0; Prometheus shows 3 clean completed shutdowns (pushed); no Lifecycle alert pending or firing"

# ------------------------------------------------------------------------------------ 2. SIGKILL
stop_instance 1 KILL
start_instance 1
await_ready 1
await_query 'ALERTS{alertname="LifecycleUncleanPreviousShutdown",alertstate="firing"}' 'length == 1' 20 \
  || fail "LifecycleUncleanPreviousShutdown does not fire after a SIGKILL and a restart"
verdict ok "SIGKILL (exit $rc) and restart: LifecycleUncleanPreviousShutdown fires"

# ------------------------------------------------------------------------------------ 3. hung component
stop_instance 2 TERM
[[ "$rc" == 0 ]] || fail "sample-2 exited with $rc after SIGTERM, not 0"
start_instance 2 --sample.test.hang-pipeline-on-stop=true --lifecycle.global-shutdown-timeout=6s \
  --lifecycle.components.pipeline.graceful-shutdown=2s --sample.pipeline.stop-timeout=1s \
  --sample.pipeline.handler-timeout=3s
await_ready 2
hung_start=$SECONDS
stop_instance 2 TERM
echo "live-prometheus: the instance whose pipeline ignores its stop exited with $rc after $((SECONDS - hung_start)) s"
await_query 'ALERTS{alertname="LifecycleComponentShutdownTimeout",alertstate="firing",component="pipeline"}' 'length == 1' 20 \
  || fail "LifecycleComponentShutdownTimeout does not fire for a component that ignored its stop"
verdict ok "a component ignoring its stop: LifecycleComponentShutdownTimeout fires (component=pipeline)"

# ------------------------------------------------------------------------------------ 4. timeline
artifacts="$root/target/live-prometheus"
mkdir -p "$artifacts"
start_instance 2 --management.endpoints.web.exposure.include=health,prometheus,lifecycle
await_ready 2
curl -fs "http://127.0.0.1:${ports[2]}/actuator/lifecycle/previous/timeline" -o "$artifacts/previous-shutdown.svg" \
  || fail "no SVG timeline of the previous shutdown at /actuator/lifecycle/previous/timeline"
grep -q 'pipeline' "$artifacts/previous-shutdown.svg" || fail "the timeline does not show the pipeline"
svg="$artifacts/previous-shutdown.svg" png="$artifacts/previous-shutdown.png"
width="$(grep -o 'width="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)"
height="$(grep -o 'height="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)"
[[ -n "$width" && -n "$height" ]] || fail "the timeline SVG has no width and height"
# Chromium writes its profile under HOME; a throw-away one keeps the user's alone. The page is
# exactly the SVG's size, so the picture is the whole timeline and nothing else.
HOME="$work/chromium-home" timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --force-device-scale-factor=1 --window-size="$width,$height" --screenshot="$png" "file://$svg" \
  >"$work/chromium.log" 2>&1 || fail "headless Chromium could not render the timeline"
[[ -s "$png" ]] || fail "headless Chromium wrote no screenshot"
# The PNG header holds the size; a blank page compresses to a few hundred bytes.
png_size="$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')"
[[ "$png_size" == "${width}x${height}" ]] || fail "the screenshot is $png_size, the timeline ${width}x${height}"
(( $(wc -c <"$png") > 8000 )) || fail "the screenshot is only $(wc -c <"$png") bytes: blank?"
verdict ok "the hung shutdown's timeline rendered by headless Chromium: $png (${png_size}, $(wc -c <"$png") bytes)"

echo "live-prometheus: firing now: $(query 'ALERTS{alertstate="firing"}' | jq -r '[.[].metric.alertname] | unique | join(", ")')"
echo "live-prometheus: all verdicts hold ($((SECONDS - started)) s)"
