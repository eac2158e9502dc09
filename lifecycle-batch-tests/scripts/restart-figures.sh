#!/bin/sh
# Plain Spring Boot against Lifecycle for the same batch job cut at a restart: SIGTERM or SIGKILL
# after the second chunk (items 11 to 20) of 60 items x 30 ms, chunk 10, JDBC job repository in an
# H2 file; then a relaunch with the same parameters. Prints one row per case: the exit code, the
# repository's status after the cut, the relaunch's exit code and statuses, items written and
# distinct items (60 and 60 mean nothing lost, nothing twice).
# Usage (after mvn -pl lifecycle-batch-tests -am install -DskipTests):
#   lifecycle-batch-tests/scripts/restart-figures.sh
set -eu
cd "$(dirname "$0")/.."
mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >/dev/null
CP="target/classes:$(cat target/classpath.txt)"
JAVA="java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx256m"

sql() { # directory, query
	$JAVA -cp "$CP" org.h2.tools.Shell -url "jdbc:h2:file:$1/db;WRITE_DELAY=0" -user sa -sql "$2" \
		| sed -n '2,$p' | grep -v '^(' | tr -s ' \n' ' ' | sed 's/ $//'
}

run() { # directory, log, extra arguments
	dir=$1; log=$2; shift 2
	$JAVA -cp "$CP" dev.lifecycle.batchtests.BatchTestApplication \
		--spring.datasource.url="jdbc:h2:file:$dir/db;WRITE_DELAY=0" --spring.datasource.username=sa \
		--lifecycle.run-marker.path="$dir/marker" "$@" run=1 >"$log" 2>&1
}

printf '| mode | signal | exit | status after | relaunch exit | statuses after relaunch | items / distinct |\n'
printf '|---|---|---|---|---|---|---|\n'
for mode in lifecycle plain; do
	for signal in TERM KILL; do
		dir=$(mktemp -d)
		extra=""
		[ "$mode" = plain ] && extra="--lifecycle.enabled=false"
		run "$dir" "$dir/first.log" $extra &
		pid=$!
		until grep -q "wrote items 11 to 20" "$dir/first.log" 2>/dev/null; do sleep 0.05; done
		# $! is the shell function's subshell; the JVM is its child
		jvm=$(pgrep -P "$pid" java || echo "$pid")
		kill -"$signal" "$jvm"
		set +e; wait "$pid"; first=$?; set -e
		after=$(sql "$dir" "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID")
		set +e; run "$dir" "$dir/relaunch.log" $extra; relaunch=$?; set -e
		statuses=$(sql "$dir" "SELECT STATUS FROM BATCH_JOB_EXECUTION ORDER BY JOB_EXECUTION_ID")
		items=$(sql "$dir" "SELECT COUNT(*) || ' / ' || COUNT(DISTINCT ITEM) FROM OUTPUT")
		printf '| %s | SIG%s | %s | %s | %s | %s | %s |\n' "$mode" "$signal" "$first" "$after" "$relaunch" \
			"$statuses" "$items"
		rm -rf "$dir"
	done
done
