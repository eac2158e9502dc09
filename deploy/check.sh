#!/usr/bin/env bash
# Validates deploy/ offline: Kubernetes manifests (schema + strict unknown fields), their
# consistency with the app's own settings, Prometheus rules (promtool check + unit tests) and the
# Grafana dashboard (every panel's PromQL parsed by promtool, only the app's series named).
#
#   deploy/check.sh               run every check; exit 1 if any FAILs
#   deploy/check.sh --self-test   break one number at a time in a copy and require a FAIL for each
#
# Environment:
#   DEPLOY_APP_CONFIG   the app's packaged application.yml
#                       (default: sample-app/src/main/resources/application.yml)
#   DEPLOY_SCRAPE_FILE  a Prometheus text scrape of the running sample (/actuator/prometheus);
#                       when set, the dashboard's series are also compared with it
#   DEPLOY_NO_INSTALL=1 do not install missing tools, fail instead
#   DEPLOY_MVN_FLAGS    extra Maven flags (e.g. -o) for compiling the Spring settings binder
set -euo pipefail

DEPLOY_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VALIDATE_DIR="$DEPLOY_DIR/validate"
APP_CONFIG="${DEPLOY_APP_CONFIG:-$DEPLOY_DIR/../sample-app/src/main/resources/application.yml}"

log() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------------------- tools
ensure_tools() {
  local missing=()
  command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
  if ((${#missing[@]})); then
    if [[ "${DEPLOY_NO_INSTALL:-}" == 1 || "$(id -u)" != 0 ]]; then
      log "check.sh: missing ${missing[*]} (install: apt-get install -y --no-install-recommends ${missing[*]})"
      exit 1
    fi
    log "check.sh: installing ${missing[*]} from Debian"
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
  # import.meta.resolve (used to find the kubernetes-models schemas) needs node >= 20.6
  local nv
  nv="$(node -p 'process.versions.node')"
  if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=6)?0:1)'; then
    log "check.sh: node $nv is too old; node >= 20.6 is needed"
    exit 1
  fi
  # the npm packages, pinned by validate/package-lock.json; reinstalled when the lock changes
  local stamp="$VALIDATE_DIR/node_modules/.package-lock.json"
  if [[ ! -f "$stamp" || ! -d "$VALIDATE_DIR/node_modules/kubernetes-models" || ! -d "$VALIDATE_DIR/node_modules/yaml" || ! -d "$VALIDATE_DIR/node_modules/@prometheus-io/lezer-promql" \
        || "$VALIDATE_DIR/package-lock.json" -nt "$stamp" ]]; then
    [[ "${DEPLOY_NO_INSTALL:-}" == 1 ]] && { log "check.sh: run npm ci in $VALIDATE_DIR"; exit 1; }
    log "check.sh: npm ci in deploy/validate"
    (cd "$VALIDATE_DIR" && npm ci --no-audit --no-fund --loglevel=error >"$VALIDATE_DIR/.npm-ci.log" 2>&1) || {
      cat "$VALIDATE_DIR/.npm-ci.log" >&2
      exit 1
    }
  fi
}

# The app's configuration is bound by Spring itself: sample-app's test class SpringSettingsBinder,
# run on sample-app's test class path (compiled here when the build has not done it yet).
ensure_binder() {
  local root cpfile
  root="$(cd "$DEPLOY_DIR/.." && pwd)"
  cpfile="$root/sample-app/target/deploy-binder.classpath"
  if [[ ! -s "$cpfile" || ! -f "$root/sample-app/target/test-classes/dev/lifecycle/sample/deploy/SpringSettingsBinder.class" \
        || "$root/sample-app/src/test/java/dev/lifecycle/sample/deploy/SpringSettingsBinder.java" -nt "$cpfile" ]]; then
    command -v mvn >/dev/null 2>&1 || { log "check.sh: Maven is needed to compile sample-app's SpringSettingsBinder"; exit 1; }
    log "check.sh: compiling sample-app's SpringSettingsBinder and writing its class path"
    (cd "$root" && mvn -B -q ${DEPLOY_MVN_FLAGS:-} -pl sample-app -am -DskipTests test-compile dependency:build-classpath \
      -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile") >&2 || { log "check.sh: the build failed"; exit 1; }
  fi
  DEPLOY_BINDER_CLASSPATH="$root/sample-app/target/test-classes:$root/sample-app/target/classes:$(cat "$cpfile")"
  export DEPLOY_BINDER_CLASSPATH
}

# ---------------------------------------------------------------------------- the checks
# run_checks ROOT APP_CONFIG: every check against the deploy tree at ROOT; prints PASS/FAIL lines,
# returns 1 if any failed.
run_checks() {
  local root="$1" app="$2" rc=0 work out
  work="$(mktemp -d)"
  # (a) + (b) schema, strict fields, consistency; rule and panel series names; the panels'
  # expressions written out as recording rules for promtool (one node process for speed)
  node "$VALIDATE_DIR/check.mjs" all "$root" "$app" "$work/grafana-rules.yml" ${DEPLOY_SCRAPE_FILE:+"$DEPLOY_SCRAPE_FILE"} || rc=1
  # (c) Prometheus rules
  if out="$(promtool check rules "$root/prometheus/lifecycle-rules.yml" 2>&1)"; then
    echo "PASS promtool-check-rules: $(grep -o 'SUCCESS.*' <<<"$out" | head -1)"
  else
    echo "FAIL promtool-check-rules:"; sed 's/^/    /' <<<"$out"; rc=1
  fi
  local tests
  tests="$(grep -c '^  - name:' "$root/prometheus/lifecycle-rules.test.yml" || true)"
  if [[ -n "${SELFTEST_PROM_PASSED:-}" && "$(prom_hash "$root")" == "$SELFTEST_PROM_PASSED" ]]; then
    # self-test only: rules and tests are byte-identical to the baseline copy that passed (2 s saved)
    echo "PASS promtool-test-rules: $tests test groups (identical to the self-test baseline, which passed)"
  elif out="$(cd "$root/prometheus" && promtool test rules lifecycle-rules.test.yml 2>&1)"; then
    echo "PASS promtool-test-rules: $tests test groups, every alert firing and not firing"
  else
    echo "FAIL promtool-test-rules:"; sed 's/^/    /' <<<"$out" | head -40; rc=1
  fi
  # (d) Grafana
  local dash="$root/grafana/lifecycle-dashboard.json"
  if jq -e '(.panels | length > 0) and (.templating.list | type == "array")' "$dash" >/dev/null 2>&1; then
    echo "PASS grafana-json: $(jq '[.. | objects | select(has("targets"))] | length' "$dash") panels, well-formed"
  else
    echo "FAIL grafana-json: $dash is not a dashboard JSON with panels and templating"; rc=1
  fi
  if [[ -f "$work/grafana-rules.yml" ]] && out="$(promtool check rules "$work/grafana-rules.yml" 2>&1)"; then
    echo "PASS grafana-promql: every panel expression parses as a recording rule ($(grep -o '[0-9]* rules found' <<<"$out"))"
  else
    echo "FAIL grafana-promql:"; sed 's/^/    /' <<<"${out:-no rule file}"; rc=1
  fi
  [[ -n "${DEPLOY_SCRAPE_FILE:-}" ]] || echo "SKIP grafana-scrape: DEPLOY_SCRAPE_FILE not set (no live scrape to compare with)"
  rm -rf "$work"
  return "$rc"
}

# ---------------------------------------------------------------------------- self-test
prom_hash() { cat "$1/prometheus/lifecycle-rules.yml" "$1/prometheus/lifecycle-rules.test.yml" | sha256sum | cut -d' ' -f1; }

copy_tree() {
  mkdir -p "$2"
  cp -R "$1/k8s" "$1/prometheus" "$1/grafana" "$1/aot-cache" "$2/"
}

# self_test_one NAME EXPECT DIR APP_CONFIG: applies one breakage to a fresh copy at DIR and prints
# "ok   ..." when the check EXPECT fails on it, "FAIL ..." otherwise.
self_test_one() {
  local name="$1" expect="$2" dir="$3" app="$4" out rc=0
  copy_tree "$DEPLOY_DIR" "$dir"
  if ! out="$(node "$VALIDATE_DIR/check.mjs" mutate "$name" "$dir" 2>&1)"; then
    echo "FAIL $name: could not apply the breakage: $out"; rm -rf "$dir"; return
  fi
  out="$(DEPLOY_SCRAPE_FILE='' run_checks "$dir" "$app" 2>&1)" || rc=$?
  rm -rf "$dir"
  if [[ $rc -ne 0 ]] && grep -Eq "^FAIL (.* )?${expect}(:| )" <<<"$out"; then
    echo "ok   $name -> $(grep -E "^FAIL (.* )?${expect}(:| )" <<<"$out" | head -1 | cut -c1-150)"
  else
    echo "FAIL $name: expected a FAIL from '$expect' (exit $rc); got:"
    grep -E '^(FAIL|WARN)' <<<"$out" | sed 's/^/       /' || echo "       (no FAIL line)"
  fi
}

self_test() {
  local tmp passed=0 failed=0 out
  SELFTEST_TMP="$(mktemp -d)"
  tmp="$SELFTEST_TMP"
  trap 'rm -rf "$SELFTEST_TMP"' EXIT
  cp "$APP_CONFIG" "$tmp/application.yml"
  # a breakage that leaves the app's configuration alone gets the baseline's binding back
  export DEPLOY_BINDER_CACHE="$tmp/binder-cache"

  # the untouched copy must pass, or every "FAIL" below would prove nothing
  copy_tree "$DEPLOY_DIR" "$tmp/base"
  if out="$(DEPLOY_SCRAPE_FILE='' run_checks "$tmp/base" "$tmp/application.yml" 2>&1)"; then
    echo "ok   baseline: the unmodified copy passes"; passed=$((passed + 1))
    SELFTEST_PROM_PASSED="$(prom_hash "$tmp/base")"
    export SELFTEST_PROM_PASSED
  else
    echo "FAIL baseline: the unmodified copy fails:"; grep '^FAIL' <<<"$out" | sed 's/^/       /'; failed=$((failed + 1))
  fi

  # Each breakage in a copy of its own, DEPLOY_SELFTEST_JOBS (default: the CPU count) at a time
  # (the checks are node and promtool processes that each use one core); printed in list order.
  local jobs="${DEPLOY_SELFTEST_JOBS:-$(nproc 2>/dev/null || echo 2)}" i=0 n
  mkdir -p "$tmp/results"
  while read -r name expect; do
    i=$((i + 1))
    self_test_one "$name" "$expect" "$tmp/m$i" "$tmp/application.yml" >"$tmp/results/$i" 2>&1 &
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  done < <(node "$VALIDATE_DIR/check.mjs" mutate list)
  wait
  for ((n = 1; n <= i; n++)); do
    cat "$tmp/results/$n"
    if [[ "$(head -c 4 "$tmp/results/$n")" == "ok  " ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  done

  echo
  echo "self-test: $passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}

# ---------------------------------------------------------------------------- main
main() {
  case "${1:-}" in
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return 0 ;;
    --self-test) ensure_tools; ensure_binder; self_test; return ;;
    "") ;;
    *) log "usage: $0 [--self-test]"; return 2 ;;
  esac
  ensure_tools
  ensure_binder
  local out rc=0
  out="$(run_checks "$DEPLOY_DIR" "$APP_CONFIG")" || rc=$?
  printf '%s\n' "$out"
  echo
  echo "deploy checks: $(grep -c '^PASS' <<<"$out") passed, $(grep -c '^FAIL' <<<"$out" || true) failed"
  return "$rc"
}

main "$@"
