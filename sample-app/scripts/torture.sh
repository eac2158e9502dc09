#!/usr/bin/env bash
# Torture test for the sample: N cycles of
#   load (8 concurrent clients, every acknowledged id recorded client-side; with hostile clients,
#   every third request of each is one that must be refused: values that would overflow a sum, ids
#   that are not valid Unicode, ids reused for another event, malformed JSON, unknown fields)
#   → a signal (SIGTERM or SIGKILL by default) at a random moment → restart on the same data directory
#   → verify that every event acknowledged so far, in this cycle and all earlier ones, is counted
#     exactly once (GET /counts), that SIGTERM exited 0 and left a backup whose checkpoint equals
#     the database's final checkpoint (checked with sqlite3 when it is installed), that every hostile
#     request got its 4xx and none of them was ever counted.
# With hostile clients it first tries Lifecycle's own inputs, each on a scratch directory and all at
# once: a duration beyond a day, a run marker pointed at a secret and at a directory, a pre-stop path
# pointed at a database. Each start must fail with exit 1 naming the property, and leave
# what was at the path byte for byte as it was (and never print the secret).
# The instance restarted at the end of a cycle is the one loaded in the next cycle.
#
# Usage: sample-app/scripts/torture.sh [N=5]        (needs a JDK and curl; build the jar first:
#        mvn -B -q install -DskipTests)
# Environment: SAMPLE_JAR (default: sample-app/target/sample-app.jar), TORTURE_THREADS (8),
#              TORTURE_HOSTILE (default 1: hostile requests mixed into the load; 0: well-behaved clients only),
#              TORTURE_SIGNALS (default "TERM KILL": one picked at random per cycle; HUP, a signal the
#                app traps (docs/concepts.md#signals), is then expected to exit 0 with a backup),
#              TORTURE_KEEP=1 keeps the work directory even when everything passed,
#              TORTURE_CDS (default 1 when N >= 10): start every JVM from an application class-data
#              archive made by one training run (a third less start-up time here; class loading only,
#              nothing the test checks changes).
# The last line is "N passed, M failed"; the exit status is non-zero if any cycle failed.
set -uo pipefail

N=${1:-5}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
JAR=${SAMPLE_JAR:-$HERE/../target/sample-app.jar}
THREADS=${TORTURE_THREADS:-8}
HOSTILE=${TORTURE_HOSTILE:-1}
read -r -a SIGNALS <<<"${TORTURE_SIGNALS:-TERM KILL}"
for s in "${SIGNALS[@]}"; do
  [[ $s == TERM || $s == KILL || $s == HUP || $s == INT ]] || { echo "TORTURE_SIGNALS: unknown signal $s" >&2; exit 2; }
done
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
JAVAC=${JAVA_HOME:+$JAVA_HOME/bin/}javac

[[ -f $JAR ]] || { echo "no jar at $JAR; run: mvn -B -q install -DskipTests" >&2; exit 2; }
command -v curl >/dev/null || { echo "curl is required" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sample-torture.XXXXXX")
DATA=$WORK/data
mkdir -p "$WORK/client" "$WORK/acks"
"$JAVAC" -d "$WORK/client" "$HERE/TortureClient.java" || exit 2

free_port() {
  local port
  for _ in $(seq 100); do
    # Below the kernel's ephemeral range (32768 and up), where outgoing connections could take it first.
    port=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return; fi
  done
  echo "no free port found" >&2; exit 2
}
PORT=$(free_port)

# Application CDS: extract the jar, one training run records the loaded classes, every later start
# maps them. Worth its ~10 s when there are many restarts; any failure falls back to the plain jar.
JAVA_ARGS=(-XX:TieredStopAtLevel=1 -jar "$JAR") STARTED_FROM=
if [[ ${TORTURE_CDS:-$((N >= 10))} == 1 ]]; then
  if "$JAVA" -Djarmode=tools -jar "$JAR" extract --destination "$WORK/cds" >"$WORK/cds-extract.log" 2>&1 &&
    "$JAVA" -XX:ArchiveClassesAtExit="$WORK/cds/app.jsa" -Dspring.context.exit=onRefresh -jar "$WORK/cds/$(basename "$JAR")" \
      --server.port=0 --sample.data-dir="$WORK/cds/train" --lifecycle.pre-stop.enabled=false \
      --lifecycle.run-marker.enabled=false >"$WORK/cds-train.log" 2>&1 && [[ -s $WORK/cds/app.jsa ]]; then
    JAVA_ARGS=(-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile="$WORK/cds/app.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off
      -jar "$WORK/cds/$(basename "$JAR")")
    STARTED_FROM=" (started from a class-data archive)"
  else
    echo "torture: no class-data archive (see $WORK/cds-*.log); starting from the plain jar" >&2
  fi
fi
BASE=http://127.0.0.1:$PORT
PID=

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*"; }

start_server() { # $1: log name; sets PID (the JVM) and EXIT_FILE (where its exit status lands)
  EXIT_FILE=$WORK/$1.exit
  # A wrapper subshell waits for the JVM and records its exit status; its stderr is discarded so that
  # bash's "Killed" job notices do not clutter the output (the JVM's own output goes to the log).
  (
    "$JAVA" "${JAVA_ARGS[@]}" --server.port="$PORT" --sample.data-dir="$DATA" \
      --lifecycle.pre-stop.path="$WORK/shutdown" --lifecycle.run-marker.path="$WORK/running" \
      --sample.pipeline.checkpoint-interval=500ms --sample.status.interval=5s \
      >"$WORK/$1.log" 2>&1 &
    echo $! >"$WORK/$1.pid"
    wait $!
    echo $? >"$EXIT_FILE"
  ) 2>/dev/null &
  until [[ -s $WORK/$1.pid ]]; do sleep 0.01; done
  PID=$(<"$WORK/$1.pid")
  local deadline=$((SECONDS + 90))
  until [[ $(curl -s -o /dev/null -w '%{http_code}' "$BASE/actuator/health/readiness") == 200 ]]; do
    if ! kill -0 "$PID" 2>/dev/null || ((SECONDS > deadline)); then
      log "server did not become ready (log: $WORK/$1.log)"; return 1
    fi
    sleep 0.2
  done
}

wait_exit() { # waits for the JVM started last; sets CODE to its exit status
  local deadline=$((SECONDS + 120))
  until [[ -s $EXIT_FILE ]]; do
    ((SECONDS > deadline)) && kill -KILL "$PID" 2>/dev/null
    sleep 0.05
  done
  CODE=$(<"$EXIT_FILE")
}

sqlite_checkpoint() { # $1: database; prints "offset|sum-of-sums|sum-of-counts|keys"
  sqlite3 -readonly "$1" "SELECT (SELECT COALESCE(log_offset,0) FROM checkpoint WHERE id=1) || '|' || \
    (SELECT COALESCE(SUM(sum),0) || '|' || COALESCE(SUM(count),0) || '|' || COUNT(*) FROM aggregates);"
}

cleanup() { [[ -n $PID ]] && kill -KILL "$PID" 2>/dev/null; }
trap cleanup EXIT

# One refused start: $1 name, $2 the property the failure must name, $3 the file that must stay as it
# was ("" for none), the rest the arguments. Prints "ok" or what went wrong.
refused_start() {
  local name=$1 property=$2 keep=$3 dir=$WORK/hostile/$1 before=""
  shift 3
  [[ -n $keep ]] && before=$(cksum <"$keep")
  # A property given twice would be bound as "a,b": the case's own path replaces the default one.
  local defaults=() option
  for option in --lifecycle.pre-stop.path="$dir/shutdown" --lifecycle.run-marker.path="$dir/running"; do
    [[ " $* " == *" ${option%%=*}="* ]] || defaults+=("$option")
  done
  # A start that is not refused is stopped after two minutes and reported.
  timeout -s KILL 120 "$JAVA" "${JAVA_ARGS[@]}" --server.port=0 --sample.data-dir="$dir/data" ${defaults[@]+"${defaults[@]}"} \
    "$@" >"$dir.log" 2>&1
  local code=$?
  if [[ $code != 1 ]]; then echo "$name: exit code $code, expected 1 (log: $dir.log)"; return; fi
  if ! grep -q "Lifecycle cannot start: '$property'" "$dir.log"; then echo "$name: the failure does not name $property"; return; fi
  if grep -q hunter2 "$dir.log"; then echo "$name: the log shows the secret"; return; fi
  if [[ -n $keep && $(cksum <"$keep") != "$before" ]]; then echo "$name: $keep changed"; return; fi
  echo ok
}

hostile_configuration() { # every case at once, each on its own scratch directory; sets HOSTILE_VERDICT
  local dir=$WORK/hostile
  mkdir -p "$dir"/{timeout,secret,marker-dir,prestop-database}/data "$dir/marker-dir/marker"
  printf 'db.password=hunter2\n' >"$dir/secret/credentials"
  head -c 8192 /dev/urandom >"$dir/prestop-database/events.db"
  local cases=(
    "timeout lifecycle.global-shutdown-timeout - --lifecycle.global-shutdown-timeout=1000000d"
    "secret lifecycle.run-marker.path $dir/secret/credentials --lifecycle.run-marker.path=$dir/secret/credentials"
    "marker-dir lifecycle.run-marker.path - --lifecycle.run-marker.path=$dir/marker-dir/marker"
    "prestop-database lifecycle.pre-stop.path $dir/prestop-database/events.db --lifecycle.pre-stop.path=$dir/prestop-database/events.db"
  )
  local entry name property keep arg
  for entry in "${cases[@]}"; do
    read -r name property keep arg <<<"$entry"
    [[ $keep == - ]] && keep=""
    refused_start "$name" "$property" "$keep" "$arg" >"$dir/$name.verdict" &
  done
  wait
  local bad
  bad=$(grep -vh '^ok$' "$dir"/*.verdict)
  if [[ -z $bad ]]; then HOSTILE_VERDICT="all ${#cases[@]} refused at start, naming the property, nothing touched"
  else HOSTILE_VERDICT=$bad; fi
  [[ -z $bad ]]
}

passed=0 failed=0
start=$SECONDS
if ((HOSTILE)); then
  if hostile_configuration; then log "hostile configuration: PASS  $HOSTILE_VERDICT"
  else log "hostile configuration: FAIL  $HOSTILE_VERDICT"; failed=$((failed + 1)); fi
fi
log "torture: $N cycle(s), signals ${SIGNALS[*]}, hostile clients $( ((HOSTILE)) && echo on || echo off), jar $JAR$STARTED_FROM, port $PORT, work $WORK"
start_server start-0 || { echo "0 passed, $N failed"; exit 1; }

for ((i = 1; i <= N; i++)); do
  ok=1
  prefix=c$i
  rm -f "$WORK/stop"
  "$JAVA" -cp "$WORK/client" TortureClient load "$BASE" "$prefix" "$THREADS" "$WORK/acks/$prefix.txt" "$WORK/stop" \
    "$( ((HOSTILE)) && echo hostile || echo polite)" >"$WORK/client-$i.out" 2>&1 &
  client=$!
  # Let the clients get going (JVM start), then strike at a random moment 0.5–2.5 s later.
  for _ in $(seq 100); do
    [[ -f $WORK/acks/$prefix.txt ]] && (($(wc -l <"$WORK/acks/$prefix.txt") >= 20)) && break
    sleep 0.1
  done
  sleep "$(awk -v seed="$RANDOM" 'BEGIN { srand(seed); printf "%.2f", 0.5 + rand() * 2 }')"
  signal=${SIGNALS[RANDOM % ${#SIGNALS[@]}]}
  # A clean shutdown exits 0 and leaves a backup; SIGKILL is 137 (128 + 9) and leaves none.
  if [[ $signal == KILL ]]; then expected=137; else expected=0; fi
  kill -s "$signal" "$PID"
  wait_exit; code=$CODE
  touch "$WORK/stop"
  wait "$client"; client_code=$?
  summary=$(tail -n 1 "$WORK/client-$i.out")
  if [[ $code != "$expected" ]]; then
    log "cycle $i: SIG$signal exit code $code, expected $expected (log: $WORK/start-$((i - 1)).log)"; ok=0
  fi
  if ((client_code != 0)); then log "cycle $i: client reported violations (see $WORK/client-$i.out)"; ok=0; fi
  if [[ $signal != KILL ]]; then
    backup=$(ls "$DATA"/backups/events-*.db 2>/dev/null | sort | tail -n 1)
    if [[ -z $backup ]]; then
      log "cycle $i: no backup after SIG$signal"; ok=0
    elif command -v sqlite3 >/dev/null; then
      live=$(sqlite_checkpoint "$DATA/events.db"); copy=$(sqlite_checkpoint "$backup")
      if [[ $live != "$copy" ]]; then log "cycle $i: backup checkpoint $copy != final checkpoint $live"; ok=0
      else summary="$summary; backup = final checkpoint (offset ${live%%|*})"; fi
    fi
  fi
  if ! start_server "start-$i"; then
    ok=0
  else
    verdict=$("$JAVA" -cp "$WORK/client" TortureClient verify "$BASE" "$WORK"/acks/*.txt) || ok=0
  fi
  if ((ok)); then
    passed=$((passed + 1))
    log "cycle $i/$N: PASS  SIG$signal→exit $code; $summary; ${verdict:-}"
  else
    failed=$((failed + 1))
    log "cycle $i/$N: FAIL  SIG$signal→exit $code; $summary; ${verdict:-}"
  fi
  verdict=
done

kill -s TERM "$PID"
wait_exit; code=$CODE; PID=
if [[ $code != 0 ]]; then log "final SIGTERM: exit code $code"; fi
log "elapsed $((SECONDS - start)) s; work directory $WORK"
if ((failed == 0)) && [[ ${TORTURE_KEEP:-0} != 1 ]]; then rm -rf "$WORK"; fi
echo "$passed passed, $failed failed"
((failed == 0))
