#!/usr/bin/env bash
# Proves what `mvn deploy` publishes: runs it (tests skipped; CI runs them before) into a file
# repository and checks that exactly the library artifacts arrive, each jar with its sources and
# javadoc jars, and each POM flattened (version resolved, no parent) with the metadata a
# repository manager requires. Nothing is installed into ~/.m2; the sample's AOT processing is skipped
# (it is not published). Usage: .ci/check-deploy.sh [repository-dir]
# With DEPLOYED_REPOSITORY set, Maven is not run: the repository a build already deployed into is
# checked (e.g. after `mvn deploy -Dmaven.install.skip=true -DaltDeploymentRepository=local::file://DIR`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -n "${DEPLOYED_REPOSITORY:-}" ]]; then
	repo="$DEPLOYED_REPOSITORY"
	[[ -d "$repo/dev/lifecycle" ]] || { echo "FAIL: nothing was deployed into $repo"; exit 1; }
	rm -rf "$repo.consumer"
else
	repo="${1:-$(mktemp -d /tmp/lifecycle-deploy.XXXXXX)}"
	rm -rf "$repo" "$repo.consumer"
	# Formatting is not validated again: `./mvnw verify` (CI's first pass) validates the same sources
	# (the validation cost ~15 s of CPU here).
	./mvnw -B -q deploy -DskipTests -Dmaven.install.skip=true -Dspring-boot.aot.skip=true -Dspring-javaformat.validate.skip=true \
		-DaltDeploymentRepository="local::file://$repo"
fi

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "PASS: $*"; }

libraries="lifecycle-autoconfigure lifecycle-core lifecycle-starter lifecycle-test"
expected="$(echo "$libraries lifecycle-bom" | tr ' ' '\n' | sort | tr '\n' ' ')"
deployed="$(find "$repo" -name '*.pom' -printf '%h\n' | xargs -n1 dirname | xargs -n1 basename | sort -u | tr '\n' ' ')"
if [[ "$deployed" == "$expected" ]]; then
	pass "deployed artifacts are exactly: $deployed"
else
	fail "deployed artifacts are '$deployed', expected '$expected'"
fi
groups="$(find "$repo" -name '*.pom' -printf '%P\n' | sed -E 's#/[^/]+/[^/]+/[^/]+$##' | sort -u | tr '\n' ' ')"
[[ "$groups" == "dev/lifecycle " ]] || fail "artifacts outside dev.lifecycle: $groups"

# newest deployed file of an artifact with the given suffix (snapshots are timestamped)
file() {
	local exclude='$^'
	[[ "$2" == .jar ]] && exclude='-(sources|javadoc)\.jar$'
	find "$repo/dev/lifecycle/$1" -name "$1-*$2" | grep -Ev -- "$exclude" | sort | tail -n 1
}

for artifact in $libraries; do
	for suffix in .jar -sources.jar -javadoc.jar; do
		f="$(file "$artifact" "$suffix")"
		if [[ -n "$f" ]] && jar tf "$f" > /dev/null; then
			pass "$artifact$suffix"
		else
			fail "$artifact$suffix missing or not a jar"
		fi
	done
done
# the jars with code carry real sources and real javadoc
for artifact in lifecycle-core lifecycle-autoconfigure lifecycle-test; do
	jar tf "$(file "$artifact" -sources.jar)" | grep '\.java$' >/dev/null || fail "$artifact-sources.jar holds no .java file"
	jar tf "$(file "$artifact" -javadoc.jar)" | grep '^index.html$' >/dev/null || fail "$artifact-javadoc.jar holds no index.html"
done
# production jars carry no test support
for artifact in lifecycle-core lifecycle-autoconfigure lifecycle-starter; do
	if jar tf "$(file "$artifact" .jar)" | grep -Eq 'TestSupport|TestContextCustomizer|^dev/lifecycle/test/'; then
		fail "$artifact.jar contains test support"
	fi
done
# every jar names its module for the module path (dev.lifecycle.core, …, from the artifact's name)
for artifact in $libraries; do
	module="dev.lifecycle.${artifact#lifecycle-}"
	name="$(unzip -p "$(file "$artifact" .jar)" META-INF/MANIFEST.MF | tr -d '\r' | sed -n 's/^Automatic-Module-Name: //p')"
	[[ "$name" == "$module" ]] && pass "$artifact.jar is module $module" || fail "$artifact.jar has Automatic-Module-Name '$name', expected $module"
done

for artifact in $libraries lifecycle-bom; do
	pom="$(file "$artifact" .pom)"
	for element in '<name>' '<description>' '<url>' '<licenses>' '<developers>' '<scm[ >]' 'Apache License, Version 2.0'; do
		grep -q "$element" "$pom" || fail "$artifact POM lacks $element"
	done
	grep -q '<parent>' "$pom" && fail "$artifact POM still names a parent (lifecycle-parent is not published)"
	grep -q '\${revision}' "$pom" && fail "$artifact POM has an unresolved \${revision}"
done
bom="$(file lifecycle-bom .pom)"
managed="$(grep -o '<artifactId>lifecycle-[a-z]*</artifactId>' "$bom" | grep -v lifecycle-bom | sed -E 's#</?artifactId>##g' | sort | tr '\n' ' ')"
[[ "$managed" == "$(echo "$libraries" | tr ' ' '\n' | sort | tr '\n' ' ')" ]] || fail "the BOM manages '$managed'"

# A consumer that imports the BOM from the deployed repository gets the versions of the starter and
# the test support from it (model building fails on a dependency left without a version). Its own
# local repository keeps ~/.m2 untouched; only the BOM is downloaded.
consumer="$repo.consumer"
mkdir -p "$consumer"
version="$(basename "$(dirname "$bom")")"
cat > "$consumer/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>bom-consumer</artifactId>
  <version>1</version>
  <repositories>
    <repository>
      <id>lifecycle-deployed</id>
      <url>file://$repo</url>
      <snapshots><enabled>true</enabled></snapshots>
    </repository>
  </repositories>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>dev.lifecycle</groupId>
        <artifactId>lifecycle-bom</artifactId>
        <version>$version</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency>
      <groupId>dev.lifecycle</groupId>
      <artifactId>lifecycle-starter</artifactId>
    </dependency>
    <dependency>
      <groupId>dev.lifecycle</groupId>
      <artifactId>lifecycle-test</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
POM
if ./mvnw -B -q -f "$consumer/pom.xml" validate -Dmaven.repo.local="$consumer/m2" > "$consumer/build.log" 2>&1; then
	pass "a project importing lifecycle-bom $version gets the versions of the starter and the test support"
else
	fail "a project importing lifecycle-bom does not build:"; cat "$consumer/build.log"
fi

if ((failures > 0)); then
	echo "deploy check: $failures failure(s); repository left in $repo"
	exit 1
fi
echo "deploy check: passed ($repo)"
