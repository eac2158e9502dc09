# Shared helpers for the process-level benchmarks (sourced, not run).
# shellcheck shell=bash

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT_DIR=$(cd "$BENCH_DIR/.." && pwd)
SAMPLE_JAR=${SAMPLE_JAR:-$ROOT_DIR/sample-app/target/sample-app.jar}
SCALE_JAR=${SCALE_JAR:-$BENCH_DIR/scale-app/target/scale-app.jar}
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

log() { printf '%s %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

now_ms() { # wall clock in milliseconds, no fork
  local t=${EPOCHREALTIME/./}
  echo $((t / 1000))
}

http_code() { # url -> status code, 000 when nothing answers
  curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true
}

wait_http_200() { # url timeout_s [pid] -> 0 once 200; 1 on timeout or when pid died
  local url=$1 timeout=$2 pid=${3:-} deadline=$((SECONDS + $2))
  until [[ $(http_code "$url") == 200 ]]; do
    if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    ((SECONDS > deadline)) && return 1
    sleep 0.05
  done
}

wait_pid_exit() { # pid timeout_s -> sets EXIT_CODE (child of this shell); SIGKILL after timeout
  local pid=$1 deadline=$((SECONDS + $2))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS > deadline)); then log "pid $pid still running after $2 s: SIGKILL"; kill -KILL "$pid" 2>/dev/null; fi
    sleep 0.02
  done
  wait "$pid" 2>/dev/null; EXIT_CODE=$?
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

machine_line() {
  local cpu
  cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
  printf '`nproc` = %s, %s, %s RAM; %s; %s' "$(nproc)" "$cpu" \
    "$(free -g | awk '/^Mem:/ {print $2 " GiB"}')" \
    "$("$JAVA" -version 2>&1 | head -n 1)" "$(uname -sr)"
}

load_avg() { cut -d' ' -f1-3 /proc/loadavg; }

# stats over a file of numbers (one per line): prints "n min p50 p90 p99 max mean"
stats() {
  sort -g "$1" | awk '{ v[NR] = $1; s += $1 }
    function pct(p,   i) { i = int(p / 100 * NR + 0.999999); if (i < 1) i = 1; if (i > NR) i = NR; return v[i] }
    END { if (NR == 0) { print "0 - - - - - -"; exit }
          printf "%d %g %g %g %g %g %.1f\n", NR, v[1], pct(50), pct(90), pct(99), v[NR], s / NR }'
}

median() { # file of numbers -> median (mean of the two middle values for even n)
  sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit }
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
