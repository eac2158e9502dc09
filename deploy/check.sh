#!/usr/bin/env bash
# Validates deploy/ offline: Kubernetes manifests (schema + strict unknown fields), their
# consistency with the app's own settings, Prometheus rules (promtool check + unit tests) and the
# Grafana dashboard (every panel's PromQL parsed by promtool, only the app's series named).
#
#   deploy/check.sh               run every check; exit 1 if any FAILs
#   deploy/check.sh --self-test   break one number at a time in a copy, run only the check it targets
#                                 and require exactly that check (and the ones it lists) to FAIL
#
# Environment:
#   DEPLOY_APP_CONFIG   the app's packaged application.yml
#                       (default: sample-app/src/main/resources/application.yml)
#   DEPLOY_SCRAPE_FILE  a Prometheus text scrape of the running sample (/actuator/prometheus);
#                       when set, the dashboard's series are also compared with it
#   DEPLOY_NO_INSTALL=1 do not install missing tools, fail instead
#   DEPLOY_MVN_FLAGS    extra Maven flags (e.g. -o) for compiling the Spring settings binder
#   DEPLOY_CHECKS_PASSED a file: a passing run writes into it a hash of what the checks read (the
#                       tree, the app's configuration, the checks' code and the binder); a self-test
#                       that finds the same hash there takes that run as its baseline (CI runs both)
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
    log "check.sh: compiling sample-app's SpringSettingsBinder and writing its class path"
    (cd "$root" && ./mvnw -B -q ${DEPLOY_MVN_FLAGS:-} -pl sample-app -am -DskipTests test-compile dependency:build-classpath \
      -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile") >&2 || { log "check.sh: the build failed"; exit 1; }
  fi
  DEPLOY_BINDER_CLASSPATH="$root/sample-app/target/test-classes:$root/sample-app/target/classes:$(cat "$cpfile")"
  export DEPLOY_BINDER_CLASSPATH
}

# ---------------------------------------------------------------------------- the checks
# The promtool and jq checks, one function each so that the self-test runs the same code for the
# one check a breakage targets. Each prints PASS or FAIL lines and returns 1 on a FAIL.
check_rules() {
  local out
  if out="$(promtool check rules "$1/prometheus/lifecycle-rules.yml" 2>&1)"; then
    echo "PASS promtool-check-rules: $(grep -o 'SUCCESS.*' <<<"$out" | head -1)"
  else
    echo "FAIL promtool-check-rules:"; sed 's/^/    /' <<<"$out"; return 1
  fi
}

check_rule_tests() {
  local out tests
  tests="$(grep -c '^  - name:' "$1/prometheus/lifecycle-rules.test.yml" || true)"
  if out="$(cd "$1/prometheus" && promtool test rules lifecycle-rules.test.yml 2>&1)"; then
    echo "PASS promtool-test-rules: $tests test groups, every alert firing and not firing"
  else
    echo "FAIL promtool-test-rules:"; sed 's/^/    /' <<<"$out" | head -40; return 1
  fi
}

check_grafana_json() {
  local dash="$1/grafana/lifecycle-dashboard.json"
  if jq -e '(.panels | length > 0) and (.templating.list | type == "array")' "$dash" >/dev/null 2>&1; then
    echo "PASS grafana-json: $(jq '[.. | objects | select(has("targets"))] | length' "$dash") panels, well-formed"
  else
    echo "FAIL grafana-json: $dash is not a dashboard JSON with panels and templating"; return 1
  fi
}

# check_grafana_promql RULES: the panels' expressions, written out as recording rules by check.mjs
check_grafana_promql() {
  local out=""
  if [[ -f "$1" ]] && out="$(promtool check rules "$1" 2>&1)"; then
    echo "PASS grafana-promql: every panel expression parses as a recording rule ($(grep -o '[0-9]* rules found' <<<"$out"))"
  else
    echo "FAIL grafana-promql:"; sed 's/^/    /' <<<"${out:-no rule file}"; return 1
  fi
}

# run_checks ROOT APP_CONFIG: every check against the deploy tree at ROOT; prints PASS/FAIL lines,
# returns 1 if any failed.
run_checks() {
  local root="$1" app="$2" rc=0 work
  work="$(mktemp -d)"
  # (a) + (b) schema, strict fields, consistency; rule and panel series names; the panels'
  # expressions written out as recording rules for promtool (one node process for speed)
  node "$VALIDATE_DIR/check.mjs" all "$root" "$app" "$work/grafana-rules.yml" ${DEPLOY_SCRAPE_FILE:+"$DEPLOY_SCRAPE_FILE"} || rc=1
  # (c) Prometheus rules
  check_rules "$root" || rc=1
  check_rule_tests "$root" || rc=1
  # (d) Grafana
  check_grafana_json "$root" || rc=1
  check_grafana_promql "$work/grafana-rules.yml" || rc=1
  [[ -n "${DEPLOY_SCRAPE_FILE:-}" ]] || echo "SKIP grafana-scrape: DEPLOY_SCRAPE_FILE not set (no live scrape to compare with)"
  rm -rf "$work"
  return "$rc"
}

# ---------------------------------------------------------------------------- self-test
# tree_hash APP_CONFIG: a hash of everything a run of the checks reads: the deploy tree, the app's
# configuration, the checks' own code and the binder's class path and class
tree_hash() {
  {
    (cd "$DEPLOY_DIR" && find k8s prometheus grafana aot-cache check.sh validate/check.mjs validate/package-lock.json \
      -type f -print0 | sort -z | xargs -0 sha256sum)
    sha256sum <"$1"
    printf '%s\n' "$DEPLOY_BINDER_CLASSPATH"
    sha256sum "$DEPLOY_DIR/../sample-app/target/test-classes/dev/lifecycle/sample/deploy/SpringSettingsBinder.class"
  } | sha256sum | cut -d' ' -f1
}

copy_tree() {
  mkdir -p "$2"
  cp -R "$1/k8s" "$1/prometheus" "$1/grafana" "$1/aot-cache" "$2/"
}

# self_test_one NAME UNIT CHECK MESSAGE ALSO DIR APP_CONFIG: applies one breakage to a fresh copy at
# DIR and runs only UNIT, the part of run_checks that reports CHECK (every check's run on every
# breakage used to cost the self-test 160 s of CI's 20 minutes). Prints "ok   ..." when the checks
# that fail are exactly CHECK and ALSO (comma-separated) and CHECK's FAIL output contains MESSAGE,
# "FAIL ..." with what ran otherwise.
self_test_one() {
  local name="$1" unit="$2" check="$3" message="$4" also="$5" dir="$6" app="$7" out more rc=0
  copy_tree "$DEPLOY_DIR" "$dir"
  # the breakage and, for a unit of node's, its checks: one node process
  out="$(node "$VALIDATE_DIR/check.mjs" selftest "$name" "$dir" "$app" 2>&1)" || rc=$?
  case "$unit" in
    promtool-check-rules) more="$(check_rules "$dir")" || rc=$? ;;
    promtool-test-rules) more="$(check_rule_tests "$dir")" || rc=$? ;;
    grafana-promql) more="$(check_grafana_promql "$dir/grafana-rules.yml")" || rc=$? ;;
    *) more="" ;;
  esac
  [[ -z "$more" ]] || out+=$'\n'"$more"
  rm -rf "$dir"
  # What failed: the check of a FAIL line is the last word before its first colon ("FAIL
  # consistency[base] grace-period: ..." is grace-period's); an indented line belongs to the line
  # above it, so promtool's output counts as its check's.
  local failing expected found problems=()
  failing="$(awk '/^FAIL / { id = substr($0, 6); sub(/:.*/, "", id); n = split(id, w, " "); print w[n] }' <<<"$out" | sort -u | paste -sd, -)"
  expected="$(tr ',' '\n' <<<"$check,$also" | grep . | sort -u | paste -sd, -)"
  found="$(awk -v check="$check" -v message="$message" '
    /^[A-Z]+ / { id = substr($0, index($0, " ") + 1); sub(/:.*/, "", id); n = split(id, w, " "); cur = ($1 == "FAIL") ? w[n] : "" }
    cur == check && index($0, message) { sub(/^ +/, ""); print; exit }' <<<"$out")"
  ((rc != 0)) || problems+=("the checks passed")
  [[ "$failing" == "$expected" ]] || problems+=("the failing checks are '${failing:-none}', expected exactly '$expected'")
  [[ -n "$found" ]] || problems+=("no FAIL output of $check contains: $message")
  if ((${#problems[@]} == 0)); then
    echo "ok   $name -> $check: $(cut -c1-140 <<<"$found")"
  else
    echo "FAIL $name ($unit):"
    printf '       %s\n' "${problems[@]}"
    grep -E '^(FAIL|WARN)|^ ' <<<"$out" | head -30 | sed 's/^/         /' || echo "         (no FAIL line)"
  fi
}

self_test() {
  local tmp passed=0 failed=0 out
  SELFTEST_TMP="$(mktemp -d)"
  tmp="$SELFTEST_TMP"
  trap 'rm -rf "$SELFTEST_TMP"' EXIT
  cp "$APP_CONFIG" "$tmp/application.yml"
  # Every binding the runs below need (the untouched tree's and each breakage's), made ahead in one
  # JVM: a JVM per run cost ~1 s of CPU each. Should it fail, each run binds its own.
  export DEPLOY_BINDER_CACHE="$tmp/binder-cache"
  node "$VALIDATE_DIR/check.mjs" selftest-bind "$DEPLOY_DIR" "$tmp/application.yml" >&2 \
    || log "check.sh: the bindings were not made ahead; each run binds its own"

  # The untouched copy must pass every check, or every "FAIL" below would prove nothing. A run of
  # deploy/check.sh that passed on the very same bytes (DEPLOY_CHECKS_PASSED, CI's step before this
  # one, with a live scrape besides) proves it already: the copies are made from this tree.
  if [[ -n "${DEPLOY_CHECKS_PASSED:-}" && -s "$DEPLOY_CHECKS_PASSED" && "$(<"$DEPLOY_CHECKS_PASSED")" == "$(tree_hash "$APP_CONFIG")" ]]; then
    echo "ok   baseline: deploy/check.sh passed on this very tree, configuration and checks (DEPLOY_CHECKS_PASSED)"; passed=$((passed + 1))
  else
    copy_tree "$DEPLOY_DIR" "$tmp/base"
    if out="$(DEPLOY_SCRAPE_FILE='' run_checks "$tmp/base" "$tmp/application.yml" 2>&1)"; then
      echo "ok   baseline: the unmodified copy passes"; passed=$((passed + 1))
    else
      echo "FAIL baseline: the unmodified copy fails:"; grep '^FAIL' <<<"$out" | sed 's/^/       /'; failed=$((failed + 1))
    fi
  fi

  # Each breakage in a copy of its own, DEPLOY_SELFTEST_JOBS (default: the CPU count) at a time
  # (the checks are node and promtool processes that each use one core); printed in list order.
  local jobs="${DEPLOY_SELFTEST_JOBS:-$(nproc 2>/dev/null || echo 2)}" i=0 n name unit check message also
  mkdir -p "$tmp/results"
  while IFS=$'\t' read -r name unit check message also; do
    i=$((i + 1))
    self_test_one "$name" "$unit" "$check" "$message" "$also" "$tmp/m$i" "$tmp/application.yml" >"$tmp/results/$i" 2>&1 &
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
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; return 0 ;;
    --self-test) ensure_tools; ensure_binder; self_test; return ;;
    "") ;;
    *) log "usage: $0 [--self-test]"; return 2 ;;
  esac
  ensure_tools
  ensure_binder
  local out rc=0
  out="$(run_checks "$DEPLOY_DIR" "$APP_CONFIG")" || rc=$?
  printf '%s\n' "$out"
  if [[ $rc -eq 0 && -n "${DEPLOY_CHECKS_PASSED:-}" ]]; then tree_hash "$APP_CONFIG" >"$DEPLOY_CHECKS_PASSED"; fi
  echo
  echo "deploy checks: $(grep -c '^PASS' <<<"$out") passed, $(grep -c '^FAIL' <<<"$out" || true) failed"
  return "$rc"
}

main "$@"
