#!/usr/bin/env bash
# One sample instance with its gRPC service on, one client holding a health Watch and a
# WatchOffset stream on one channel, then SIGTERM; prints when NOT_SERVING arrived, when and how
# the stream ended, when the process was gone, and its exit code.
#
# Usage, from the repository's root, after building the sample jar:
#   lifecycle-benchmarks/scripts/grpc-single-instance/run.sh LABEL GRPC_PORT [extra sample arguments...]
# Work files go to ${GRPC_MEASURE_DIR:-target/grpc-measure}.
set -euo pipefail
label=$1 port=$2; shift 2
root=$(pwd)
work=${GRPC_MEASURE_DIR:-$root/target/grpc-measure}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
if [[ ! -s $work/samplecp.txt ]]; then
  "$root/mvnw" -B -q -o -pl sample-app dependency:build-classpath -Dmdep.outputFile="$work/samplecp.txt" -Dmdep.includeScope=test
fi
cp="$root/sample-app/target/classes:$(cat "$work/samplecp.txt")"
if [[ ! -f $work/out/Measure.class ]]; then
  javac -cp "$cp" -d "$work/out" "$here/Measure.java"
fi
dir=$work/run-$label; rm -rf "$dir"; mkdir -p "$dir"
java -XX:TieredStopAtLevel=1 -Xmx256m -jar "$root/sample-app/target/sample-app.jar" --server.port=0 \
  --sample.data-dir="$dir/data" --lifecycle.run-marker.path="$dir/running" --lifecycle.pre-stop.enabled=false \
  --sample.grpc.enabled=true --spring.grpc.server.port="$port" --lifecycle.drain-delay=3s \
  --lifecycle.global-shutdown-timeout=20s "$@" > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 120); do grep -q "gRPC Server started" "$dir/log" && break; sleep 0.5; done
sleep 2
java -cp "$work/out:$cp" Measure "$port" "$pid"
set +e; wait "$pid"; echo "exit code $?"
