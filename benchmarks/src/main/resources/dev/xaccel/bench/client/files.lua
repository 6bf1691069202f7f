-- wrk script of dev.xaccel.bench.client.Wrk: cycles through the small files, BENCH_PREFIX .. BENCH_PATTERN with the
-- file's number (e.g. /small-%03d.bin, /deep/8K/files/file-%03d.bin) or, when BENCH_PER is above 0, with the number
-- divided by it and the remainder (/spread-8K/Author%03d/Title%02d/chapter.bin), or through the URLs listed in
-- BENCH_URLS, one per line (the signed links); prints one machine-readable line at the end
local prefix = os.getenv("BENCH_PREFIX")
local pattern = os.getenv("BENCH_PATTERN")
local count = tonumber(os.getenv("BENCH_FILES"))
local per = tonumber(os.getenv("BENCH_PER") or "0") or 0
local list = os.getenv("BENCH_URLS")
local urls = nil
if list ~= nil and list ~= "" then
  urls = {}
  for line in io.lines(list) do urls[#urls + 1] = line end
  count = #urls
end
local i = 0
request = function()
  i = (i + 1) % count
  if urls then return wrk.format(nil, urls[i + 1]) end
  if per > 0 then return wrk.format(nil, prefix .. string.format(pattern, math.floor(i / per), i % per)) end
  return wrk.format(nil, prefix .. string.format(pattern, i))
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH requests=%d duration_us=%d socket_errors=%d status_errors=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
