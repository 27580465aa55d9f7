-- Release documents from the release's pack (marquee/packs.py), read through LuaJIT FFI.
--
-- Why a pack and not files: a million titles are ~77M documents, which as files cost 3.5 times
-- their bytes on disk and most of the build's time (docs/packed-releases.md). One indexed SELECT
-- costs ~10 µs of nginx CPU more than try_files on a file. Each worker keeps one read-only
-- connection and one prepared statement per release; `current` is resolved once per answer, so a
-- publish or a rollback is seen by the next request and every part of an answer comes from one
-- release. A rebuilt release's pack is a delta over a base (a hard link to a full pack): its
-- statement looks in the delta, then in the base, and a delta row with a NULL body (a tombstone)
-- is an absent document. A full pack keeps the one-lookup statement. A body stored as a zstd frame
-- is decompressed with its pack's dictionary (marquee_zstd.lua) before anything else sees it, so
-- the cache, ETags, gzip and splicing all work on the JSON.
local ffi = require "ffi"
local lrucache = require "resty.lrucache"
local buffer = require "string.buffer"
local metrics = require "marquee_metrics"
local gzip = require "marquee_gzip"
local zstd = require "marquee_zstd"
local remembered = require "marquee_memo"
local localize = require "marquee_localize"
local ngx = ngx
local sub, find, lower = string.sub, string.find, string.lower
local re_match, re_find, unescape_uri = ngx.re.match, ngx.re.find, ngx.unescape_uri

ffi.cdef [[
typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
int sqlite3_close_v2(sqlite3 *db);
int sqlite3_prepare_v2(sqlite3 *db, const char *sql, int bytes, sqlite3_stmt **stmt, const char **tail);
int sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes, void *destructor);
int sqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *blob, int bytes, void *destructor);
int sqlite3_bind_int64(sqlite3_stmt *stmt, int index, long long value);
int sqlite3_step(sqlite3_stmt *stmt);
const void *sqlite3_column_blob(sqlite3_stmt *stmt, int column);
const unsigned char *sqlite3_column_text(sqlite3_stmt *stmt, int column);
int sqlite3_column_bytes(sqlite3_stmt *stmt, int column);
int sqlite3_column_int(sqlite3_stmt *stmt, int column);
int sqlite3_reset(sqlite3_stmt *stmt);
int sqlite3_finalize(sqlite3_stmt *stmt);
long readlink(const char *path, char *buf, size_t bufsiz);
typedef struct { long tv_sec; long tv_nsec; } mq_timespec;
int clock_gettime(int clock, mq_timespec *now);
]]

local sqlite = ffi.load("libsqlite3.so.0")
local OPEN_READONLY, OPEN_URI, OPEN_NOMUTEX = 0x00000001, 0x00000040, 0x00008000
local ROW = 100
-- A pack's rows (marquee/packs.py, `PRAGMA user_version`): PACK_FORMAT's are groups of documents,
-- keyed by the first KEY_BYTES of the MD5 of the group, each a block of its documents (no ETag:
-- it is the MD5 of the document); ROW_FORMAT's a document each, keyed by its name's MD5, with its
-- ETag's 16 bytes; a pack written before (0) a document each by name, the ETag in hex. `%s` is
-- the key column, `%c` the columns.
local SELECT = "SELECT %c FROM docs WHERE %s = ?"
-- Both branches search their own index of keys; UNION ALL runs them in order and LIMIT 1 stops
-- at the delta's row when there is one (marquee/packs.py's `first`).
local SELECT_DELTA = "SELECT %c FROM main.docs WHERE %s = ?1 "
    .. "UNION ALL SELECT %c FROM base.docs WHERE %s = ?1 LIMIT 1"
local md5_bin, format, byte = ngx.md5_bin, string.format, string.byte
local CLOSE_BRACE, COMMA = 125, 44
local HEX16 = string.rep("%02x", 16)
local TRANSIENT = ffi.cast("void *", -1)
-- A delta holds copies of its base's dictionaries (marquee/packs.py), so main's are all there are.
local SELECT_DICT = "SELECT dict FROM main.dicts WHERE id = ?"
-- The pack's VARIANTLESS shapes (marquee/packs.py META_TABLE); a delta's are whole, not a change.
local SELECT_META = "SELECT value FROM main.meta WHERE key = ?1"

local M = {}
local conf
local link_buf = ffi.new("char[4096]")
local db_out = ffi.new("sqlite3*[1]")
local stmt_out = ffi.new("sqlite3_stmt*[1]")
-- {key = root, db, stmt, dicts} per open release, newest last: the previous release's stays open
-- until a third appears, so answers in flight during a publish finish on the release they began with.
local opened = {}
local opened_lists = {}  -- the same for list packs (edge/list_pack.py), apart: a refresh must not close a release's

-- Documents by release and name, absent ones too, per worker: hot titles skip SQLite altogether,
-- and an appended answer reads six documents. A published release never changes and each has its
-- own folder, so an entry never goes stale.
local cache
local ABSENT = {}
local PAGES = {}  -- "1" .. conf.max_page -> its number: the pages a list pack may hold (M.serve_list)
local timespec = ffi.new("mq_timespec")
local MONOTONIC = 1  -- CLOCK_MONOTONIC: read in the vDSO, no system call
local varying  -- a PCRE finding a non-empty parameter of conf.lists_varying in the query string (M.init)

function M.init(config)
    conf = config
    cache = assert(lrucache.new(conf.cached_documents))
    localize.init(conf)
    gzip.init(conf.gzip_level)
    -- One scan of the query string for all of them (each $arg_x scans it again).
    varying = "(?:^|&)(?:" .. table.concat(conf.lists_varying, "|") .. ")=[^&]"
    for page = 1, conf.max_page do PAGES[tostring(page)] = page end
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

-- The first row of one-statement `sql` as an integer (nil on any error).
local function scalar(db, sql, bind)
    if sqlite.sqlite3_prepare_v2(db, sql, #sql, stmt_out, nil) ~= 0 then return nil end
    local stmt = stmt_out[0]
    if bind then sqlite.sqlite3_bind_text(stmt, 1, bind, #bind, nil) end
    local rc = sqlite.sqlite3_step(stmt)
    local value = rc == ROW and sqlite.sqlite3_column_int(stmt, 0) or (rc == 101 and 0 or nil)
    sqlite.sqlite3_finalize(stmt)
    return value
end

-- The document statement of a freshly opened pack, its base attached when it is a delta, and its
-- layout: "grouped" (PACK_FORMAT), "keyed" (ROW_FORMAT) or "named"; nil when the pack cannot be
-- read (a delta without its base is as unreadable as a missing pack).
local function prepare(db, root)
    local sql = SELECT
    local kind = scalar(db, "PRAGMA application_id")
    local version = scalar(db, "PRAGMA user_version")
    if kind == nil or version == nil then return nil end
    if kind == conf.delta_application_id then
        local base = "file:" .. root .. "/" .. conf.base_name .. "?mode=ro&immutable=1"
        if scalar(db, "ATTACH DATABASE ?1 AS base", base) == nil then return nil end
        sql = SELECT_DELTA
    end
    local layout = version == conf.pack_format and "grouped" or (version == conf.row_format and "keyed" or "named")
    local column = layout == "named" and "name" or "key"
    sql = sql:gsub("%%s", column):gsub("%%c", layout == "grouped" and "body" or "body, etag")
    if sqlite.sqlite3_prepare_v2(db, sql, #sql, stmt_out, nil) ~= 0 then return nil end
    return stmt_out[0], layout
end

-- The set of VARIANTLESS shapes `db` records (empty for a pack without them: every path may vary).
local function variantless_of(db)
    local shapes = {}
    if sqlite.sqlite3_prepare_v2(db, SELECT_META, #SELECT_META, stmt_out, nil) ~= 0 then return shapes end
    local stmt = stmt_out[0]
    sqlite.sqlite3_bind_text(stmt, 1, conf.variantless_key, #conf.variantless_key, nil)
    if sqlite.sqlite3_step(stmt) == ROW then
        local text = ffi.string(sqlite.sqlite3_column_text(stmt, 0), sqlite.sqlite3_column_bytes(stmt, 0))
        for shape in string.gmatch(text, "[^\n]+") do shapes[shape] = true end
    end
    sqlite.sqlite3_finalize(stmt)
    return shapes
end

-- The pack at `uri` (`key` names it in `list`), opened on first use: {key, db, stmt, dicts}. Each
-- list keeps its two newest packs open, so answers in flight during a publish finish on theirs.
local function open(list, key, uri, root)
    for i = #list, 1, -1 do
        if list[i].key == key then return list[i] end
    end
    -- immutable=1: a published pack never changes, so SQLite takes no locks and checks nothing.
    if sqlite.sqlite3_open_v2(uri, db_out, OPEN_READONLY + OPEN_URI + OPEN_NOMUTEX, nil) ~= 0 then
        sqlite.sqlite3_close_v2(db_out[0])
        return nil
    end
    local db = db_out[0]
    scalar(db, "PRAGMA cache_size = -" .. conf.read_cache_kib)  -- marquee/packs.py READ_CACHE_KIB
    local stmt, layout = prepare(db, root)
    if stmt == nil then
        sqlite.sqlite3_close_v2(db)
        return nil
    end
    local pack = {key = key, db = db, stmt = stmt, layout = layout, dicts = {}, variantless = variantless_of(db)}
    if layout == "grouped" then pack.blocks = assert(lrucache.new(conf.cached_blocks)) end
    list[#list + 1] = pack
    if #list > 2 then
        local old = table.remove(list, 1)
        sqlite.sqlite3_finalize(old.stmt)
        if old.dict_stmt then sqlite.sqlite3_finalize(old.dict_stmt) end
        sqlite.sqlite3_close_v2(old.db)
    end
    return pack
end

local function release_pack(root)
    return open(opened, root, "file:" .. root .. "/" .. conf.pack_name .. "?immutable=1", root)
end

-- The pack's dictionary `id`, digested, read from its `dicts` table on first use (false: none).
local function dictionary(pack, id)
    local ddict = pack.dicts[id]
    if ddict ~= nil then return ddict end
    if pack.dict_stmt == nil then
        if sqlite.sqlite3_prepare_v2(pack.db, SELECT_DICT, #SELECT_DICT, stmt_out, nil) ~= 0 then return false end
        pack.dict_stmt = stmt_out[0]
    end
    local stmt = pack.dict_stmt
    sqlite.sqlite3_bind_int64(stmt, 1, id)
    ddict = false
    if sqlite.sqlite3_step(stmt) == ROW then
        local blob = sqlite.sqlite3_column_blob(stmt, 0)
        ddict = zstd.dictionary(ffi.string(blob, sqlite.sqlite3_column_bytes(stmt, 0))) or false
    end
    sqlite.sqlite3_reset(stmt)
    pack.dicts[id] = ddict
    return ddict
end

-- The JSON of a stored body (`size` bytes at `blob`): the bytes themselves, or its frame decoded;
-- nil for a frame this pack cannot decode (a broken release, answered as absent and logged).
local function json_of(pack, blob, size)
    if not zstd.is_frame(blob, size) then return ffi.string(blob, size) end
    local id, ddict = zstd.dict_id(blob, size), nil
    if id ~= 0 then
        ddict = dictionary(pack, id)
        if not ddict then
            ngx.log(ngx.ERR, "pack ", pack.key, " has no dictionary ", id)
            return nil
        end
    end
    local body = zstd.decode(blob, size, ddict)
    if body == nil then ngx.log(ngx.ERR, "pack ", pack.key, ": a broken zstd frame") end
    return body
end

-- The directory of a block (marquee/packs.py `block_of`): {suffix = first byte of its JSON} and
-- {suffix = its length}; nil for a block without one (a broken release).
local function directory(block)
    local last = find(block, "\n\n", 1, true)
    if last == nil then return nil end
    local starts, sizes, pos, at = {}, {}, 1, last + 2
    while pos <= last do
        local tab = find(block, "\t", pos, true)
        local newline = tab and find(block, "\n", tab, true)
        if newline == nil then return nil end
        local suffix, size = sub(block, pos, tab - 1), tonumber(sub(block, tab + 1, newline - 1))
        starts[suffix], sizes[suffix] = at, size
        at = at + size
        pos = newline + 1
    end
    return {block, starts, sizes}
end

-- The group of `name` and the name's suffix in it (marquee/packs.py `group_of`, its GROUP as conf.group).
local function group_of(name)
    local m = re_match(name, conf.group, "jo")
    if m == nil then return name, "" end
    return m[1], m[2]
end

-- body, etag of document `name` in the grouped `pack`, or nil. Its group's block is decoded once and
-- kept per pack (conf.cached_blocks): a request's language candidates and a title's sub-resources
-- are in the same block, and the Zipf mix asks for several of a hot title's in a row.
local function lookup_grouped(pack, name)
    local group, suffix = group_of(name)
    local found = pack.blocks:get(group)
    if found == nil then
        local stmt = pack.stmt
        sqlite.sqlite3_bind_blob(stmt, 1, sub(md5_bin(group), 1, conf.key_bytes), conf.key_bytes, TRANSIENT)
        if sqlite.sqlite3_step(stmt) == ROW then
            local blob = sqlite.sqlite3_column_blob(stmt, 0)  -- NULL: a tombstone
            local block = blob ~= nil and json_of(pack, blob, sqlite.sqlite3_column_bytes(stmt, 0))
            found = block and directory(block)
            if block and found == nil then ngx.log(ngx.ERR, "pack ", pack.key, ": a block without a directory") end
        end
        sqlite.sqlite3_reset(stmt)
        found = found or ABSENT
        pack.blocks:set(group, found)
    end
    if found == ABSENT then return nil end
    local start = found[2][suffix]
    if start == nil then return nil end
    local body = sub(found[1], start, start + found[3][suffix] - 1)
    return body, ngx.md5(body)
end

-- body, etag of row `name` in `pack`, or nil.
local function lookup(pack, name)
    if pack.layout == "grouped" then return lookup_grouped(pack, name) end
    local stmt = pack.stmt
    local keyed = pack.layout == "keyed"
    if keyed then  -- SQLITE_TRANSIENT: SQLite copies the 12 bytes, which nothing else holds on to
        sqlite.sqlite3_bind_blob(stmt, 1, sub(md5_bin(name), 1, conf.key_bytes), conf.key_bytes, TRANSIENT)
    else
        sqlite.sqlite3_bind_text(stmt, 1, name, #name, nil)  -- SQLITE_STATIC: the caller's `name` outlives the step
    end
    local body, etag
    if sqlite.sqlite3_step(stmt) == ROW then
        -- A tombstone's NULL body comes back as a NULL pointer (no document is an empty blob), so
        -- a full pack's hit costs no extra call to tell the two apart.
        local blob = sqlite.sqlite3_column_blob(stmt, 0)
        if blob ~= nil then
            body = json_of(pack, blob, sqlite.sqlite3_column_bytes(stmt, 0))
            if body ~= nil then
                etag = ffi.string(sqlite.sqlite3_column_blob(stmt, 1), sqlite.sqlite3_column_bytes(stmt, 1))
                if keyed then etag = format(HEX16, byte(etag, 1, 16)) end
            end
        end
    end
    sqlite.sqlite3_reset(stmt)
    return body, etag
end

-- body, etag of the document `name` (`3/movie/603.de-DE.json`) in release `root`, or nil.
function M.get(root, name)
    local pack = release_pack(root)
    if pack == nil then return nil end
    return lookup(pack, name)
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
-- after its own. The items are cached like documents: the same hot titles fill many lists.
local function item(root, ref)
    local key = root .. "|" .. conf.items .. ref
    local entry = cache:get(key)
    if entry == nil then
        local body = M.get(root, conf.items .. ref .. ".json")
        entry = body or ABSENT
        cache:set(key, entry)
    end
    if entry == ABSENT then return nil end
    return entry
end

-- The assembled body, or nil when an item is missing (a broken release: answered as absent).
-- `item_of(root, ref)` gives an item's bytes: `item`, or marquee_localize's item in a language.
-- Plain finds of the mark, each checked as conf.reference would match it, and the bytes copied
-- into a string.buffer: a credits document splices ~50 items, and a PCRE match and two new strings
-- an item were most of the cost of a cold one (docs/benchmarks.md).
local function assemble(root, body, item_of)
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
            local part = item_of(root, ref)
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
-- assembled), cached under `key` ({body, etag}, or ABSENT). A composite's entry keeps what is
-- stored too (`skeleton`, a few bytes an item), for marquee_localize to assemble it in a language.
local function load(root, uri, suffix, key)
    metrics.add("docs|miss")
    local body, etag = M.get(root, sub(uri, 2) .. suffix .. ".json")
    local skeleton
    if body and find(body, conf.composite_mark, 1, true) then
        skeleton = body
        body = assemble(root, body)
        etag = body and ngx.md5(body)  -- changes with the items, as the stored one would not
    end
    local entry = body and {body, etag, skeleton = skeleton} or ABSENT
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
    local body, etag, entry = M.document(root, uri, tries)
    if body == nil then return finish(404) end
    if tries[1] ~= "" and localize.applies(uri) then  -- a title list in a language
        entry = localize.list(M, root, uri, tries, entry)
        body, etag = entry[1], entry[2]
    end
    return M.respond_document("document", body, etag, entry)
end

-- For marquee_localize: items, assembly and the worker's cache, as this module uses them.
M.item, M.assemble = item, assemble
function M.cached(key) return cache:get(key) end
function M.remember(key, entry) cache:set(key, entry) end

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
    local pack = open(opened_lists, stamp, "file:" .. conf.lists_dir .. stamp .. "?immutable=1", nil)
    if pack == nil then return M.to_edge(edge) end
    local day = list_days[stamp]
    if day == nil then
        day = lookup(pack, conf.lists_day_row) or ""
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
        local body, etag = lookup(pack, name)
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
