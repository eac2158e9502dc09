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
#
#   lifecycle-benchmarks/run-jmh.sh --request [--rounds 3]
#
# runs instead what the starter adds to a request (issue 40, item 5), per stack: the request without
# Lifecycle, with Lifecycle's filter or interceptor, and with an empty one for scale
# (dev.lifecycle.benchmarks.request.*; servlet, reactive and gRPC). Each benchmark is its own JMH run
# of 1 fork, 8 x 2 s warm-up (a loaded machine compiles slowly), 5 x 2 s measured, -prof gc and the CPU-time profiler
# (dev.lifecycle.benchmarks.CpuTimeProfiler: the fork's CPU time per operation, the steadier figure on
# a shared machine); the benchmarks run in ROUNDS interleaved rounds (default 3, so 3 forks each), in
# alternating order, so that a change of the machine's load falls on every variant. About 5 minutes a
# round on 2 cores (6 minutes at a load of 10). JMH_OPTS replaces those settings (for a quick try: JMH_OPTS="-f 1 -wi 1 -w 1s -i 1 -r 1s"). Output: target/jmh-request/<round>-<benchmark>.json and target/jmh-request.md
# (per stack: ns/op, CPU ns/op, B/op, with/without ratios, per-round ratios, load averages).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="lifecycle-benchmarks/target"
JAR="$OUT/benchmarks.jar"

MODE=engine ROUNDS=3
while (($#)); do
  case $1 in
    --request) MODE=request; shift ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
  ./mvnw -B -q -pl lifecycle-benchmarks -am package -DskipTests
fi

if [[ $MODE == request ]]; then
  DIR="$OUT/jmh-request"
  rm -rf "$DIR"; mkdir -p "$DIR"
  PKG=dev.lifecycle.benchmarks.request
  BENCHES=(ServletRequestBenchmark.without ServletRequestBenchmark.with ServletRequestBenchmark.withEmptyFilter
    ReactiveRequestBenchmark.without ReactiveRequestBenchmark.with ReactiveRequestBenchmark.withEmptyFilter
    GrpcRequestBenchmark.without GrpcRequestBenchmark.with GrpcRequestBenchmark.withEmptyInterceptor
    GrpcRequestBenchmark.handlerWithout GrpcRequestBenchmark.handlerWith GrpcRequestBenchmark.handlerWithEmptyInterceptor)
  # JMH_OPTS replaces the settings here (JMH refuses an option given twice).
  # shellcheck disable=SC2206
  SETTINGS=(${JMH_OPTS:--f 1 -wi 8 -w 2s -i 5 -r 2s})
  echo "==> request path: ${#BENCHES[@]} benchmarks x $ROUNDS rounds; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
  for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2)); then order=("${BENCHES[@]}"); else order=(); for ((k = ${#BENCHES[@]} - 1; k >= 0; k--)); do order+=("${BENCHES[$k]}"); done; fi
    for b in "${order[@]}"; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      echo "==> round $r: $b (load $load)"
      java -jar "$JAR" "^$PKG\.$b\$" -t 1 -prof gc -prof dev.lifecycle.benchmarks.CpuTimeProfiler \
        "${SETTINGS[@]}" -rf json -rff "$DIR/r$r-$b.json" >"$DIR/r$r-$b.txt" 2>&1 || { tail -40 "$DIR/r$r-$b.txt"; exit 1; }
      echo "$r $b $load $(cut -d' ' -f1 /proc/loadavg)" >>"$DIR/loads.txt"
      grep -E "^$b(:cpu.time.norm|:gc.alloc.rate.norm)? " "$DIR/r$r-$b.txt" | sed 's/^/    /' || true
    done
  done
  python3 - "$DIR" <<'PY' | tee "$OUT/jmh-request.md"
import glob, json, os, re, statistics, sys
d = sys.argv[1]
runs = {}  # (benchmark, round) -> {"ns": score, "cpu": score, "bytes": score, "cpu_iters": [...]}
for path in glob.glob(os.path.join(d, "r*-*.json")):
    m = re.match(r"r(\d+)-(.+)\.json$", os.path.basename(path))
    for r in json.load(open(path)):
        sec = r.get("secondaryMetrics", {})
        cpu = sec.get("cpu.time.norm", {})
        runs[(m.group(2), int(m.group(1)))] = {"ns": r["primaryMetric"]["score"], "cpu": cpu.get("score", float("nan")),
            "bytes": sec.get("gc.alloc.rate.norm", {}).get("score", float("nan")),
            "cpu_iters": [x for fork in cpu.get("rawData", []) for x in fork]}
loads = [float(x.split()[2]) for x in open(os.path.join(d, "loads.txt"))] if os.path.exists(os.path.join(d, "loads.txt")) else []
rounds = sorted({k[1] for k in runs})
def vals(b, key): return [runs[(b, r)][key] for r in rounds if (b, r) in runs]
def med(b, key):
    v = vals(b, key)
    return statistics.median(v) if v else float("nan")
def low(b): # the least disturbed measured iteration of CPU time: the machine's noise only adds
    v = [x for it in vals(b, "cpu_iters") for x in it]
    return min(v) if v else float("nan")
def per_round(b, base, key):
    return [runs[(b, r)][key] / runs[(base, r)][key] for r in rounds if (b, r) in runs and (base, r) in runs]
stacks = [("servlet: MVC @RestController GET", "ServletRequestBenchmark", "without", ["with", "withEmptyFilter"]),
          ("reactive: WebFlux @RestController GET", "ReactiveRequestBenchmark", "without", ["with", "withEmptyFilter"]),
          ("gRPC: unary call, in-process", "GrpcRequestBenchmark", "without", ["with", "withEmptyInterceptor"]),
          ("gRPC: server call handler alone", "GrpcRequestBenchmark", "handlerWithout", ["handlerWith", "handlerWithEmptyInterceptor"])]
print(f"Rounds: {len(rounds)} (one fork each); load average during the run "
      + (f"{min(loads):.1f}–{max(loads):.1f}" if loads else "n/a") + f" on {os.cpu_count()} cores. "
      "ns/op, CPU ns/op: median over the rounds of each round's mean; CPU min: the lowest measured iteration; "
      "ratios against the variant without.")
print()
print("| stack | variant | ns/op | CPU ns/op | CPU min | B/op | ratio ns | ratio CPU | ratio CPU min | added CPU ns / B | per-round ratios CPU |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for title, cls, base, others in stacks:
    b0 = f"{cls}.{base}"
    print(f"| {title} | {base} | {med(b0,'ns'):,.0f} | {med(b0,'cpu'):,.0f} | {low(b0):,.0f} | {med(b0,'bytes'):,.0f} | 1 | 1 | 1 | | |")
    for o in others:
        b = f"{cls}.{o}"
        rr = " ".join(f"{x:.3f}" for x in sorted(per_round(b, b0, "cpu")))
        print(f"| | {o} | {med(b,'ns'):,.0f} | {med(b,'cpu'):,.0f} | {low(b):,.0f} | {med(b,'bytes'):,.0f} "
              f"| {med(b,'ns')/med(b0,'ns'):.3f} | **{med(b,'cpu')/med(b0,'cpu'):.3f}** | {low(b)/low(b0):.3f} "
              f"| {med(b,'cpu')-med(b0,'cpu'):+,.0f} / {med(b,'bytes')-med(b0,'bytes'):+,.0f} | {rr} |")
PY
  exit 0
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
