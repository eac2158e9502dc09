#!/usr/bin/env bash
# Builds lifecycle-benchmarks/target/benchmarks.jar and runs the engine's JMH benchmarks with
# short settings sized for a small (2-core) machine, with the GC profiler (B/op).
#
#   lifecycle-benchmarks/run-jmh.sh            # build + run everything (about 4 minutes)
#   SKIP_BUILD=1 lifecycle-benchmarks/run-jmh.sh
#   JMH_OPTS="-wi 5 -i 10" lifecycle-benchmarks/run-jmh.sh   # extra/overriding JMH options
#
# Results (JSON + human-readable text) go to lifecycle-benchmarks/target/jmh-*.{json,txt};
# a Markdown summary is printed at the end (needs python3) and saved as target/jmh-summary.md.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="lifecycle-benchmarks/target"
JAR="$OUT/benchmarks.jar"

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  mvn -B -q -pl lifecycle-benchmarks -am package -DskipTests
fi

# 1 fork, 3 x 1 s warm-up, 5 x 1 s measurement, GC profiler for gc.alloc.rate.norm (B/op).
COMMON=(-f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc)
# shellcheck disable=SC2206
EXTRA=(${JMH_OPTS:-})

run() { # name regex threads
  local name="$1" regex="$2" threads="$3"
  echo "==> $name: $regex, $threads thread(s)"
  java -jar "$JAR" "$regex" "${COMMON[@]}" -t "$threads" "${EXTRA[@]}" \
    -rf json -rff "$OUT/jmh-$name.json" | tee "$OUT/jmh-$name.txt"
}

run handle-t1 '\.HandleBenchmark\.' 1
run handle-t2 '\.HandleBenchmark\.' 2
run healthpoll '\.HealthPollBenchmark\.' 1

if command -v python3 >/dev/null; then
  python3 - "$OUT" <<'PY' | tee "$OUT/jmh-summary.md"
import json, sys, os
out = sys.argv[1]
print("| benchmark | threads | score | error (99.9%) | unit | B/op |")
print("|---|---:|---:|---:|---|---:|")
for name in ("handle-t1", "handle-t2", "healthpoll"):
    path = os.path.join(out, f"jmh-{name}.json")
    if not os.path.exists(path):
        continue
    for r in json.load(open(path)):
        pm = r["primaryMetric"]
        norm = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
        err = pm.get("scoreError")
        err = "n/a" if err is None or err != err else f"{err:.3f}"
        bop = "n/a" if norm is None else f"{norm:.3f}"
        print(f"| {r['benchmark'].rsplit('.', 2)[-2]}.{r['benchmark'].rsplit('.', 1)[-1]} | {r['threads']} "
              f"| {pm['score']:.3f} | {err} | {pm['scoreUnit']} | {bop} |")
PY
fi
