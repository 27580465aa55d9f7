"""An update's writer: a delta pack over the previous release's (marquee/packs.py).

An update (`previous` is an earlier release with a pack and a manifest) receives a document
unchanged since `previous` as None (its content hash is in the previous manifest, compared in
DuckDB, site_gen/documents.py), and records only its name and etag in the manifest. Changed and
new documents are inserted or replaced in a delta pack over `base.sqlite`, a hard link to the full
pack underneath the previous release (its base, or its own pack when it is full); names no longer
rendered become tombstones (or leave the delta, when the base lacks them). The base is only ever
attached read-only. An update does not copy the previous pack (16 GB at 100k movies, about 3
minutes), and a delta never grows into a chain: on top of a delta release, the new delta starts
as a copy of the previous delta over the same base. When that delta is more than COMPACT_FRACTION
of its base, the update instead starts from a copy of the base with that delta merged in, and the
release has one full pack again, which the next updates use as their base.

A template the build plan keeps whole (site_gen/plan.py) reaches only the manifest, as a hard link
(keep_template); one it renders in part writes its changes over the previous manifest's file
(over_previous). Unchanged documents keep their ETag, so clients' caches stay valid across the
publish.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

from marquee.packs import (DELTA_APPLICATION_ID, PACK_FORMAT, base_path, count_documents, document_bytes, first,
                           is_delta, key_of, pack_path, read_only_uri, variantless)
from site_gen.manifests import MANIFEST_NAME, delta_file, manifest_file, manifest_key, settle_update
from site_gen.writer import UND_SUFFIX, PackWriter, WriterError

# An update on top of a delta bigger than this share of its base's bytes writes a full pack: a
# delta is copied whole by the next update, and past a quarter that copy stops being cheap. Both
# are counted without their dictionaries (document_bytes), which a compaction would not shed.
COMPACT_FRACTION = 0.25


class DeltaWriter(PackWriter):
    """Writes an update of `previous` (whose manifest folder is `manifest`) into root's pack."""

    updating = True
    _layout = ""  # how _lay_out made the pack: "new delta", "copied delta" or "merged"

    def _lay_out(self, path: Path) -> None:
        """A delta over the previous full pack (a hard link), a copy of the previous delta over its
        base, or, past COMPACT_FRACTION, a copy of the base to merge the previous delta into."""
        assert self.previous is not None
        before, under = pack_path(self.previous), base_path(self.previous)
        if not is_delta(before):
            os.link(before, base_path(self.root))
            self._layout, self.delta = "new delta", True
        elif document_bytes(before) <= COMPACT_FRACTION * document_bytes(under):
            shutil.copyfile(before, path)  # copy_file_range: no bytes through Python
            os.link(under, base_path(self.root))
            self._layout, self.delta = "copied delta", True
        else:
            shutil.copyfile(under, path)
            self._layout = "merged"

    def _open(self) -> None:
        assert self.previous is not None
        self.previous_layers = self._attach_release("previous", self.previous)
        if self.delta:
            self.con.execute("ATTACH DATABASE ? AS base", (read_only_uri(base_path(self.root)),))
            self.layers = ("main", "base")
        if self._layout == "new delta":
            self.con.execute(f"PRAGMA application_id = {DELTA_APPLICATION_ID}")
            self.con.execute(f"PRAGMA user_version = {PACK_FORMAT}")
            self.con.execute("CREATE TABLE docs (key BLOB NOT NULL, body BLOB, etag BLOB)")
            self.con.execute("CREATE UNIQUE INDEX docs_key ON docs (key)")
            # Counting tombstones (marquee/packs.count_documents) without reading the delta's bodies.
            self.con.execute("CREATE INDEX docs_gone ON docs (key) WHERE body IS NULL")
        # The changed documents, by key and name: the pack has keys only, twins are found by name.
        self.con.execute("CREATE TEMP TABLE written (key BLOB PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID")
        self.con.create_function("key_of", 1, key_of, deterministic=True)

    def _begin(self) -> None:
        if self._layout == "merged":
            self.con.execute("DELETE FROM main.docs WHERE key IN (SELECT key FROM previous.docs)")
            self.con.execute("INSERT INTO main.docs (key, body, etag) "
                             "SELECT key, body, etag FROM previous.docs WHERE body IS NOT NULL ORDER BY key")

    def _insert(self, rows: list[tuple[str, bytes, bytes, bytes]]) -> None:
        self.con.executemany("INSERT OR REPLACE INTO docs (key, body, etag) VALUES (?2, ?3, ?4)", rows)
        self.con.executemany("INSERT INTO written VALUES (?, ?)", [(row[1], row[0]) for row in rows])

    def keep_template(self, template: str) -> None:
        """Keep every document of `template` as the previous release has it (an update whose changes
        reach none of them): its manifest file is a hard link to the previous one, and no row of it
        passes through the Writer."""
        if template in self._templates_seen or template in self._kept:
            raise WriterError(f"{template}: kept whole after documents were written for it")
        assert self.previous_manifest is not None
        for name in (manifest_file(template), delta_file(template)):
            if (self.previous_manifest / name).exists():  # else the previous release had no document of it
                os.link(self.previous_manifest / name, self.root / MANIFEST_NAME / name)
        self._kept.add(template)

    def over_previous(self, template: str) -> None:
        """Take the rows of `template` that follow as changes over the previous release's manifest
        for it (an update that renders some of its entities, documents.py): its file is linked as
        this release's base, and the rows, with a row of neither body nor etag for each name the
        entities rendered no longer have, become the delta file over it. The previous delta is not
        kept: its rows for the entities not rendered arrive again as unchanged rows."""
        if template in self._templates_seen or template in self._kept or template in self._deltas:
            raise WriterError(f"{template}: written as changes after documents were written for it")
        assert self.previous_manifest is not None
        base = self.previous_manifest / manifest_file(template)
        if not base.exists():
            raise WriterError(f"{template}: the previous release has no manifest of it to write changes over")
        os.link(base, self.root / MANIFEST_NAME / manifest_file(template))
        self._deltas.add(template)

    def finish(self, progress: Callable[[str, int, int], None] | None = None) -> None:
        """Commit, settle the update (names rendered twice refused, names no longer rendered
        removed, untranslated variants that stopped being twins restored), drop new twins, and
        count what is unchanged since `previous`."""
        self._step(progress, "manifests")
        self._close_manifests()
        self._step(progress, "settle")
        self._settle_update()
        self._step(progress, "untranslated")
        self._drop_redundant_und()
        self._record_variantless(self._kept | self._deltas, variantless(self.con, "previous"))
        self._step(progress, "count")
        # Counted in the pack: dropped untranslated twins are neither.
        self._documents = count_documents(self.con, "main", "base" if self.delta else None)
        self.unchanged = self._documents - self.con.execute(
            "SELECT count(*) FROM written JOIN main.docs d USING (key) WHERE d.etag IS NOT NULL").fetchone()[0]
        self.con.close()

    def _settle_update(self) -> None:
        """After an update's writes: refuse a name rendered twice, remove what is no longer rendered,
        and put back untranslated variants that stopped being twins, all found from the manifests
        (manifests.settle_update)."""
        assert self.previous_manifest is not None and self.previous is not None
        written = [name for (name,) in self.con.execute("SELECT name FROM written")]
        # A twin (X.und equal to X) was dropped from the previous release. If X changed and X.und did
        # not, X.und is now a document of its own whose bytes are X's previous ones (same hash).
        twin_of = {name[: -len(".json")] + UND_SUFFIX: name for name in written if not name.endswith(UND_SUFFIX)}
        settled = settle_update(self.root / MANIFEST_NAME, self.previous_manifest,
                                {manifest_key(template) for template in self._kept | self._deltas},
                                sorted(self._deltas), written, list(twin_of))
        if settled.repeated:
            self._refuse_twice(settled.repeated)
        gone, unds = settled.gone, settled.unds
        self.con.execute("BEGIN")
        self._remove(gone)
        # OR REPLACE: in a delta, X.und may be the tombstone that dropped it from the base.
        self.con.executemany(
            f"INSERT OR REPLACE INTO main.docs (key, body, etag) SELECT ?1, body, etag "
            f"FROM ({first(self.previous_layers, 'body, etag', '?2')}) "
            f"WHERE etag = ?3 AND ({first(self.layers, 'etag', '?1')}) IS NULL",
            [(key_of(und), key_of(twin_of[und]), bytes.fromhex(etag)) for und, etag in unds])
        self.con.execute("COMMIT")

    def _remove(self, names: list[str]) -> None:
        """Take documents out of this release: out of the pack, and hidden by a tombstone when a
        delta's base has them."""
        keys = [(key_of(name),) for name in names]
        self.con.executemany("DELETE FROM main.docs WHERE key = ?", keys)
        if self.delta:
            self.con.executemany("INSERT INTO main.docs (key) SELECT ?1 WHERE EXISTS "
                                 "(SELECT 1 FROM base.docs WHERE key = ?1)", keys)

    def _drop_redundant_und(self) -> None:
        """Drop each untranslated variant (`X.und.json`) equal to its default document (`X.json`): a
        title with no English text, a person with no biography. The readers fall back from X.und to X."""
        # The previous release had no twins, so only a pair with a member written by this build
        # can be one: each is two index lookups per layer, however big the base.
        twins = self.con.execute(
            f"WITH pairs (und, name) AS ("
            f"SELECT name, substr(name, 1, length(name) - {len(UND_SUFFIX)}) || '.json' FROM written "
            f"WHERE name LIKE '%{UND_SUFFIX}' UNION "
            f"SELECT substr(name, 1, length(name) - {len('.json')}) || '{UND_SUFFIX}', name FROM written "
            f"WHERE name NOT LIKE '%{UND_SUFFIX}') "
            f"SELECT und FROM pairs WHERE ({first(self.layers, 'etag', 'key_of(pairs.und)')}) = "
            f"({first(self.layers, 'etag', 'key_of(pairs.name)')})").fetchall()
        self.con.execute("BEGIN")
        self._remove([name for (name,) in twins])
        self.con.execute("COMMIT")
