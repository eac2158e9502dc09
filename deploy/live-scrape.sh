#!/usr/bin/env bash
# Takes a real Prometheus scrape of the sample that holds every Lifecycle series, for
# `DEPLOY_SCRAPE_FILE=… deploy/check.sh`, which compares the dashboard's queries with it.
#
#   deploy/live-scrape.sh OUT_FILE        (needs sample-app/target/sample-app.jar, or SAMPLE_JAR, and curl)
#
# The counters and the histogram exist only once something happened, so the scrape is taken in
# two moments and concatenated:
#   1. after a SIGKILL and a restart: initiated{previous-run,unclean}, completed{clean}, healthy;
#   2. during a shutdown whose pipeline hangs on stop (the sample's test-only switch): ingestion has
#      drained (result and duration series exist) while the web server still answers, until the
#      global ceiling would end the process with 129. Nothing is read after that scrape, so the
#      process is then killed rather than waited for (the ceiling's exit is ForcedExitIT's subject).
set -euo pipefail

out="${1:?usage: deploy/live-scrape.sh OUT_FILE}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="${SAMPLE_JAR:-$root/sample-app/target/sample-app.jar}"
[[ -f "$jar" ]] || { echo "live-scrape: $jar is missing; run './mvnw -B verify' (or package) first" >&2; exit 2; }

work="$(mktemp -d)"
# Below the kernel's ephemeral range (32768 and up), where outgoing connections could take it first.
port=$((20000 + RANDOM % 12000))
pid=""
cleanup() { [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

start() { # log-name
  java -jar "$jar" --server.port="$port" --sample.data-dir="$work/data" \
    --lifecycle.pre-stop.path="$work/shutdown" \
    --lifecycle.global-shutdown-timeout=20s \
    --sample.test.hang-pipeline-on-stop=true \
    --sample.pipeline.stop-timeout=1s --sample.pipeline.handler-timeout=3s \
    >"$work/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "live-scrape: the sample did not become ready; its log:" >&2
  cat "$work/$1.log" >&2
  exit 1
}

scrape() { curl -fs "http://127.0.0.1:$port/actuator/prometheus"; }

start first
curl -fs -XPOST -H 'Content-Type: application/json' "http://127.0.0.1:$port/events" \
  -d '{"id":"scrape-1","key":"scrape","value":1}' >/dev/null
kill -9 "$pid"; wait "$pid" 2>/dev/null || true; pid=""

start second
scrape >"$out"

kill -TERM "$pid"
got=""
last=""
# Until the process ends (the global ceiling bounds it) rather than a count of tries: on a loaded
# machine each scrape may take a while.
deadline=$((SECONDS + 90))
while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
  if body="$(scrape 2>&1)"; then
    if grep -Eq '^lifecycle_component_shutdown_result_total\{[^}]*\} [1-9]' <<<"$body"; then
      printf '%s\n' "$body" >>"$out"
      got=yes
      break
    fi
    last="$(grep -E '^lifecycle_component_shutdown_result_total' <<<"$body" || echo 'no lifecycle_component_shutdown_result_total series')"
  else
    last="scrape failed: $body"
  fi
  sleep 0.1
done
[[ -n "$got" ]] && { kill -9 "$pid" 2>/dev/null || true; }
wait "$pid" 2>/dev/null || true; pid=""
if [[ -z "$got" ]]; then
  echo "live-scrape: no scrape with component results during the shutdown; the last scrape: $last" >&2
  echo "live-scrape: the sample's log:" >&2
  cat "$work/second.log" >&2
  exit 1
fi
echo "live-scrape: $(grep -c '^lifecycle_' "$out") lifecycle sample lines written to $out"
