-- The key check and the sliding-window limit inside nginx, for every /3 request nginx takes
-- (edge/gate.py is the same decision in the edge, for a request that reaches it unchecked).
--
-- Why here: an auth_request subrequest to the edge cost nginx about 30 µs a request, more than
-- the static file itself, and the edge's Python added 38 µs on top (docs/benchmarks.md). Deciding
-- in the request's own access phase needs no subrequest and no Python: one SHA-256 and a share of
-- one EVALSHA of edge/gate.lua, the edge's own script on the edge's own Redis names.
--
-- The script reads the key's grant in Redis (marquee/grants.py), which every key command writes
-- before it returns, so a new, suspended or deleted key is in effect at once on every door and
-- node. The registry export the edge writes (marquee/registry.py, `export_grants`: SHA-256
-- digests only, re-read when its serial changes) is the fallback: the script uses it while Redis
-- has no registry loaded, and the gate checks keys against it while Redis is down.
local ffi = require "ffi"
local semaphore = require "ngx.semaphore"
local metrics = require "marquee_metrics"
local ngx = ngx
local sub, byte, tonumber, floor = string.sub, string.byte, tonumber, math.floor

local M = {}

local conf            -- the table nginx/marquee.conf.j2 passes to init()
local grants = {}     -- binary SHA-256 of a key -> the export's grant (see load_grants)
local serial          -- the export's serial when `grants` was loaded
local script_body, script_sha
local window_arg      -- the window length, RESP-encoded once: every call sends the same
local EMPTY_ARG = "$0\r\n\r\n"  -- no fallback: the key is not in the export
local limited_bodies = {}  -- the 429 bodies by dialect and limit (TMDB's names the limit)

ffi.cdef [[unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md);]]
local digest_buf = ffi.new("unsigned char[32]")
local function sha256_bin(text)
    ffi.C.SHA256(text, #text, digest_buf)  -- OpenSSL, which nginx links
    return ffi.string(digest_buf, 32)
end

local function unhex(text)
    return (text:gsub("..", function(pair) return string.char(tonumber(pair, 16)) end))
end

local function bulk(text)
    return "$" .. #text .. "\r\n" .. text .. "\r\n"
end

local function read_file(path)
    local file = io.open(path, "rb")
    if not file then return nil end
    local text = file:read("*a")
    file:close()
    return text
end

local function load_grants()
    local current = read_file(conf.serial_path)
    if current == nil or current == serial then return end
    local text = read_file(conf.grants_path)
    if text == nil then return end
    local loaded = {}
    -- digest_hex \t account_id \t limit \t key_state \t account_state
    for digest, account_id, limit, key_state, account_state in
            text:gmatch("(%x+)\t(%d+)\t(%d+)\t(%a+)\t(%a+)\n") do
        -- The script's fallback is the grant's value as marquee/grants.py writes it to Redis.
        local value = account_id .. " " .. limit .. " " .. key_state .. " " .. account_state
        loaded[unhex(digest)] = {account_id = account_id, limit = limit, key_state = key_state,
                                 account_state = account_state, fallback_arg = bulk(value)}
    end
    grants, serial = loaded, current
end

function M.init(config)
    conf = config
    window_arg = bulk(conf.window_us)
    script_body = assert(read_file(conf.script_path), "cannot read " .. conf.script_path)
    script_sha = (ngx.sha1_bin(script_body):gsub(".", function(c) return string.format("%02x", byte(c)) end))
end

local logged = {refused = 0, admitted = 0}

local function log_redis_down()
    local dict = ngx.shared.marquee_gate
    for outcome, before in pairs(logged) do
        local now = dict:get(outcome) or 0
        if now > before then
            ngx.log(ngx.ALERT, "redis_down_", outcome, " count=", now, " error=", dict:get("last_error"))
            logged[outcome] = now
        end
    end
end

function M.init_worker()
    load_grants()
    -- Registry changes (new, suspended, deleted keys; plan changes) within one poll interval.
    ngx.timer.every(conf.poll_seconds, function(premature)
        if premature then return end
        load_grants()
        if ngx.worker.id() == 0 then log_redis_down() end
    end)
end

-- TMDB's 429 names the account's limit: its body per dialect and limit, made once.
local function rate_limited_body(dialect, template, limit)
    local key = dialect .. "|" .. limit
    local body = limited_bodies[key]
    if body == nil then
        body = template:gsub(conf.limit_placeholder, limit)
        limited_bodies[key] = body
    end
    return body
end

-- Refusals go to nginx's @denied location, which answers from these variables. The gate decides
-- (`refusal`: invalid_key, suspended_key, plan_expired, rate_limited, service_offline); the
-- location's dialect ($mq_dialect) words it, from the table edge/errors.py renders for it.
local function deny(refusal, limit)
    local var = ngx.var
    local answer = conf.refusals[var.mq_dialect][refusal]
    metrics.answered(var.mq_door, answer.status)
    var.auth_status = answer.status
    var.auth_body = refusal == "rate_limited" and rate_limited_body(var.mq_dialect, answer.body, limit) or answer.body
    if limit then var.rl_limit = limit end
    return ngx.exit(401)
end

local function count(what)
    ngx.shared.marquee_gate:incr(what, 1, 0)
end

-- Without Redis the key is checked against the export, then the policy decides. Counted here,
-- logged by the worker's timer: a log line written inside a request would carry nginx's
-- `request: "GET …?api_key=…"` suffix, and so the key.
local function redis_down(grant, err)
    if grant == nil then metrics.add("decision|unknown_key"); return deny("invalid_key") end
    if grant.key_state ~= "active" then
        metrics.add("decision|suspended_key")
        return deny("suspended_key")
    end
    if grant.account_state ~= "active" then
        metrics.add("decision|plan_expired")
        return deny("plan_expired")
    end
    ngx.var.mq_account = grant.account_id
    ngx.shared.marquee_gate:set("last_error", err)
    if conf.redis_down_policy == "admit" then
        metrics.add("decision|redis_down_admitted")
        count("admitted")
        ngx.var.rl_limit = grant.limit
        ngx.header["X-Marquee-Unmetered"] = "1"
        return
    end
    metrics.add("decision|redis_down_refused")
    count("refused")
    ngx.var.retry_after = "5"
    return deny("service_offline", grant.limit)
end

local function key_of(var)
    local key = var.arg_api_key
    if (key == nil or key == "") and var.mq_dialect == "omdb" then
        -- OMDb's name, looked for only at its door; nginx matches a name in any case (`APIKEY` too).
        key = var.arg_apikey
    end
    if key ~= nil and key ~= "" then return key end
    local authorization = var.http_authorization
    if authorization and sub(authorization, 1, 7):lower() == "bearer " then
        return (sub(authorization, 8):gsub("^%s+", ""):gsub("%s+$", ""))
    end
    return nil
end

-- Hits are batched per worker, as the edge batches them (edge/ratelimit.py): every hit that
-- arrives while one EVALSHA is in flight joins the next one. Redis runs the script atomically
-- and in arrival order, so the window stays exact, while Redis's per-call cost (a read, a
-- write and a script call: about 20 µs) is shared by the batch instead of paid per request.
local queue = {}        -- hits waiting for the next call: {grant_arg=, fallback_arg=, sema=, ...}
local in_flight = false -- whether some request is leading a call now

local function connect()
    local sock = ngx.socket.tcp()
    sock:settimeouts(conf.redis_timeout_ms, conf.redis_timeout_ms, conf.redis_timeout_ms)
    local ok, err
    if conf.redis_port then
        ok, err = sock:connect(conf.redis_host, conf.redis_port)
    else
        ok, err = sock:connect(conf.redis_host)  -- "unix:/path"
    end
    if not ok then return nil, "connect " .. tostring(err) end
    if conf.redis_db ~= "0" and sock:getreusedtimes() == 0 then
        sock:send("*2\r\n$6\r\nSELECT\r\n" .. bulk(conf.redis_db))
        if sock:receive() ~= "+OK" then sock:close(); return nil, "select" end
    end
    return sock
end

local function command(verb, script, batch)
    local n = #batch
    local parts = {"*", 4 + 2 * n, "\r\n", bulk(verb), bulk(script), bulk(tostring(n))}
    for i = 1, n do parts[#parts + 1] = batch[i].grant_arg end
    parts[#parts + 1] = window_arg
    for i = 1, n do parts[#parts + 1] = batch[i].fallback_arg end
    return table.concat(parts)
end

-- One call for the whole batch; each hit gets status, account, limit, remaining, reset ms and retry ms, or err.
local function call(batch)
    local sock, err = connect()
    if not sock then return err end
    local ok
    ok, err = sock:send(command("EVALSHA", script_sha, batch))
    if not ok then sock:close(); return "send " .. tostring(err) end
    local head
    head, err = sock:receive()
    if head and sub(head, 1, 9) == "-NOSCRIPT" then
        -- A restarted or flushed Redis forgot the script: EVAL sends it and caches it again.
        sock:send(command("EVAL", script_body, batch))
        head, err = sock:receive()
    end
    if head ~= "*" .. 6 * #batch then sock:close(); return "reply " .. tostring(head or err) end
    for i = 1, #batch do
        local hit = batch[i]
        local status = sock:receive()
        local account = sock:receive()
        local limit = sock:receive()
        local remaining = sock:receive()
        local reset = sock:receive()
        local retry
        retry, err = sock:receive()
        if not retry then sock:close(); return "reply " .. tostring(err) end
        hit.status, hit.account, hit.limit, hit.remaining = sub(status, 2), sub(account, 2), sub(limit, 2),
            sub(remaining, 2)
        hit.reset_ms, hit.retry_ms = tonumber(sub(reset, 2)), tonumber(sub(retry, 2))
    end
    sock:setkeepalive(conf.redis_keepalive_ms, conf.redis_pool)
    return nil
end

-- Called by the request that leads: send the queue, wake its hits, hand the lead on to the
-- first hit still waiting in the next batch (one that timed out can no longer lead).
local function lead()
    repeat
        local batch = queue
        queue = {}
        -- Timed once per call, not per request: ngx.update_time formats nginx's cached time strings.
        ngx.update_time()
        local started = ngx.now()
        local err = call(batch)
        ngx.update_time()
        metrics.observe_key_check(ngx.now() - started, #batch)
        for i = 1, #batch do
            local hit = batch[i]
            hit.err, hit.done = err, true
            if hit.sema then hit.sema:post(1) end
        end
        for i = 1, #queue do
            local next_hit = queue[i]
            if not next_hit.abandoned then
                next_hit.leads = true
                next_hit.sema:post(1)
                return
            end
        end
    until #queue == 0
    in_flight = false
end

local function hit(grant_arg, fallback_arg)
    local entry = {grant_arg = grant_arg, fallback_arg = fallback_arg}
    queue[#queue + 1] = entry
    if not in_flight then
        in_flight = true
        lead()
    else
        entry.sema = semaphore.new()
        local ok = entry.sema:wait(conf.redis_timeout_ms / 500)
        if entry.leads and not entry.done then
            entry.sema = nil
            lead()
        elseif not ok then
            entry.abandoned = true  -- still sent with its batch: counted, so never under-counted
            entry.err = "timeout waiting for the window"
        end
    end
    return entry
end

-- The script's statuses (edge/gate.lua): 0 admitted, 1 unknown key, 2 suspended, 3 expired, 4 limited.
local DECISIONS = {["0"] = "decision|admitted", ["1"] = "decision|unknown_key", ["2"] = "decision|suspended_key",
                   ["3"] = "decision|plan_expired", ["4"] = "decision|limited"}

-- The query string as the access log may show it: without `api_key` or OMDb's `apikey` (nginx
-- matches the name in any case, so the pattern does too). The path is logged apart ($uri); a key in a header never is.
local function loggable_query(args, key)
    if args == nil then return "" end
    -- The common query is the key alone: no pattern needed.
    if key and #args == 8 + #key and sub(args, 9) == key and sub(args, 1, 8):lower() == "api_key=" then
        return ""
    end
    local query = ngx.re.gsub(args, [[(?:^|&)api_?key=[^&]*]], "", "joi")
    if byte(query, 1) == 38 then query = sub(query, 2) end  -- the "&" the first parameter left
    return query
end

function M.access()
    local var = ngx.var
    local key = key_of(var)
    var.mq_query = loggable_query(var.args, key)
    if key == nil then
        metrics.add("decision|malformed_key")
        return deny("no_key")
    end
    if #key ~= 32 or key:find("[^0-9a-f]") then
        metrics.add("decision|malformed_key")
        return deny("invalid_key")
    end
    local digest = sha256_bin(key)
    local grant = grants[digest]
    local name = conf.grant_prefix .. ngx.encode_base64(digest)
    local window = hit(bulk(name), grant and grant.fallback_arg or EMPTY_ARG)
    if window.err then return redis_down(grant, window.err) end
    local status = window.status
    metrics.add(DECISIONS[status])
    if status == "1" then return deny("invalid_key") end
    var.mq_account = window.account
    if status == "2" then return deny("suspended_key") end
    if status == "3" then return deny("plan_expired") end
    var.rl_limit = window.limit
    var.rl_remaining = window.remaining
    var.rl_reset = -floor(-window.reset_ms / 1000)
    if status ~= "0" then
        local retry = -floor(-window.retry_ms / 1000)
        var.retry_after = retry > 1 and retry or 1
        return deny("rate_limited", window.limit)
    end
end

-- /healthz: the gate's own counters ride to the edge, which reports them with its own.
function M.health_header()
    local dict = ngx.shared.marquee_gate
    local keys = 0
    for _ in pairs(grants) do keys = keys + 1 end
    return string.format("refused=%d;admitted=%d;keys=%d",
        dict:get("refused") or 0, dict:get("admitted") or 0, keys)
end

return M
