-- nginx's metrics, in Prometheus's text format on the admin listener (`GET /metrics`), followed by
-- the edge's own (edge/metrics.py, prometheus-client), fetched through an internal location.
--
-- Why per-worker tables flushed by a timer: a shared dict's incr takes a lock shared by every
-- worker, and the hot path would pay it several times a request (door and status, the gate's
-- decision, its latency, the document cache). Adding to a Lua table costs next to nothing; each
-- worker adds its counts to the shared dict once a second, so /metrics lags by at most a second.
local ngx = ngx
local pairs, ipairs, concat = pairs, ipairs, table.concat

local M = {}
local counts = {}  -- this worker's counts since the last flush: name -> number
local conf

-- Key-check latency buckets (seconds): the wait for the batched Redis call, hit to answer.
local BUCKETS = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1}
local BUCKET_NAMES = {}
for i = 1, #BUCKETS do BUCKET_NAMES[i] = "key_check_bucket|" .. i end

function M.init(config)
    conf = config
end

function M.add(name, n)
    counts[name] = (counts[name] or 0) + (n or 1)
end

-- One batched script call took `seconds`, for `hits` requests (each waited about that long).
function M.observe_key_check(seconds, hits)
    for i = 1, #BUCKETS do
        if seconds <= BUCKETS[i] then
            M.add(BUCKET_NAMES[i], hits)
            break
        end
    end
    M.add("key_check_count", hits)
    M.add("key_check_sum", seconds * hits)
end

local function flush()
    local dict = ngx.shared.marquee_metrics
    local pending = counts
    counts = {}
    for name, n in pairs(pending) do
        dict:incr(name, n, 0)
    end
end

-- The last minute's requests (`marquee status`): worker 0 copies the request counters into one of
-- RECENT_SLOTS snapshots every RECENT_STEP seconds, and GET /recent on the admin listener answers
-- the counters' growth since the oldest snapshot (60 to 70 s old), off the hot path.
local RECENT_STEP, RECENT_SLOTS = 10, 7

local function requests_now(dict)
    local found = {}
    for _, name in ipairs(dict:get_keys(0)) do
        if name:sub(1, 9) == "requests|" then found[name] = dict:get(name) or 0 end
    end
    return found
end

local function snapshot(premature)
    if premature then return end
    local dict = ngx.shared.marquee_metrics
    local now = ngx.now()
    local lines = {string.format("%.3f", now)}
    for name, n in pairs(requests_now(dict)) do lines[#lines + 1] = name .. "=" .. n end
    dict:set("recent|" .. math.floor(now / RECENT_STEP) % RECENT_SLOTS, concat(lines, "\n"))
end

function M.init_worker()
    ngx.timer.every(1, function(premature)
        flush()  -- also on exit (premature), so a reload loses nothing counted
    end)
    if ngx.worker.id() == 0 then
        ngx.timer.at(0, snapshot)
        ngx.timer.every(RECENT_STEP, snapshot)
    end
end

-- GET /recent: `seconds S` (how long the counts cover; since nginx started when it is younger than
-- a snapshot), then `requests DOOR CLASS N` for each counter that grew.
function M.recent()
    flush()
    local dict = ngx.shared.marquee_metrics
    local now, oldest, since = ngx.now(), nil, nil
    for slot = 0, RECENT_SLOTS - 1 do
        local stored = dict:get("recent|" .. slot)
        local at = stored and tonumber(stored:match("^[^\n]+"))
        if at and now - at <= RECENT_STEP * (RECENT_SLOTS + 0.5) and (since == nil or at < since) then
            oldest, since = stored, at
        end
    end
    local before = {}
    for name, n in (oldest or ""):gmatch("\n([^=\n]+)=(%d+)") do before[name] = tonumber(n) end
    local lines = {string.format("seconds %.1f", since and now - since or 0)}
    for name, n in pairs(requests_now(dict)) do
        local grown = n - (before[name] or 0)
        if grown > 0 then
            local door, class = name:match("^requests|([^|]+)|(.+)$")
            lines[#lines + 1] = string.format("requests %s %s %d", door, class, grown)
        end
    end
    ngx.header["Content-Type"] = "text/plain"
    ngx.say(concat(lines, "\n"))
end

-- A request answered, by door and status: the counter's names are built once, not per request.
local CLASSES = {"1xx", "2xx", "3xx", "4xx", "5xx"}
local NAMES = setmetatable({}, {__index = function(names, door)
    local by_class = {}
    for i, class in ipairs(CLASSES) do by_class[i] = "requests|" .. door .. "|" .. class end
    names[door] = by_class
    return by_class
end})

function M.answered(door, status)
    M.add(NAMES[door][math.floor(status / 100)] or ("requests|" .. door .. "|other"))
end

-- log_by_lua of the locations whose status Lua does not set itself (the edge's answers, images,
-- unknown paths). The hot paths count where they answer (marquee_docs, marquee_append,
-- marquee_gate's refusals): a log-phase handler on every request cost ~5% of the hot path.
function M.log(door)
    M.answered(door, ngx.status)
end

local HELP = {
    requests = {"marquee_requests_total", "counter",
                "Requests nginx answered, by door (document, append, edge, images, admin, other) and status class."},
    decisions = {"marquee_gate_decisions_total", "counter",
                 "The key gate's decisions in nginx: admitted, limited, unknown_key, suspended_key, plan_expired, "
                     .. "redis_down_refused, redis_down_admitted, malformed_key."},
    documents = {"marquee_document_cache_total", "counter",
                 "nginx's per-worker document cache: hit or miss (a miss reads the release pack)."},
}

-- GET /metrics on the admin listener.
function M.serve()
    flush()
    local dict = ngx.shared.marquee_metrics
    local lines, by_family = {}, {requests = {}, decisions = {}, documents = {}}
    local buckets, count, sum = {}, 0, 0
    for _, name in ipairs(dict:get_keys(0)) do
        local value = dict:get(name) or 0
        local family, a, b = name:match("^([%a_]+)|([^|]+)|?(.*)$")
        if family == "requests" then
            by_family.requests[#by_family.requests + 1] =
                string.format('marquee_requests_total{door="%s",class="%s"} %d', a, b, value)
        elseif family == "decision" then
            by_family.decisions[#by_family.decisions + 1] =
                string.format('marquee_gate_decisions_total{decision="%s"} %d', a, value)
        elseif family == "docs" then
            by_family.documents[#by_family.documents + 1] =
                string.format('marquee_document_cache_total{result="%s"} %d', a, value)
        elseif family == "key_check_bucket" then
            buckets[tonumber(a)] = value
        elseif name == "key_check_count" then
            count = value
        elseif name == "key_check_sum" then
            sum = value
        end
    end
    for _, family in ipairs({"requests", "decisions", "documents"}) do
        local help = HELP[family]
        lines[#lines + 1] = "# HELP " .. help[1] .. " " .. help[3]
        lines[#lines + 1] = "# TYPE " .. help[1] .. " " .. help[2]
        table.sort(by_family[family])
        for _, line in ipairs(by_family[family]) do lines[#lines + 1] = line end
    end
    lines[#lines + 1] = "# HELP marquee_key_check_seconds The gate's Redis call for each request checked in nginx "
        .. "(the batched script call that reads the key's grant and counts its window), timed per batch."
    lines[#lines + 1] = "# TYPE marquee_key_check_seconds histogram"
    local cumulative = 0
    for i = 1, #BUCKETS do
        cumulative = cumulative + (buckets[i] or 0)
        lines[#lines + 1] = string.format('marquee_key_check_seconds_bucket{le="%g"} %d', BUCKETS[i], cumulative)
    end
    lines[#lines + 1] = string.format('marquee_key_check_seconds_bucket{le="+Inf"} %d', count)
    lines[#lines + 1] = string.format("marquee_key_check_seconds_sum %.6f", sum)
    lines[#lines + 1] = string.format("marquee_key_check_seconds_count %d", count)
    local root = require("marquee_docs").release_root()
    lines[#lines + 1] = "# HELP marquee_release_info The release nginx serves now (the `current` link)."
    lines[#lines + 1] = "# TYPE marquee_release_info gauge"
    lines[#lines + 1] = string.format('marquee_release_info{release="%s"} 1', root and root:match("([^/]+)$") or "")
    local edge = ngx.location.capture(conf.edge_metrics_path)
    lines[#lines + 1] = "# HELP marquee_edge_up Whether the edge answered this scrape."
    lines[#lines + 1] = "# TYPE marquee_edge_up gauge"
    lines[#lines + 1] = "marquee_edge_up " .. (edge.status == 200 and "1" or "0")
    ngx.header["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
    ngx.print(concat(lines, "\n"), "\n", edge.status == 200 and edge.body or "")
end

return M
