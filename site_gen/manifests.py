"""The manifest of a release: every rendered document's path template, name and content hash.

The next build compares what it renders with it, one template at a time (site_gen/documents.py),
and the Writer (site_gen/writer.py) writes it. This module owns the layout; it imports nothing of
site_gen, so both can use it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# Every rendered document's path template, name and content hash (before untranslated twins are
# dropped), for the next build to compare against one template at a time: a folder with one
# Parquet file per template (manifest_file), so a rebuild keeps a template nothing reaches by a
# hard link to the previous release's file (at 100k movies, streaming 8M unchanged rows through
# the Writer again cost ~5 s of a 25 s rebuild). A template a rebuild renders only in part has a
# delta file beside that link (delta_file, Writer.over_previous): the rows of the entities it
# rendered, a null etag for a name gone, so the rest of its rows are neither read nor written
# (at 100k movies, 887 renamed films reached 16 templates and 2.4M kept rows: ~5 s of 17).
MANIFEST_NAME = "MANIFEST"
BASE_SUFFIX = ".parquet"
DELTA_SUFFIX = ".delta.parquet"
MANIFEST_SCHEMA = pa.schema([("template", pa.string()), ("name", pa.string()), ("etag", pa.string())])
# A template's delta grows with each update over the same base; past this share of the base's rows
# the next update writes the template whole again (the same bound as the pack's, writer.py).
DELTA_FRACTION = 0.25


def manifest_key(template: str) -> str:
    """The name a path template's manifest files start with (a hash: templates hold '/' and braces)."""
    return hashlib.md5(template.encode()).hexdigest()[:16]


def manifest_file(template: str) -> str:
    """The manifest's file for a path template: its rows, or the base its delta_file updates."""
    return manifest_key(template) + BASE_SUFFIX


def delta_file(template: str) -> str:
    """The manifest's file of changes over the template's manifest_file (a null etag: name removed)."""
    return manifest_key(template) + DELTA_SUFFIX


def manifest_sql(files: list[Path]) -> str:
    """SQL reading every row of these manifest files (none when there are none)."""
    if not files:
        return "(SELECT NULL::VARCHAR AS template, NULL::VARCHAR AS name, NULL::VARCHAR AS etag WHERE false)"
    return "read_parquet([" + ", ".join("'" + str(path).replace("'", "''") + "'" for path in files) + "])"


def manifest_keys(folder: Path) -> set[str]:
    """The manifest_key of every template with a file in the folder."""
    return {path.name.split(".", 1)[0] for path in Path(folder).glob("*.parquet")}


def manifest_rows(folder: Path | None, keys: set[str] | None = None, removed: bool = False,
                  where: str = "true") -> str:
    """SQL: the (template, name, etag) rows of these templates (manifest_key; all when None): each
    base file's rows, a name its delta file holds replaced by the delta's row. A name the delta
    removes is left out, or kept with a null etag when `removed`. `where` filters the rows read."""
    if folder is None:
        return manifest_sql([])
    folder = Path(folder)
    keys = manifest_keys(folder) if keys is None else keys
    bases, deltas = ([folder / (key + suffix) for key in sorted(keys) if (folder / (key + suffix)).exists()]
                     for suffix in (BASE_SUFFIX, DELTA_SUFFIX))
    if not deltas:
        return f"(SELECT * FROM {manifest_sql(bases)} WHERE {where})"
    changes = f"(SELECT * FROM {manifest_sql(deltas)} WHERE {where})"
    return (f"(SELECT * FROM {manifest_sql(bases)} b WHERE {where} AND NOT EXISTS (SELECT 1 FROM {changes} d "
            f"WHERE d.template = b.template AND d.name = b.name) "
            f"UNION ALL SELECT * FROM {changes} d" + ("" if removed else " WHERE d.etag IS NOT NULL") + ")")


def delta_fits(folder: Path | None, template: str) -> bool:
    """Whether the next update may write the template as a delta over its manifest_file in `folder`
    (a previous release's): it has one, and its delta is at most DELTA_FRACTION of its rows (else
    the template is written whole again, and the next updates start from that)."""
    if folder is None or not (Path(folder) / manifest_file(template)).exists():
        return False
    base = pq.ParquetFile(Path(folder) / manifest_file(template)).metadata.num_rows
    delta = Path(folder) / delta_file(template)
    return (pq.ParquetFile(delta).metadata.num_rows if delta.exists() else 0) <= DELTA_FRACTION * base
