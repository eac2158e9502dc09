#!/bin/sh
# Builds the JDK AOT cache for a Spring Boot jar, as Spring Boot documents it, so that the service
# starts from a cache of loaded and linked classes: extract the jar, run the training run, and print
# the command that starts with the cache. Plain POSIX shell: the same steps run in an image build
# (see Dockerfile) or on a machine.
#
#   deploy/aot-cache/build-aot-cache.sh APP.jar OUT_DIR [training-run arguments...]
#
# OUT_DIR receives the extracted application (OUT_DIR/app/APP.jar and OUT_DIR/app/lib/) and the
# cache (OUT_DIR/app.aot). Arguments after OUT_DIR go to the training run, e.g. a data directory the
# build may write to. JAVA (default: $JAVA_HOME/bin/java, else java) must be JDK 25 or later, and the
# same JDK build must start the service: the JVM refuses a cache written by another.
#
# The training run starts the application with -Dspring.context.exit=onRefresh: Spring creates
# every bean and halts the JVM as the context refreshes, before any lifecycle bean starts. With
# Lifecycle, that run writes no run marker and no shutdown report and traps no signal, so the
# service's first start does not count an unclean previous run. Beans are created, so whatever a
# bean needs at creation (a configuration value, a directory) must be there at build time.
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 APP.jar OUT_DIR [training-run arguments...]" >&2
	exit 2
fi
jar=$1
out=$2
shift 2
if [ -n "${JAVA:-}" ]; then
	java=$JAVA
elif [ -n "${JAVA_HOME:-}" ]; then
	java=$JAVA_HOME/bin/java
else
	java=java
fi

[ -f "$jar" ] || { echo "$0: no jar at $jar" >&2; exit 1; }
feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
case $feature in
	'' | 1.* | 1[0-9] | 2[0-4])
		echo "$0: $java is Java ${feature:-?}; the JDK AOT cache needs Java 25 or later (set JAVA or JAVA_HOME)" >&2
		exit 1
		;;
esac

mkdir -p "$out"
name=$(basename "$jar")
rm -rf "$out/app" "$out/app.aot"

echo "1/2 extract $jar into $out/app"
"$java" -Djarmode=tools -jar "$jar" extract --destination "$out/app"

echo "2/2 training run (spring.context.exit=onRefresh) writing $out/app.aot"
# From OUT_DIR, with a relative class path: the start must use the same path to the jar.
(cd "$out" && "$java" -XX:AOTCacheOutput=app.aot -Dspring.context.exit=onRefresh -jar "app/$name" "$@")
[ -s "$out/app.aot" ] || { echo "$0: the training run wrote no cache" >&2; exit 1; }

echo "start the service from $out with the cache (exec, so that the JVM receives SIGTERM itself):"
echo "  cd $out && exec $java -XX:AOTCache=app.aot -jar app/$name"
