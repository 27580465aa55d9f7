-- append_to_response inside nginx, for the common case.
--
-- Why: with the key check in nginx, a plain details call costs nginx about 60 µs, and handing an
-- appended call to the edge cost about 140 µs of Python on top (py-spy: no single hot spot, the
-- interpreter throughout), three times a plain call against a target of two. Splicing is the
-- same byte operation as edge/assemble.py: each sub-resource file starts with `{"id":…,`, which
-- is cut off, and the rest is pasted under its name. Anything that needs a JSON parse (an image
-- filter, a title list in another language, `trailers`, merged video languages, pages) or an
-- error answer goes to the edge, which has the whole rule; the names and their namespaces come
-- from edge/content.py through nginx/marquee.conf.j2, so both sides read one table.
local docs = require "marquee_docs"
local gzip = require "marquee_gzip"
local lrucache = require "resty.lrucache"
local metrics = require "marquee_metrics"
local ngx = ngx
local sub, gmatch, concat = string.sub, string.gmatch, table.concat
local re_match, re_find = ngx.re.match, ngx.re.find

local M = {}
local conf
-- Appended answers' gzip by release, path, variants and names, per worker: compressing a details
-- call with five appends (tens of KB) on every answer cost nginx more than splicing it (clients
-- taking gzip had the appended call at 3.2 times a plain one's cost; docs/benchmarks.md). A
-- release never changes, so an entry never goes stale. ~8 KB each: ~16 MB when full.
local GZIPPED_ANSWERS = 2000
local gzipped

function M.init(config)
    conf = config
    gzipped = assert(lrucache.new(GZIPPED_ANSWERS))
end

-- `{"id":1,"cast":[]}` -> `,"credits":{"cast":[]}` (edge/content.py `without_id`, whose pattern
-- this is: conf.id_prefix).
local function appended(name, part)
    local m = re_match(part, conf.id_prefix, "jo")
    if m == nil then return ',"' .. name .. '":' .. part end
    if m[1] == "}" then return ',"' .. name .. '":{}' end
    return ',"' .. name .. '":{' .. sub(part, #m[0] + 1)
end

-- edge/content.py's DETAIL_PATHS, in its order and with its patterns (conf.detail_paths).
local function namespace_of(uri)
    local paths = conf.detail_paths
    for i = 1, #paths do
        if re_find(uri, paths[i][2], "jo") then return paths[i][1] end
    end
    return nil
end

-- The answer's pieces, and the release, variants and names it was spliced from; nil when the edge
-- must answer.
local function assemble(var)
    local method = ngx.req.get_method()
    if method ~= "GET" and method ~= "HEAD" then return nil end
    local page = var.arg_page
    if (page ~= nil and page ~= "" and page ~= "1") or var.arg_include_image_language
            or var.arg_include_video_language then
        return nil
    end
    local uri = var.uri
    local namespace = namespace_of(uri)
    local names_arg = var.arg_append_to_response
    if namespace == nil or names_arg == nil then return nil end
    names_arg = ngx.unescape_uri((names_arg:gsub("%+", " ")))  -- a query string's `+` is a space
    -- The variants every part is read from; the first is not the default document when `language`
    -- asks for another (then a title list must be localised, which only the edge does).
    local tries = docs.suffixes(var)
    local appendable, translated = conf.appendable[namespace], tries[1] ~= ""
    local language_given = (var.arg_language or "") ~= ""
    local names, seen, count = {}, {}, 0
    for raw in gmatch(names_arg, "[^,]+") do
        local name = raw:gsub("^%s+", ""):gsub("%s+$", "")
        if name ~= "" then
            count = count + 1
            if not seen[name] then
                seen[name] = true
                local resource = conf.legacy[name] or name
                local known = appendable[resource] and (conf.legacy[name] == nil or namespace == "movie")
                if known then
                    if conf.needs_edge[name] or (translated and conf.localized[resource])
                            or (language_given and resource == "images") then
                        return nil
                    end
                    names[#names + 1] = {name, resource}
                end
            end
        end
    end
    if count > conf.max_append then return nil end  -- the edge answers 400/27

    local root = docs.release_root()
    if root == nil then return nil end
    local body = docs.document(root, uri, tries)
    if body == nil then return nil end  -- the edge answers 404/34
    local pieces = {sub(body, 1, -2)}
    for i = 1, #names do
        local name, resource = names[i][1], names[i][2]
        local part = docs.document(root, uri .. "/" .. resource, tries)
        if part then pieces[#pieces + 1] = appended(name, part) end
    end
    pieces[#pieces + 1] = "}"
    return pieces, root, tries, names
end

-- The gzip of the answer spliced from release `root`'s `uri` in variants `tries` with `names`, made
-- from `pieces` the first time (false: too small to). Its key is built only for clients taking gzip.
local function gzip_of(pieces, root, uri, tries, names)
    local key = {root, uri, concat(tries, ",")}
    for i = 1, #names do key[i + 3] = names[i][1] end
    key = concat(key, "|")
    local packed = gzipped:get(key)
    if packed == nil then
        local body = concat(pieces)
        packed = #body >= conf.gzip_min_length and gzip.of(body) or false
        gzipped:set(key, packed)
    end
    return packed
end

function M.content()
    local var = ngx.var
    local pieces, root, tries, names = assemble(var)
    if pieces == nil then
        return ngx.exec("@edge_proxy")
    end
    local header = ngx.header
    header["Content-Type"] = "application/json;charset=utf-8"
    header["Cache-Control"] = conf.cache_control
    metrics.answered("append", 200)
    local packed = docs.takes_gzip(var) and gzip_of(pieces, root, var.uri, tries, names)
    if packed then  -- nginx's gzip filter leaves a body with a Content-Encoding alone
        header["Content-Encoding"] = "gzip"
        header["Vary"] = "Accept-Encoding"
        header["Content-Length"] = #packed
        return ngx.print(packed)
    end
    ngx.print(pieces)
end

return M
