-- wrk script for the rolling-restart benchmark: POST /events with a unique id per request, the key
-- equal to the id (so the final GET /counts of each instance lists every committed event by id),
-- value 1. Every 202's id (read back from the response body) is appended to
-- $RR_OUT/acked-<thread>.txt; done() writes exact per-status and socket-error counts, the number of
-- requests sent (sent - requests = requests that got no answer, at most one per connection being in
-- flight when wrk stops) plus latency percentiles to $RR_OUT/wrk-summary.json.
-- Environment: RR_OUT (directory, required), RR_PREFIX (id prefix, unique per run),
--              RR_DELAY_MS (pause before each request on a connection; sets the rate, default 40).

local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  counter = 0
  prefix = (os.getenv("RR_PREFIX") or "ev") .. "-" .. tid .. "-"
  delay_ms = tonumber(os.getenv("RR_DELAY_MS") or "40")
  acked = assert(io.open((os.getenv("RR_OUT") or ".") .. "/acked-" .. tid .. ".txt", "w"))
  acked:setvbuf("line")
end

function delay()
  return delay_ms
end

function request()
  counter = counter + 1
  local id = prefix .. counter
  local body = '{"id":"' .. id .. '","key":"' .. id .. '","value":1}'
  return wrk.format("POST", "/events", { ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  local key = tostring(status)
  statuses[key] = (statuses[key] or 0) + 1
  if status == 202 then
    local id = string.match(body or "", '"id":"([^"]+)"')
    acked:write((id or "?"), "\n")
  end
end

function done(summary, latency, requests)
  local merged = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses") or {}
    for k, v in pairs(s) do merged[k] = (merged[k] or 0) + v end
  end
  local sent = 0
  for _, t in ipairs(threads) do sent = sent + (t:get("counter") or 0) end
  local parts = {}
  for k, v in pairs(merged) do table.insert(parts, string.format('"%s":%d', k, v)) end
  local e = summary.errors
  local out = assert(io.open((os.getenv("RR_OUT") or ".") .. "/wrk-summary.json", "w"))
  out:write(string.format(
    '{"requests":%d,"sent":%d,"duration_us":%d,"statuses":{%s},"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
      .. '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, sent, summary.duration, table.concat(parts, ","),
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean))
  out:close()
end
