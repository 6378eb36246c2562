-- wrk script of benchmarks/hosted_load.py and tails.py: sends the requests of a file in turn (one a line:
-- METHOD<tab>PATH<tab>TOKEN<tab>JSON BODY) for the run's duration, and prints one JSON line of figures.
-- Usage: wrk -t 1 -c CONNECTIONS -d SECONDS --timeout 30s -s requests.lua URL -- FILE
local prepared, sent, threads = {}, 0, {}
statuses = {}  -- a global: done() reads it from each thread with thread:get

function setup(thread)
  threads[#threads + 1] = thread  -- done() reads each thread's status counts through it
end

function init(args)
  for line in io.lines(args[1]) do
    local method, path, token, body = line:match("^(%u+)\t([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = {["Content-Type"] = "application/json"}
    if token ~= "" then headers["Authorization"] = "Bearer " .. token end
    prepared[#prepared + 1] = wrk.format(method, path, headers, body ~= "" and body or nil)
  end
end

function request()
  sent = sent + 1
  return prepared[(sent - 1) % #prepared + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, _)
  local e, failed = summary.errors, {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      if status >= 300 then failed[#failed + 1] = string.format('"%d": %d', status, n) end
    end
  end
  io.write(string.format('{"requests": %d, "seconds": %.4f, "mean_ms": %.2f, "p50_ms": %.2f, "p99_ms": %.2f, ' ..
    '"max_ms": %.2f, "non_2xx": %d, "socket_errors": %d, "failed": {%s}}\n', summary.requests, summary.duration / 1e6,
    latency.mean / 1e3, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3, e.status,
    e.connect + e.read + e.write + e.timeout, table.concat(failed, ", ")))
end
