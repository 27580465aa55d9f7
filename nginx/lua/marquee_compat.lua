-- The OMDb dialect at /compat/ (edge/routes/compat.py answers all of it; this answers its commonest
-- request, a title by IMDb id, without the edge) and the gate's refusals in OMDb's words.
--
-- `?i=tt…` with nothing else but `plot`, `apikey`, `r=json`, `type`, `v` or `tomatoes` (names in any
-- case) is two release documents: the pointer `compat/imdb/{id}` names the title document
-- (site_gen/compat.py), which is served with its `/full` variant first for `plot=full`. Anything
-- else, and an id the release does not know, goes on to the edge's location.
local docs = require "marquee_docs"
local ngx = ngx
local lower, match, find, sub = string.lower, string.match, string.find, string.sub
local re_find = ngx.re.find

local M = {}

-- Parameters the precomputed answer does not depend on (`r` only as `json`).
local IGNORED = {apikey = true, v = true, tomatoes = true, type = true}
local conf  -- marquee/omdb.py's callback pattern, content types and poster base (control/services.py compat_conf)
-- A document's entry ({body, etag}, marquee_docs' cache's) -> the same with this node's posters: made
-- once per cached entry, and gone with it.
local on_node = setmetatable({}, {__mode = "k"})

function M.init(config)
    conf = config
end

-- marquee/omdb.py's with_poster_base: the entry with its Poster on this node's image host (the release
-- names the build host's), everything before the value's last slash replaced; the same entry when
-- that changes nothing, and for "N/A".
local function node_posters(entry)
    local done = on_node[entry]
    if done then return done end
    done = entry
    local body = entry[1]
    local _, stop = find(body, conf.poster_key, 1, true)
    local close = stop and find(body, '"', stop + 1, true)
    local value = close and sub(body, stop + 1, close - 1)
    local cut = value and value ~= conf.not_available and match(value, "^.*()/")
    if cut and sub(value, 1, cut - 1) ~= conf.poster_base then
        local rewritten = sub(body, 1, stop) .. conf.poster_base .. sub(body, stop + cut)
        done = {rewritten, ngx.md5(rewritten)}
    end
    on_node[entry] = done
    return done
end

function M.serve(edge)
    local method = ngx.req.get_method()
    if method ~= "GET" and method ~= "HEAD" then return docs.to_edge(edge) end
    local args = ngx.req.get_uri_args(16)
    local id, full
    for name, value in pairs(args) do
        if type(value) ~= "string" then return docs.to_edge(edge) end  -- repeated, or a bare name
        name = lower(name)
        if name == "i" then
            id = value
        elseif name == "plot" then
            full = lower(value) == "full"
        elseif name == "r" then
            if lower(value) ~= "json" then return docs.to_edge(edge) end
        elseif not IGNORED[name] then
            return docs.to_edge(edge)
        end
    end
    if id == nil or not re_find(id, "^tt[0-9]{7,10}$", "jo") then return docs.to_edge(edge) end
    local root = docs.release_root()
    if root == nil then return docs.to_edge(edge, "") end
    local pointer = docs.document(root, "/compat/imdb/" .. id, {""})
    local name = pointer and match(pointer, '"name":"([a-z0-9/]+)"')
    if name == nil then return docs.to_edge(edge, root) end  -- the edge words "Incorrect IMDb ID."
    local body, _, entry = docs.document(root, "/" .. name, full and {"/full", ""} or {""})
    if body == nil then return docs.to_edge(edge, root) end
    entry = node_posters(entry)
    return docs.respond_document(ngx.var.mq_door, entry[1], entry[2], entry)
end

local function xml_escape(text)
    return (text:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end

-- @omdb_denied: the gate's refusal ($auth_status, and $auth_body, OMDb's JSON from marquee/omdb.py)
-- as the request asked for its answers: XML for `r=xml`, JSONP for a `callback` (edge/routes/compat.py
-- words its own errors the same way, through marquee/omdb.py's `render`).
function M.denied()
    local var = ngx.var
    local body = var.auth_body
    local form = "json"
    local args = ngx.req.get_uri_args(16)
    local callback
    for name, value in pairs(args) do
        if type(value) == "string" then
            name = lower(name)
            if name == "r" and lower(value) == "xml" then form = "xml" end
            if name == "callback" and re_find(value, conf.callback, "jo") then
                callback = value
            end
        end
    end
    if form == "xml" then
        local text = match(body, '"Error":"(.-)"}') or ""
        body = '<?xml version="1.0" encoding="UTF-8"?><root response="False"><error>' .. xml_escape(text)
            .. '</error></root>'
    elseif callback then
        form = "jsonp"
        body = callback .. "(" .. body .. ")"
    end
    ngx.status = tonumber(var.auth_status) or 500
    ngx.header["Content-Type"] = conf.content_types[form]
    ngx.header["Content-Length"] = #body
    ngx.print(body)
    return ngx.exit(ngx.status)
end

return M
