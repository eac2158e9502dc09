// Offline checks for deploy/: Kubernetes schema + strict fields, consistency with the app's own
// settings, metric names in the Prometheus rules and the Grafana dashboard. Run by deploy/check.sh.
//
//   node check.mjs k8s <k8s-dir> <app-config.yml>      schema, strict fields, consistency
//   node check.mjs rules-metrics <rules.yml>            names in rule expressions
//   node check.mjs grafana <dashboard.json> <out-rules.yml> [scrape.txt]
//   node check.mjs mutate <name> <deploy-copy-dir>      self-test breakages (see check.sh)
//   node check.mjs mutate list                          the breakages, their unit, check and message
//   node check.mjs selftest <name> <copy> <app-config.yml>  a breakage, then the node part of its check
//   node check.mjs selftest-bind <deploy-dir> <app-config.yml>  the self-test's bindings, in one JVM
//
// The app's settings are bound by Spring (sample-app's SpringSettingsBinder on the class path in
// DEPLOY_BINDER_CLASSPATH, which check.sh sets); PromQL is read with Prometheus' own grammar.
//
// Every check prints one line "PASS <check>: ..." or "FAIL <check>: ..." (WARN/SKIP for notes);
// the exit code is 1 when any line is FAIL.
import { readFileSync, writeFileSync, readdirSync, existsSync, statSync, mkdtempSync, mkdirSync, rmSync, renameSync, cpSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join, basename, dirname, posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";
import { parser as promql } from "@prometheus-io/lezer-promql";

let failures = 0;
function report(status, check, message) {
  if (status === "FAIL") failures++;
  console.log(`${status} ${check}: ${message}`);
}
const pass = (c, m) => report("PASS", c, m);
const fail = (c, m) => report("FAIL", c, m);
const warn = (c, m) => report("WARN", c, m);

// ------------------------------------------------------------------ the metrics contract (DESIGN.md)
const SERIES = {
  lifecycle_shutdown_initiated_total: ["trigger_component", "trigger_reason"],
  lifecycle_component_shutdown_duration_seconds: ["component", "result"],
  lifecycle_component_shutdown_result_total: ["component", "result"],
  lifecycle_shutdown_completed_total: ["clean"],
  lifecycle_component_healthy: ["component"],
};
const HISTOGRAMS = ["lifecycle_component_shutdown_duration_seconds"];
// The Pushgateway's own series beside each pushed group (job and the grouping key, e.g. instance):
// the rules tell pushed groups from direct scrapes by it. Not in an app's scrape.
const PUSHGATEWAY_SERIES = { push_time_seconds: [] };
// Labels Prometheus itself attaches to every scraped series (target labels).
const TARGET_LABELS = ["job", "instance", "namespace", "pod", "container", "service", "endpoint", "node"];

/** name -> allowed labels, for every name a query may use (histograms: _bucket/_sum/_count only). */
function allowedNames() {
  const out = new Map();
  for (const [name, labels] of Object.entries(SERIES)) {
    const all = ["service_name", ...labels, ...TARGET_LABELS];
    if (HISTOGRAMS.includes(name)) {
      out.set(name + "_bucket", [...all, "le"]);
      out.set(name + "_sum", all);
      out.set(name + "_count", all);
    } else {
      out.set(name, all);
    }
  }
  for (const [name, labels] of Object.entries(PUSHGATEWAY_SERIES)) out.set(name, [...labels, ...TARGET_LABELS]);
  return out;
}

// ------------------------------------------------------------------ PromQL name extraction
/**
 * Returns [{name, labels}] for every metric selector in a PromQL expression (its matchers' label
 * names), the label names used in by/without/on/ignoring/group_left/group_right clauses, and the
 * positions where Prometheus' own grammar (@prometheus-io/lezer-promql) could not parse it.
 */
function promqlRefs(expr) {
  const refs = [];
  const groupingLabels = [];
  const errors = [];
  const text = (node) => expr.slice(node.from, node.to);
  const unquote = (literal) => { try { return JSON.parse(literal.replace(/^'|'$/g, '"').replace(/^`|`$/g, '"')); } catch { return literal.slice(1, -1); } };
  promql.parse(expr).iterate({
    enter(ref) {
      if (ref.type.isError) { errors.push(ref.from); return; }
      const node = ref.node;
      if (ref.name === "VectorSelector") {
        const id = node.getChild("Identifier");
        const labels = [];
        for (const matcher of node.getChild("LabelMatchers")?.getChildren("UnquotedLabelMatcher") ?? []) labels.push(text(matcher.getChild("LabelName")));
        for (const matcher of node.getChild("LabelMatchers")?.getChildren("QuotedLabelMatcher") ?? []) {
          const name = matcher.getChild("QuotedLabelName")?.getChild("StringLiteral");
          if (name) labels.push(unquote(text(name)));
        }
        // a quoted metric name: {"lifecycle_x", result="timeout"}
        const quotedName = node.getChild("LabelMatchers")?.getChildren("QuotedLabelName")?.[0]?.getChild("StringLiteral");
        if (id) refs.push({ name: text(id), labels });
        else if (quotedName) refs.push({ name: unquote(text(quotedName)), labels });
        else {
          refs.push({ name: null, labels });
          if (labels.includes("__name__")) refs.push({ name: "__name__ matcher", labels: [] });
        }
        return false;
      }
      if (ref.name === "GroupingLabels") {
        for (const label of node.getChildren("LabelName")) groupingLabels.push(text(label));
        for (const label of node.getChildren("QuotedLabelName")) groupingLabels.push(unquote(text(label.getChild("StringLiteral") ?? label)));
        return false;
      }
      return undefined;
    },
  });
  return { refs, groupingLabels, errors };
}

/** Checks the names (and matcher/grouping labels) of one expression; returns a list of problems. */
function checkExprNames(expr, allowed, extraNames = new Set(), extraLabels = []) {
  const problems = [];
  const { refs, groupingLabels, errors } = promqlRefs(expr);
  if (errors.length) problems.push(`not PromQL: Prometheus' grammar cannot parse it at ${JSON.stringify(expr.slice(errors[0], errors[0] + 30))}`);
  const known = new Set(extraLabels);
  for (const { name, labels } of refs) {
    if (name === null) { problems.push("a selector without a metric name"); continue; }
    if (extraNames.has(name)) { extraLabels.forEach((l) => known.add(l)); labels.forEach((l) => known.add(l)); continue; }
    if (!allowed.has(name)) { problems.push(`unknown series '${name}'`); continue; }
    const ok = allowed.get(name);
    ok.forEach((l) => known.add(l));
    for (const l of labels) if (!ok.includes(l)) problems.push(`'${name}' has no label '${l}'`);
  }
  for (const l of groupingLabels) if (!known.has(l)) problems.push(`grouping label '${l}' is on none of the series used`);
  if (!refs.some((r) => r.name)) problems.push("no series referenced");
  return problems;
}

// ------------------------------------------------------------------ Spring configuration
// What the app reads is bound by Spring itself (sample-app's SpringSettingsBinder, a test class):
// the jar's application.yml, the mounted ConfigMap's, the container's environment, profiles and
// the Kubernetes cloud platform, with Spring's relaxed names and duration conversion.
const SPRING_KEYS = [
  { key: "lifecycle.drain-delay", type: "duration", default: "5s" },
  { key: "lifecycle.global-shutdown-timeout", type: "duration", default: "60s" },
  { key: "sample.pipeline.stop-timeout", type: "duration", default: "120s" },
  { key: "lifecycle.pre-stop.enabled", type: "string" },
  { key: "lifecycle.pre-stop.path", type: "string" },
  { key: "server.port", type: "string" },
  { key: "server.servlet.context-path", type: "string" },
  { key: "server.ssl.enabled", type: "string" },
  { key: "management.server.port", type: "string" },
  { key: "management.server.base-path", type: "string" },
  { key: "management.endpoints.web.base-path", type: "string" },
  { key: "management.endpoints.web.exposure.include", type: "list" },
  { key: "management.endpoints.web.exposure.exclude", type: "list" },
  { key: "management.endpoint.health.enabled", type: "string" },
  { key: "management.endpoint.health.probes.enabled", type: "string" },
  { key: "management.endpoint.health.probes.add-additional-paths", type: "string" },
];

/** The binder's request for these sets: its JSON body and, with DEPLOY_BINDER_CACHE, its cache file. */
function bindingRequest(appConfigFile, inputs, quiet = false) {
  const appConfig = appConfigFile && existsSync(appConfigFile) ? resolve(appConfigFile) : null;
  if (!appConfig && !quiet) warn("app-config", `app configuration ${appConfigFile} not found; using the ConfigMap and defaults only`);
  const body = JSON.stringify({
    appConfig,
    keys: SPRING_KEYS,
    sets: inputs.map((i) => ({ name: i.name, configMap: i.configMap, env: Object.fromEntries(i.env) })),
  });
  const cache = process.env.DEPLOY_BINDER_CACHE;
  const cached = cache && join(cache, createHash("sha256").update(body).update(appConfig ? readFileSync(appConfig) : "").digest("hex") + ".json");
  return { body, cached };
}

/** Runs SpringSettingsBinder (one JVM) on a request body; returns its response. */
function runBinder(body) {
  const classpath = process.env.DEPLOY_BINDER_CLASSPATH;
  if (!classpath) throw new Error("DEPLOY_BINDER_CLASSPATH is not set (deploy/check.sh sets it)");
  const dir = mkdtempSync(join(tmpdir(), "deploy-binder-"));
  try {
    const request = join(dir, "request.json");
    const response = join(dir, "response.json");
    writeFileSync(request, body);
    execFileSync(process.env.DEPLOY_JAVA ?? "java", ["-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classpath,
      "dev.lifecycle.sample.deploy.SpringSettingsBinder", request, response], { stdio: ["ignore", "ignore", "inherit"] });
    return JSON.parse(readFileSync(response, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Stores a response in the cache, whole and then renamed: the self-test's breakages run side by side and read it. */
function cacheBinding(cached, response) {
  mkdirSync(dirname(cached), { recursive: true });
  writeFileSync(`${cached}.${process.pid}`, JSON.stringify(response));
  renameSync(`${cached}.${process.pid}`, cached);
}

/**
 * Binds every set's configuration in one JVM; returns name -> {properties} or {error}. With
 * DEPLOY_BINDER_CACHE (the self-test) a request seen before is answered from that directory.
 */
function bindSpringSettings(appConfigFile, inputs) {
  const { body, cached } = bindingRequest(appConfigFile, inputs);
  if (cached && existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")).sets;
  const response = runBinder(body);
  if (cached) cacheBinding(cached, response);
  return response.sets;
}

/** The settings of one set, as bound: get(key, default) -> {value, source, seconds}. */
function springSettings(bound) {
  return {
    get(key, dflt) {
      const p = bound.properties[key];
      if (!p) throw new Error(`${key} is not among the keys given to the binder (SPRING_KEYS)`);
      return { value: p.value ?? dflt, source: p.source, seconds: p.seconds, error: p.error };
    },
  };
}

/** A bound duration in seconds, or an Error naming the property Spring could not convert. */
function seconds(p) {
  if (p.error) throw new Error(p.error);
  return p.seconds;
}

// ------------------------------------------------------------------ Kubernetes schema + strict fields
async function loadModel(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : [null, apiVersion];
  const spec = group ? `kubernetes-models/${group}/${version}/${kind}` : `kubernetes-models/${version}/${kind}`;
  let url;
  try { url = import.meta.resolve(spec); } catch { return null; }
  if (!existsSync(fileURLToPath(url))) return null;
  const mod = await import(url);
  const src = readFileSync(fileURLToPath(url), "utf8");
  const schema = /_schemas\/(\w+)\.js/.exec(src);
  if (!mod[kind] || !schema) return null;
  const { validate } = await import(import.meta.resolve(`kubernetes-models/_schemas/${schema[1]}`));
  return { Model: mod[kind], validate };
}

/**
 * The strict unknown-field check. kubernetes-models ships the Kubernetes OpenAPI schemas compiled
 * into ajv validators, which read every property their schema declares and ignore the rest. The
 * manifest is handed to the validator wrapped in proxies that record which properties were read;
 * a property the schema never read is unknown to Kubernetes (the API server would drop it, or
 * reject it with strict field validation). Free-form maps (labels, ConfigMap data, resources) are
 * enumerated by the validator and so never reported.
 */
function unknownFields(validate, doc) {
  const seen = [];
  const track = (value, path) => {
    if (value === null || typeof value !== "object") return value;
    const rec = { path, value, read: new Set(), enumerated: false };
    seen.push(rec);
    const copy = Array.isArray(value)
      ? value.map((v, i) => track(v, `${path}[${i}]`))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, track(v, path ? `${path}.${k}` : k)]));
    return new Proxy(copy, {
      get(t, p, r) { if (typeof p === "string") rec.read.add(p); return Reflect.get(t, p, r); },
      has(t, p) { if (typeof p === "string") rec.read.add(p); return Reflect.has(t, p); },
      ownKeys(t) { rec.enumerated = true; return Reflect.ownKeys(t); },
    });
  };
  validate(track(doc, ""));
  const unknown = [];
  for (const rec of seen) {
    if (Array.isArray(rec.value) || rec.enumerated) continue;
    for (const k of Object.keys(rec.value)) if (!rec.read.has(k)) unknown.push(rec.path ? `${rec.path}.${k}` : k);
  }
  // report only the outermost unknown field of a subtree
  return unknown.filter((u) => !unknown.some((o) => o !== u && (u.startsWith(o + ".") || u.startsWith(o + "["))));
}

function readManifests(files) {
  const out = [];
  for (const file of files) {
    const docs = YAML.parseAllDocuments(readFileSync(file, "utf8"));
    docs.forEach((d, i) => {
      if (d.errors.length) { fail("k8s-yaml", `${file}: ${d.errors[0].message}`); return; }
      const obj = d.toJS();
      if (obj === null || obj === undefined) return;
      out.push({ file, index: i, obj });
    });
  }
  return out;
}

const yamlFiles = (dir) => existsSync(dir)
  ? readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && statSync(join(dir, f)).isFile()).sort().map((f) => join(dir, f))
  : [];

async function schemaAndStrict(manifests, root) {
  for (const { file, index, obj } of manifests) {
    const where = `${file.replace(root + "/", "")}#${index} ${obj?.kind ?? "?"}/${obj?.metadata?.name ?? "?"}`;
    if (!obj || typeof obj !== "object" || !obj.apiVersion || !obj.kind) { fail("k8s-schema", `${where}: no apiVersion/kind`); continue; }
    const model = await loadModel(obj.apiVersion, obj.kind);
    if (!model) { fail("k8s-schema", `${where}: ${obj.apiVersion} ${obj.kind} is not a Kubernetes API type known to kubernetes-models`); continue; }
    try {
      new model.Model(obj).validate();
      pass("k8s-schema", `${where} is a valid ${obj.apiVersion} ${obj.kind}`);
    } catch (e) {
      const details = (e.errors ?? []).slice(0, 5).map((x) => `${x.instancePath || "/"} ${x.message}`).join("; ");
      fail("k8s-schema", `${where}: ${details || e.message}`);
    }
    const unknown = unknownFields(model.validate, obj);
    if (unknown.length) fail("k8s-strict-fields", `${where}: unknown field(s) ${unknown.join(", ")}`);
    else pass("k8s-strict-fields", `${where} has no field unknown to the ${obj.kind} schema`);
  }
}

// ------------------------------------------------------------------ consistency
function labelsMatch(selector, labels) {
  const ml = selector?.matchLabels ?? (selector && !selector.matchLabels && !selector.matchExpressions ? selector : {});
  if (!ml || Object.keys(ml).length === 0) return false;
  return Object.entries(ml).every(([k, v]) => labels?.[k] === v);
}

function resolvePort(port, container) {
  if (typeof port === "number") return port;
  if (/^\d+$/.test(String(port))) return Number(port);
  const p = (container.ports ?? []).find((x) => x.name === port);
  return p ? p.containerPort : null;
}

/** The container's literal env and the ConfigMap application.yml its config location mounts, if any. */
function mountedConfig(set) {
  const deployments = set.filter((m) => m.obj.kind === "Deployment");
  if (deployments.length !== 1) return null;
  const pod = deployments[0].obj.spec?.template?.spec ?? {};
  const containers = pod.containers ?? [];
  if (containers.length !== 1) return null;
  const c = containers[0];
  const env = new Map((c.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, String(e.value)]));
  const loc = env.get("SPRING_CONFIG_ADDITIONAL_LOCATION") ?? env.get("SPRING_CONFIG_LOCATION");
  let found = null;
  for (const d of loc ? loc.split(",").map((s) => s.trim().replace(/^optional:/, "").replace(/^file:/, "")) : []) {
    const dir = d.endsWith("/") ? d.slice(0, -1) : posix.dirname(d);
    const file = d.endsWith("/") ? "application.yml" : posix.basename(d);
    const mount = (c.volumeMounts ?? []).find((vm) => vm.mountPath.replace(/\/$/, "") === dir);
    const vol = mount && (pod.volumes ?? []).find((v) => v.name === mount.name);
    const cmName = vol?.configMap?.name;
    const cm = cmName && set.find((m) => m.obj.kind === "ConfigMap" && m.obj.metadata?.name === cmName);
    let key = file;
    if (vol?.configMap?.items) { const it = vol.configMap.items.find((i) => i.path === file); key = it?.key; }
    if (cm && key && cm.obj.data?.[key] !== undefined && !mount.subPath) { found = { dir, cmName, key, text: cm.obj.data[key] }; break; }
  }
  return { env, loc, found };
}

function consistency(set, setName, bound) {
  const C = (name) => `consistency[${setName}] ${name}`;
  const deployments = set.filter((m) => m.obj.kind === "Deployment");
  if (deployments.length !== 1) { fail(C("deployment"), `expected exactly one Deployment, found ${deployments.length}`); return; }
  const dep = deployments[0].obj;
  const pod = dep.spec?.template?.spec ?? {};
  const podLabels = dep.spec?.template?.metadata?.labels ?? {};
  const annotations = dep.spec?.template?.metadata?.annotations ?? {};
  const containers = pod.containers ?? [];
  if (containers.length !== 1) { fail(C("container"), `expected one container in the pod, found ${containers.length}`); return; }
  const c = containers[0];
  const { env, loc, found } = mountedConfig(set);

  // --- the ConfigMap must really reach the app
  if (!loc) fail(C("config-mounted"), "neither SPRING_CONFIG_ADDITIONAL_LOCATION nor SPRING_CONFIG_LOCATION is set: the ConfigMap's application.yml is not read");
  else if (!found) fail(C("config-mounted"), `no ConfigMap from this set is mounted with an application.yml at ${loc}`);
  else pass(C("config-mounted"), `ConfigMap ${found.cmName} key ${found.key} is mounted at ${found.dir} and added by ${loc}`);
  if (!bound || bound.error) { fail(C("app-config"), bound?.error ?? "the configuration was not bound"); return; }
  const cfg = springSettings(bound);

  // --- the timings
  const drainP = cfg.get("lifecycle.drain-delay", undefined);
  const ceilP = cfg.get("lifecycle.global-shutdown-timeout", "60s");
  let drain = null, ceiling = null;
  if (drainP.value === undefined) fail(C("explicit-timings"), "lifecycle.drain-delay is not set: its default (5s on Kubernetes, 0s elsewhere) depends on cloud-platform detection; set it in the ConfigMap");
  else if (ceilP.source === "default") fail(C("explicit-timings"), "lifecycle.global-shutdown-timeout is not set; set it in the ConfigMap so the grace period can be derived from it");
  else pass(C("explicit-timings"), `lifecycle.drain-delay=${drainP.value} (${drainP.source}), lifecycle.global-shutdown-timeout=${ceilP.value} (${ceilP.source})`);
  try {
    drain = seconds(drainP);
    ceiling = seconds(ceilP);
  } catch (e) { fail(C("timings"), e.message); return; }

  const grace = pod.terminationGracePeriodSeconds ?? 30;
  const needed = drain + ceiling + 5;
  if (grace >= needed) pass(C("grace-period"), `terminationGracePeriodSeconds ${grace}s >= drain delay ${drain}s + global ceiling ${ceiling}s + 5s = ${needed}s`);
  else fail(C("grace-period"), `terminationGracePeriodSeconds ${grace}s < drain delay ${drain}s + global ceiling ${ceiling}s + 5s = ${needed}s: Kubernetes would SIGKILL the pod mid-drain`);

  // --- what the app serves
  const serverPort = Number(cfg.get("server.port", 8080).value);
  const mgmtPortRaw = cfg.get("management.server.port", undefined).value;
  const mgmtPort = mgmtPortRaw === undefined ? serverPort : Number(mgmtPortRaw);
  const ctx = mgmtPort === serverPort ? String(cfg.get("server.servlet.context-path", "").value ?? "").replace(/\/$/, "") : "";
  const mgmtBase = mgmtPort === serverPort ? "" : String(cfg.get("management.server.base-path", "").value ?? "").replace(/\/$/, "");
  const base = String(cfg.get("management.endpoints.web.base-path", "/actuator").value).replace(/\/$/, "");
  const include = String(cfg.get("management.endpoints.web.exposure.include", "health").value).split(",").map((s) => s.trim());
  const exclude = String(cfg.get("management.endpoints.web.exposure.exclude", "").value ?? "").split(",").map((s) => s.trim());
  const exposed = (id) => (include.includes("*") || include.includes(id)) && !exclude.includes(id) && !exclude.includes("*");
  const probesOn = String(cfg.get("management.endpoint.health.probes.enabled", true).value) !== "false";
  const healthOn = exposed("health") && String(cfg.get("management.endpoint.health.enabled", true).value) !== "false";
  const endpoints = [];
  const prefix = `${ctx}${mgmtBase}${base}`;
  if (healthOn && probesOn) {
    endpoints.push({ kind: "readiness", port: mgmtPort, path: `${prefix}/health/readiness` });
    endpoints.push({ kind: "liveness", port: mgmtPort, path: `${prefix}/health/liveness` });
    if (String(cfg.get("management.endpoint.health.probes.add-additional-paths", false).value) === "true") {
      const sctx = String(cfg.get("server.servlet.context-path", "").value ?? "").replace(/\/$/, "");
      endpoints.push({ kind: "readiness", port: serverPort, path: `${sctx}/readyz` });
      endpoints.push({ kind: "liveness", port: serverPort, path: `${sctx}/livez` });
    }
  }
  const promPath = exposed("prometheus") ? `${prefix}/prometheus` : null;
  const describe = (kind) => endpoints.filter((e) => e.kind === kind).map((e) => `:${e.port}${e.path}`).join(" or ") || "nothing (health probes not exposed)";

  const httpPort = (c.ports ?? []).find((p) => p.containerPort === serverPort);
  if (httpPort) pass(C("container-port"), `containerPort ${serverPort}${httpPort.name ? ` (${httpPort.name})` : ""} = server.port`);
  else fail(C("container-port"), `no containerPort equals server.port ${serverPort} (ports: ${(c.ports ?? []).map((p) => p.containerPort).join(", ") || "none"})`);
  if (mgmtPort !== serverPort && !(c.ports ?? []).some((p) => p.containerPort === mgmtPort)) fail(C("container-port"), `no containerPort equals management.server.port ${mgmtPort}`);

  // --- probes
  const probeKinds = { readinessProbe: "readiness", livenessProbe: "liveness", startupProbe: "liveness" };
  for (const [field, kind] of Object.entries(probeKinds)) {
    const probe = c[field];
    if (!probe) {
      if (field === "startupProbe") continue;
      fail(C(field), `missing: the app serves ${kind} at ${describe(kind)}`);
      continue;
    }
    if (!probe.httpGet) { fail(C(field), `must be an httpGet on the app's ${kind} endpoint (${describe(kind)})`); continue; }
    const port = resolvePort(probe.httpGet.port, c);
    const path = probe.httpGet.path ?? "/";
    const scheme = probe.httpGet.scheme ?? "HTTP";
    const sslOn = String(cfg.get("server.ssl.enabled", false).value) === "true";
    const ok = endpoints.some((e) => e.kind === kind && e.port === port && e.path === path);
    if (!ok) fail(C(field), `${scheme} :${port ?? `'${probe.httpGet.port}' (no such container port)`}${path} is not the app's ${kind} endpoint; the app serves ${describe(kind)}`);
    else if ((scheme === "HTTPS") !== sslOn) fail(C(field), `scheme ${scheme} but server.ssl.enabled=${sslOn}`);
    else pass(C(field), `${scheme} :${port}${path} is the app's ${kind} endpoint`);
  }
  const rp = c.readinessProbe;
  if (rp) {
    const period = rp.periodSeconds ?? 10, threshold = rp.failureThreshold ?? 3;
    const window = period * threshold;
    if (window <= drain) pass(C("readiness-window"), `readiness periodSeconds ${period} x failureThreshold ${threshold} = ${window}s <= drain delay ${drain}s`);
    else fail(C("readiness-window"), `readiness periodSeconds ${period} x failureThreshold ${threshold} = ${window}s > drain delay ${drain}s: the pod would still get traffic after the drain delay`);
  }

  // --- preStop hook
  const binaries = String(annotations["lifecycle.dev/image-binaries"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const preStop = c.lifecycle?.preStop;
  const prestopEnabled = String(cfg.get("lifecycle.pre-stop.enabled", true).value) !== "false";
  const appPrestopPath = String(cfg.get("lifecycle.pre-stop.path", "/tmp/shutdown").value);
  if (!preStop) pass(C("prestop"), `no preStop hook: the app's ${drain}s drain delay keeps serving with readiness 503 after SIGTERM`);
  else if (preStop.sleep) fail(C("prestop"), "a preStop sleep is redundant: the app's drain delay does that job (remove it, or lower lifecycle.drain-delay and account for both)");
  else if (preStop.httpGet || preStop.tcpSocket) warn(C("prestop"), "preStop is not an exec hook; cannot check what it does");
  else if (preStop.exec) {
    const cmd = preStop.exec.command ?? [];
    const bin = cmd[0] ?? "";
    const text = cmd.join(" ");
    if (/(^|\/)(sh|bash|ash|dash)$/.test(bin) && !binaries.includes(bin)) fail(C("prestop-binary"), `'${bin}' is not in the image (lifecycle.dev/image-binaries: ${binaries.join(",") || "none"}); a distroless image has no shell`);
    else if (!bin.startsWith("/")) fail(C("prestop-binary"), `'${bin}' is not an absolute path: exec hooks run without a shell`);
    else if (!binaries.includes(bin)) fail(C("prestop-binary"), `'${bin}' is not listed in the pod annotation lifecycle.dev/image-binaries (${binaries.join(",") || "none"})`);
    else pass(C("prestop-binary"), `${bin} exists in the image (lifecycle.dev/image-binaries)`);
    if (/\bsleep\b/.test(text)) fail(C("prestop"), "a preStop sleep is redundant: the app's drain delay does that job");
    let created = null;
    const xlog = cmd.map((a) => /^-Xlog:.*:file=([^:]+)/.exec(a)).find(Boolean);
    if (/\/java$/.test(bin) && xlog) created = xlog[1];
    else if (/(^|\/)touch$/.test(bin)) created = cmd[cmd.length - 1];
    if (created === null) warn(C("prestop-path"), `cannot tell which file '${text}' creates`);
    else if (!prestopEnabled) fail(C("prestop-path"), `the hook creates ${created} but lifecycle.pre-stop.enabled is false`);
    else if (created !== appPrestopPath) fail(C("prestop-path"), `the hook creates ${created} but the app watches lifecycle.pre-stop.path=${appPrestopPath}`);
    else {
      const dir = posix.dirname(created);
      const ro = c.securityContext?.readOnlyRootFilesystem === true;
      const mount = (c.volumeMounts ?? []).filter((vm) => !vm.readOnly).find((vm) => dir === vm.mountPath.replace(/\/$/, "") || dir.startsWith(vm.mountPath.replace(/\/$/, "") + "/"));
      if (ro && !mount) fail(C("prestop-path"), `${created}: the root filesystem is read-only and no writable volume is mounted at ${dir}`);
      else pass(C("prestop-path"), `the hook creates ${created} = lifecycle.pre-stop.path${mount ? ` (writable volume '${mount.name}' at ${mount.mountPath})` : ""}`);
    }
  }

  // --- selectors, Service, PDB, scrape annotations
  if (labelsMatch(dep.spec?.selector, podLabels)) pass(C("selector"), "the Deployment selector matches its pod labels");
  else fail(C("selector"), "the Deployment selector does not match its pod labels");
  for (const svc of set.filter((m) => m.obj.kind === "Service").map((m) => m.obj)) {
    if (!labelsMatch(svc.spec?.selector, podLabels)) { fail(C("service"), `Service ${svc.metadata?.name} selects no pod of the Deployment`); continue; }
    for (const p of svc.spec?.ports ?? []) {
      const target = resolvePort(p.targetPort ?? p.port, c);
      if (target === serverPort) pass(C("service"), `Service ${svc.metadata.name} port ${p.port} -> ${p.targetPort ?? p.port} = server.port ${serverPort}`);
      else fail(C("service"), `Service ${svc.metadata.name} port ${p.port} -> targetPort ${p.targetPort ?? p.port} is not server.port ${serverPort}`);
    }
  }
  const pdbs = set.filter((m) => m.obj.kind === "PodDisruptionBudget").map((m) => m.obj);
  if (!pdbs.length) fail(C("pdb"), "no PodDisruptionBudget");
  for (const pdb of pdbs) {
    if (!labelsMatch(pdb.spec?.selector, podLabels)) fail(C("pdb"), `PodDisruptionBudget ${pdb.metadata?.name} selects no pod of the Deployment`);
    else pass(C("pdb"), `PodDisruptionBudget ${pdb.metadata.name} covers the Deployment's pods`);
  }
  if (annotations["prometheus.io/scrape"] === "true") {
    const port = Number(annotations["prometheus.io/port"] ?? serverPort);
    const path = annotations["prometheus.io/path"] ?? "/metrics";
    if (promPath === null) fail(C("scrape"), "prometheus.io/scrape is set but the app does not expose the prometheus endpoint (management.endpoints.web.exposure.include)");
    else if (port !== mgmtPort || path !== promPath) fail(C("scrape"), `prometheus.io annotations point at :${port}${path}, the app serves :${mgmtPort}${promPath}`);
    else pass(C("scrape"), `prometheus.io annotations point at :${port}${path}`);
  }

  // --- the sample's pipeline handler must fit inside the ceiling (DESIGN: handler waits up to 120 s)
  const stop = cfg.get("sample.pipeline.stop-timeout", "120s");
  try {
    const s = seconds(stop);
    if (s <= ceiling - drain) pass(C("handler-fits-ceiling"), `sample.pipeline.stop-timeout ${s}s <= ceiling ${ceiling}s - drain delay ${drain}s`);
    else fail(C("handler-fits-ceiling"), `sample.pipeline.stop-timeout ${s}s (${stop.source}) > ceiling ${ceiling}s - drain delay ${drain}s: the ceiling would cut the final checkpoint and backup`);
  } catch (e) { fail(C("handler-fits-ceiling"), e.message); }
}

// ------------------------------------------------------------------ the image (aot-cache/Dockerfile)
// The manifests run the image this Dockerfile builds: its base must be swappable, its user the
// manifests' runAsUser, PID 1 an init, and every binary a hook may use declared by the image.
// .ci/check-image.sh checks the same against the built image, by running it.
function dockerfile(text) {
  const lines = text.replace(/\\\n/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const ins = lines.map((l) => { const m = /^(\w+)\s+(.*)$/.exec(l); return m ? { op: m[1].toUpperCase(), arg: m[2] } : null; }).filter(Boolean);
  const fromAt = ins.findIndex((i) => i.op === "FROM");
  const globalArgs = Object.fromEntries(ins.slice(0, fromAt < 0 ? 0 : fromAt).filter((i) => i.op === "ARG")
    .map((i) => { const [k, ...v] = i.arg.split("="); return [k.trim(), v.length ? v.join("=").replace(/^"|"$/g, "") : undefined]; }));
  const last = (op) => [...ins].reverse().find((i) => i.op === op)?.arg;
  const labels = {};
  for (const i of ins.filter((x) => x.op === "LABEL")) for (const m of i.arg.matchAll(/([\w./-]+)="([^"]*)"/g)) labels[m[1]] = m[2];
  let entrypoint = null;
  try { entrypoint = JSON.parse(last("ENTRYPOINT") ?? "null"); } catch { entrypoint = last("ENTRYPOINT"); }
  return { from: fromAt < 0 ? null : ins[fromAt].arg, globalArgs, user: last("USER"), entrypoint, labels };
}

function imageConsistency(root, sets) {
  const file = join(root, "aot-cache/Dockerfile");
  if (!existsSync(file)) { fail("dockerfile", `no ${file}`); return; }
  const d = dockerfile(readFileSync(file, "utf8"));
  // FROM ${BASE} with a fully qualified default: a short name fails where no unqualified-search
  // registry is configured, and a literal FROM cannot be swapped with --build-arg
  const arg = /^\$\{?(\w+)\}?(\s|$)/.exec(d.from ?? "")?.[1];
  const dflt = arg ? d.globalArgs[arg] : undefined;
  const qualified = (ref) => { const first = ref.split("/")[0]; return ref.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost"); };
  if (!arg) fail("dockerfile-base", `FROM ${d.from}: the base is not a build argument (ARG before FROM), so --build-arg cannot swap it`);
  else if (dflt === undefined) fail("dockerfile-base", `ARG ${arg} has no default`);
  else if (!qualified(dflt)) fail("dockerfile-base", `ARG ${arg}=${dflt} is a short name: it fails where no unqualified-search registry is configured; write registry/repository:tag`);
  else pass("dockerfile-base", `FROM \${${arg}}, default ${dflt} (fully qualified)`);
  // PID 1 must be an init: the kernel drops a signal to a PID 1 that has no handler yet
  const ep = Array.isArray(d.entrypoint) ? d.entrypoint : null;
  if (!ep) fail("dockerfile-init", `ENTRYPOINT ${d.entrypoint ?? "missing"} is not in exec form`);
  else if (!/(^|\/)(tini|dumb-init|catatonit)$/.test(ep[0])) fail("dockerfile-init", `PID 1 is ${ep[0]}, not an init: a SIGTERM before the JVM installs its handlers is lost and the pod waits for SIGKILL`);
  else pass("dockerfile-init", `PID 1 is ${ep[0]}, which forwards signals to ${ep.find((a, i) => i > 0 && a !== "--") ?? "the app"}`);
  const labelled = String(d.labels["lifecycle.dev/image-binaries"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  for (const { name, set } of sets) {
    const dep = set.find((m) => m.obj.kind === "Deployment")?.obj;
    if (!dep) continue;
    const sc = dep.spec?.template?.spec?.securityContext ?? {};
    const want = `${sc.runAsUser}:${sc.runAsGroup}`;
    const m = /^(\d+)(?::(\d+))?$/.exec(d.user ?? "");
    if (!m) fail(`dockerfile[${name}] dockerfile-user`, `USER ${d.user ?? "missing"} is not numeric: the image runs as root by default, and runAsNonRoot can only verify a numeric user`);
    else if (m[1] === "0") fail(`dockerfile[${name}] dockerfile-user`, `USER ${d.user} is root`);
    else if (`${m[1]}:${m[2]}` !== want) fail(`dockerfile[${name}] dockerfile-user`, `USER ${d.user} is not the Deployment's runAsUser:runAsGroup ${want}`);
    else pass(`dockerfile[${name}] dockerfile-user`, `USER ${d.user} = runAsUser:runAsGroup`);
    const annotated = String(dep.spec?.template?.metadata?.annotations?.["lifecycle.dev/image-binaries"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    const missing = annotated.filter((b) => !labelled.includes(b));
    if (missing.length) fail(`dockerfile[${name}] dockerfile-binaries`, `${missing.join(", ")} (lifecycle.dev/image-binaries) not in the image's label lifecycle.dev/image-binaries (${labelled.join(",") || "none"})`);
    else pass(`dockerfile[${name}] dockerfile-binaries`, `${annotated.join(", ") || "no binaries"} declared by the image's label`);
  }
}

function withoutHooks(dep) {
  const d = structuredClone(dep);
  for (const c of d.spec?.template?.spec?.containers ?? []) delete c.lifecycle;
  return d;
}

/** The base set and each variant's (a variant replaces the base objects of the same kind and name). */
function manifestSets(k8sDir) {
  const baseFiles = yamlFiles(k8sDir);
  const variantsDir = join(k8sDir, "variants");
  const variants = existsSync(variantsDir) ? readdirSync(variantsDir).filter((d) => statSync(join(variantsDir, d)).isDirectory()).sort() : [];
  const base = readManifests(baseFiles);
  const variantSets = variants.map((v) => ({ name: v, docs: readManifests(yamlFiles(join(variantsDir, v))) }));
  const key = (o) => `${o.kind}/${o.metadata?.name}`;
  const sets = [{ name: "base", set: base }, ...variantSets.map((v) => {
    const replaced = new Set(v.docs.map((m) => key(m.obj)));
    return { name: `variant ${v.name}`, set: [...base.filter((m) => !replaced.has(key(m.obj))), ...v.docs] };
  })];
  // what each set mounts and sets, for the binder
  const inputs = sets.map(({ name, set }) => ({ name, mounted: mountedConfig(set) })).filter((i) => i.mounted)
    .map(({ name, mounted }) => ({ name, configMap: mounted.found?.text ?? null, env: mounted.env }));
  return { base, variantSets, sets, inputs };
}

async function cmdK8s(k8sDir, appConfig) {
  k8sDir = k8sDir.replace(/\/$/, "");
  const { base, variantSets, sets, inputs } = manifestSets(k8sDir);
  if (!base.length) fail("k8s", `no manifests in ${k8sDir}`);
  await schemaAndStrict([...base, ...variantSets.flatMap((v) => v.docs)], dirname(k8sDir));

  const bound = bindSpringSettings(appConfig, inputs);

  consistency(base, "base", bound.base);
  imageConsistency(dirname(k8sDir), sets);
  const baseDep = base.find((m) => m.obj.kind === "Deployment")?.obj;
  for (const v of variantSets) {
    consistency(sets.find((s) => s.name === `variant ${v.name}`).set, `variant ${v.name}`, bound[`variant ${v.name}`]);
    const vDep = v.docs.find((m) => m.obj.kind === "Deployment")?.obj;
    if (baseDep && vDep) {
      if (isDeepStrictEqual(withoutHooks(baseDep), withoutHooks(vDep))) pass(`consistency[variant ${v.name}] in-sync`, "identical to the base Deployment apart from the lifecycle hooks");
      else fail(`consistency[variant ${v.name}] in-sync`, "differs from the base Deployment in more than the lifecycle hooks; keep the two in step");
    }
  }
}

// ------------------------------------------------------------------ rules and Grafana
function cmdRulesMetrics(file, failuresBefore = 0) {
  const doc = YAML.parse(readFileSync(file, "utf8"));
  const allowed = allowedNames();
  const recorded = new Set();
  const recordedLabels = new Set(["service_name", "component", "result", "trigger_component", "trigger_reason", "clean", "le", ...TARGET_LABELS]);
  for (const g of doc.groups ?? []) for (const r of g.rules ?? []) if (r.record) recorded.add(r.record);
  let n = 0;
  for (const g of doc.groups ?? []) for (const r of g.rules ?? []) {
    n++;
    const problems = checkExprNames(String(r.expr), allowed, recorded, [...recordedLabels]);
    const name = r.record ?? r.alert;
    if (problems.length) fail("rules-metrics", `${name}: ${problems.join("; ")}`);
  }
  if (failures === failuresBefore) pass("rules-metrics", `${n} rules in ${basename(file)} use only the five lifecycle series, push_time_seconds and their own recordings`);
}

const GRAFANA_VARS = {
  __rate_interval: "5m", __interval: "1m", __interval_ms: "60000", __range: "1h", __range_s: "3600",
  __range_ms: "3600000", service_name: "sample-app",
};
function substituteGrafana(expr) {
  const unknown = [];
  const out = expr.replace(/\$\{(\w+)(?::\w+)?\}|\[\[(\w+)\]\]|\$(\w+)/g, (m, a, b, c) => {
    const v = a ?? b ?? c;
    if (v in GRAFANA_VARS) return GRAFANA_VARS[v];
    unknown.push(m);
    return m;
  });
  return { out, unknown };
}

function panelsOf(dash) {
  const out = [];
  const walk = (ps) => { for (const p of ps ?? []) { out.push(p); walk(p.panels); } };
  walk(dash.panels);
  return out;
}

function parseScrape(text) {
  const names = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{([^}]*)\})?\s/.exec(line);
    if (!m) continue;
    const labels = [...(m[3] ?? "").matchAll(/([A-Za-z_][A-Za-z0-9_]*)="/g)].map((x) => x[1]);
    if (!names.has(m[1])) names.set(m[1], new Set());
    labels.forEach((l) => names.get(m[1]).add(l));
  }
  return names;
}

function cmdGrafana(file, outRules, scrapeFile, failuresBefore = 0) {
  let dash;
  try { dash = JSON.parse(readFileSync(file, "utf8")); } catch (e) { fail("grafana-json", e.message); return; }
  const allowed = allowedNames();
  // structure: the service_name variable and the required panels
  const vars = dash.templating?.list ?? [];
  const sv = vars.find((v) => v.name === "service_name");
  const q = typeof sv?.query === "string" ? sv.query : sv?.query?.query;
  if (q === "label_values(lifecycle_shutdown_initiated_total, service_name)") pass("grafana-structure", "variable service_name = label_values(lifecycle_shutdown_initiated_total, service_name)");
  else fail("grafana-structure", `variable service_name must query label_values(lifecycle_shutdown_initiated_total, service_name), found ${JSON.stringify(q)}`);
  const panels = panelsOf(dash);
  const titles = panels.map((p) => p.title);
  const required = ["Shutdowns by trigger", "p95 component shutdown duration", "Shutdown results by component", "Incomplete shutdowns", "Component health"];
  const missing = required.filter((t) => !titles.includes(t));
  if (missing.length) fail("grafana-structure", `missing panels: ${missing.join(", ")}`);
  else pass("grafana-structure", `panels present: ${required.join(", ")}`);
  const ids = panels.map((p) => p.id);
  if (new Set(ids).size !== ids.length) fail("grafana-structure", "duplicate panel ids");

  // every expression -> a recording rule for promtool, and its names against the contract
  const rules = [];
  const referenced = new Set();
  let exprCount = 0;
  for (const p of panels) {
    for (const t of p.targets ?? []) {
      if (t.hide || !t.expr) continue;
      exprCount++;
      const { out, unknown } = substituteGrafana(t.expr);
      const where = `panel ${p.id} '${p.title}' ${t.refId}`;
      if (unknown.length) fail("grafana-variables", `${where}: unknown variable(s) ${unknown.join(", ")}`);
      rules.push({ record: `grafana_panel_${p.id}_${t.refId}`, expr: out });
      const problems = checkExprNames(out, allowed);
      if (problems.length) fail("grafana-metrics", `${where}: ${problems.join("; ")}`);
      for (const r of promqlRefs(out).refs) if (r.name) referenced.add(r.name);
    }
    if (p.type !== "row" && !(p.targets ?? []).some((t) => t.expr)) fail("grafana-structure", `panel ${p.id} '${p.title}' has no PromQL target`);
  }
  const lv = /^label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*,\s*(\w+)\s*\)$/.exec(q ?? "");
  if (lv) {
    referenced.add(lv[1]);
    if (!allowed.has(lv[1]) || !allowed.get(lv[1]).includes(lv[2])) fail("grafana-metrics", `variable service_name: ${lv[1]} has no label ${lv[2]}`);
  }
  writeFileSync(outRules, YAML.stringify({ groups: [{ name: "grafana-panels", rules }] }));
  if (failures === failuresBefore) pass("grafana-metrics", `${exprCount} panel expressions name only ${[...referenced].sort().join(", ")}`);

  if (scrapeFile) {
    const scraped = parseScrape(readFileSync(scrapeFile, "utf8"));
    const lifecycleScraped = [...scraped.keys()].filter((n) => n.startsWith("lifecycle_"));
    const unexpected = lifecycleScraped.filter((n) => !allowed.has(n) && !n.endsWith("_created") && !n.endsWith("_max"));
    if (unexpected.length) fail("grafana-scrape", `the app exports lifecycle series outside the contract: ${unexpected.join(", ")}`);
    const absent = [...referenced].filter((n) => !scraped.has(n) && !(n in PUSHGATEWAY_SERIES));
    if (absent.length) fail("grafana-scrape", `not in ${scrapeFile}: ${absent.join(", ")} (the counters and the histogram appear only after a shutdown or an unclean start: take the scrape then)`);
    for (const n of [...referenced].filter((x) => scraped.has(x) && !(x in PUSHGATEWAY_SERIES))) {
      const missingLabels = ["service_name", ...(SERIES[n.replace(/_(bucket|sum|count)$/, "")] ?? [])].filter((l) => !scraped.get(n).has(l));
      if (missingLabels.length) fail("grafana-scrape", `${n} in the scrape lacks label(s) ${missingLabels.join(", ")}`);
    }
    if (!absent.length && !unexpected.length) pass("grafana-scrape", `every referenced series is in ${basename(scrapeFile)} (${lifecycleScraped.length} lifecycle series scraped)`);
  }
}

// ------------------------------------------------------------------ self-test breakages
function editYaml(file, fn) {
  const docs = YAML.parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS());
  docs.forEach(fn);
  writeFileSync(file, docs.map((d) => YAML.stringify(d)).join("---\n"));
}
function editConfigMap(root, fn) {
  editYaml(join(root, "k8s/configmap.yaml"), (cm) => {
    const app = YAML.parse(cm.data["application.yml"]);
    fn(app);
    cm.data["application.yml"] = YAML.stringify(app);
  });
}
const baseDep = (root) => join(root, "k8s/deployment.yaml");
const variantDep = (root) => join(root, "k8s/variants/prestop-file/deployment.yaml");
const container = (d) => d.spec.template.spec.containers[0];
const bothDeps = (root, fn) => { editYaml(baseDep(root), fn); editYaml(variantDep(root), fn); };

function editText(file, from, to) {
  const text = readFileSync(file, "utf8");
  if (!text.includes(from)) throw new Error(`${file}: '${from}' not found`);
  writeFileSync(file, text.replace(from, to));
}
function editDashboard(root, fn) {
  const file = join(root, "grafana/lifecycle-dashboard.json");
  const dash = JSON.parse(readFileSync(file, "utf8"));
  fn(panelsOf(dash));
  writeFileSync(file, JSON.stringify(dash, null, 2));
}
const panelExpr = (panels, title, fn) => {
  const t = panels.find((p) => p.title === title).targets[0];
  const before = t.expr;
  t.expr = fn(t.expr);
  if (t.expr === before) throw new Error(`panel '${title}': mutation changed nothing`);
};
const rulesFile = (root) => join(root, "prometheus/lifecycle-rules.yml");

// The self-test's breakages. Each targets one check; the self-test runs only that check's unit (see
// unitOf) on a copy with the breakage applied, and requires the failing checks to be exactly
// `check` and `also` (others the same breakage fails in that unit), and `message` (plain text) in
// the FAIL output of `check`. For promtool-test-rules, `tests` names the one test group that is run
// (the others need seconds each and prove nothing about this breakage): the group that fails.
//   name -> { check, message, also?, tests?, apply(deploy-copy-root) }
const MUTATIONS = {
  "grace-too-short": { check: "grace-period", message: "terminationGracePeriodSeconds 69s < drain delay 5s + global ceiling 60s + 5s = 70s",
    apply: (r) => bothDeps(r, (d) => { d.spec.template.spec.terminationGracePeriodSeconds = 69; }) },
  "grace-missing": { check: "grace-period", message: "terminationGracePeriodSeconds 30s < drain delay 5s + global ceiling 60s + 5s = 70s",
    apply: (r) => bothDeps(r, (d) => { delete d.spec.template.spec.terminationGracePeriodSeconds; }) },
  "ceiling-raised": { check: "grace-period", message: "terminationGracePeriodSeconds 70s < drain delay 5s + global ceiling 120s + 5s = 130s",
    apply: (r) => editConfigMap(r, (a) => { a.lifecycle["global-shutdown-timeout"] = "2m"; }) },
  "drain-delay-shortened": { check: "readiness-window", message: "readiness periodSeconds 1 x failureThreshold 2 = 2s > drain delay 1s",
    apply: (r) => editConfigMap(r, (a) => { a.lifecycle["drain-delay"] = "1s"; }) },
  "drain-delay-not-a-duration": { check: "timings", message: "lifecycle.drain-delay: 'five seconds' (ConfigMap application.yml) cannot be bound", also: ["explicit-timings"],
    apply: (r) => editConfigMap(r, (a) => { a.lifecycle["drain-delay"] = "five seconds"; }) },
  "drain-delay-shortened-by-env": { check: "readiness-window", message: "readiness periodSeconds 1 x failureThreshold 2 = 2s > drain delay 1s",
    apply: (r) => bothDeps(r, (d) => { container(d).env.push({ name: "LIFECYCLE_DRAINDELAY", value: "1s" }); }) },
  "drain-delay-not-explicit": { check: "explicit-timings", message: "lifecycle.drain-delay is not set",
    apply: (r) => editConfigMap(r, (a) => { delete a.lifecycle["drain-delay"]; }) },
  "readiness-path-wrong": { check: "readinessProbe", message: "HTTP :8081/actuator/health/ready is not the app's readiness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).readinessProbe.httpGet.path = "/actuator/health/ready"; }) },
  "liveness-path-wrong": { check: "livenessProbe", message: "HTTP :8081/health/liveness is not the app's liveness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).livenessProbe.httpGet.path = "/health/liveness"; }) },
  "readiness-on-liveness-path": { check: "readinessProbe", message: "HTTP :8081/actuator/health/liveness is not the app's readiness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).readinessProbe.httpGet.path = "/actuator/health/liveness"; }) },
  "startup-path-wrong": { check: "startupProbe", message: "HTTP :8081/actuator/health/live is not the app's liveness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).startupProbe.httpGet.path = "/actuator/health/live"; }) },
  "probe-port-wrong": { check: "readinessProbe", message: "HTTP :8080/actuator/health/readiness is not the app's readiness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).readinessProbe.httpGet.port = 8080; /* the application port, not the management port */ }) },
  "probe-port-name-unknown": { check: "livenessProbe", message: "HTTP :'web' (no such container port)/actuator/health/liveness is not the app's liveness endpoint",
    apply: (r) => bothDeps(r, (d) => { container(d).livenessProbe.httpGet.port = "web"; }) },
  "server-port-changed": { check: "container-port", message: "no containerPort equals server.port 9090", also: ["service"],
    apply: (r) => editConfigMap(r, (a) => { a.server.port = 9090; }) },
  "actuator-base-path-changed": { check: "readinessProbe", message: "the app serves :8081/manage/health/readiness", also: ["livenessProbe", "startupProbe", "scrape"],
    apply: (r) => editConfigMap(r, (a) => { a.management.endpoints.web["base-path"] = "/manage"; }) },
  "health-not-exposed": { check: "readinessProbe", message: "the app serves nothing (health probes not exposed)", also: ["livenessProbe", "startupProbe"],
    apply: (r) => editConfigMap(r, (a) => { a.management.endpoints.web.exposure.include = "prometheus"; }) },
  "readiness-period-too-long": { check: "readiness-window", message: "readiness periodSeconds 5 x failureThreshold 2 = 10s > drain delay 5s",
    apply: (r) => bothDeps(r, (d) => { container(d).readinessProbe.periodSeconds = 5; }) },
  "readiness-threshold-too-high": { check: "readiness-window", message: "readiness periodSeconds 1 x failureThreshold 6 = 6s > drain delay 5s",
    apply: (r) => bothDeps(r, (d) => { container(d).readinessProbe.failureThreshold = 6; }) },
  "readiness-defaults": { check: "readiness-window", message: "readiness periodSeconds 10 x failureThreshold 3 = 30s > drain delay 5s",
    apply: (r) => bothDeps(r, (d) => { delete container(d).readinessProbe.periodSeconds; delete container(d).readinessProbe.failureThreshold; }) },
  "prestop-path-mismatch": { check: "prestop-path", message: "the hook creates /tmp/stop but the app watches lifecycle.pre-stop.path=/tmp/shutdown",
    apply: (r) => editYaml(variantDep(r), (d) => {
    const cmd = container(d).lifecycle.preStop.exec.command;
    cmd.forEach((a, i) => { cmd[i] = a.replace("file=/tmp/shutdown", "file=/tmp/stop"); });
  }) },
  "prestop-app-path-changed": { check: "prestop-path", message: "the hook creates /tmp/shutdown but the app watches lifecycle.pre-stop.path=/var/run/lifecycle/shutdown",
    apply: (r) => editConfigMap(r, (a) => { a.lifecycle["pre-stop"].path = "/var/run/lifecycle/shutdown"; }) },
  "prestop-disabled": { check: "prestop-path", message: "the hook creates /tmp/shutdown but lifecycle.pre-stop.enabled is false",
    apply: (r) => editConfigMap(r, (a) => { a.lifecycle["pre-stop"].enabled = false; }) },
  "prestop-shell-hook": { check: "prestop-binary", message: "'/bin/sh' is not in the image",
    apply: (r) => editYaml(variantDep(r), (d) => { container(d).lifecycle.preStop.exec.command = ["/bin/sh", "-c", "touch /tmp/shutdown"]; }) },
  "prestop-sleep-in-base": { check: "prestop", message: "a preStop sleep is redundant",
    apply: (r) => editYaml(baseDep(r), (d) => { container(d).lifecycle = { preStop: { sleep: { seconds: 5 } } }; }) },
  "misspelt-readinessProbe": { check: "k8s-strict-fields", message: "unknown field(s) spec.template.spec.containers[0].readinesProbe", also: ["readinessProbe", "in-sync"],
    apply: (r) => editYaml(baseDep(r), (d) => { const c = container(d); c.readinesProbe = c.readinessProbe; delete c.readinessProbe; }) },
  "misspelt-nested-field": { check: "k8s-strict-fields", message: "unknown field(s) spec.template.spec.containers[0].livenessProbe.httpGet.pathh", also: ["livenessProbe", "in-sync"],
    apply: (r) => editYaml(baseDep(r), (d) => { const g = container(d).livenessProbe.httpGet; g.pathh = g.path; delete g.path; }) },
  "misspelt-pod-field": { check: "k8s-strict-fields", message: "unknown field(s) spec.template.spec.terminationGracePeriodSecond", also: ["grace-period", "in-sync"],
    apply: (r) => editYaml(baseDep(r), (d) => { const s = d.spec.template.spec; s.terminationGracePeriodSecond = s.terminationGracePeriodSeconds; delete s.terminationGracePeriodSeconds; }) },
  "misspelt-variant-hook": { check: "k8s-strict-fields", message: "unknown field(s) spec.template.spec.containers[0].lifecycle.prestop",
    apply: (r) => editYaml(variantDep(r), (d) => { const c = container(d); c.lifecycle.prestop = c.lifecycle.preStop; delete c.lifecycle.preStop; }) },
  "schema-type-error": { check: "k8s-schema", message: "/spec/replicas must be integer", also: ["in-sync"],
    apply: (r) => editYaml(baseDep(r), (d) => { d.spec.replicas = "three"; }) },
  "variant-drifted": { check: "in-sync", message: "differs from the base Deployment in more than the lifecycle hooks",
    apply: (r) => editYaml(variantDep(r), (d) => { d.spec.template.spec.terminationGracePeriodSeconds = 90; }) },
  "config-not-mounted": { check: "config-mounted", message: "neither SPRING_CONFIG_ADDITIONAL_LOCATION nor SPRING_CONFIG_LOCATION is set", also: ["explicit-timings", "grace-period"],
    apply: (r) => bothDeps(r, (d) => { container(d).env = container(d).env.filter((e) => e.name !== "SPRING_CONFIG_ADDITIONAL_LOCATION"); }) },
  "service-target-port-wrong": { check: "service", message: "Service sample-app port 80 -> targetPort 8081 is not server.port 8080",
    apply: (r) => editYaml(join(r, "k8s/service.yaml"), (s) => { s.spec.ports[0].targetPort = 8081; }) },
  "pdb-selector-wrong": { check: "pdb", message: "PodDisruptionBudget sample-app selects no pod of the Deployment",
    apply: (r) => editYaml(join(r, "k8s/pdb.yaml"), (p) => { p.spec.selector.matchLabels = { "app.kubernetes.io/name": "other" }; }) },
  "handler-exceeds-ceiling": { check: "handler-fits-ceiling", message: "sample.pipeline.stop-timeout 120s (jar application.yml) > ceiling 60s - drain delay 5s",
    apply: (r) => editConfigMap(r, (a) => { delete a.sample.pipeline["stop-timeout"]; }) },
  "dockerfile-base-short-name": { check: "dockerfile-base", message: "ARG BASE=eclipse-temurin:25-jre is a short name",
    apply: (r) => editText(join(r, "aot-cache/Dockerfile"), "ARG BASE=docker.io/library/eclipse-temurin:25-jre", "ARG BASE=eclipse-temurin:25-jre") },
  "dockerfile-root-user": { check: "dockerfile-user", message: "USER root is not numeric",
    apply: (r) => editText(join(r, "aot-cache/Dockerfile"), "\nUSER 65532:65532\n", "\n") },
  "dockerfile-jvm-pid1": { check: "dockerfile-init", message: "PID 1 is /opt/java/openjdk/bin/java, not an init",
    apply: (r) => editText(join(r, "aot-cache/Dockerfile"), 'ENTRYPOINT ["/usr/bin/tini", "--", ', "ENTRYPOINT [") },
  "prestop-java-not-in-image": { check: "dockerfile-binaries", message: "/usr/bin/java (lifecycle.dev/image-binaries) not in the image's label", also: ["in-sync"],
    apply: (r) => editYaml(variantDep(r), (d) => {
    d.spec.template.metadata.annotations["lifecycle.dev/image-binaries"] = "/usr/bin/java";
    container(d).lifecycle.preStop.exec.command[0] = "/usr/bin/java";
  }) },
  "rule-unknown-metric": { check: "rules-metrics", message: "LifecycleComponentUnhealthy: unknown series 'lifecycle_component_health'",
    apply: (r) => editText(rulesFile(r), "(lifecycle_component_healthy == 0)", "(lifecycle_component_health == 0)") },
  "rule-syntax-error": { check: "promtool-check-rules", message: "\"LifecycleComponentShutdownTimeout\": could not parse expression",
    apply: (r) => editText(rulesFile(r), "round(lifecycle:component_shutdown_result:increase1h{result=\"timeout\"}) > 0", "round(lifecycle:component_shutdown_result:increase1h{result=\"timeout\"}) >") },
  "alert-threshold-broken": { check: "promtool-test-rules", message: "alertname: LifecycleComponentShutdownTimeout, time: 10m,", tests: "timeout fires from the direct scrape without a Pushgateway",
    apply: (r) => editText(rulesFile(r), "round(lifecycle:component_shutdown_result:increase1h{result=\"timeout\"}) > 0", "round(lifecycle:component_shutdown_result:increase1h{result=\"timeout\"}) > 1") },
  "alert-for-too-long": { check: "promtool-test-rules", message: "alertname: LifecycleComponentUnhealthy, time: 1m15s,", tests: "unhealthy fires after two scrape intervals at 0 in a live pod, not after one",
    apply: (r) => editText(rulesFile(r), "\n        for: 30s\n", "\n        for: 5m\n") },
  "incomplete-for-shorter-than-a-drain": { check: "promtool-test-rules", message: "alertname: LifecycleIncompleteShutdowns, time: 6m,", tests: "incomplete fires for a pushed shutdown start without completion, held past the ceiling, for an hour",
    apply: (r) => editText(rulesFile(r), "\n        for: 5m\n", "\n        for: 1m\n") },
  "unhealthy-from-pushed-groups": { check: "promtool-test-rules", message: "alertname: LifecycleComponentUnhealthy, time: 2m,", tests: "unhealthy does not fire for a pod that is shutting down, nor from a pushed group",
    apply: (r) => editText(rulesFile(r), "          unless on (job, instance)\n          push_time_seconds\n", "") },
  "pushed-and-scraped-summed": { check: "promtool-test-rules", message: "description=\"2 shutdown(s) in the last hour", tests: "timeout fires from the pushed group, counted once, for an hour",
    apply: (r) => editText(rulesFile(r), "          or\n          (\n            sum by (service_name, component, result) (", "          +\n          (\n            sum by (service_name, component, result) (") },
  "alert-plain-increase": { check: "promtool-test-rules", message: "alertname: LifecycleComponentShutdownTimeout, time: 10m,", tests: "timeout fires from the pushed group, counted once, for an hour",
    apply: (r) => editText(rulesFile(r),
    "(increase(lifecycle_component_shutdown_result_total[1h]) and lifecycle_component_shutdown_result_total offset 1h)\n                  or\n                (max_over_time(lifecycle_component_shutdown_result_total[1h]) unless lifecycle_component_shutdown_result_total offset 1h)",
    "increase(lifecycle_component_shutdown_result_total[1h])") },
  "grafana-unknown-metric": { check: "grafana-metrics", message: "panel 1 'Shutdowns by trigger' A: unknown series 'lifecycle_shutdown_started_total'",
    apply: (r) => editDashboard(r, (ps) => panelExpr(ps, "Shutdowns by trigger", (e) => e.replaceAll("lifecycle_shutdown_initiated_total", "lifecycle_shutdown_started_total"))) },
  "grafana-histogram-base-name": { check: "grafana-metrics", message: "panel 4 'p95 component shutdown duration' A: unknown series 'lifecycle_component_shutdown_duration_seconds'",
    apply: (r) => editDashboard(r, (ps) => panelExpr(ps, "p95 component shutdown duration", (e) => e.replaceAll("_seconds_bucket", "_seconds"))) },
  "grafana-unknown-label": { check: "grafana-metrics", message: "panel 3 'Component health' A: 'lifecycle_component_healthy' has no label 'servicename'",
    apply: (r) => editDashboard(r, (ps) => panelExpr(ps, "Component health", (e) => e.replace("service_name=", "servicename="))) },
  "grafana-syntax-error": { check: "grafana-promql", message: "\"grafana_panel_5_A\": could not parse expression", also: ["grafana-metrics"],
    apply: (r) => editDashboard(r, (ps) => panelExpr(ps, "Shutdown results by component", (e) => e.replace(/\)$/, ""))) },
  "grafana-unknown-variable": { check: "grafana-variables", message: "panel 2 'Incomplete shutdowns' A: unknown variable(s) $__rnage_s", also: ["grafana-metrics"],
    apply: (r) => editDashboard(r, (ps) => panelExpr(ps, "Incomplete shutdowns", (e) => e.replace("$__range", "$__rnage"))) },
  "grafana-panel-missing": { check: "grafana-structure", message: "missing panels: Component health",
    apply: (r) => editDashboard(r, (ps) => { ps.find((p) => p.title === "Component health").title = "Health"; }) },
};

/**
 * The unit of deploy/check.sh's checks that reports a check: one node command (k8s, rules-metrics,
 * grafana) or promtool (on the rules, on their tests, on the rules the grafana command writes).
 */
function unitOf(check) {
  if (["rules-metrics", "promtool-check-rules", "promtool-test-rules", "grafana-promql"].includes(check)) return check;
  if (check.startsWith("grafana-")) return "grafana";
  return "k8s";
}

/** Keeps only the test group named `name` in the copy's rule tests, byte for byte (promtool needs ~1 s a group). */
function onlyTestGroup(root, name) {
  const file = join(root, "prometheus/lifecycle-rules.test.yml");
  const text = readFileSync(file, "utf8");
  const starts = [...text.matchAll(/^  - name: /gm)].map((m) => m.index);
  const blocks = starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length));
  const block = blocks.find((b) => YAML.parse(`tests:\n${b}`).tests[0].name === name);
  if (!block) throw new Error(`${file}: no test group named '${name}'`);
  const sliced = text.slice(0, starts[0]) + block;
  // the slice is the original's header and that group, unchanged
  const [all, one] = [YAML.parse(text), YAML.parse(sliced)];
  if (!isDeepStrictEqual({ ...one, tests: undefined }, { ...all, tests: undefined }) || one.tests.length !== 1
      || !isDeepStrictEqual(one.tests[0], all.tests.find((t) => t.name === name))) throw new Error(`${file}: could not cut out '${name}'`);
  writeFileSync(file, sliced);
}

function cmdMutate(name, root) {
  if (name === "list") {
    // name, unit, check, message, also: tab-separated for check.sh (also, comma-separated, may be empty)
    for (const [n, m] of Object.entries(MUTATIONS)) console.log([n, unitOf(m.check), m.check, m.message, (m.also ?? []).join(",")].join("\t"));
    return;
  }
  const m = MUTATIONS[name];
  if (!m) throw new Error(`unknown mutation ${name}`);
  m.apply(root);
  if (m.tests) onlyTestGroup(root, m.tests);
}

/**
 * selftest <name> <deploy-copy-dir> <app-config>: applies the breakage and runs the node part of its
 * check's unit, in one process (check.sh runs promtool for the other units). A breakage that
 * cannot be applied is reported as "FAIL selftest", which no breakage expects.
 */
async function cmdSelfTest(name, root, app) {
  try { cmdMutate(name, root); } catch (e) { fail("selftest", `could not apply the breakage: ${e.message}`); return; }
  const unit = unitOf(MUTATIONS[name].check);
  if (unit === "k8s") await cmdK8s(join(root, "k8s"), app);
  else if (unit === "rules-metrics") cmdRulesMetrics(join(root, "prometheus/lifecycle-rules.yml"));
  else if (unit === "grafana" || unit === "grafana-promql") cmdGrafana(join(root, "grafana/lifecycle-dashboard.json"), join(root, "grafana-rules.yml"));
}

/**
 * selftest-bind <deploy-dir> <app-config>: binds what the untouched tree and each breakage of the
 * k8s unit give the binder, all in one JVM, into DEPLOY_BINDER_CACHE. The self-test's runs (one
 * process each, side by side) then find their binding there instead of starting a JVM each (about a
 * second of CPU apiece). Each set is bound on its own in the binder, so one request of many sets
 * answers as the separate requests would.
 */
function cmdSelfTestBind(deployDir, app) {
  if (!process.env.DEPLOY_BINDER_CACHE) throw new Error("DEPLOY_BINDER_CACHE is not set");
  const scratch = mkdtempSync(join(tmpdir(), "deploy-selftest-bind-"));
  const requests = new Map(); // cache file -> the request
  try {
    const k8sBreakages = Object.keys(MUTATIONS).filter((n) => unitOf(MUTATIONS[n].check) === "k8s");
    [null, ...k8sBreakages].forEach((name, i) => {
      const root = join(scratch, String(i));
      for (const d of ["k8s", "prometheus", "grafana", "aot-cache"]) cpSync(join(deployDir, d), join(root, d), { recursive: true });
      if (name) cmdMutate(name, root);
      const { body, cached } = bindingRequest(app, manifestSets(join(root, "k8s")).inputs, true);
      if (!existsSync(cached)) requests.set(cached, JSON.parse(body));
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!requests.size) return;
  const all = [...requests.entries()];
  const response = runBinder(JSON.stringify({
    appConfig: all[0][1].appConfig,
    keys: SPRING_KEYS,
    sets: all.flatMap(([, request], i) => request.sets.map((set) => ({ ...set, name: `${i}/${set.name}` }))),
  }));
  all.forEach(([cached, request], i) => cacheBinding(cached, {
    sets: Object.fromEntries(request.sets.map((set) => [set.name, response.sets[`${i}/${set.name}`]])),
  }));
  console.log(`selftest-bind: ${all.length} distinct bindings (${all.reduce((n, [, r]) => n + r.sets.length, 0)} sets) in one JVM`);
}

// ------------------------------------------------------------------ main
const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === "all") {
    // all <deploy-root> <app-config> <out-grafana-rules> [scrape]: the three below in one process
    const [root, app, out, scrape] = args;
    const step = async (name, fn) => { try { await fn(failures); } catch (e) { fail(name, e.stack ?? String(e)); } };
    await step("k8s", () => cmdK8s(join(root, "k8s"), app));
    await step("rules-metrics", (f) => cmdRulesMetrics(join(root, "prometheus/lifecycle-rules.yml"), f));
    await step("grafana", (f) => cmdGrafana(join(root, "grafana/lifecycle-dashboard.json"), out, scrape, f));
  } else if (cmd === "k8s") await cmdK8s(args[0], args[1]);
  else if (cmd === "rules-metrics") cmdRulesMetrics(args[0]);
  else if (cmd === "grafana") cmdGrafana(args[0], args[1], args[2]);
  else if (cmd === "mutate") cmdMutate(args[0], args[1]);
  else if (cmd === "selftest") await cmdSelfTest(args[0], args[1], args[2]);
  else if (cmd === "selftest-bind") cmdSelfTestBind(args[0], args[1]);
  else { console.error("usage: check.mjs k8s|rules-metrics|grafana|mutate|selftest ..."); process.exit(2); }
} catch (e) {
  fail(cmd ?? "check", e.stack ?? String(e));
}
process.exit(failures ? 1 : 0);
