-- wrk script for benchmarks/pages.py: sends the signed-in session cookie (BENCH_COOKIE) with the sign-in's
-- User-Agent (BENCH_USER_AGENT), and prints one
-- JSON line with the request count, errors, non-2xx answers and the latency percentiles in microseconds.
local cookie = os.getenv("BENCH_COOKIE")
wrk.headers["User-Agent"] = os.getenv("BENCH_USER_AGENT") or "wrk"
if cookie and cookie ~= "" then
  wrk.headers["Cookie"] = cookie
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests": %d, "duration_us": %d, "errors": %d, "non2xx": %d, "p50": %d, "p95": %d, "p99": %d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
