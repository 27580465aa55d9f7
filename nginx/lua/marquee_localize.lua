-- Title lists in the language a request asks for, as edge/assemble.py's `localized` makes them:
-- each listed title's text fields (conf.localized_fields, {media = {name = true}}: a film's title
-- and overview, a series' name and overview) are those of the title's own details document, in the request's
-- language candidates, so the fallbacks are exactly the details' (original title, empty overview,
-- or the opt-in fallback_language). A list is stored once, in the default language; here each of
-- its items gets the details' values, read from the search index's table of them (the same rule,
-- site_gen/sql/search_texts.sql; json_string writes them as orjson does), or from the details
-- themselves for a release whose index has no such table.
--
-- Why here and not in the edge: a Zipf mix over 1M films spent 39% of its time on `/similar` in a
-- language, 1.3k answers a second through Python (docs/benchmarks.md, session 29).
--
-- It works on bytes, and gives the edge's bytes: orjson wrote the items and the details, and
-- `orjson.dumps(orjson.loads(list))` is the list itself, so a field's JSON in the details is what
-- the edge writes for it in the list (tests/e2e/test_localized_lists.py compares the two for every
-- list of the sample in several languages). A document here is orjson's compact JSON: no space
-- between tokens, each object's keys once.
local ngx = ngx
local byte, find, sub, concat = string.byte, string.find, string.sub, table.concat
local re_find = ngx.re.find
local lrucache = require "resty.lrucache"
local pack_reader = require "marquee_pack"

local QUOTE, BACKSLASH, OPEN_BRACE, OPEN_BRACKET, CLOSE_BRACE, CLOSE_BRACKET = 34, 92, 123, 91, 125, 93
local COLON, COMMA = 58, 44

local M = {}
local conf
local texts_cache  -- per worker: {title|candidates -> {field -> JSON}} (texts)

local member_keys = {}  -- item_spans: {name -> {`,"name":`, `{"name":`}}, its key in a flat object

function M.init(config)
    conf = config
    texts_cache = assert(lrucache.new(conf.cached_texts))
    for name in pairs(conf.item_members) do member_keys[name] = {',"' .. name .. '":', '{"' .. name .. '":'} end
end

-- Whether `uri` is a list the edge localises (edge/assemble.py LOCALIZED_LISTS, as a PCRE).
function M.applies(uri)
    return re_find(uri, conf.localized_paths, "jo") ~= nil
end

-- The last byte of the JSON string whose opening quote is at `at` (its closing quote).
local function string_end(s, at)
    local pos = at + 1
    while true do
        local q = find(s, '"', pos, true)
        if q == nil then return nil end
        local b = q - 1
        while byte(s, b) == BACKSLASH do b = b - 1 end
        if (q - 1 - b) % 2 == 0 then return q end  -- an even run of backslashes escapes nothing
        pos = q + 1
    end
end

-- The last byte of the JSON value that starts at `at`. Byte loops and plain finds only: LuaJIT
-- compiles them, where it interprets a string pattern (`[%[%]{}"]` was most of a localised list's
-- time, docs/benchmarks.md, session 32).
local function value_end(s, at)
    local c, n = byte(s, at), #s
    if c == QUOTE then return string_end(s, at) end
    local pos = at
    if c == OPEN_BRACE or c == OPEN_BRACKET then
        local depth = 0
        while pos <= n do
            local d = byte(s, pos)
            if d == QUOTE then
                pos = string_end(s, pos)
                if pos == nil then return nil end
            elseif d == OPEN_BRACE or d == OPEN_BRACKET then
                depth = depth + 1
            elseif d == CLOSE_BRACE or d == CLOSE_BRACKET then
                depth = depth - 1
                if depth == 0 then return pos end
            end
            pos = pos + 1
        end
        return nil
    end
    while pos <= n do  -- a number, true, false or null: up to the next `,`, `}` or `]`
        local d = byte(s, pos)
        if d == COMMA or d == CLOSE_BRACE or d == CLOSE_BRACKET then return pos - 1 end
        pos = pos + 1
    end
    return nil
end

-- {key = {first, last}} of the top-level members of the object `s` named in `wanted`
-- ({name = true}): the bytes of each one's JSON value. Nil when `s` is not compact JSON.
local function members(s, wanted)
    local found = {}
    if byte(s, 1) ~= OPEN_BRACE or byte(s, 2) ~= QUOTE then return found end
    local pos = 2
    while true do
        local key_end = string_end(s, pos)
        if key_end == nil or byte(s, key_end + 1) ~= COLON then return nil end
        local last = value_end(s, key_end + 2)
        if last == nil then return nil end
        local key = sub(s, pos + 1, key_end - 1)
        if wanted[key] then found[key] = {key_end + 2, last} end
        if byte(s, last + 1) ~= COMMA then return found end
        pos = last + 2
    end
end

-- A JSON string of `s` as orjson writes one (the bytes the edge's lists hold): `"` and `\` escaped,
-- the control characters as \b \t \n \f \r or \u00xx, nothing else (not `/`, not non-ASCII).
local ESCAPES = {['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\t"] = "\\t", ["\n"] = "\\n",
                 ["\f"] = "\\f", ["\r"] = "\\r"}
for code = 0, 31 do
    local c = string.char(code)
    ESCAPES[c] = ESCAPES[c] or string.format("\\u%04x", code)
end
local function json_string(s)
    if re_find(s, [=[["\\\x00-\x1f]]=], "jo") == nil then return '"' .. s .. '"' end
    return '"' .. string.gsub(s, '[%z\1-\31"\\]', ESCAPES) .. '"'
end

-- The release's table of translated texts (site_gen/search_index.py `texts`: a title's title or
-- name and overview in each served language it is translated into, by its details' rule), per
-- worker and release; nil for a release whose search index has none (its details are read then).
local TEXTS_SQL = "SELECT title, overview FROM texts WHERE kind = ?1 AND id = ?2 AND suffix = ?3"
local text_tables, missing_tables = {}, {}
local function text_table(root)
    if missing_tables[root] then return nil end
    local found = pack_reader.open_statement(text_tables, root,
        "file:" .. root .. "/" .. conf.search_index .. "?immutable=1", TEXTS_SQL)
    if found == nil then missing_tables[root] = true end
    return found
end

-- The texts of `media`/`id` in the first of the candidates `tries` it has, by the details' rule:
-- a translation's row in the text table, `.und` the item's original title (`original`, its JSON)
-- and no overview, the default variant (or no candidate found) nothing: the item's own text.
local function translated(table_, media, id, tries, original)
    local title_field = conf.text_fields[media][1]
    for _, suffix in ipairs(tries) do
        if suffix == "" then return {} end
        if suffix == conf.untranslated then
            return original and {[title_field] = original, overview = '""'} or nil
        end
        local title, overview = pack_reader.text_pair(table_, media, tonumber(id), suffix)
        if title ~= nil then return {[title_field] = json_string(title), overview = json_string(overview)} end
    end
    return {}
end

-- The values of `fields` ({name = JSON bytes}) of `media`/`id` in the language candidates `tries`
-- (`tried`, as one string), as its details in that language hold them, kept in a cache of their
-- own: similar lists favour popular titles, so the same few thousand titles fill most lists. Read
-- from the release's text table (one row of two strings) where it has one: a title's details are
-- a block of ~20 KB decoded for two strings, and at a million films a list in a language went
-- from ~2,000 to ~4,900 a second (docs/benchmarks.md, session 33). `original`: the item's
-- original title, as JSON.
local function texts(docs, root, media, id, tries, tried, fields, original)
    local key = root .. "|" .. media .. "/" .. id .. "|" .. tried
    local kept = texts_cache:get(key)
    if kept ~= nil then return kept end
    local table_ = text_table(root)
    kept = table_ and translated(table_, media, id, tries, original)
    if kept == nil then
        kept = {}
        local body = docs.body(root, "/3/" .. media .. "/" .. id, tries)
        for name, span in pairs(body and members(body, fields) or {}) do
            kept[name] = sub(body, span[1], span[2])
        end
    end
    texts_cache:set(key, kept)
    return kept
end

-- members(item, conf.item_members) for a list item, found faster when it is flat (no object
-- inside it, as TMDB's list items are): then `,"title":` (or `{"title":`) can only be its member
-- `title`, since a quote inside a string is escaped, and a plain find locates each.
local function item_spans(item)
    if find(item, "{", 2, true) then return members(item, conf.item_members) end
    local spans = {}
    for name, keys in pairs(member_keys) do
        local _, colon = find(item, keys[1], 2, true)
        if colon == nil and find(item, keys[2], 1, true) == 1 then colon = #keys[2] end
        if colon then
            local last = value_end(item, colon + 1)
            if last == nil then return nil end
            spans[name] = {colon + 1, last}
        end
    end
    return spans
end

-- Spans in the order of their first byte (table.sort's comparator, made once: a closure made in a
-- request aborts LuaJIT's trace through it, and then the whole list is interpreted).
local function by_start(a, b) return a[1] < b[1] end

-- `pieces` with the item `item` appended, its text fields taken from its title's details in the
-- language candidates `tries` (edge/assemble.py: the media its `media_type` names, or the list's
-- `media`; an item with no integer id, or whose title has no details, is left as it is).
local function add_item(pieces, docs, root, item, media, tries, tried)
    local spans = item_spans(item)
    local named = spans and spans.media_type
    if named then
        media = byte(item, named[1]) == QUOTE and sub(item, named[1] + 1, named[2] - 1) or nil
    end
    local fields = media and conf.localized_fields[media]
    local id = spans and spans.id and sub(item, spans.id[1], spans.id[2])
    if fields == nil or id == nil or not find(id, "^%-?%d+$") then
        pieces[#pieces + 1] = item
        return
    end
    local original = spans[conf.text_fields[media][2]]
    original = original and sub(item, original[1], original[2])
    local values = texts(docs, root, media, id, tries, tried, fields, original)
    local replaced = {}
    for key in pairs(fields) do
        if spans[key] ~= nil and values[key] ~= nil then
            replaced[#replaced + 1] = {spans[key][1], spans[key][2], values[key]}
        end
    end
    table.sort(replaced, by_start)
    local at = 1
    for _, r in ipairs(replaced) do
        pieces[#pieces + 1] = sub(item, at, r[1] - 1)
        pieces[#pieces + 1] = r[3]
        at = r[2] + 1
    end
    pieces[#pieces + 1] = sub(item, at)
end

-- `pieces` with the array `body`[first..last] appended, each of its objects localised (add_item).
local function add_array(pieces, docs, root, body, first, last, media, tries, tried)
    pieces[#pieces + 1] = "["
    local pos = first + 1
    while pos < last do
        local stop = value_end(body, pos)
        if byte(body, pos) == OPEN_BRACE then
            add_item(pieces, docs, root, sub(body, pos, stop), media, tries, tried)
        else
            pieces[#pieces + 1] = sub(body, pos, stop)
        end
        pieces[#pieces + 1] = sub(body, stop + 1, stop + 1)  -- `,` or the closing `]`
        pos = stop + 2
    end
    if pos == last then pieces[#pieces + 1] = "]" end  -- an empty array
end

-- The item `ref` of a list in a language (`context`: docs, tries, tried), for docs.assemble: an
-- item `movie/603` is a film's (its reference names its media). Nil when it is missing.
local function localized_item(root, ref, context)
    local docs = context[1]
    local part = docs.item(root, ref)
    if part == nil then return nil end
    local pieces = {}
    local slash = find(ref, "/", 1, true)
    add_item(pieces, docs, root, part, slash and sub(ref, 1, slash - 1), context[2], context[3])
    return concat(pieces)
end

-- The list `uri` assembled from `skeleton`, its items localised. Nil when an item is missing.
local function assembled(docs, root, skeleton, tries, tried)
    return docs.assemble(root, skeleton, localized_item, {docs, tries, tried})
end

-- The list `body` with the item lists LOCALIZED_LISTS names for its kind localised, item by item.
local function walked(docs, root, uri, body, tries, tried)
    local kind = uri:match("([^/]+)$")
    local media = (find(uri, "/3/tv/", 1, true) == 1 or kind == "tv_credits") and "tv" or "movie"
    local lists = {}
    for name, span in pairs(members(body, conf.localized_lists[kind]) or {}) do
        if byte(body, span[1]) == OPEN_BRACKET then lists[#lists + 1] = span end
    end
    table.sort(lists, by_start)
    local pieces, at = {}, 1
    for _, span in ipairs(lists) do
        pieces[#pieces + 1] = sub(body, at, span[1] - 1)
        add_array(pieces, docs, root, body, span[1], span[2], media, tries, tried)
        at = span[2] + 1
    end
    pieces[#pieces + 1] = sub(body, at)
    return concat(pieces)
end

-- The cache entry ({body, etag}) of the list `uri` in the language candidates `tries`, kept in the
-- worker's cache as documents are, or nil when there is none. A list stored as a skeleton of
-- references (marquee/packs.py) is assembled with its items localised, which needs no scan of the
-- list; one stored whole is walked. A skeleton with a missing item is a broken list: absent, as
-- marquee_docs has it in the default language.
function M.list(docs, root, uri, tries)
    local tried = concat(tries, "|")
    local key = root .. "|" .. uri .. "|" .. tried
    local found = docs.cached(key)
    if found == nil then
        local stored, body = docs.stored(root, uri, tries), nil
        if stored and find(stored, conf.composite_mark, 1, true) then
            body = assembled(docs, root, stored, tries, tried)
        elseif stored then
            body = walked(docs, root, uri, stored, tries, tried)
        end
        found = body and {body, ngx.md5(body)} or docs.ABSENT
        docs.remember(key, found)
    end
    if found == docs.ABSENT then return nil end
    return found
end

return M
