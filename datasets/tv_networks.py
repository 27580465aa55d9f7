"""Import a list of TV networks (TMDB's series-network pairs, as a crawl of the TMDB API writes them:
a JSON array or JSON lines of {id, network_id, network_name, network_country}, gzipped or not) into
a catalogue's `networks` table, the reference list /3/network/{id} answers from.

It adds to the catalogue there is (or starts an empty one): its other tables are kept, and a
network it already has keeps its row (logo, headquarters) while the file fills the ones it lacks.
The series ids of the pairs name series only a catalogue with those series can use; they are
counted, not kept. Rows without a numeric network id or a name are skipped and reported.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from marquee_datasets.importing import ImportFailed, ImportSummary, connect, sql_string, staged, write_tables


def import_file(path: Path, target: Path, status: Callable[[str], None] | None = None) -> ImportSummary:
    started = time.perf_counter()
    summary = ImportSummary(what="networks", status=status)
    path, target = Path(path), Path(target)
    if not path.is_file():
        raise ImportFailed(f"{path} does not exist")
    existing = target / "networks.parquet"
    with staged(target) as staging, contextlib.closing(connect(staging)) as con:
        try:
            con.execute(
                f"CREATE TEMP TABLE pairs AS SELECT row_number() OVER () AS line_no, * FROM read_json({sql_string(path)}, "
                "columns = {'id': 'VARCHAR', 'network_id': 'VARCHAR', 'network_name': 'VARCHAR', "
                "'network_country': 'VARCHAR'}, ignore_errors = true)"
            )
        except duckdb.Error as exc:
            raise ImportFailed(
                f"{path} is not TMDB's network pairs as JSON: {' '.join(str(exc).split())[:200]}"
            ) from None
        summary.read = con.execute("SELECT count(*) FROM pairs").fetchone()[0]
        for line, reason in con.execute("""SELECT line_no, CASE WHEN TRY_CAST(network_id AS BIGINT) IS NULL
                THEN 'no numeric network_id' ELSE 'no network_name' END FROM pairs
                WHERE TRY_CAST(network_id AS BIGINT) IS NULL OR coalesce(network_name, '') = '' ORDER BY 1""").fetchall():
            summary.skipped.append((path.name, int(line), reason))
        imported = con.sql("""SELECT TRY_CAST(network_id AS BIGINT) AS id, arg_min(network_name, line_no) AS name,
                NULL AS logo_path, coalesce(arg_min(network_country, line_no), '') AS origin_country,
                '' AS headquarters, '' AS homepage
            FROM pairs WHERE TRY_CAST(network_id AS BIGINT) IS NOT NULL AND coalesce(network_name, '') <> ''
            GROUP BY 1""").to_arrow_table()
        if existing.is_file():  # the catalogue's rows win; the file adds the networks it lacks
            con.register("imported", imported)
            con.register("kept", pq.read_table(existing))
            imported = con.sql(
                "SELECT * FROM kept UNION ALL BY NAME SELECT * FROM imported "
                "WHERE id NOT IN (SELECT id FROM kept) ORDER BY id"
            ).to_arrow_table()
        write_tables(staging, {"networks": imported}, summary, con, base=target if target.is_dir() else None)
    summary.seconds = time.perf_counter() - started
    return summary
