#!/usr/bin/env bash
# The shipped image and manifests, run for real with podman (rootful): builds deploy/aot-cache's
# Dockerfile from the already-built sample jar on a locally built base image, then
#   image-base       the build itself: BASE is a build argument (no registry is reachable here)
#   image-user       the image runs as a numeric non-root user, the manifests' runAsUser
#   image-tmp        no training leftovers in the image's /tmp
#   image-binaries   every binary the manifests' exec hooks may use runs in the image
#   early-sigterm    a SIGTERM right after `podman run -d` ends the container at once
#   arbitrary-uid    under an arbitrary user id in group 0 (OpenShift's restricted policy) the
#                    sample starts, writes its data directory, and exits 0 on SIGTERM
#   kube-stop        deploy/k8s played with `podman kube play`, under a small load, stopped with the
#                    manifest's grace period: readiness 503 first, no failed request, exit 0,
#                    a clean shutdown report
#   prestop          the preStop variant played the same way; its hook (the manifest's command)
#                    run inside the container: the shutdown is recorded as prestop, exit 0
# Prints PASS/FAIL lines and the time of each phase; exit 1 if any check FAILs.
#
#   .ci/check-image.sh
#   .ci/check-image.sh --prepare     only the tools and the base image (CI runs it in the background
#                                    during its first pass, which needs neither)
#   .ci/check-image.sh --measure N   the figures instead of the checks: image size with and without
#                                    the AOT cache, time to ready and SIGTERM -> exit, N starts each,
#                                    with the ConfigMap's settings (not run by CI)
#
# Environment:
#   SAMPLE_JAR             the jar to put in the image (default: sample-app/target/sample-app.jar,
#                          built by CI's first pass; Maven is not run here)
#   IMAGE_CACHE            where the base image's root file system is cached between runs
#                          (default: /var/cache/lifecycle-ci/image); the base image itself stays in
#                          podman's storage, keyed by the JDK's release and this script's recipe
#   IMAGE_AOT_CACHE        true: the build runs the AOT training run, as the shipped image does
#                          (default: false in CI, to save its time; the Dockerfile's default is true)
#   IMAGE_JDK              the JDK copied into the base (default: /usr/lib/jvm/temurin-25*)
#   IMAGE_NO_INSTALL=1     do not apt-get install missing tools, fail instead
#   IMAGE_STOP_TIMEOUT     podman stop's -t instead of the manifest's grace period (to see what a
#                          stop shorter than the shutdown does: exit 137, no report)
# Podman runs here only with the runc runtime and explicit ulimits (crun fails on this kind of
# machine): this script writes its own containers.conf and points CONTAINERS_CONF at it.
set -euo pipefail

root="${IMAGE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
jar="${SAMPLE_JAR:-$root/sample-app/target/sample-app.jar}"
cache="${IMAGE_CACHE:-/var/cache/lifecycle-ci/image}"
aot="${IMAGE_AOT_CACHE:-false}"
jdk="${IMAGE_JDK:-$(ls -d /usr/lib/jvm/temurin-25* 2>/dev/null | head -1 || true)}"
suite=bookworm
# bump when the base's recipe below changes: it is part of the base image's key
recipe=1
names="lc-image-$$"
work="$(mktemp -d)"
rc=0
timings=()

log() { printf '%s\n' "$*" >&2; }
pass() { echo "PASS $1: $2"; }
fail() { echo "FAIL $1: $2"; rc=1; }
phase() { # NAME COMMAND...: runs it and records its time
	local name="$1" started=$SECONDS
	shift
	"$@"
	timings+=("$(printf '%4d s  %s' "$((SECONDS - started))" "$name")")
}

cleanup() {
	local c
	for c in $(podman ps -a --filter "name=^$names" --format '{{.Names}}' 2>/dev/null); do podman rm -f -t 0 "$c" >/dev/null 2>&1 || true; done
	for c in $(podman pod ps --filter "name=^$names" --format '{{.Name}}' 2>/dev/null); do podman pod rm -f "$c" >/dev/null 2>&1 || true; done
	for c in $(podman volume ls --filter "name=^$names" --format '{{.Name}}' 2>/dev/null); do podman volume rm -f "$c" >/dev/null 2>&1 || true; done
	jobs -p | xargs -r kill 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# ---------------------------------------------------------------------------- tools
ensure_tools() {
	local missing=() t
	# catatonit: the pod's infra (pause) container that `podman kube play` builds locally
	for t in podman:podman buildah:buildah runc:runc catatonit:catatonit debootstrap:debootstrap curl:curl node:nodejs; do
		command -v "${t%%:*}" >/dev/null 2>&1 || [[ -x "/usr/sbin/${t%%:*}" ]] || missing+=("${t#*:}")
	done
	if ((${#missing[@]})); then
		[[ "${IMAGE_NO_INSTALL:-}" == 1 ]] && { log "check-image: missing ${missing[*]}"; exit 1; }
		log "check-image: installing ${missing[*]} from Debian"
		apt-get update -qq >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	fi
	# the manifests are read with the yaml package deploy/check.sh installs (CI runs it first)
	if [[ ! -d "$root/deploy/validate/node_modules/yaml" ]]; then
		(cd "$root/deploy/validate" && npm ci --no-audit --no-fund --loglevel=error >&2)
	fi
	[[ "$(id -u)" == 0 ]] || { log "check-image: rootful podman is needed (run as root)"; exit 1; }
	[[ -x "$jdk/bin/java" ]] || { log "check-image: no JDK 25 at '${jdk}' (set IMAGE_JDK)"; exit 1; }
	mkdir -p "$cache"
	cat >"$cache/containers.conf" <<-'EOF'
		[containers]
		default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]
		[engine]
		runtime = "runc"
	EOF
	export CONTAINERS_CONF="$cache/containers.conf"
}

# ---------------------------------------------------------------------------- the base image
# Debian (debootstrap, minbase, with tini) and the JDK at /opt/java/openjdk, where the Temurin
# images have it. The root file system is cached as a tarball; the image stays in podman's storage.
base_image() {
	local key rootfs_tar dir
	key="$(cat "$jdk/release" <(echo "$suite $recipe") | sha256sum | cut -c1-12)"
	base="localhost/lc-image-base:$key"
	if podman image exists "$base"; then
		log "check-image: base image $base (cached)"
		return
	fi
	rootfs_tar="$cache/rootfs-$suite-tini-r$recipe.tar"
	dir="$work/rootfs"
	mkdir -p "$dir"
	if [[ -s "$rootfs_tar" ]]; then
		tar -C "$dir" -xf "$rootfs_tar"
	else
		log "check-image: debootstrap $suite (once per machine; cached in $rootfs_tar)"
		debootstrap --variant=minbase --include=tini "$suite" "$dir" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
			|| { tail -20 "$work/debootstrap.log" >&2; exit 1; }
		rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
		tar -C "$dir" -cf "$rootfs_tar.tmp" . && mv "$rootfs_tar.tmp" "$rootfs_tar"
	fi
	mkdir -p "$dir/opt/java"
	cp -a "$jdk" "$dir/opt/java/openjdk"
	rm -rf "$dir/opt/java/openjdk/"{lib/src.zip,man,include,jmods,demo}
	tar -C "$dir" -c . | podman import \
		--change 'ENV JAVA_HOME=/opt/java/openjdk' \
		--change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
		--change 'CMD ["/bin/bash"]' - "$base" >/dev/null
	rm -rf "$dir"
	log "check-image: base image $base built"
}

# ---------------------------------------------------------------------------- the project's image
build_image() {
	# a context of the two files the Dockerfile copies, not the whole tree
	local ctx="$work/context"
	mkdir -p "$ctx/deploy/aot-cache" "$ctx/app"
	cp "$root/deploy/aot-cache/build-aot-cache.sh" "$ctx/deploy/aot-cache/"
	cp "$jar" "$ctx/app/"
	image="$(manifest_field "$root/deploy/k8s/deployment.yaml" image)"
	local out previous
	previous="$(podman image inspect "$image" --format '{{.Id}}' 2>/dev/null || true)"
	if out="$(podman build --pull=never -f "$root/deploy/aot-cache/Dockerfile" --build-arg BASE="$base" \
		--build-arg JAR="app/$(basename "$jar")" --build-arg AOT_CACHE="$aot" \
		--build-arg "TRAINING_ARGS=--sample.data-dir=/tmp/build/training-data" -t "$image" "$ctx" 2>&1)"; then
		# the previous build of this tag, and bases of other keys, would pile up run after run
		if [[ -n "$previous" && "$previous" != "$(podman image inspect "$image" --format '{{.Id}}')" ]]; then
			podman rmi "$previous" >/dev/null 2>&1 || true
		fi
		podman images --format '{{.Repository}}:{{.Tag}}' | grep '^localhost/lc-image-base:' | grep -vx "$base" | xargs -r podman rmi >/dev/null 2>&1 || true
		pass image-base "built $image on $base (--build-arg BASE, AOT_CACHE=$aot); $(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"
	else
		fail image-base "the build failed:"; tail -30 <<<"$out" | sed 's/^/    /'
		exit 1
	fi
}

# free_port_base: a port P such that P and P+1 are free (below the kernel's ephemeral range)
free_port_base() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 12000))
		ss -ltnH "( sport = :$p or sport = :$((p + 1)) )" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
	echo "$p"
}

# manifest_field FILE WHAT: reads a value from a Deployment (the first container), with node's yaml
# package from deploy/validate (installed by deploy/check.sh, which CI runs before this step)
manifest_field() {
	(cd "$root/deploy/validate" && node --input-type=module -e '
		import { readFileSync } from "node:fs";
		import { parseAllDocuments } from "yaml";
		const [file, what] = process.argv.slice(1);
		const dep = parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS()).find((o) => o?.kind === "Deployment");
		const pod = dep.spec.template.spec, c = pod.containers[0];
		const out = {
			image: c.image,
			grace: pod.terminationGracePeriodSeconds ?? 30,
			user: `${pod.securityContext?.runAsUser}:${pod.securityContext?.runAsGroup}`,
			binaries: String(dep.spec.template.metadata?.annotations?.["lifecycle.dev/image-binaries"] ?? "").split(",").map((s) => s.trim()).filter(Boolean).join("\n"),
			prestop: (c.lifecycle?.preStop?.exec?.command ?? []).join("\n"),
			name: dep.metadata.name,
		}[what];
		if (out === undefined) process.exit(1);
		console.log(out);
	' "$@")
}

# ---------------------------------------------------------------------------- static checks of the image
check_image() {
	local user want tmp
	user="$(podman image inspect "$image" --format '{{.Config.User}}')"
	want="$(manifest_field "$root/deploy/k8s/deployment.yaml" user)"
	if [[ "$user" =~ ^[0-9]+(:[0-9]+)?$ && "${user%%:*}" != 0 && "$user" == "$want" ]]; then
		pass image-user "USER $user (numeric, non-root) = the manifests' runAsUser:runAsGroup"
	else
		fail image-user "USER '${user}'; expected a numeric non-root user equal to the manifests' runAsUser:runAsGroup $want"
	fi
	local mnt
	mnt="$(podman image mount "$image")"
	tmp="$(cd "$mnt/tmp" && find . -mindepth 1 -maxdepth 2 | sed 's|^\./|/tmp/|')"
	podman image unmount "$image" >/dev/null
	if [[ -z "$tmp" ]]; then pass image-tmp "/tmp is empty (no perf data, native libraries or Tomcat work directories of the training run)"
	else fail image-tmp "the image's /tmp holds: $(tr '\n' ' ' <<<"$tmp" | cut -c1-300)"; fi
	local bins b label
	label="$(podman image inspect "$image" --format '{{index .Config.Labels "lifecycle.dev/image-binaries"}}' | tr ',' '\n')"
	bins="$( (manifest_field "$root/deploy/k8s/deployment.yaml" binaries; manifest_field "$root/deploy/k8s/variants/prestop-file/deployment.yaml" binaries; echo "$label") | sort -u | grep . || true)"
	# each one run in the image (concurrently), as an exec hook would run it
	local i=0
	for b in $bins; do
		i=$((i + 1))
		(podman run --rm --name "$names-bin$i" --entrypoint "$b" "$image" --version >"$work/bin$i.out" 2>&1; echo $? >"$work/bin$i.rc") &
	done
	wait
	i=0
	for b in $bins; do
		i=$((i + 1))
		if [[ "$(cat "$work/bin$i.rc" 2>/dev/null)" == 0 ]]; then pass image-binaries "$b runs in the image"
		else fail image-binaries "$b does not run in the image: $(tail -1 "$work/bin$i.out")"; fi
	done
}

# ---------------------------------------------------------------------------- early SIGTERM
check_early_sigterm() {
	local cid started code took
	cid="$(podman run -d --name "$names-early" "$image")"
	podman kill --signal TERM "$cid" >/dev/null
	started=$SECONDS
	# a lost signal leaves the container running for good (podman kill sends no SIGKILL); a bound
	# well inside the manifest's grace period tells the two apart on a busy machine too
	code="$(timeout 35 podman wait "$cid" 2>/dev/null || echo timeout)"
	took=$((SECONDS - started))
	if [[ "$code" == timeout ]]; then
		fail early-sigterm "still running 35 s after a SIGTERM sent right after the start (the signal was lost: it would wait for SIGKILL)"
	else
		pass early-sigterm "a SIGTERM right after the start ended the container in ${took} s (exit $code)"
	fi
	podman rm -f -t 0 "$cid" >/dev/null 2>&1 || true
}

# The image under an arbitrary user id in group 0, as OpenShift's restricted policy runs it: the
# sample writes its data directory (/application/data, its default ./data), so it starts only if
# what the image gives the service to write is group 0 and group-writable.
# Whether the container's log holds the text. grep reads the whole log (no -q): under pipefail,
# grep -q quitting at the first match would fail the pipeline with the writer's SIGPIPE.
logged() {
	podman logs "$1" 2>&1 | grep -F -- "$2" >/dev/null
}

check_arbitrary_uid() {
	local cid code started
	cid="$(podman run -d --name "$names-uid" --user 1000680000:0 "$image")"
	started=$SECONDS
	until logged "$cid" 'Started SampleApplication' \
		|| [[ "$(podman inspect "$cid" --format '{{.State.Running}}')" != true ]] || ((SECONDS - started > 120)); do
		sleep 0.5
	done
	if ! logged "$cid" 'Started SampleApplication'; then
		fail arbitrary-uid "the sample did not start as user 1000680000:0:"
		podman logs "$cid" 2>&1 | grep -E 'ERROR|Exception|denied' | head -5 | sed 's/^/    /'
	else
		podman kill --signal TERM "$cid" >/dev/null
		code="$(timeout 60 podman wait "$cid" 2>/dev/null || echo timeout)"
		if [[ "$code" == 0 ]] && logged "$cid" 'shutdown complete (clean=true'; then
			pass arbitrary-uid "as user 1000680000:0 the sample started in $((SECONDS - started)) s with its data directory, and exited 0, clean, on SIGTERM"
		else
			fail arbitrary-uid "as user 1000680000:0 SIGTERM ended the sample with $code"
			podman logs "$cid" 2>&1 | tail -5 | sed 's/^/    /'
		fi
	fi
	podman rm -f -t 0 "$cid" >/dev/null 2>&1 || true
}

# ---------------------------------------------------------------------------- the manifests, played
# play NAME DEPLOYMENT.yaml: plays the Deployment (renamed NAME) with the ConfigMap and prints the
# app container's name once its readiness is UP; its pod IP goes to $work/NAME.ip
play() {
	local name="$1" dep="$2" ctr ip
	# podman 4.3 plays every replica, publishes each containerPort on the same host port and makes
	# each emptyDir a named volume of the same name, shared by pods and kept after `kube down`: one
	# replica, its ports on free host ports, its volumes and ConfigMap named after the pod (fresh
	# ones, removed at the end), so that the two pods and anything else on the machine do not collide
	(cd "$root/deploy/validate" && node --input-type=module -e '
		import { readFileSync, writeFileSync } from "node:fs";
		import YAML from "yaml";
		const [src, cmSrc, out, cmOut, name, base] = process.argv.slice(1);
		const dep = YAML.parseAllDocuments(readFileSync(src, "utf8")).map((d) => d.toJS()).find((o) => o?.kind === "Deployment");
		const cm = YAML.parse(readFileSync(cmSrc, "utf8"));
		const pod = dep.spec.template.spec;
		dep.metadata.name = name;
		dep.spec.replicas = 1;
		let port = Number(base);
		for (const c of pod.containers) {
			for (const p of c.ports ?? []) p.hostPort = port++;
			for (const m of c.volumeMounts ?? []) m.name = `${name}-${m.name}`;
		}
		for (const v of pod.volumes ?? []) {
			if (v.configMap?.name === cm.metadata.name) v.configMap.name = `${name}-${cm.metadata.name}`;
			v.name = `${name}-${v.name}`;
		}
		cm.metadata.name = `${name}-${cm.metadata.name}`;
		writeFileSync(out, YAML.stringify(dep));
		writeFileSync(cmOut, YAML.stringify(cm));
	' "$dep" "$root/deploy/k8s/configmap.yaml" "$work/$name.yaml" "$work/$name.cm.yaml" "$name" "$(free_port_base)")
	podman kube play --network podman --configmap "$work/$name.cm.yaml" "$work/$name.yaml" >"$work/$name.play.log" 2>&1 \
		|| { cat "$work/$name.play.log" >&2; return 1; }
	local pod
	pod="$(podman pod ps --filter "name=^$name-pod" --format '{{.Name}}' | head -1)"
	ctr="$(podman ps -a --filter "pod=$pod" --format '{{.Names}}' | grep -v -- '-infra$' | head -1)"
	ip="$(podman inspect "$(podman pod inspect "$pod" --format '{{.InfraContainerID}}')" --format '{{.NetworkSettings.Networks.podman.IPAddress}}')"
	echo "$ip" >"$work/$name.ip"
	for _ in $(seq 1 900); do
		[[ "$(curl -s -o /dev/null -w '%{http_code}' "http://$ip:8081/actuator/health/readiness")" == 200 ]] && { echo "$ctr"; return 0; }
		[[ "$(podman inspect "$ctr" --format '{{.State.Running}}')" == true ]] || break
		sleep 0.1
	done
	log "check-image: $name did not become ready; its log:"; podman logs "$ctr" 2>&1 | tail -40 >&2
	return 1
}

# load IP OUT: POSTs events one after another, each followed by a readiness probe, as a client behind
# a Kubernetes Service sees it: once readiness has said 503, requests keep coming for the readiness
# window (periodSeconds x failureThreshold: 2 s) and then stop, as the endpoint is removed. One line
# per request: its status code (000: no answer) and whether readiness had said 503 before it.
load() {
	local ip="$1" out="$2" i=0 code ready first503="" window_ms=2000 after
	while [[ ! -e "$work/stop-load.$ip" ]]; do
		i=$((i + 1))
		after=${first503:+after-503}
		code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -XPOST -H 'Content-Type: application/json' \
			"http://$ip:8080/events" -d "{\"id\":\"$names-$i\",\"key\":\"image\",\"value\":1}" || true)"
		echo "${code:-000} ${after:-before-503}" >>"$out"
		ready="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$ip:8081/actuator/health/readiness" || true)"
		if [[ -z "$first503" && "$ready" == 503 ]]; then first503=$(date +%s%3N); touch "$out.503"; fi
		[[ -n "$first503" ]] && (($(date +%s%3N) - first503 >= window_ms)) && break
	done
}

# stop_and_check CHECK NAME CTR EXPECTED_REASON [HOOK...]: under a small load, runs the preStop
# hook's command in the container when given, then stops the container the way the kubelet does
# with the manifest's grace period (SIGTERM, SIGKILL when it runs out), and checks what a user notices
stop_and_check() {
	local check="$1" name="$2" ctr="$3" reason="$4" ip grace codes first503="" stopped took logs exit
	shift 4
	ip="$(cat "$work/$name.ip")"
	grace="${IMAGE_STOP_TIMEOUT:-$(manifest_field "$root/deploy/k8s/deployment.yaml" grace)}"
	load "$ip" "$work/$name.codes" &
	local loader=$!
	sleep 1
	stopped=$SECONDS
	(
		if (($#)); then podman exec "$ctr" "$@" >"$work/$name.hook" 2>&1 || echo "hook-exit-$?" >>"$work/$name.hook"; fi
		podman stop -t "$grace" "$ctr" >/dev/null 2>&1
	) &
	local stopper=$!
	wait "$stopper" || true
	touch "$work/stop-load.$ip"
	wait "$loader" || true
	[[ -e "$work/$name.codes.503" ]] && first503=yes
	exit="$(podman inspect "$ctr" --format '{{.State.ExitCode}}')"
	took=$((SECONDS - stopped))
	logs="$(podman logs "$ctr" 2>&1)"
	podman kube down "$work/$name.yaml" >/dev/null 2>&1 || true
	codes="$(sort "$work/$name.codes" | uniq -c | awk '{printf "%s%s x %s %s", sep, $1, $2, $3; sep=", "}')"
	local bad
	bad="$(grep -cv '^20[02] ' "$work/$name.codes" || true)"
	if [[ -s "$work/$name.hook" ]] && grep -q 'hook-exit-' "$work/$name.hook"; then
		fail "$check" "the manifest's preStop hook failed in the container: $(tail -2 "$work/$name.hook" | tr '\n' ' ')"
	fi
	[[ -n "$first503" ]] || fail "$check" "readiness did not turn 503 while the app served"
	[[ "$bad" == 0 && -s "$work/$name.codes" ]] || fail "$check" "requests failed during the stop: $codes"
	grep -q "shutdown initiated (reason=$reason" <<<"$logs" || fail "$check" "the shutdown was not recorded as $reason: $(grep -o 'shutdown initiated ([^)]*)' <<<"$logs" | head -1)"
	grep -q 'shutdown complete (clean=true, exitCode=0' <<<"$logs" || fail "$check" "no clean shutdown report: $(grep -o 'shutdown \(complete\|incomplete\) ([^)]*)' <<<"$logs" | head -1)"
	[[ "$exit" == 0 ]] || fail "$check" "exit $exit (137: killed before the shutdown ended)"
	if [[ -n "$first503" && "$bad" == 0 && "$exit" == 0 ]] && ! grep -q 'hook-exit-' "$work/$name.hook" 2>/dev/null \
		&& grep -q "shutdown initiated (reason=$reason" <<<"$logs" && grep -q 'clean=true, exitCode=0' <<<"$logs"; then
		pass "$check" "${*:+hook run, }readiness 503 first, requests $codes, reason=$reason, clean=true, exit 0 in ${took} s (podman stop -t $grace, the manifest's grace period)"
	fi
}

check_kube() {
	local ctr
	if ! ctr="$(play "$names-k8s" "$root/deploy/k8s/deployment.yaml")"; then fail kube-stop "deploy/k8s did not start under podman kube play"; return; fi
	stop_and_check kube-stop "$names-k8s" "$ctr" signal
}

check_prestop() {
	local ctr hook
	if ! ctr="$(play "$names-prestop" "$root/deploy/k8s/variants/prestop-file/deployment.yaml")"; then fail prestop "the preStop variant did not start under podman kube play"; return; fi
	# the kubelet runs the hook, then sends SIGTERM: the manifest's own command, as the container's user
	mapfile -t hook < <(manifest_field "$root/deploy/k8s/variants/prestop-file/deployment.yaml" prestop)
	stop_and_check prestop "$names-prestop" "$ctr" prestop "${hook[@]}"
}

# ---------------------------------------------------------------------------- figures
measure() {
	local runs="$1" variant cid port started ready code t0 i
	[[ -f "$jar" ]] || { log "check-image: no jar at $jar (./mvnw -B install -DskipTests builds it)"; exit 1; }
	ensure_tools
	base_image
	manifest_config >"$work/application.yml"
	for variant in true false; do
		aot=$variant
		build_image >/dev/null
		podman tag "$image" "localhost/$names-aot-$variant"
		echo "AOT_CACHE=$variant: image $(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1/1e6}')"
		for ((i = 1; i <= runs; i++)); do
			port="$(free_port_base)"
			t0=$(date +%s%N)
			cid="$(podman run -d --name "$names-m$i" --read-only --tmpfs /tmp:mode=1777 --tmpfs /data:mode=1777 \
				-v "$work/application.yml:/config/application.yml:ro,Z" -e SPRING_CONFIG_ADDITIONAL_LOCATION=file:/config/ \
				-p "127.0.0.1:$port:8081" "localhost/$names-aot-$variant")"
			until [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/actuator/health/readiness")" == 200 ]]; do sleep 0.05; done
			ready=$(( ($(date +%s%N) - t0) / 1000000 ))
			t0=$(date +%s%N)
			podman kill --signal TERM "$cid" >/dev/null
			code="$(podman wait "$cid")"
			echo "  run $i: ready after $ready ms; SIGTERM -> exit $(( ($(date +%s%N) - t0) / 1000000 )) ms (exit $code)"
			podman rm -f "$cid" >/dev/null
		done
		podman rmi "localhost/$names-aot-$variant" >/dev/null
	done
}

# manifest_config: the ConfigMap's application.yml
manifest_config() {
	(cd "$root/deploy/validate" && node --input-type=module -e '
		import { readFileSync } from "node:fs";
		import YAML from "yaml";
		process.stdout.write(YAML.parse(readFileSync(process.argv[1], "utf8")).data["application.yml"]);
	' "$root/deploy/k8s/configmap.yaml")
}

main() {
	if [[ "${1:-}" == --measure ]]; then measure "${2:-3}"; return; fi
	if [[ "${1:-}" == --prepare ]]; then
		# the tools and the base image only: CI runs this in the background during its first pass
		local started=$SECONDS
		phase "tools" ensure_tools
		phase "base image" base_image
		printf '  %s\n' "${timings[@]}"
		echo "check-image --prepare: $((SECONDS - started)) s"
		return
	fi
	local started=$SECONDS
	# the jar is the first pass's; --prepare, which runs before it exists, does not need it
	[[ -f "$jar" ]] || { log "check-image: no jar at $jar (CI's first pass builds it)"; exit 1; }
	phase "tools" ensure_tools
	phase "base image" base_image
	phase "image build (AOT_CACHE=$aot)" build_image
	# the two pods first (their JVMs' start is what takes the time), the image's own checks and the
	# early SIGTERM meanwhile; each in a subshell of its own, so that each waits only for its own jobs
	local checks_started=$SECONDS k p i
	check_kube >"$work/kube.out" 2>"$work/kube.err" &
	k=$!
	check_prestop >"$work/prestop.out" 2>"$work/prestop.err" &
	p=$!
	(
		t=$SECONDS; check_image; echo "$((SECONDS - t))" >"$work/image.time"
		t=$SECONDS; check_early_sigterm; echo "$((SECONDS - t))" >"$work/early.time"
		t=$SECONDS; check_arbitrary_uid; echo "$((SECONDS - t))" >"$work/uid.time"
	) >"$work/image.out" 2>&1 &
	i=$!
	wait "$i" || true
	wait "$k" || true
	wait "$p" || true
	timings+=("$(printf '%4d s  %s' "$(cat "$work/image.time" 2>/dev/null || echo 0)" "image checks (during the pods' start)")")
	timings+=("$(printf '%4d s  %s' "$(cat "$work/early.time" 2>/dev/null || echo 0)" "early SIGTERM (during the pods' start)")")
	timings+=("$(printf '%4d s  %s' "$(cat "$work/uid.time" 2>/dev/null || echo 0)" "arbitrary user id (during the pods' start)")")
	timings+=("$(printf '%4d s  %s' "$((SECONDS - checks_started))" "kube play + stop of both Deployments, all checks (concurrent)")")
	cat "$work/image.out" "$work/kube.out" "$work/prestop.out"
	cat "$work/kube.err" "$work/prestop.err" >&2
	grep -q '^FAIL' "$work/image.out" "$work/kube.out" "$work/prestop.out" && rc=1
	echo "check-image timings:"
	printf '  %s\n' "${timings[@]}"
	echo "check-image: $((SECONDS - started)) s, $([[ $rc == 0 ]] && echo passed || echo FAILED)"
	return "$rc"
}

main "$@"
