#!/usr/bin/env bash
# Renders a real shutdown's timeline in headless Chromium and keeps the picture, as a reviewer
# would see it, under target/ (CI keeps it as an artifact).
#
#   deploy/timeline-screenshot.sh [OUT_DIR]   (default: target/shutdown-timeline; needs the sample jar)
#
# The sample starts with the read-only lifecycle endpoint exposed, takes a few events, gets SIGTERM
# with a shutdown handler and a pipeline that overruns its stop budget (the sample's test-only
# switch), and exits; a second start serves that shutdown's report as
# /actuator/lifecycle/previous/timeline. Checks: the first process exited 0, the SVG names the
# trigger, the steps and the components, and Chromium drew a picture of the expected size that is
# not blank. Installs chromium with apt-get when missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/target/shutdown-timeline}"
jar="${SAMPLE_JAR:-$root/sample-app/target/sample-app.jar}"
[[ -f "$jar" ]] || { echo "timeline: $jar is missing; run 'mvn -B verify' (or package) first" >&2; exit 2; }

if ! command -v chromium >/dev/null; then
  echo "timeline: installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi

mkdir -p "$out"
work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
pid=""
cleanup() { [[ -n "$pid" ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
[[ -n "${TIMELINE_KEEP:-}" ]] && trap 'kill -9 $pid 2>/dev/null' EXIT

start() { # log-name
  java -jar "$jar" --server.port="$port" --sample.data-dir="$work/data" \
    --lifecycle.pre-stop.path="$work/shutdown" --lifecycle.drain-delay=1s \
    --management.endpoints.web.exposure.include=health,prometheus,lifecycle \
    >"$work/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "timeline: the sample did not become ready; its log:" >&2
  cat "$work/$1.log" >&2
  exit 1
}

fail() { echo "timeline: $*" >&2; exit 1; }

start first
for i in 1 2 3; do
  curl -fs -XPOST -H 'Content-Type: application/json' "http://127.0.0.1:$port/events" \
    -d "{\"id\":\"timeline-$i\",\"key\":\"timeline\",\"value\":$i}" >/dev/null
done
kill -TERM "$pid"
code=0; wait "$pid" || code=$?; pid=""
echo "timeline: first process exited $code"

start second
curl -fs "http://127.0.0.1:$port/actuator/lifecycle/previous/timeline" >"$out/shutdown-timeline.svg" \
  || fail "no timeline at /actuator/lifecycle/previous/timeline"
kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""

svg="$out/shutdown-timeline.svg"
for expected in '<svg' 'signal' 'drain delay' 'pipeline' 'observability drain'; do
  grep -q -- "$expected" "$svg" || fail "the SVG does not mention '$expected'; it is in $svg"
done
width="$(grep -o 'width="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)"
height="$(grep -o 'height="[0-9]*"' "$svg" | head -1 | tr -dc 0-9)"
[[ -n "$width" && -n "$height" ]] || fail "the SVG has no width and height"

# Chromium renders the SVG in a page of exactly its size.
png="$out/shutdown-timeline.png"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size="$width,$height" --screenshot="$png" "file://$svg" >"$work/chromium.log" 2>&1 \
  || { cat "$work/chromium.log" >&2; fail "chromium could not render the SVG"; }
[[ -s "$png" ]] || fail "chromium wrote no screenshot"

# The PNG header holds the size; a blank page compresses to almost nothing.
read -r png_width png_height < <(python3 - "$png" <<'PY'
import struct, sys
with open(sys.argv[1], 'rb') as f:
    head = f.read(24)
assert head[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
print(*struct.unpack('>II', head[16:24]))
PY
)
bytes="$(stat -c %s "$png")"
[[ "$png_width" == "$width" && "$png_height" == "$height" ]] \
  || fail "screenshot is ${png_width}x${png_height}, the SVG ${width}x${height}"
((bytes > 8000)) || fail "screenshot is only $bytes bytes: blank?"
cp "$work/first.log" "$out/shutdown.log"
echo "timeline: exit $code, ${width}x${height} px, $bytes bytes: $png"
