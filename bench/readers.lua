-- wrk: open pages polling their live region, as the page's script does. Each
-- connection is one open page: it asks every POLL_MS milliseconds (wrk's `delay`) and
-- follows the versions the answers give (a 200 brings the region with its next poll
-- address; a 204 says nothing changed). The pages of one wrk thread follow one address,
-- the latest any of them was given, as every open page of one event converges on it.
-- Started by bench/national.py: wrk -s bench/readers.lua URL -- POLL_PATH POLL_MS

local path, every = "/", 3000

function init(args)
  path = args[1] or path
  every = tonumber(args[2] or every)
end

function request()
  return wrk.format("GET", path, { ["Accept-Language"] = "en" })
end

function delay()
  return every
end

function response(status, headers, body)
  if status == 200 and body then
    local found = string.match(body, 'hx%-get="([^"]*/live/[^"]*)"')
    if found then
      path = string.gsub(found, "&amp;", "&")
    end
  end
end

function done(summary, latency, requests)
  io.write(string.format(
    "READERS requests=%d status_errors=%d socket_errors=%d timeouts=%d p50_ms=%.1f p95_ms=%.1f p99_ms=%.1f max_ms=%.1f\n",
    summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write,
    summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
