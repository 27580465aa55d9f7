"""A release's documents live in SQLite: the pack, `RELEASE/documents.sqlite`, alone (a full pack)
or over a base (a delta pack, `RELEASE/base.sqlite` beside it).

Why not one file per document: a million titles in 14 languages are ~105M documents, and on this
file system a small file costs 3.5 times its size in 4 KB blocks and ~300 µs to create
(docs/packed-releases.md).

Why a row per group of documents (since format 3): a row per document cost ~64 bytes beyond its body
(key, ETag, index, cell), 6.7 GB of a 22 GB pack at 1M titles, and a document compressed alone
shares nothing with its siblings: a film's 14 language variants of the same fields, a person's
movie, TV and combined credits of the same titles. A group is an entity's documents (`group_of`:
`3/movie/603` holds `3/movie/603.json`, its variants and every sub-resource under it; a season and
an episode are groups of their own), or a document alone when no entity names it (`_items/…`,
`compat/…`, `3/configuration.json`). At 20k films the pack went from 393 to 211 MB
(docs/packed-releases.md, "Blocks: an entity's documents in one row").

One table, `docs(key INTEGER PRIMARY KEY, body BLOB)`, one row per group (PACK_FORMAT 4):
- `key` the first 8 bytes of the MD5 of the group as a signed little-endian integer (`key_of(group)`),
  so edge/languages.py's candidates, which name documents as files were named
  (`3/movie/603.de-DE.json`), find their row by the name's group, and nginx by `ngx.md5_bin` of the
  same string (GROUP, a PCRE as well). The key is the table's rowid: a lookup is one descent of one
  B-tree, where format 3's 12-byte BLOB key searched an index and then the table (at 100k films
  ~7.5 against ~10.7 µs a cold lookup, and 5% smaller: docs/packed-releases.md). An item's key is
  shifted into the lowest sixteenth of the range, so items come first in the file, where nginx
  maps it (MAP_BYTES). Two groups of one key (at 25M groups, about one build in 60,000) refuse the
  build, as a name written twice does. The names themselves live only in the release's manifest
  (marquee/manifests.py), which `Pack.names` reads;
- `body` the group's block (`block_of`): a directory, a line `suffix<TAB>length` per document (the
  suffix is the name past the group: `.json`, `.de-DE.json`, `/credits.json`; all of a lone
  document's name is its group, its suffix empty), an empty line, then each document's JSON in
  the directory's order. The block is stored as a zstd frame when that is shorter (a frame starts
  with ZSTD_MAGIC, which no directory does), made with a dictionary trained on blocks of its group's
  kind (`kind_of`: `3/movie/#`) and named by zstd's dictionary id in the frame header: the row
  `dicts(id, template, dict)` of the same pack file, so a reader needs no other table. A delta pack
  holds copies of its base's dictionaries, so a reader looks in its connection's `main.dicts` only;
- no ETag: a document's is the MD5 of its JSON (served as hex: a content hash, not a security
  one), which readers compute, so an unchanged document keeps its ETag across releases however it
  is stored. The manifest keeps a digest of each (marquee/manifests.py), which the next build compares.
- `meta` (META_TABLE) holds facts about the whole release: DOCUMENTS (how many there are) and
  VARIANTLESS (below).

A pack's `PRAGMA user_version` is its format. Readers (`Pack`, marquee_pack.lua) still read the
formats before: BLOB_KEY_FORMAT (3), the same groups keyed by the first KEY_BYTES of the MD5 as a
BLOB; ROW_FORMAT (2), `docs(key, body, etag)` with a row per document keyed by
`hash_key(name)`, the ETag's 16 bytes stored; and 0, `docs(name, body, etag)` by name with hex ETags.
A build on top of either writes a full pack.

A composite document (a list whose items are other documents) is stored as a skeleton: each of its
items is `{"\u0001":"movie/603"}`, or `{"\u0001":"movie/603","character":…}` with the entry's own
fields, and is read with the item document `_items/movie/603.json` spliced in (`assemble`), its own
fields appended. A film listed in 40 similar lists and the credits of its people is then one row to
rewrite when its title changes, not 40 lists. No JSON body can hold that key otherwise: it is not a
property of any schema. Names under `_items/` are not under `3/`, so no request path reaches them.

A rebuild (site_gen/writer.py) does not copy the previous release's pack (16 GB at 100k movies,
about 3 minutes): its `documents.sqlite` is a delta, marked by DELTA_APPLICATION_ID in the SQLite
header, holding only the documents that differ from its base, and a row with a NULL body (and
etag) is a tombstone, a document of the base that no longer exists. `base.sqlite` is a hard link
to a full pack (an earlier release's `documents.sqlite`), so pruning that release frees nothing
the delta needs. A document is the delta's row if it has one, else the base's.

The site_gen Writer creates packs; nginx (nginx/lua/marquee_docs.lua, with marquee_zstd.lua) and
the edge (Pack) read them, opened read-only and immutable, since a published release never changes
(a base is never opened for writing at all).
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import zstandard

PACK_NAME = "documents.sqlite"
PACK_FORMAT = 4  # `PRAGMA user_version` of a pack of groups by integer key (since 2026-11-26)
BLOB_KEY_FORMAT = 3  # groups keyed by hash_key(group) (still read)
ROW_FORMAT = 2  # a row per document, keyed by hash_key(name); 0: by name (both still read)
GROUPED_FORMATS = (PACK_FORMAT, BLOB_KEY_FORMAT)
KEY_BYTES = 12  # hash_key's: formats 2 and 3
# nginx's workers map the first MAP_BYTES of a pack into memory (`PRAGMA mmap_size`; SQLite as this
# box's Debian builds it maps at most 2 GB, SQLITE_MAX_MMAP_SIZE): a lookup there reads its pages
# without a system call or a copy. Items (~50 a cold credits document) have their keys in the
# lowest 1/2^ITEM_SHIFT of the range (key_of), so their rows are written first: at 1M films ~1 GB.
MAP_BYTES = 0x7FFF0000
ITEM_SHIFT = 4
BASE_NAME = "base.sqlite"
PAGE_SIZE = 16384  # fewer, fuller pages than 4 KB for bodies of 1 to 15 KB (measured: 1.17 vs 1.21 of data)
# `PRAGMA application_id` of a delta pack ("MQdl"): readers must not take a delta for a whole release.
DELTA_APPLICATION_ID = 0x4D51646C
ITEMS = "_items/"  # where the items of composite documents live
COMPOSITE_MARK = b'{"\\u0001":"'
# One item reference: its name under ITEMS (REFERENCE_NAME's characters), then `}` (the item alone)
# or `,` (the entry's own fields follow). nginx/lua/marquee_docs.lua gets the mark, the characters
# and ITEMS through control/services.py and checks each mark it finds by this rule, so both sides
# splice the same bytes (tests/e2e/test_packs_served.py).
REFERENCE_NAME = "A-Za-z0-9_/"
REFERENCE = re.compile(rb'\{"\\u0001":"([' + REFERENCE_NAME.encode() + rb']+)"([,}])')
# A document's language variants: `X.json` in the first configured language (or for a document that
# does not depend on language), `X.<tag>.json` in each other one, `X.und.json` for a missing
# translation. site_gen writes these names; edge/languages.py picks among them.
UNTRANSLATED = ".und"


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # the first bytes of a zstd frame (RFC 8878); JSON starts with { or [
# SQLite's page cache (KiB) of each connection that reads a pack (nginx's workers, the edge). At a
# million films the interior pages of the pack's two B-trees are ~14 MB: in SQLite's default 2 MB a
# cold document read them again from the OS, two more reads beside its two leaves.
READ_CACHE_KIB = 32 * 1024
# Level 1: a 1M pack's blocks at 388 MB/s and 6.57 times, against level 3's 293 MB/s and 6.93 times
# (docs/benchmarks.md, session 53): ~45 CPU s of a 1M build for ~0.6 GB more pack, which the release
# has room for under 20 GB; higher levels cost the build more than they save.
ZSTD_LEVEL = 1
# Dictionaries: up to DICT_BYTES, trained on a template's first documents with fastCover's k and d
# fixed (zstd's parameter search took 17 s for the sample's 76 templates, these 0.7 s, for 4.81
# times against 4.89). A dictionary id is drawn from the range zstd leaves to applications.
DICT_BYTES = 64 * 1024
DICT_K, DICT_D = 1000, 8
DICT_IDS = (32_768, 2**31 - 1)
DICTS_TABLE = (
    "CREATE TABLE IF NOT EXISTS main.dicts (id INTEGER PRIMARY KEY, template TEXT NOT NULL, dict BLOB NOT NULL)"
)
# Facts about a pack's documents as a whole, for its readers. VARIANTLESS: the shapes (path_shape) of
# the templates none of whose documents has a language variant, one a line; a reader asked for one
# of those in a language looks up the default document only, not each language candidate in turn
# (three lookups, two of them misses, for a cold `/credits?language=de-DE`). A delta pack holds the
# whole list, not a change to its base's. Packs without the table: every path may have variants.
META_TABLE = "CREATE TABLE IF NOT EXISTS main.meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID"
VARIANTLESS = "variantless"
# A name with a language variant's suffix (`3/movie/603.de-DE.json`, `….und.json`): a dot in its last
# segment before `.json` (no document id has one).
VARIANT_NAME = r"\.[^/.]+\.json$"
NUMBER_SEGMENT = re.compile(r"/[0-9]+(?=/|$)")
DOCUMENTS = "documents"  # meta: how many documents the release has (a pack's rows are groups)
# A document name's group and suffix (group_of): an entity's path (a kind, perhaps a second word, an
# id of up to 24 hex digits, then a season and an episode number when there are) followed by `/` or
# `.`. nginx matches names with the same pattern (PCRE reads it as Python does; so does RE2, which
# site_gen's Arrow code uses).
GROUP_ENTITY = r"3/[a-z_]+(?:/[a-z_]+)?/[0-9a-f]{1,24}(?:/season/[0-9]+(?:/episode/[0-9]+)?)?"
GROUP = re.compile(rf"^({GROUP_ENTITY})([/.].*)$")
# A group's kind, which its block's dictionary is trained for: each segment holding a digit as `#`.
KIND_SEGMENT = re.compile(r"(?<=/)[^/.]*[0-9][^/.]*")
# The directory of a block: `suffix<TAB>length` lines, then an empty line.
DIRECTORY_LINE = re.compile(rb"([^\t\n]*)\t([0-9]+)\n")


def group_of(name: str) -> tuple[str, str]:
    """(group, suffix) of a document name: `3/movie/603.de-DE.json` is ("3/movie/603", ".de-DE.json"),
    `_items/movie/603.json` is all group ("_items/movie/603.json", "")."""
    match = GROUP.match(name)
    return (match.group(1), match.group(2)) if match else (name, "")


def kind_of(group: str) -> str:
    """`3/movie/#` for `3/movie/603`: what a block's dictionary is trained on."""
    return KIND_SEGMENT.sub("#", group)


def block_of(documents: list[tuple[str, bytes]]) -> bytes:
    """The block of a group's documents, (suffix, JSON) in the order readers find them."""
    return (
        "".join(f"{suffix}\t{len(body)}\n" for suffix, body in documents).encode()
        + b"\n"
        + b"".join(body for _, body in documents)
    )


def block_documents(block: bytes) -> dict[str, bytes]:
    """A block's documents by suffix, in its order."""
    end = block.index(b"\n\n") + 1
    documents, at = {}, end + 1
    for match in DIRECTORY_LINE.finditer(block, 0, end):
        size = int(match.group(2))
        documents[match.group(1).decode()] = block[at : at + size]
        at += size
    return documents


def train_dictionary(samples: list[bytes], taken: set[int]) -> zstandard.ZstdCompressionDict | None:
    """A dictionary for documents like `samples`, with an id not in `taken`; None when they are too
    few or too small for one (zstd refuses), and are then stored without."""
    size = min(DICT_BYTES, sum(map(len, samples)) // 8)
    if len(samples) < 16 or size < 1024:
        return None
    while (dict_id := int.from_bytes(os.urandom(4), "little") % (DICT_IDS[1] - DICT_IDS[0]) + DICT_IDS[0]) in taken:
        pass
    try:
        return zstandard.train_dictionary(size, samples, k=DICT_K, d=DICT_D, level=ZSTD_LEVEL, dict_id=dict_id)
    except zstandard.ZstdError:
        return None


def kept_encoder(
    con: sqlite3.Connection, template: str, samples: list[bytes] | None = None
) -> Callable[[bytes], bytes]:
    """How `template`'s bodies are stored in `con` (a pack, or an index stored the same way): with a
    dictionary trained on `samples` and kept in its `dicts` table; without samples, with the one
    `dicts` already keeps for it (an update goes on with its previous index's), else none."""
    if samples is None:
        row = con.execute(
            "SELECT dict FROM main.dicts WHERE template = ? ORDER BY id DESC LIMIT 1", (template,)
        ).fetchone()
        return encoder(
            zstandard.ZstdCompressionDict(bytes(row[0]), dict_type=zstandard.DICT_TYPE_FULLDICT) if row else None
        )
    return encoder(kept_dictionary(con, template, samples))


def kept_dictionary(
    con: sqlite3.Connection, template: str, samples: list[bytes]
) -> zstandard.ZstdCompressionDict | None:
    """A dictionary trained on `samples` (train_dictionary), kept in `con`'s `dicts` for `template`
    (a template, or a pack's group kind); None when they are too few to train one."""
    dictionary = train_dictionary(samples, {i for (i,) in con.execute("SELECT id FROM main.dicts")})
    if dictionary is not None:
        con.execute("INSERT INTO main.dicts VALUES (?, ?, ?)", (dictionary.dict_id(), template, dictionary.as_bytes()))
    return dictionary


def compressor(dictionary: zstandard.ZstdCompressionDict | None) -> zstandard.ZstdCompressor:
    """How stored bodies are compressed: frames recording their content size and dictionary id,
    which readers need."""
    return zstandard.ZstdCompressor(
        level=ZSTD_LEVEL, dict_data=dictionary, write_content_size=True, write_dict_id=True, write_checksum=False
    )


def encoder(dictionary: zstandard.ZstdCompressionDict | None) -> Callable[[bytes], bytes]:
    """The stored body of a document: its zstd frame (with `dictionary`), or its JSON when that is
    no longer."""
    compress = compressor(dictionary).compress

    def encode(body: bytes) -> bytes:
        frame = compress(body)
        return frame if len(frame) < len(body) else body

    return encode


class Decoder:
    """Stored bodies back to JSON for one connection to a pack, its dictionaries read on first use."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self._decompressors: dict[int, zstandard.ZstdDecompressor] = {}

    def __call__(self, stored: bytes) -> bytes:
        if stored[:4] != ZSTD_MAGIC:
            return stored
        dict_id = zstandard.get_frame_parameters(stored).dict_id
        decompressor = self._decompressors.get(dict_id)
        if decompressor is None:
            data = None
            if dict_id:
                row = self.con.execute("SELECT dict FROM main.dicts WHERE id = ?", (dict_id,)).fetchone()
                if row is None:
                    raise MissingItem(f"dictionary {dict_id}")
                data = zstandard.ZstdCompressionDict(bytes(row[0]), dict_type=zstandard.DICT_TYPE_FULLDICT)
            decompressor = self._decompressors[dict_id] = zstandard.ZstdDecompressor(dict_data=data)
        return decompressor.decompress(stored)


def variant_suffix(position: int, tag: str) -> str:
    """The suffix of the variant in `tag`, the language at `position` of MARQUEE_LANGUAGES."""
    return "" if position == 0 else f".{tag}"


class MissingItem(LookupError):
    """A composite document names an item, or a frame a dictionary, the release does not have (a
    broken release)."""


def assemble(body: bytes, item: Callable[[str], bytes | None]) -> bytes:
    """`body` with its item references replaced by the items (`item(name)` reads a release
    document); a body without references is returned as it is."""
    if COMPOSITE_MARK not in body:
        return body

    def splice(match: re.Match) -> bytes:
        name = ITEMS + match.group(1).decode() + ".json"
        found = item(name)
        if found is None:
            raise MissingItem(name)
        return found if match.group(2) == b"}" else found[:-1] + b","

    return REFERENCE.sub(splice, body)


def path_shape(path: str) -> str:
    """A request path with each all-digit segment as `#` (`/3/movie/603/credits` -> `/#/movie/#/credits`):
    what nginx matches against a pack's VARIANTLESS shapes (marquee_docs.lua does the same with the
    same pattern). A template's shape is its path with each placeholder a number; a template whose ids
    are not numbers has a shape no request matches, and keeps every candidate."""
    return NUMBER_SEGMENT.sub("/#", path)


def variantless(con: sqlite3.Connection, schema: str = "main") -> set[str]:
    """The VARIANTLESS shapes a pack records (none for a pack written before the meta table)."""
    try:
        row = con.execute(f"SELECT value FROM {schema}.meta WHERE key = ?", (VARIANTLESS,)).fetchone()
    except sqlite3.OperationalError:  # no such table
        return set()
    return set(row[0].split("\n")) - {""} if row else set()


def pack_path(release: Path | str) -> Path:
    return Path(release) / PACK_NAME


def base_path(release: Path | str) -> Path:
    return Path(release) / BASE_NAME


def etag_of(body: bytes) -> str:
    """MD5 hex: DuckDB's md5() gives the same, so a build compares hashes without Python touching bodies."""
    return hashlib.md5(body).hexdigest()


def key_of(group: str) -> int:
    """A group's row key, its rowid: the first 8 bytes of the MD5 of its name, a signed
    little-endian integer (nginx reads ngx.md5_bin's first 8 bytes as an int64_t). An item's
    (ITEMS) is that hash shifted into the lowest sixteenth of the range (ITEM_SHIFT), so the items'
    rows come first in the file, in the part nginx maps into memory (MAP_BYTES)."""
    digest = hashlib.md5(group.encode()).digest()[:8]
    if group.startswith(ITEMS):
        return (int.from_bytes(digest, "little") >> ITEM_SHIFT) - (1 << 63)
    return int.from_bytes(digest, "little", signed=True)


def hash_key(name: str) -> bytes:
    """A row's key in formats 2 and 3: the first KEY_BYTES of the MD5 of its name."""
    return hashlib.md5(name.encode()).digest()[:KEY_BYTES]


def pack_format(pack: Path | str | sqlite3.Connection, schema: str = "main") -> int:
    """PACK_FORMAT for a keyed pack, 0 for one by name (or a file SQLite cannot read)."""
    if isinstance(pack, sqlite3.Connection):
        return pack.execute(f"PRAGMA {schema}.user_version").fetchone()[0]
    try:
        con = sqlite3.connect(read_only_uri(pack), uri=True)
    except sqlite3.Error:
        return 0
    try:
        return con.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError:
        return 0
    finally:
        con.close()


def read_only_uri(path: Path | str) -> str:
    """An SQLite URI opening path read-only and immutable (no locks, no change checks)."""
    return f"file:{quote(str(path))}?mode=ro&immutable=1"


def is_delta(pack: Path | str) -> bool:
    """Whether the pack file is a delta (needs the base beside it); False for anything SQLite cannot read."""
    try:
        con = sqlite3.connect(read_only_uri(pack), uri=True)
    except sqlite3.Error:
        return False
    try:
        return con.execute("PRAGMA application_id").fetchone()[0] == DELTA_APPLICATION_ID
    except sqlite3.DatabaseError:
        return False
    finally:
        con.close()


def first(layers: tuple[str, ...], columns: str, key: str = "?1", column: str = "key") -> str:
    """SQL for the row of `key` in the first of `layers` (schemas, a delta before its base) that
    has one: at most one row, a tombstone's columns NULL. Each branch is one lookup in its layer's
    index of `column` (`name` in a pack before PACK_FORMAT), and SQLite runs UNION ALL branches in
    order, stopping at LIMIT 1."""
    selects = [f"SELECT {columns} FROM {layer}.docs WHERE {column} = {key}" for layer in layers]
    return selects[0] if len(selects) == 1 else " UNION ALL ".join(selects) + " LIMIT 1"


def document_bytes(pack: Path | str) -> int:
    """A pack file's bytes less its dictionaries': what its documents take (a delta holds copies of
    its base's dictionaries, ~1 MB however few documents it has)."""
    con = sqlite3.connect(read_only_uri(pack), uri=True)
    try:
        has_dicts = con.execute("SELECT 1 FROM sqlite_master WHERE name = 'dicts'").fetchone()
        dicts = con.execute("SELECT coalesce(sum(length(dict)), 0) FROM dicts").fetchone()[0] if has_dicts else 0
    finally:
        con.close()
    return Path(pack).stat().st_size - dicts


def add_document(release: Path | str, name: str, body: bytes) -> None:
    """Put one JSON document into a built release's full pack (benches add a reference document of a
    chosen size); a release is otherwise never written after its build. Its group's block is stored
    again uncompressed, with the document in it."""
    with sqlite3.connect(pack_path(release)) as con:
        version = pack_format(con)
        if version == PACK_FORMAT:
            group, suffix = group_of(name)
            row = con.execute("SELECT body FROM docs WHERE key = ?", (key_of(group),)).fetchone()
            documents = block_documents(Decoder(con)(bytes(row[0]))) if row else {}
            added = suffix not in documents
            documents[suffix] = body
            con.execute("INSERT OR REPLACE INTO docs VALUES (?, ?)", (key_of(group), block_of(list(documents.items()))))
            con.execute("UPDATE meta SET value = value + ? WHERE key = ?", (int(added), DOCUMENTS))
        elif version == ROW_FORMAT:
            con.execute("INSERT INTO docs VALUES (?, ?, ?)", (hash_key(name), body, hashlib.md5(body).digest()))
        else:
            con.execute("INSERT INTO docs VALUES (?, ?, ?)", (name, body, etag_of(body)))
    con.close()


def count_documents(con: sqlite3.Connection, delta: str = "main", base: str | None = None, column: str = "key") -> int:
    """Documents of a pack (`delta`, over `base` when it is a delta) without reading a body: both
    counts come from indexes, and only the delta's rows are looked up in the base."""
    rows = con.execute(f"SELECT count(*) FROM {delta}.docs").fetchone()[0]
    if base is None:
        return rows
    tombstones = con.execute(f"SELECT count(*) FROM {delta}.docs WHERE body IS NULL").fetchone()[0]
    shadowed = con.execute(
        f"SELECT count(*) FROM {delta}.docs d WHERE EXISTS (SELECT 1 FROM {base}.docs b WHERE b.{column} = d.{column})"
    ).fetchone()[0]
    return con.execute(f"SELECT count(*) FROM {base}.docs").fetchone()[0] + rows - tombstones - shadowed


def open_pack(release: Path | str) -> sqlite3.Connection:
    """A read-only connection to a release's pack (FileNotFoundError when it has none, or when it is
    a delta whose base is missing). For a delta, the base is attached as `base` and `docs` is a
    temporary view of the release's documents (temp objects shadow main's), so a query written for a
    full pack reads the whole release; Pack's lookups go to the two tables directly."""
    path = pack_path(release)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no document pack")
    # immutable=1: no locks and no change checks, which is true of a release once written.
    con = sqlite3.connect(read_only_uri(path), uri=True, check_same_thread=False)
    if con.execute("PRAGMA application_id").fetchone()[0] == DELTA_APPLICATION_ID:
        base = base_path(release)
        if not base.is_file():
            con.close()
            raise FileNotFoundError(f"{base}: the base of the delta pack {path} is missing")
        con.execute("ATTACH DATABASE ? AS base", (read_only_uri(base),))
        version = pack_format(con)
        column = "key" if version in (*GROUPED_FORMATS, ROW_FORMAT) else "name"
        columns = f"{column}, body" + (", etag" if version not in GROUPED_FORMATS else "")
        con.execute(
            f"CREATE TEMP VIEW docs AS SELECT {columns} FROM main.docs WHERE body IS NOT NULL "
            f"UNION ALL SELECT {columns} FROM base.docs b "
            f"WHERE NOT EXISTS (SELECT 1 FROM main.docs d WHERE d.{column} = b.{column})"
        )
    con.execute("PRAGMA query_only = 1")
    con.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")
    return con


class Pack:
    """Documents of one release by name; what a file read was before packs."""

    def __init__(self, release: Path | str) -> None:
        self.release = Path(release)
        self.con = open_pack(release)
        self.delta = any(name == "base" for _, name, _ in self.con.execute("PRAGMA database_list"))
        self.format = pack_format(self.con)
        self.grouped = self.format in GROUPED_FORMATS
        self.keyed = self.format in (*GROUPED_FORMATS, ROW_FORMAT)
        self._layers = ("main", "base") if self.delta else ("main",)
        column = "key" if self.keyed else "name"
        self._body = first(self._layers, "body", column=column)
        if not self.grouped:
            self._etag = first(self._layers, "etag", column=column)
        self.decode = Decoder(self.con)
        self._blocks: dict[str, dict[str, bytes] | None] = {}  # the last groups read (names come in runs)

    def key(self, name: str) -> bytes | str:
        """The row key of the document `name` in this pack (its group's, or the name itself in a pack by name)."""
        if self.grouped:
            return self._group_key(group_of(name)[0])
        return hash_key(name) if self.keyed else name

    def _group_key(self, group: str) -> int | bytes:
        return key_of(group) if self.format == PACK_FORMAT else hash_key(group)

    def block(self, group: str) -> dict[str, bytes] | None:
        """The documents of `group` by suffix (None: the release has none)."""
        documents = self._blocks.get(group, False)
        if documents is False:  # the edge's threads share a Pack: one result, however they interleave
            if len(self._blocks) >= 64:
                self._blocks = {}
            row = self.con.execute(self._body, (self._group_key(group),)).fetchone()
            documents = None if row is None or row[0] is None else block_documents(self.decode(bytes(row[0])))
            self._blocks[group] = documents
        return documents

    def raw(self, name: str) -> bytes | None:
        """The document's JSON: a composite document's skeleton, not the document."""
        if self.grouped:
            group, suffix = group_of(name)
            documents = self.block(group)
            return None if documents is None else documents.get(suffix)
        row = self.con.execute(self._body, (self.key(name),)).fetchone()
        return None if row is None or row[0] is None else self.decode(bytes(row[0]))

    def rows(self, like: str = "%") -> Iterator[tuple[str, bytes, str]]:
        """(name, JSON, etag) of every document whose name matches a SQL LIKE pattern, in name
        order, skeletons as they are: what two packs must agree on, however each stores its bodies."""
        for name in self.names(like):
            body = self.raw(name)
            assert body is not None
            yield name, body, self.etag(name)

    def get(self, name: str) -> bytes | None:
        """The document as served: a composite's items spliced in; None for a composite naming a
        missing item (a broken release), as nginx answers it."""
        body = self.raw(name)
        try:
            return None if body is None else assemble(body, self.raw)
        except MissingItem:
            return None

    def etag(self, name: str) -> str | None:
        """The document's ETag (hex), the one a rebuild keeps it by: the hash of its JSON. A
        composite's is its skeleton's: the ETag served with it is the hash of the assembled bytes
        (etag_of(get(name)))."""
        if self.grouped:
            body = self.raw(name)
            return None if body is None else etag_of(body)
        row = self.con.execute(self._etag, (self.key(name),)).fetchone()
        return None if row is None else _hex(row[0])

    def names(self, like: str = "%") -> list[str]:
        """Names of the documents matching a SQL LIKE pattern (ASCII case ignored), in name order."""
        return list(self.iter_names(like))

    def iter_names(self, like: str = "%") -> Iterator[str]:
        """names(), as a stream a caller may stop early. A keyed pack holds no names: they are the
        release manifest's (every rendered name) that the pack has a document for."""
        if not self.keyed:
            yield from (
                name for (name,) in self.con.execute("SELECT name FROM docs WHERE name LIKE ? ORDER BY name", (like,))
            )
            return
        import duckdb  # the manifest is Parquet, read as the build reads it

        from marquee.manifests import MANIFEST_NAME, manifest_rows

        folder = self.release / MANIFEST_NAME
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: a keyed pack's names are its release's manifest")
        with duckdb.connect() as con:
            rendered = con.execute(
                f"SELECT DISTINCT name FROM {manifest_rows(folder)} WHERE name ILIKE $like ORDER BY name",
                {"like": like},
            )
            while batch := rendered.fetchmany(10_000):
                # A rendered name without a document is an untranslated twin the build dropped.
                yield from (name for (name,) in batch if self.raw(name) is not None)

    def count(self) -> int:
        if self.grouped:
            return int(self.con.execute("SELECT value FROM main.meta WHERE key = ?", (DOCUMENTS,)).fetchone()[0])
        return count_documents(self.con, "main", "base" if self.delta else None, "key" if self.keyed else "name")

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Pack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _hex(etag: bytes | str | None) -> str | None:
    """An ETag as served: a keyed pack stores its 16 bytes, one by name the hex."""
    return etag.hex() if isinstance(etag, bytes) else etag
