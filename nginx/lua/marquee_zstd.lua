-- A pack's stored bodies back to JSON (marquee/packs.py states the format; `Decoder` is the edge's
-- reading of it): a body is the JSON itself, or a zstd frame of it, made with a dictionary of the
-- pack's own `dicts` table that the frame names by id. libzstd through LuaJIT's FFI, as
-- marquee_gzip.lua reaches zlib: one decompression context per worker, each dictionary digested
-- once per open pack (marquee_docs keeps them with the pack's connection).
local ffi = require "ffi"

ffi.cdef [[
typedef struct ZSTD_DCtx_s ZSTD_DCtx;
typedef struct ZSTD_DDict_s ZSTD_DDict;
ZSTD_DCtx *ZSTD_createDCtx(void);
ZSTD_DDict *ZSTD_createDDict(const void *dict, size_t size);
size_t ZSTD_freeDDict(ZSTD_DDict *ddict);
unsigned long long ZSTD_getFrameContentSize(const void *src, size_t size);
unsigned ZSTD_getDictID_fromFrame(const void *src, size_t size);
size_t ZSTD_decompress_usingDDict(ZSTD_DCtx *dctx, void *dst, size_t capacity, const void *src, size_t size,
                                  const ZSTD_DDict *ddict);
unsigned ZSTD_isError(size_t code);
void *malloc(size_t size);
void free(void *ptr);
]]

local zstd = ffi.load("libzstd.so.1")
local M = {}
local dctx = zstd.ZSTD_createDCtx()
local out, out_size = nil, 0
local BYTES = ffi.typeof("unsigned char *")
local UNKNOWN = 0ULL - 1ULL  -- ZSTD_CONTENTSIZE_UNKNOWN; ERROR is one less: the writer always records the size

-- Whether the `size` bytes at `ptr` are a zstd frame (its magic, 28 B5 2F FD), not JSON.
function M.is_frame(ptr, size)
    if size < 4 then return false end
    local p = ffi.cast("const unsigned char *", ptr)
    return p[0] == 0x28 and p[1] == 0xB5 and p[2] == 0x2F and p[3] == 0xFD
end

-- The dictionary id a frame names (0: none).
function M.dict_id(ptr, size)
    return tonumber(zstd.ZSTD_getDictID_fromFrame(ptr, size))
end

-- A digested dictionary from its bytes (a Lua string), freed when no longer referenced.
function M.dictionary(bytes)
    local ddict = zstd.ZSTD_createDDict(bytes, #bytes)
    if ddict == nil then return nil end
    return ffi.gc(ddict, zstd.ZSTD_freeDDict)
end

-- The decoded bytes of the frame of `size` bytes at `ptr` (made with `ddict`, nil for a frame
-- made without one) and their length, or nil when the frame is broken. In a new buffer of their
-- own when `keep` (a block the caller caches), else in the worker's scratch buffer, which the next
-- call overwrites: a cold film's block is ~20 KB, and making a Lua string of it (interned, then
-- collected) cost as much as decoding it (docs/packed-releases.md).
function M.decode_bytes(ptr, size, ddict, keep)
    local length = zstd.ZSTD_getFrameContentSize(ptr, size)
    if length >= UNKNOWN - 1ULL then return nil end
    length = tonumber(length)
    local into, capacity = out, out_size
    if keep then  -- malloc'd, not in LuaJIT's heap: no zeroing, and no GC pacing by its bytes
        local block = ffi.C.malloc(length)
        if block == nil then return nil end
        into, capacity = ffi.gc(ffi.cast(BYTES, block), ffi.C.free), length
    elseif length > out_size then
        out_size = math.max(length, 2 * out_size, 65536)
        out = ffi.new("unsigned char[?]", out_size)
        into, capacity = out, out_size
    end
    local n = zstd.ZSTD_decompress_usingDDict(dctx, into, capacity, ptr, size, ddict)
    if zstd.ZSTD_isError(n) ~= 0 or tonumber(n) ~= length then return nil end
    return into, length
end

return M
