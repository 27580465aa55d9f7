-- A release's pack (marquee/packs.py, its contract), read through LuaJIT's FFI: one read-only,
-- immutable connection and one prepared statement per pack, a delta's base attached, and a
-- document by its name in any of the formats packs have had (`lookup`). marquee_docs.lua serves
-- what this reads; so does the list pack (edge/list_pack.py), a pack by name. Another immutable
-- SQLite file of a release is read the same way, a statement at a time (`open_statement`: the
-- search index's texts, for marquee_localize.lua).
local ffi = require "ffi"
local lrucache = require "resty.lrucache"
local zstd = require "marquee_zstd"
local ngx = ngx
local sub = string.sub
local re_match = ngx.re.match

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
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
]]

local sqlite = ffi.load("libsqlite3.so.0")
local OPEN_READONLY, OPEN_URI, OPEN_NOMUTEX = 0x00000001, 0x00000040, 0x00008000
local ROW = 100
-- A pack's rows (marquee/packs.py, `PRAGMA user_version`): PACK_FORMAT's are groups of documents,
-- keyed by the first 8 bytes of the MD5 of the group as an integer, the rowid, each a block of its
-- documents (no ETag: it is the MD5 of the document); BLOB_KEY_FORMAT's the same keyed by the first
-- KEY_BYTES as a BLOB; ROW_FORMAT's a document each, keyed by its name's MD5, with its ETag's 16
-- bytes; a pack written before (0) a document each by name, the ETag in hex. `%s` is the key
-- column, `%c` the columns.
local SELECT = "SELECT %c FROM docs WHERE %s = ?"
-- Both branches search their own index of keys; UNION ALL runs them in order and LIMIT 1 stops
-- at the delta's row when there is one (marquee/packs.py's `first`).
local SELECT_DELTA = "SELECT %c FROM main.docs WHERE %s = ?1 "
    .. "UNION ALL SELECT %c FROM base.docs WHERE %s = ?1 LIMIT 1"
local md5_bin, format, byte = ngx.md5_bin, string.format, string.byte
local HEX16 = string.rep("%02x", 16)
local TRANSIENT = ffi.cast("void *", -1)
-- A delta holds copies of its base's dictionaries (marquee/packs.py), so main's are all there are.
local SELECT_DICT = "SELECT dict FROM main.dicts WHERE id = ?"
-- The pack's VARIANTLESS shapes (marquee/packs.py META_TABLE); a delta's are whole, not a change.
local SELECT_META = "SELECT value FROM main.meta WHERE key = ?1"
local ABSENT = {}  -- a group the pack has no block of, in a pack's cache of blocks
-- "3": the first byte of every name an entity's group holds; "_": of every item's (conf.items).
local THREE, UNDERSCORE, TAB, NEWLINE = 51, 95, 9, 10
local UINT64 = ffi.typeof("const uint64_t *")
local INT64_MIN = -0x7FFFFFFFFFFFFFFFLL - 1
local BYTES = ffi.typeof("const unsigned char *")

local M = {}
local conf
local db_out = ffi.new("sqlite3*[1]")
local stmt_out = ffi.new("sqlite3_stmt*[1]")

-- marquee_docs.init's table (control/services.py docs_conf).
function M.init(config)
    conf = config
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

-- The document statement of a freshly opened pack, its base attached when it is a delta, its
-- layout: "grouped" (PACK_FORMAT, BLOB_KEY_FORMAT), "keyed" (ROW_FORMAT) or "named", and whether
-- its keys are integers; nil when the pack cannot be read (a delta without its base is as
-- unreadable as a missing pack).
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
    local int_keys = version == conf.pack_format
    local layout = (int_keys or version == conf.blob_key_format) and "grouped"
        or (version == conf.row_format and "keyed" or "named")
    local column = layout == "named" and "name" or "key"
    sql = sql:gsub("%%s", column):gsub("%%c", layout == "grouped" and "body" or "body, etag")
    if sqlite.sqlite3_prepare_v2(db, sql, #sql, stmt_out, nil) ~= 0 then return nil end
    return stmt_out[0], layout, int_keys
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

-- `entry` ({key, db, stmt, …}) added to `list`, whose oldest entry is closed when it holds three:
-- answers in flight during a publish finish on the file they began with.
local function keep(list, entry)
    list[#list + 1] = entry
    if #list > 2 then
        local old = table.remove(list, 1)
        sqlite.sqlite3_finalize(old.stmt)
        if old.dict_stmt then sqlite.sqlite3_finalize(old.dict_stmt) end
        sqlite.sqlite3_close_v2(old.db)
    end
    return entry
end

-- The entry of `list` named `key`, or a new read-only connection to `uri` (nil when it cannot be
-- opened), its first MAP_BYTES mapped. immutable=1 in the uri: a published file never changes, so
-- SQLite takes no locks and checks nothing.
local function kept_or_connect(list, key, uri)
    for i = #list, 1, -1 do
        if list[i].key == key then return list[i] end
    end
    if sqlite.sqlite3_open_v2(uri, db_out, OPEN_READONLY + OPEN_URI + OPEN_NOMUTEX, nil) ~= 0 then
        sqlite.sqlite3_close_v2(db_out[0])
        return nil
    end
    local db = db_out[0]
    scalar(db, "PRAGMA cache_size = -" .. conf.read_cache_kib)  -- marquee/packs.py READ_CACHE_KIB
    scalar(db, "PRAGMA mmap_size = " .. conf.map_bytes)  -- MAP_BYTES: a delta's base's too, attached after
    return nil, db
end

-- The pack at `uri` (`key` names it in `list`), opened on first use: {key, db, stmt, dicts}. Each
-- list keeps its two newest packs open (`keep`).
local function open(list, key, uri, root)
    local pack, db = kept_or_connect(list, key, uri)
    if db == nil then return pack end
    local stmt, layout, int_keys = prepare(db, root)
    if stmt == nil then
        sqlite.sqlite3_close_v2(db)
        return nil
    end
    pack = {key = key, db = db, stmt = stmt, layout = layout, int_keys = int_keys, dicts = {},
            variantless = variantless_of(db)}
    if layout == "grouped" then pack.blocks = assert(lrucache.new(conf.cached_blocks)) end
    return keep(list, pack)
end

-- The statement `sql` on the SQLite file at `uri` (`key` names it in `list`), prepared on first
-- use and kept as packs are: {key, db, stmt}; nil when the file or its table cannot be read.
local function open_statement(list, key, uri, sql)
    local found, db = kept_or_connect(list, key, uri)
    if db == nil then return found end
    if sqlite.sqlite3_prepare_v2(db, sql, #sql, stmt_out, nil) ~= 0 then
        sqlite.sqlite3_close_v2(db)
        return nil
    end
    return keep(list, {key = key, db = db, stmt = stmt_out[0]})
end

-- Column `column` of the row `stmt` stands on, as a string ("" for a NULL).
local function text_of(stmt, column)
    local text = sqlite.sqlite3_column_text(stmt, column)
    if text == nil then return "" end
    return ffi.string(text, sqlite.sqlite3_column_bytes(stmt, column))
end

-- The two text columns of the row of `opened`'s statement (open_statement) for a text, an integer
-- and a text bound in that order, or nil when it has none.
local function text_pair(opened, first, second, third)
    local stmt = opened.stmt
    sqlite.sqlite3_bind_text(stmt, 1, first, #first, TRANSIENT)
    sqlite.sqlite3_bind_int64(stmt, 2, second)
    sqlite.sqlite3_bind_text(stmt, 3, third, #third, TRANSIENT)
    local a, b
    if sqlite.sqlite3_step(stmt) == ROW then a, b = text_of(stmt, 0), text_of(stmt, 1) end
    sqlite.sqlite3_reset(stmt)
    return a, b
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

-- The bytes of a stored body (`size` bytes at `blob`) and their length: its frame decoded (in a
-- buffer of their own when `keep`, else zstd's scratch buffer, which the next decode overwrites),
-- or the bytes themselves, copied (SQLite's are gone at the statement's reset); nil for a frame this
-- pack cannot decode (a broken release, answered as absent and logged).
local function bytes_of(pack, blob, size, keep)
    if not zstd.is_frame(blob, size) then
        local copy = ffi.new("unsigned char[?]", size)
        ffi.copy(copy, blob, size)
        return copy, size
    end
    local id, ddict = zstd.dict_id(blob, size), nil
    if id ~= 0 then
        ddict = dictionary(pack, id)
        if not ddict then
            ngx.log(ngx.ERR, "pack ", pack.key, " has no dictionary ", id)
            return nil
        end
    end
    local bytes, length = zstd.decode_bytes(blob, size, ddict, keep)
    if bytes == nil then ngx.log(ngx.ERR, "pack ", pack.key, ": a broken zstd frame") end
    return bytes, length
end

-- The JSON of a stored body, as a string (a pack of a row per document).
local function json_of(pack, blob, size)
    local bytes, length = bytes_of(pack, blob, size, false)
    return bytes and ffi.string(bytes, length)
end

-- Where the document `suffix` is in a block's `length` bytes (marquee/packs.py `block_of`): its
-- first byte (0-based) and its length; nil when the block has none, false when the block has no
-- directory (a broken release). The directory is read in place, line by line: a cold document
-- costs no string but its own.
local function find_document(bytes, length, suffix)
    local n, pos, offset = #suffix, 0, 0
    local found, size
    while pos < length do
        if bytes[pos] == NEWLINE then  -- the empty line: the JSON starts after it
            if found == nil then return nil end
            return pos + 1 + found, size
        end
        local start, line = pos, bytes + pos  -- a line `suffix<TAB>length`
        local tab = ffi.C.memchr(line, TAB, length - pos)
        if tab == nil then return false end
        local tab_at = start + tonumber(ffi.cast(BYTES, tab) - line)
        local value = 0
        pos = tab_at + 1
        local digit = bytes[pos]
        while digit ~= NEWLINE do
            value = value * 10 + digit - 48
            pos = pos + 1
            if pos >= length then return false end
            digit = bytes[pos]
        end
        if found == nil and tab_at - start == n and ffi.C.memcmp(line, suffix, n) == 0 then
            found, size = offset, value
        end
        offset = offset + value
        pos = pos + 1
    end
    return false
end

-- The group of `name` and the name's suffix in it (marquee/packs.py `group_of`, its GROUP as conf.group,
-- which only names under `3/` match).
local function group_of(name)
    if byte(name, 1) ~= THREE then return name, "" end
    local m = re_match(name, conf.group, "jo")
    if m == nil then return name, "" end
    return m[1], m[2]
end

-- The block of `group` in the grouped `pack`, as bytes_of gives it (`keep` as there), or nil.
local function block_of(pack, group, keep)
    local stmt, bytes, length = pack.stmt, nil, nil
    local digest = md5_bin(group)
    if pack.int_keys then  -- marquee/packs.py key_of: the hash little-endian, an item's shifted low
        local hash = ffi.cast(UINT64, digest)[0]
        if byte(group, 1) == UNDERSCORE and sub(group, 1, #conf.items) == conf.items then
            sqlite.sqlite3_bind_int64(stmt, 1, ffi.cast("int64_t", bit.rshift(hash, conf.item_shift)) + INT64_MIN)
        else
            sqlite.sqlite3_bind_int64(stmt, 1, ffi.cast("int64_t", hash))
        end
    else
        sqlite.sqlite3_bind_blob(stmt, 1, sub(digest, 1, conf.key_bytes), conf.key_bytes, TRANSIENT)
    end
    if sqlite.sqlite3_step(stmt) == ROW then
        local blob = sqlite.sqlite3_column_blob(stmt, 0)  -- NULL: a tombstone
        if blob ~= nil then bytes, length = bytes_of(pack, blob, sqlite.sqlite3_column_bytes(stmt, 0), keep) end
    end
    sqlite.sqlite3_reset(stmt)
    return bytes, length
end

-- The body of document `name` in the grouped `pack`, or nil; no ETag (the caller hashes the JSON
-- when it needs one: an item spliced into a list does not). A group's block is decoded once and
-- kept per pack (conf.cached_blocks), as bytes: a request's language candidates and a title's
-- sub-resources are in the same block, and the Zipf mix asks for several of a hot title's in a
-- row. A document alone in its group (an item, an OMDb answer) is decoded into zstd's scratch
-- buffer and kept in no cache here.
local function lookup_grouped(pack, name)
    local group, suffix = group_of(name)
    local bytes, length
    if suffix == "" then
        bytes, length = block_of(pack, group, false)
    else
        local found = pack.blocks:get(group)
        if found == nil then
            bytes, length = block_of(pack, group, true)
            found = bytes and {bytes, length} or ABSENT
            pack.blocks:set(group, found)
        end
        if found == ABSENT then return nil end
        bytes, length = found[1], found[2]
    end
    if bytes == nil then return nil end
    local start, size = find_document(bytes, length, suffix)
    if start == false then ngx.log(ngx.ERR, "pack ", pack.key, ": a block without a directory") end
    if not start then return nil end
    return ffi.string(bytes + start, size)
end

-- body, etag of row `name` in `pack`, or nil (etag too for a grouped pack, whose ETags are the
-- JSON's MD5, made by the caller: marquee_docs `load`).
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

M.open, M.lookup, M.open_statement, M.text_pair = open, lookup, open_statement, text_pair
return M
