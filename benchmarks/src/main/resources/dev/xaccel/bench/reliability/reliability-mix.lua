-- benchmarks/run --reliability, scenario 1: wrk cycles through the requests of reliability-requests.txt
-- (one per line: KIND TAB PATH TAB HEADER-or-"-"), counts what each thread sent per kind and the statuses it got;
-- done() prints one line per kind and per status, which ReliabilityLoad compares.
local requests = {}
local kinds = {}

function init(args)
  for line in io.lines(args[1]) do
    local kind, path, header = line:match("^([^\t]+)\t([^\t]+)\t(.*)$")
    local headers = {}
    if args[2] ~= nil then headers["Authorization"] = args[2] end
    if kind == "401" then headers["Authorization"] = nil end
    if header ~= "-" then
      local name, value = header:match("^([^:]+): (.*)$")
      headers[name] = value
    end
    table.insert(requests, wrk.format("GET", path, headers))
    table.insert(kinds, kind)
  end
  counter = 0
  sent = {}
  statuses = {}
  bad_range = 0
end

function request()
  counter = counter % #requests + 1
  local kind = kinds[counter]
  sent[kind] = (sent[kind] or 0) + 1
  return requests[counter]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 206 and #body ~= 65536 then bad_range = bad_range + 1 end
end

local threads = {}
function setup(thread) table.insert(threads, thread) end

function done(summary, latency, requests_)
  local total_sent, total_status = {}, {}
  local bad = 0
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("sent")) do total_sent[k] = (total_sent[k] or 0) + v end
    for k, v in pairs(t:get("statuses")) do total_status[k] = (total_status[k] or 0) + v end
    bad = bad + t:get("bad_range")
  end
  for k, v in pairs(total_sent) do io.write(string.format("sent %s %d\n", k, v)) end
  for k, v in pairs(total_status) do io.write(string.format("status %d %d\n", k, v)) end
  io.write(string.format("bad_range %d\n", bad))
  io.write(string.format("requests %d\nduration_us %d\n", summary.requests, summary.duration))
  io.write(string.format("errors connect %d read %d write %d timeout %d status %d\n", summary.errors.connect,
    summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
  io.write(string.format("p50_ms %.2f\np99_ms %.2f\nmax_ms %.2f\n", latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
