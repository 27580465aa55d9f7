-- Release documents from the release's pack, as nginx serves them: the language rule, the
-- per-worker cache, composite documents spliced, gzip, ETags and 304s, JSONP, the list pack's pages.
--
-- Why a pack and not files: a million titles are ~105M documents, which as files cost 3.5 times
-- their bytes on disk and most of the build's time (docs/packed-releases.md). marquee_pack.lua
-- reads it (one read-only connection and statement per worker and release; a block decoded once
-- for all of its documents); `current` is resolved once per answer, so a publish or a rollback is
-- seen by the next request and every part of an answer comes from one release. Everything here
-- works on the JSON: the pack decompresses before anything else sees a document.
local ffi = require "ffi"
local lrucache = require "resty.lrucache"
local buffer = require "string.buffer"
local metrics = require "marquee_metrics"
local gzip = require "marquee_gzip"
local remembered = require "marquee_memo"
local localize = require "marquee_localize"
local pack_reader = require "marquee_pack"
local ngx = ngx
local sub, find, lower, byte = string.sub, string.find, string.lower, string.byte
local re_match, re_find, unescape_uri = ngx.re.match, ngx.re.find, ngx.unescape_uri

ffi.cdef [[
long readlink(const char *path, char *buf, size_t bufsiz);
typedef struct { long tv_sec; long tv_nsec; } mq_timespec;
int clock_gettime(int clock, mq_timespec *now);
]]

local CLOSE_BRACE, COMMA = 125, 44

local M = {}
local conf
local link_buf = ffi.new("char[4096]")
-- {key = root, db, stmt, dicts} per open release, newest last: the previous release's stays open
-- until a third appears, so answers in flight during a publish finish on the release they began with.
local opened = {}
local opened_lists = {}  -- the same for list packs (edge/list_pack.py), apart: a refresh must not close a release's

-- Documents by release and name, absent ones too, per worker: hot titles skip SQLite altogether,
-- and an appended answer reads six documents. A published release never changes and each has its
-- own folder, so an entry never goes stale.
local cache
local items  -- the composites' items, apart from documents (`item`)
local ABSENT = {}
local PAGES = {}  -- "1" .. conf.max_page -> its number: the pages a list pack may hold (M.serve_list)
local timespec = ffi.new("mq_timespec")
local MONOTONIC = 1  -- CLOCK_MONOTONIC: read in the vDSO, no system call
local varying  -- a PCRE finding a non-empty parameter of conf.lists_varying in the query string (M.init)
-- /3/configuration as this node answers it, whatever release it serves (control/services.py
-- docs_conf): its URI and its entry ({body, etag}, M.document's shape).
local CONFIGURATION_URI, node_configuration

function M.init(config)
    conf = config
    cache = assert(lrucache.new(conf.cached_documents))
    items = assert(lrucache.new(conf.cached_items))
    localize.init(conf)
    pack_reader.init(conf)
    gzip.init(conf.gzip_level)
    -- One scan of the query string for all of them (each $arg_x scans it again).
    varying = "(?:^|&)(?:" .. table.concat(conf.lists_varying, "|") .. ")=[^&]"
    for page = 1, conf.max_page do PAGES[tostring(page)] = page end
    CONFIGURATION_URI = conf.configuration_uri
    node_configuration = {conf.node_configuration, conf.node_configuration_etag}
    -- The list pack of whatever release is current, through the link (M.serve_list).
    conf.lists_dir = conf.current .. "/" .. conf.lists_folder .. "/"
    conf.lists_link = conf.lists_dir .. conf.lists_current
end

-- The release `current` points at (an absolute folder), or nil.
function M.release_root()
    local n = ffi.C.readlink(conf.current, link_buf, 4096)
    if n <= 0 then return nil end
    local target = ffi.string(link_buf, n)
    if sub(target, 1, 1) == "/" then return target end
    return conf.current_dir .. "/" .. target
end

local function release_pack(root)
    return pack_reader.open(opened, root, "file:" .. root .. "/" .. conf.pack_name .. "?immutable=1", root)
end

-- body, etag of the document `name` (`3/movie/603.de-DE.json`) in release `root`, or nil.
function M.get(root, name)
    local pack = release_pack(root)
    if pack == nil then return nil end
    return pack_reader.lookup(pack, name)
end

-- edge/languages.py's `suffix_for`, from its own pattern and table (conf.language_code,
-- conf.language_suffixes): a value's code, looked up; `missing` when it has none or is not served.
-- The value is decoded first, as the edge's query parser decodes it (`de%2DDE` is de-DE). Each raw
-- value's suffix (false: none) is remembered: decoding and matching one cost a list page 5 µs of
-- nginx (docs/benchmarks.md).
local suffix_of = remembered(function(value)
    local m = re_match(unescape_uri(value), conf.language_code, "jo")
    return m ~= nil and conf.language_suffixes[lower(m[1])] or false
end)
local function suffix_for(value, missing)
    if value == nil or value == "" then return "" end
    return suffix_of(value) or missing
end

-- The variant suffixes edge/languages.py's `candidates` tries for one request, in its order.
function M.suffixes(var)
    local language, fallback = var.arg_language, var.arg_fallback_language
    if (language == nil or language == "") and (fallback == nil or fallback == "") then
        return {""}
    end
    local list, seen = {}, {}
    local fb = conf.no_fallback  -- no fallback_language: the step is skipped, as the edge skips it
    if fallback ~= nil and fallback ~= "" then fb = suffix_for(fallback, conf.no_fallback) end
    local tries = {suffix_for(language, conf.untranslated), fb, conf.untranslated, ""}
    for _, suffix in ipairs(tries) do
        if suffix ~= conf.no_fallback and not seen[suffix] then
            seen[suffix] = true
            list[#list + 1] = suffix
        end
    end
    return list
end

-- A composite document's items (marquee/packs.py `assemble`, whose COMPOSITE_MARK, REFERENCE_NAME and ITEMS
-- come here as conf.composite_mark, conf.reference_other and conf.items): each `{"\u0001":"movie/603"}` is the
-- item `_items/movie/603.json`, and `{"\u0001":"movie/603",` the item with the entry's own fields
-- after its own. The items have a cache of their own, larger than the documents': the same
-- people and titles fill many lists (at a million films, 20,000 Zipf-drawn credits documents cite
-- 447,000 people, 122,000 distinct), and a cold credits document reads ~50 of them.
local function item(root, ref)
    local key = root .. "|" .. ref
    local entry = items:get(key)
    if entry == nil then
        local body = M.get(root, conf.items .. ref .. ".json")
        entry = body or ABSENT
        items:set(key, entry)
    end
    if entry == ABSENT then return nil end
    return entry
end

-- The assembled body, or nil when an item is missing (a broken release: answered as absent).
-- `item_of(root, ref, context)` gives an item's bytes: `item`, or marquee_localize's item in a
-- language (`context`: what it needs, so that it is a function made once, not per request).
-- Plain finds of the mark, each checked as conf.reference would match it, and the bytes copied
-- into a string.buffer: a credits document splices ~50 items, and a PCRE match and two new strings
-- an item were most of the cost of a cold one (docs/benchmarks.md).
local function assemble(root, body, item_of, context)
    item_of = item_of or item
    local mark = conf.composite_mark
    local out, stored = buffer.new(), ffi.cast("const char *", body)
    local at, from = 1, 1  -- copied up to `at`; the next mark searched from `from`
    while true do
        local start = find(body, mark, from, true)
        if start == nil then break end
        local name = start + #mark
        local quote = find(body, '"', name, true)
        local close = quote and byte(body, quote + 1)
        local ref = quote and quote > name and sub(body, name, quote - 1)
        if ref and (close == CLOSE_BRACE or close == COMMA) and not find(ref, conf.reference_other) then
            local part = item_of(root, ref, context)
            if part == nil then return nil end
            out:putcdata(stored + at - 1, start - at)
            if close == CLOSE_BRACE then  -- the item alone; else its own fields follow the entry's
                out:put(part)
            else
                out:putcdata(ffi.cast("const char *", part), #part - 1):put(",")
            end
            at = quote + 2
            from = at
        else
            from = start + 1  -- not a reference (REFERENCE would not match here either)
        end
    end
    out:putcdata(stored + at - 1, #body - at + 1)
    return out:tostring()
end

-- A miss of the worker's cache: the document `uri` .. `suffix` read from the pack (a composite
-- assembled), cached under `key` ({body, etag}, or ABSENT).
local function load(root, uri, suffix, key)
    metrics.add("docs|miss")
    local body, etag = M.get(root, sub(uri, 2) .. suffix .. ".json")
    if body and find(body, conf.composite_mark, 1, true) then
        body = assemble(root, body)
        etag = body and ngx.md5(body)  -- changes with the items, as the stored one would not
    end
    if body and etag == nil then etag = ngx.md5(body) end  -- a grouped pack keeps no ETags
    local entry = body and {body, etag} or ABSENT
    cache:set(key, entry)
    return entry
end

-- Whether no document of the template of `uri` has a language variant (the pack's VARIANTLESS shapes).
local function variantless(root, uri)
    local pack = release_pack(root)
    return pack ~= nil and pack.variantless[ngx.re.gsub(uri, conf.number_segment, "/#", "jo")] ~= nil
end

-- The first candidate of `uri` (`/3/movie/603`) that exists: body, etag, and its cache entry
-- ({body, etag}, to which M.serve adds the body's gzip). A path whose template has no variants is
-- looked up once, as its default, on the first miss of its first candidate (a cached answer pays
-- nothing for the check), and that key then holds the default's entry too.
function M.document(root, uri, tries)
    if uri == CONFIGURATION_URI then return node_configuration[1], node_configuration[2], node_configuration end
    for i = 1, #tries do
        local key = root .. "|" .. uri .. tries[i]
        local entry = cache:get(key)
        if entry ~= nil then
            metrics.add("docs|hit")
        elseif i == 1 and #tries > 1 and variantless(root, uri) then
            local default = root .. "|" .. uri
            entry = cache:get(default)
            if entry ~= nil then metrics.add("docs|hit") else entry = load(root, uri, "", default) end
            cache:set(key, entry)
            if entry == ABSENT then return nil end
        else
            entry = load(root, uri, tries[i], key)
        end
        if entry ~= ABSENT then return entry[1], entry[2], entry end
    end
    return nil
end

-- location /3/: one document, as try_files served files before packs, with its ETag.
local function finish(status)
    metrics.answered("document", status)
    return ngx.exit(status)
end

-- The JSONP function of this /3 request (marquee/jsonp.py), or nil: nginx's map $mq_callback has
-- checked the name against the pattern (a bad one never gets this far at /3).
local function jsonp_callback(var)
    if var.mq_callback ~= "ok" or var.mq_dialect ~= "tmdb" then return nil end
    return unescape_uri(var.arg_callback)  -- `$` may come as %24
end

-- Whether nginx sends this request gzip it made or stored (marquee_gzip): the client takes gzip and
-- names no JSONP callback (a script wraps the plain JSON).
function M.takes_gzip(var)
    return gzip.accepted(var.http_accept_encoding) and jsonp_callback(var) == nil
end

-- Send `body` with its ETag as a 200, or a 304 when the client holds it, counted under `door`;
-- as JSONP when the request names a callback (no ETag then: a script tag revalidates nothing).
-- `gzipped`: the body is the gzip of the JSON whose ETag is `etag`, for a request that takes gzip and
-- names no callback; its ETag is that one, weak, as nginx's gzip filter marks what it compresses.
function M.respond(door, body, etag, gzipped)
    local header = ngx.header
    local var = ngx.var
    local callback = not gzipped and jsonp_callback(var)
    if callback then
        body = callback .. "(" .. body .. ")"
        header["Content-Type"] = conf.jsonp_content_type
        header["Content-Length"] = #body
        metrics.answered(door, 200)
        return ngx.print(body)
    end
    header["Content-Type"] = "application/json; charset=utf-8"
    if gzipped then
        -- nginx's gzip filter leaves a body with a Content-Encoding alone, and so adds no Vary itself.
        header["Content-Encoding"] = "gzip"
        header["Vary"] = "Accept-Encoding"
    end
    etag = '"' .. etag .. '"'
    header["ETag"] = gzipped and "W/" .. etag or etag
    local match = var.http_if_none_match
    if match and (match == "*" or find(match, etag, 1, true)) then
        metrics.answered(door, 304)
        return ngx.exit(304)
    end
    header["Content-Length"] = #body
    metrics.answered(door, 200)
    ngx.print(body)
end

function M.serve()
    local method = ngx.req.get_method()
    if method ~= "GET" and method ~= "HEAD" then return finish(405) end
    local root = M.release_root()
    if root == nil then return finish(404) end
    local uri, tries = ngx.var.uri, M.suffixes(ngx.var)
    local entry
    if tries[1] ~= "" and localize.applies(uri) then  -- a title list in a language
        entry = localize.list(M, root, uri, tries)
    else
        entry = select(3, M.document(root, uri, tries))
    end
    if entry == nil then return finish(404) end
    return M.respond_document("document", entry[1], entry[2], entry)
end

-- For marquee_localize: items, assembly and the worker's cache, as this module uses them.
M.item, M.assemble = item, assemble
function M.cached(key) return cache:get(key) end
function M.remember(key, entry) cache:set(key, entry) end
M.ABSENT = ABSENT

-- The stored bytes of the first candidate of `uri` that exists, as M.document finds it, but neither
-- assembled (a composite's skeleton) nor cached: marquee_localize makes a list in a language from
-- them, which needs no list in the default language made first (twenty items spliced and hashed).
function M.stored(root, uri, tries)
    if #tries > 1 and variantless(root, uri) then tries = {""} end
    for i = 1, #tries do
        local body = M.get(root, sub(uri, 2) .. tries[i] .. ".json")
        if body then return body end
    end
    return nil
end

-- The body of the first candidate of `uri` that exists, as M.document finds it, but making no entry
-- for it (no ETag, nothing cached): marquee_localize takes a listed title's texts from its details
-- this way when the release's search index has no table of them, and twenty details a list would
-- otherwise push hot documents out of the cache.
function M.body(root, uri, tries)
    local body = M.stored(root, uri, tries)
    if body and find(body, conf.composite_mark, 1, true) then  -- not a details document: as M.document
        local found = select(3, M.document(root, uri, tries))
        return found and found[1]
    end
    return body
end

-- M.respond for what M.document found (body, etag, entry): a client that takes gzip gets the
-- document's gzip, made once per worker (marquee_gzip) and kept in its entry; below nginx's
-- gzip_min_length it gets the JSON, as the filter would have sent it.
function M.respond_document(door, body, etag, entry)
    if #body >= conf.gzip_min_length and M.takes_gzip(ngx.var) then
        local packed = entry[3]
        if packed == nil then
            packed = gzip.of(body)
            entry[3] = packed
        end
        if packed then return M.respond(door, packed, etag, true) end
    end
    return M.respond(door, body, etag)
end

-- Hand a request the release did not precompute to the route's edge location `edge`, under the
-- release nginx caches the edge's answers by (`$mq_release`, named locations keep it). Set here,
-- not in the access phase: a precomputed answer never needs it, and each readlink costs.
function M.to_edge(edge, root)
    ngx.var.mq_release = root or M.release_root() or ""
    return ngx.exec(edge)
end

local list_days = {}  -- list pack name -> the UTC day it was computed for
local day_at, day_string = -1, ""

-- Today's UTC date (`2026-11-25`), formatted once a second.
local function utc_day()
    local now = ngx.time()
    if now ~= day_at then
        day_at, day_string = now, os.date("!%Y-%m-%d", now)
    end
    return day_string
end

-- The stamp `current/lists/current` names (edge/list_pack.py), read again once conf.lists_link_us
-- have passed: whatever re-points it waits longer than that before it returns
-- (marquee/releases.py `settle_links`).
local stamp_read_at, stamp_read = -1e18, nil
local function list_stamp()
    ffi.C.clock_gettime(MONOTONIC, timespec)
    local now = tonumber(timespec.tv_sec) * 1e6 + tonumber(timespec.tv_nsec) / 1e3
    if now - stamp_read_at >= conf.lists_link_us then
        local n = ffi.C.readlink(conf.lists_link, link_buf, 4096)
        stamp_read = n > 0 and ffi.string(link_buf, n) or nil
        stamp_read_at = now
    end
    return stamp_read
end

-- A precomputed title list or trending page (a route with `precomputed`), as the edge would answer
-- it: from the release's list pack when the request names nothing but a page and a language the
-- pack holds that page in, and the pack is today's (UTC); anything else goes on to the edge's
-- location `edge`. `current/lists/current` names the pack by its stamp, unique within a home
-- (edge/list_pack.py), and the file is opened through `current` on first use.
function M.serve_list(edge)
    local var = ngx.var
    local method = ngx.req.get_method()
    if method ~= "GET" and method ~= "HEAD" then return M.to_edge(edge) end
    local page = var.arg_page
    local number = 1
    if page ~= nil and page ~= "" then
        number = PAGES[page]
        if number == nil then return M.to_edge(edge) end  -- the edge answers TMDB's error
    else
        page = "1"
    end
    local args = var.args
    if args and re_find(args, varying, "jo") then return M.to_edge(edge) end
    local suffix = suffix_for(var.arg_language, conf.untranslated)
    if suffix ~= "" and (suffix == conf.untranslated or number > conf.localized_pages) then
        return M.to_edge(edge)
    end
    local uri = var.uri
    if sub(uri, -1) == "/" then return M.to_edge(edge) end
    local stamp = list_stamp()
    if stamp == nil then return M.to_edge(edge) end
    local pack = pack_reader.open(opened_lists, stamp, "file:" .. conf.lists_dir .. stamp .. "?immutable=1", nil)
    if pack == nil then return M.to_edge(edge) end
    local day = list_days[stamp]
    if day == nil then
        day = pack_reader.lookup(pack, conf.lists_day_row) or ""
        list_days = {[stamp] = day}  -- only the newest: a refresh every 30 minutes must not grow the table
    end
    if day ~= utc_day() then return M.to_edge(edge) end
    local name = sub(uri, 2) .. suffix .. "?page=" .. page
    -- The page's gzipped row for a client that takes gzip (most do): compressing it again per answer
    -- cost nginx more than the rest of the answer. A JSONP answer wraps the plain JSON.
    local gzipped = M.takes_gzip(var)
    if gzipped then name = name .. conf.lists_gzip_suffix end
    local key = stamp .. "|" .. name
    local entry = cache:get(key)
    if entry == nil then
        local body, etag = pack_reader.lookup(pack, name)
        entry = body and {body, etag} or ABSENT
        cache:set(key, entry)
    end
    if entry == ABSENT then return M.to_edge(edge) end  -- past the last page: the edge's empty page
    return M.respond(var.mq_door, entry[1], entry[2], gzipped)
end

-- header_filter and body_filter of the locations whose answers nginx does not write itself (the
-- edge's, the appends', the refusals): a JSON answer to a request with a callback goes out as JSONP.
function M.jsonp_header()
    local callback = jsonp_callback(ngx.var)
    local header = ngx.header
    local kind = header["Content-Type"]
    if callback == nil or ngx.status == 304 or kind == nil or find(kind, "application/json", 1, true) ~= 1 then
        return
    end
    ngx.ctx.jsonp = callback
    header["Content-Type"] = conf.jsonp_content_type
    header["Content-Length"] = nil
    header["ETag"] = nil
end

function M.jsonp_body()
    local ctx = ngx.ctx
    local callback = ctx.jsonp
    if callback == nil then return end
    if not ctx.jsonp_open then
        ctx.jsonp_open = true
        ngx.arg[1] = callback .. "(" .. ngx.arg[1]
    end
    if ngx.arg[2] then
        ngx.arg[1] = ngx.arg[1] .. ")"
    end
end

return M
