-- gzip for the answers nginx writes itself from packs: whether a request takes it, and a body's gzip.
--
-- Why not nginx's gzip filter alone: it compresses every answer again, and for a 3 KB document that
-- cost nginx more than the rest of the answer (clients taking gzip, most of them, got details at
-- 0.64 to 0.72 of the throughput of those that do not; docs/benchmarks.md). marquee_docs keeps a
-- document's gzip beside it in its per-worker cache, made here once, at the filter's level, so a
-- document asked for once costs what the filter would have cost and a hot one costs nothing more.
-- The list pack stores its pages' gzip (edge/list_pack.py). The filter still compresses what the
-- edge answers: nginx's gzip filter leaves alone a body that has a Content-Encoding.
local ffi = require "ffi"
local remembered = require "marquee_memo"
local lower, gmatch, match = string.lower, string.gmatch, string.match

ffi.cdef [[
typedef struct mq_z_stream {
    const char *next_in; unsigned int avail_in; unsigned long total_in;
    unsigned char *next_out; unsigned int avail_out; unsigned long total_out;
    const char *msg; void *state; void *zalloc; void *zfree; void *opaque;
    int data_type; unsigned long adler; unsigned long reserved;
} mq_z_stream;
const char *zlibVersion(void);
int deflateInit2_(mq_z_stream *strm, int level, int method, int windowBits, int memLevel, int strategy,
                  const char *version, int stream_size);
int deflateReset(mq_z_stream *strm);
int deflate(mq_z_stream *strm, int flush);
unsigned long deflateBound(mq_z_stream *strm, unsigned long sourceLen);
]]

local zlib = ffi.load("libz.so.1")
local Z_OK, Z_STREAM_END, Z_FINISH, Z_DEFLATED = 0, 1, 4, 8
local GZIP_WINDOW = 15 + 16  -- a 32 KB window, with gzip's header and trailer
local M = {}
local stream  -- one per worker, reset for each body: no allocation per answer
local out, out_size = nil, 0

-- `level`: nginx's gzip_comp_level for the same answers (nginx/marquee.conf.j2), so what nginx would
-- have sent and what this sends cost alike to make.
function M.init(level)
    stream = ffi.new("mq_z_stream")
    assert(zlib.deflateInit2_(stream, level, Z_DEFLATED, GZIP_WINDOW, 8, 0, zlib.zlibVersion(),
                              ffi.sizeof("mq_z_stream")) == Z_OK, "deflateInit2")
end

-- The gzip of `body` (a Lua string), or nil should zlib fail.
function M.of(body)
    local size = tonumber(zlib.deflateBound(stream, #body))
    if size > out_size then
        out_size = math.max(size, 2 * out_size)
        out = ffi.new("unsigned char[?]", out_size)
    end
    zlib.deflateReset(stream)
    stream.next_in, stream.avail_in = body, #body
    stream.next_out, stream.avail_out = out, out_size
    if zlib.deflate(stream, Z_FINISH) ~= Z_STREAM_END then return nil end
    return ffi.string(out, out_size - stream.avail_out)
end

-- Whether an Accept-Encoding value takes gzip: a `gzip` (or `*`, gzip unnamed) coding whose q is not
-- 0 (RFC 9110 12.5.3).
local function takes(value)
    local star, named = false, nil
    for part in gmatch(lower(value), "[^,]+") do
        local coding = match(part, "^%s*([^;%s]+)")
        local q = tonumber(match(part, ";%s*q%s*=%s*([%d.]+)") or "1") or 0
        if coding == "gzip" or coding == "x-gzip" then
            named = q > 0
        elseif coding == "*" then
            star = q > 0
        end
    end
    if named == nil then return star end
    return named
end

-- takes(value), remembered per raw value (marquee_memo).
local takes_remembered = remembered(takes)
function M.accepted(value)
    return value ~= nil and takes_remembered(value)
end

return M
