-- What clients ask the edge most, and the warm requests a publish replays (marquee/warm.py).
--
-- nginx caches the edge's answers by release (`$mq_release|$uri|$mq_query|…`), so a new release starts
-- with none: at 1M titles the first seconds after a publish waited on the edge (issue 30, part 3).
-- So nginx counts what its cacheable edge routes answered (`count`, in the log phase, in a shared
-- dict that forgets the least used first), the admin listener lists the most asked (`asked`), and a
-- publish replays them with the service's warm token (`admit`): nginx caches those answers under the
-- new release's key, from the edge answering for that release, before `current` points at it.
local M = {}
local conf
local asked = ngx.shared.marquee_asked

function M.init(config)
    conf = config
end

-- Log phase of a cacheable edge route: one more ask of this path and query in this encoding (the
-- cache holds gzip and plain answers apart), when answered 200.
function M.count()
    local var = ngx.var
    if ngx.status ~= 200 or var.mq_warm ~= "" then return end
    local key = var.mq_edge_encoding .. "\t" .. var.uri .. "?" .. var.mq_query
    if #key <= conf.max_key then asked:incr(key, 1, 0) end
end

-- A warm request (the service's token in X-Marquee-Warm, a release's folder name in
-- X-Marquee-Warm-Release): true, with the answer cached under that release's key and the edge told
-- to answer from it, unmetered. Any other request is the gate's (false).
function M.admit()
    local var = ngx.var
    local token = var.http_x_marquee_warm
    if token == nil or token ~= conf.token then return false end
    local name = var.http_x_marquee_warm_release
    if name == nil or not ngx.re.find(name, conf.release_name, "jo") then  -- marquee/releases.py RELEASE_NAME
        return ngx.exit(400)
    end
    var.mq_warm = name
    var.mq_release = conf.current_dir .. "/" .. conf.releases_folder .. "/" .. name
    var.mq_query = var.args or ""
    var.rl_limit = "0"  -- X-Marquee-Admitted with a limit alone: unmetered (edge/content_listener.py)
    return true
end

-- GET /asked?n=N on the admin listener: the N most asked edge requests, most first, one
-- `count<TAB>encoding<TAB>path?query` a line (the encoding `gzip` or empty).
function M.serve()
    local rows = {}
    for _, key in ipairs(asked:get_keys(0)) do
        local count = asked:get(key)
        if count then rows[#rows + 1] = {count, key} end
    end
    table.sort(rows, function(a, b) return a[1] > b[1] end)
    local n = math.min(tonumber(ngx.var.arg_n) or 1000, #rows)
    local lines = {}
    for i = 1, n do lines[i] = rows[i][1] .. "\t" .. rows[i][2] end
    ngx.header["Content-Type"] = "text/plain"
    ngx.print(table.concat(lines, "\n"), n > 0 and "\n" or "")
end

return M
