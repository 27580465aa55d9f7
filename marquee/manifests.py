"""The manifest of a release: every rendered document's path template, name and content digest.

The next build compares what it renders with it, one template at a time (site_gen/documents.py),
and the Writer (site_gen/writer.py) writes it. This module owns the layout; it imports nothing of
site_gen, so both can use it. What an update's Writer learns from the manifests alone (names
rendered twice, names gone, untranslated variants to restore) is found here, in DuckDB.
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from marquee.packs import pack_path

# Every rendered document's path template, name and content hash (before untranslated twins are
# dropped), for the next build to compare against one template at a time: a folder with one
# Parquet file per template (manifest_file), so a rebuild keeps a template nothing reaches by a
# hard link to the previous release's file (at 100k movies, streaming 8M unchanged rows through
# the Writer again cost ~5 s of a 25 s rebuild). A template a rebuild renders only in part has a
# delta file beside that link (delta_file, Writer.over_previous): the rows of the entities it
# rendered, a null digest for a name gone, so the rest of its rows are neither read nor written
# (at 100k movies, 887 renamed films reached 16 templates and 2.4M kept rows: ~5 s of 17).
MANIFEST_NAME = "MANIFEST"
BASE_SUFFIX = ".parquet"
DELTA_SUFFIX = ".delta.parquet"
# How the manifest's Parquet files are written. zstd: the names and hashes take half of snappy's
# bytes (20k films: 116 MB to 62; ~3 GB saved at 1M). The names, unique and written in order
# (`3/movie/603.json`, `3/movie/603.de-DE.json`, …), as DELTA_BYTE_ARRAY (each name its shared prefix's
# length and the rest), not a dictionary they overflow: 13.95 to 10.78 bytes a row at 20k films, and
# a 1M release's manifest 1.44 to 1.24 GB; DuckDB reads them faster (docs/benchmarks.md, session 43).
MANIFEST_OPTIONS = {
    "compression": "zstd",
    "use_dictionary": ["template"],
    "column_encoding": {"name": "DELTA_BYTE_ARRAY"},
}
# A document's digest, what the next build compares to tell a changed document: DuckDB's 64-bit
# hash() of its JSON, not the ETag's MD5 (which readers compute from the body). DuckDB's MD5 runs at
# ~300 MB/s against hash()'s ~1,100: over a 1M build's 61 GB of JSON that was ~150 CPU seconds, up
# to 40% of a simple template's rendering (docs/benchmarks.md, session 46). Not a security hash:
# only the next build compares it, and two different documents of one name share a digest about
# once in 2^64 rebuilds. DuckDB does not promise hash() across versions, so the manifest's schema
# names the function it holds (DIGEST_FUNCTION): a previous manifest of another is not compared
# with, and that build writes a full pack.
DIGEST_SQL = "hash"
DIGEST_FUNCTION = f"duckdb {duckdb.__version__} {DIGEST_SQL}".encode()
MANIFEST_SCHEMA = pa.schema(
    [("template", pa.string()), ("name", pa.string()), ("digest", pa.uint64())], metadata={b"digest": DIGEST_FUNCTION}
)
# A template's delta grows with each update over the same base; past this share of the base's rows
# the next update writes the template whole again (the same bound as the pack's, writer.py).
DELTA_FRACTION = 0.25


def digest_of(body: bytes) -> int:
    """A document's digest (DIGEST_SQL), computed in Python's process."""
    return digests_of(pa.array([body], pa.binary()))[0].as_py()


_DIGESTERS: dict[int, duckdb.DuckDBPyConnection] = {}  # by process: a connection does not cross a fork
_DIGESTERS_LOCK = threading.Lock()


def digests_of(bodies: pa.Array) -> pa.Array:
    """The digests (uint64) of binary `bodies`, null for a null body: one DuckDB query (~0.3 ms, then
    ~1 µs a KB), so callers hand over a batch where they can."""
    named = pa.table({"body": bodies})  # noqa: F841 (DuckDB reads the table by its name)
    with _DIGESTERS_LOCK:
        con = _DIGESTERS.get(os.getpid())
        if con is None:
            con = _DIGESTERS[os.getpid()] = _connect()
        digests = con.sql(f"SELECT CASE WHEN body IS NOT NULL THEN {DIGEST_SQL}(body) END FROM named")
        return digests.to_arrow_table().column(0).combine_chunks()


def manifest_key(template: str) -> str:
    """The name a path template's manifest files start with (a hash: templates hold '/' and braces)."""
    return hashlib.md5(template.encode()).hexdigest()[:16]


def manifest_file(template: str) -> str:
    """The manifest's file for a path template: its rows, or the base its delta_file updates."""
    return manifest_key(template) + BASE_SUFFIX


def delta_file(template: str) -> str:
    """The manifest's file of changes over the template's manifest_file (a null digest: name removed)."""
    return manifest_key(template) + DELTA_SUFFIX


def manifest_sql(files: list[Path]) -> str:
    """SQL reading every row of these manifest files (none when there are none)."""
    if not files:
        return "(SELECT NULL::VARCHAR AS template, NULL::VARCHAR AS name, NULL::UBIGINT AS digest WHERE false)"
    return "read_parquet([" + ", ".join("'" + str(path).replace("'", "''") + "'" for path in files) + "])"


def manifest_keys(folder: Path) -> set[str]:
    """The manifest_key of every template with a file in the folder."""
    return {path.name.split(".", 1)[0] for path in Path(folder).glob("*.parquet")}


def manifest_rows(folder: Path | None, keys: set[str] | None = None, removed: bool = False, where: str = "true") -> str:
    """SQL: the (template, name, digest) rows of these templates (manifest_key; all when None): each
    base file's rows, a name its delta file holds replaced by the delta's row. A name the delta
    removes is left out, or kept with a null digest when `removed`. `where` filters the rows read."""
    if folder is None:
        return manifest_sql([])
    folder = Path(folder)
    keys = manifest_keys(folder) if keys is None else keys
    bases, deltas = (
        [folder / (key + suffix) for key in sorted(keys) if (folder / (key + suffix)).exists()]
        for suffix in (BASE_SUFFIX, DELTA_SUFFIX)
    )
    if not deltas:
        return f"(SELECT * FROM {manifest_sql(bases)} WHERE {where})"
    changes = f"(SELECT * FROM {manifest_sql(deltas)} WHERE {where})"
    return (
        f"(SELECT * FROM {manifest_sql(bases)} b WHERE {where} AND NOT EXISTS (SELECT 1 FROM {changes} d "
        f"WHERE d.template = b.template AND d.name = b.name) "
        f"UNION ALL SELECT * FROM {changes} d" + ("" if removed else " WHERE d.digest IS NOT NULL") + ")"
    )


def delta_fits(folder: Path | None, template: str) -> bool:
    """Whether the next update may write the template as a delta over its manifest_file in `folder`
    (a previous release's): it has one, and its delta is at most DELTA_FRACTION of its rows (else
    the template is written whole again, and the next updates start from that)."""
    if folder is None or not (Path(folder) / manifest_file(template)).exists():
        return False
    base = pq.ParquetFile(Path(folder) / manifest_file(template)).metadata.num_rows
    delta = Path(folder) / delta_file(template)
    return (pq.ParquetFile(delta).metadata.num_rows if delta.exists() else 0) <= DELTA_FRACTION * base


def previous_manifest(release: Path) -> Path | None:
    """The manifest folder (template, name, digest of every rendered document) of a release with a
    pack, or None (also for the single-file manifest of earlier builds, or digests of another
    function, DIGEST_FUNCTION: a full build follows)."""
    manifest = Path(release) / MANIFEST_NAME
    if not (manifest.is_dir() and pack_path(release).is_file()):
        return None
    schema = _manifest_schema(manifest)
    return manifest if schema is None or (schema.equals(MANIFEST_SCHEMA) and _our_digests(schema)) else None


def other_digests(release: Path) -> bool:
    """Whether the release's manifest holds digests of another function than DIGEST_FUNCTION (an
    older DuckDB's hash(), or the MD5 earlier builds kept): comparing them would mean reading every document."""
    manifest = Path(release) / MANIFEST_NAME
    schema = _manifest_schema(manifest) if manifest.is_dir() else None
    return schema is not None and schema.equals(MANIFEST_SCHEMA) and not _our_digests(schema)


def _manifest_schema(manifest: Path) -> pa.Schema | None:
    files = list(manifest.glob("*.parquet"))
    return pq.read_schema(files[0]) if files else None


def _our_digests(schema: pa.Schema) -> bool:
    return (schema.metadata or {}).get(b"digest") == DIGEST_FUNCTION


def _connect() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    return con


def repeated_names(folder: Path, limit: int = 3) -> list[str]:
    """Names the manifest `folder` holds more than once (a full build's: a name written twice), in
    name order; none when its rows are all distinct."""
    with _connect() as con:
        return [
            name
            for (name,) in con.sql(
                f"SELECT name FROM {manifest_rows(folder)} GROUP BY name "
                f"HAVING count(*) > 1 ORDER BY name LIMIT {int(limit)}"
            ).fetchall()
        ]


def unchanged_count(folder: Path, previous: Path) -> int:
    """How many documents of the manifest `folder` the manifest `previous` holds with the same digest."""
    with _connect() as con:
        return con.execute(
            f"SELECT count(*) FROM {manifest_rows(folder)} m JOIN {manifest_rows(previous)} p USING (name, digest)"
        ).fetchone()[0]


@dataclass(frozen=True)
class Settled:
    """What an update's manifest says about its pack (settle_update)."""

    repeated: list[str]  # up to three names rendered twice (the update is refused)
    gone: list[str]  # names the previous release had that are no longer rendered
    unds: list[tuple[str, int]]  # (name, digest) of the candidate untranslated variants rendered now


def settle_update(
    folder: Path, previous: Path, untouched: set[str], deltas: list[str], written: list[str], candidates: list[str]
) -> Settled:
    """Compare an update's manifest `folder` with the previous release's, reading only the rows
    rendered now: the files of templates rendered whole (all but the manifest keys `untouched`)
    and the delta files of the templates in `deltas`. A name rendered before that another template
    keeps cannot newly repeat; a name `written` now (new or changed) is looked up in every template."""
    whole = manifest_keys(folder) - untouched  # rendered whole: a file of every row
    rendered = manifest_rows(folder, whole)
    changes = manifest_sql(
        [folder / delta_file(template) for template in deltas if (folder / delta_file(template)).exists()]
    )
    before = manifest_rows(previous, manifest_keys(previous) - untouched)
    with _connect() as con:
        con.register("written_names", pa.table({"name": pa.array(written, pa.string())}))
        held = manifest_rows(folder, where="name IN (SELECT name FROM written_names)")
        repeated = con.execute(
            f"(SELECT name FROM (SELECT name FROM {rendered} UNION ALL SELECT name FROM {changes}) "
            f"GROUP BY name HAVING count(*) > 1) UNION "
            f"(SELECT name FROM {held} GROUP BY name HAVING count(*) > 1) ORDER BY name LIMIT 3"
        ).fetchall()
        if repeated:
            return Settled([name for (name,) in repeated], [], [])
        # Gone: a name a template rendered whole no longer has, or one a delta removes (again, when
        # an earlier delta removed it: removing is idempotent).
        gone = [
            name
            for (name,) in con.execute(
                f"SELECT name FROM {before} b WHERE NOT EXISTS (SELECT 1 FROM {rendered} r WHERE r.name = b.name) "
                f"UNION ALL SELECT name FROM {changes} WHERE digest IS NULL"
            ).fetchall()
        ]
        con.register("candidates", pa.table({"name": pa.array(candidates, pa.string())}))
        unds = con.execute(
            f"SELECT r.name, r.digest FROM (SELECT name, digest FROM {rendered} UNION ALL "
            f"SELECT name, digest FROM {changes} WHERE digest IS NOT NULL) r JOIN candidates c USING (name)"
        ).fetchall()
    return Settled([], gone, unds)
