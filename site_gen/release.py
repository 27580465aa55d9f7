"""Render one complete release directory from a Parquet catalogue.

Like Pelican's run(): build the DuckDB database, collect every template's documents
(site_gen/templates.py, phase one), then one Writer writes them all into the release's pack, each validated against its
TMDB schema by DuckDB as it is rendered (phase two, site_gen/validate_sql.py). Images are not made
here: the release links the catalogue's originals, or indexes the generated ones the edge draws
(start_image_check). The `BUILD` file is written last: a
release directory without it is incomplete and `marquee publish` refuses it. On any failure the
partial directory is removed.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from marquee.artefacts import IMAGE_INDEX, ORIGINALS
from marquee.image_index import ImageIndex
from marquee.manifests import previous_manifest
from marquee.settings import Settings
from marquee_build import contract
from marquee_build.catalogue import load_database
from marquee_build.state import kept_database
from site_gen import (
    changes,
    community,
    compat,
    configuration,
    credit_index,
    discover_index,
    exports,
    images,
    languages,
    movie,
    organisations,
    person,
    plan,
    reference,
    scope,
    search_index,
    showtimes,
    tv,
)
from site_gen.apart import beside
from site_gen.documents import (
    KEPT_WHOLE,
    OVER_PREVIOUS,
    Documents,
    Marker,
    create_item_ref,
    create_ordered_values,
    from_items,
    from_objects,
    from_sql,
    load_sql,
    use_previous_manifest,
)
from site_gen.templates import TEMPLATES, Preparation, Template, preparation_order
from site_gen.validate import ValidationError, Validator
from site_gen.writer import Writer

# The steps that make what the templates' SQL shares, in any order: preparation_order runs each
# after the ones making what it reads.
# fmt: off
PREPARATIONS: tuple[Preparation, ...] = (
    *languages.PREPARATIONS,
    Preparation("item references", lambda con, settings: create_item_ref(con), makes=("item_ref",)),
    Preparation("ordered lists", lambda con, settings: create_ordered_values(con), makes=("ordered_values",)),
    *movie.PREPARATIONS, *person.PREPARATIONS, *tv.PREPARATIONS, *compat.PREPARATIONS, *community.PREPARATIONS,
    *organisations.PREPARATIONS,
)
# fmt: on
OBJECTS = {"configuration": configuration, "reference": reference}  # modules building `objects:` templates
BUILD_FILE = "BUILD"
DEFAULT_LANGUAGE = "en-US"
# Batches rendered ahead of the Writer (each up to 5,000 documents: ~75 MB for season details).
RENDER_AHEAD = 4
# What DuckDB may render ahead of the batches taken from it (its streaming_buffer_size, 10 MB by
# default: about one batch of film details, so its threads stopped at every batch). At 1M films
# 500 MB rendered film details in 31.1 s instead of 33.9, combined credits in 82 instead of 94 and
# seasons in 68.5 instead of 85 (docs/benchmarks.md, session 35).
RENDER_BUFFER = "500MB"


class ReleaseBuildError(Exception):
    """The release could not be rendered (bad target folder, missing image originals, ...)."""


@dataclass(frozen=True)
class ReleaseSummary:
    release_id: str
    documents: int
    files: int
    bytes: int
    images: int
    seconds: float
    unchanged: int = 0  # documents with the same content hash (and so ETag) as in the previous release
    updated: bool = False  # built as an update of the previous release's pack
    scoped: bool = False  # an update that rendered only what its changed inputs reach (site_gen/scope.py)
    steps_run: int = 0  # build SQL steps run: fewer than `steps` when the kept database was updated
    steps: int = 0
    # Seconds by phase: database (load and derive), collect (render SQL), write (validate and insert),
    # artefacts (the indexes but search's), search (waiting for the search index, written beside the
    # templates and the artefacts), images_after (waiting for the image check once the rest is written).
    phases: dict[str, float] = field(default_factory=dict)
    search: str = ""  # the search index's summary (site_gen/search_index.py IndexSummary.line)
    plan: dict[str, str] = field(default_factory=dict)  # each template's way (site_gen/plan.py)
    credits: str = ""  # the credit index's summary (site_gen/credit_index.py), or that it was linked
    discover: str = ""  # the discover index's summary (site_gen/discover_index.py): what it copied

    def line(self) -> str:
        rate = self.documents / self.seconds if self.seconds else 0.0
        unchanged = f", {self.unchanged} unchanged since the previous release" if self.unchanged else ""
        if self.updated:
            unchanged += (
                " (an update of its pack"
                + (", rendering only what changed" if self.scoped else "")
                + f"; templates: {plan.counts(self.plan)})"
            )
        if self.steps_run < self.steps:
            unchanged += f"; {self.steps_run} of {self.steps} database steps run"
        search = f"; {self.search}" if self.search else ""
        search += f"; {self.credits}" if self.credits else ""
        search += f"; {self.discover}" if self.discover else ""
        return (
            f"release {self.release_id}: {self.documents} documents, {self.bytes:,} bytes written, "
            f"{self.images} images in {self.seconds:.2f} s ({rate:,.0f} documents/s){unchanged}{search}"
        )


class Laps:
    """Seconds per build phase: each lap() ends the current phase (named, or not recorded)."""

    def __init__(self) -> None:
        self.started = self.mark = time.perf_counter()
        self.phases: dict[str, float] = {}

    def lap(self, name: str | None = None) -> None:
        now = time.perf_counter()
        if name is not None:
            self.phases[name] = now - self.mark
        self.mark = now

    def total(self) -> float:
        return time.perf_counter() - self.started


def start_image_check(
    con: duckdb.DuckDBPyConnection,
    catalogue_dir: Path,
    release_dir: Path,
    pool: ThreadPoolExecutor,
    previous: Path | None = None,
    reloaded: set[str] | None = None,
) -> Future:
    """Give the release its images, beside the document writes; the future's result is the number of
    images (ReleaseBuildError when an original is missing: write_all stops at the next batch once it
    knows). No image is made, copied or linked one by one: a release publishes as soon as its
    documents and artefacts are ready.

    The release's `originals` link names the catalogue's image folder, where nginx's image host finds
    an original the image store lacks, and the edge the original of a size it makes on request
    (site_gen/images.py). A catalogue with image files must hold every original its documents name:
    one listing of the folder, joined with every image path in DuckDB (at 100k movies, 3.5 s for 1.7M
    originals, overlapping the rendering). A generated catalogue (build/contract.py) has no file to
    check; the release gets the index of the names the edge may draw (images.write_index), linked from
    `previous` when an update (`reloaded`: the tables its load made again) reloaded no table of image
    paths.
    """
    source = catalogue_dir / "images"
    if source.is_dir():
        os.symlink(source.resolve(), release_dir / ORIGINALS)
    generated = contract.images_generated(catalogue_dir)
    check = load_sql("image_paths.sql")
    kept_index = previous / IMAGE_INDEX if previous is not None else None
    if not (
        reloaded is not None
        and kept_index is not None
        and kept_index.is_file()
        and not images.image_tables(con, check) & reloaded
    ):
        kept_index = None
    cursor = con.cursor()

    def run() -> int:
        try:
            if generated and kept_index is not None:
                os.link(kept_index, release_dir / IMAGE_INDEX)
                with contextlib.closing(ImageIndex(kept_index)) as index:
                    return index.count()
            if generated:
                return images.write_index(cursor, release_dir / IMAGE_INDEX)
            listing = pa.table({"name": pa.array(os.listdir(source) if source.is_dir() else [], pa.string())})
            cursor.register("image_listing", listing)
            absent = f"FROM ({check}) WHERE ltrim(path, '/') NOT IN (SELECT name FROM image_listing)"
            missing = [path for (path,) in cursor.execute(f"SELECT path {absent} ORDER BY path LIMIT 3").fetchall()]
            if missing:
                total = cursor.execute(f"SELECT count(*) {absent}").fetchall()[0][0]
                raise ReleaseBuildError(f"{total} image paths have no original in {source}, e.g. {', '.join(missing)}")
            return cursor.execute(f"SELECT count(*) FROM ({check})").fetchall()[0][0]
        finally:
            cursor.close()

    return pool.submit(run)


def prepare(con: duckdb.DuckDBPyConnection, settings: Settings) -> set[str]:
    """Run every preparation, each after what it reads; returns the names they made. A name a
    preparation promised and did not make (not `optional`) is a bug, stopped here."""
    made: set[str] = set()
    for preparation in preparation_order(list(PREPARATIONS)):
        preparation.run(con, settings)
        present = existing(con, preparation.makes)
        missing = set(preparation.makes) - present - set(preparation.optional)
        if missing:
            raise ReleaseBuildError(f"preparation {preparation.name} did not make {sorted(missing)}")
        made |= present
    return made


def existing(con: duckdb.DuckDBPyConnection, names: tuple[str, ...]) -> set[str]:
    """Which of the names are tables, views or macros of the build database. Macros are looked for
    only when a name is neither: duckdb_functions() lists every built-in function (~20 ms a call)."""
    rows = con.execute("SELECT table_name FROM duckdb_tables() UNION SELECT view_name FROM duckdb_views()").fetchall()
    found = set(names) & {name for (name,) in rows}
    if found != set(names):
        macros = "SELECT function_name FROM duckdb_functions() WHERE function_type LIKE '%macro'"
        found |= set(names) & {name for (name,) in con.execute(macros).fetchall()}
    return found


def collect(con: duckdb.DuckDBPyConnection, settings: Settings) -> list[Documents]:
    """Phase one: the preparations, then every template's documents, computed but not yet written (a
    template whose optional tables were not made, people's TV credits without a TV catalogue, is left out)."""
    made = prepare(con, settings)
    promised = {name for preparation in PREPARATIONS for name in preparation.makes}
    objects: dict[str, dict] = {}
    collected = []
    for template in TEMPLATES:
        if unknown := set(template.needs) - promised:
            raise ReleaseBuildError(f"{template.path} reads {sorted(unknown)}, which no preparation makes")
        if not set(template.needs) <= made:
            continue
        collected.append(documents_for(con, settings, template, objects))
    return collected


def documents_for(
    con: duckdb.DuckDBPyConnection, settings: Settings, template: Template, objects: dict[str, dict]
) -> Documents:
    if template.items_table is not None:
        return from_items(con, template.path, template.items_table)
    if (module := template.objects_module) is not None:
        if module not in objects:
            objects[module] = OBJECTS[module].documents(con, settings)
        return from_objects(template.path, objects[module][template.path])
    return from_sql(
        con, template.path, template.source, template.splices or None, scoped=template.scoped, chunked=template.chunked
    )


# Told of the build's progress: (phase, done, total), e.g. ("templates", 12, 85); `marquee build`
# shows it on a terminal (control/commands/catalogue.py), since a million titles take half an hour.
Progress = Callable[[str, int, int], None]
PHASES = ("database", "collect", "write", "artefacts", "search", "images_after")  # in the order they run
FINISH_APART_GB = 2.0  # what DuckDB leaves the pack's blocks' process (writer.APART_BYTES) after the templates
# The artefacts phase, in order; the credit index is built beside the templates and only taken here.
ARTEFACT_STEPS = ("discover", "showtimes", "exports", "credits", "changes")


def write_all(
    collected: list[Documents],
    ways: dict[str, str],
    writer: Writer,
    validator: Validator,
    alongside: Future | None = None,
    progress: Progress | None = None,
) -> None:
    """Phase two: write every document, each batch validated first (an invalid one stops the build).
    SQL-rendered batches arrive checked by DuckDB (site_gen/validate_sql.py); in an update only changed
    documents are checked, since an unchanged one is the same bytes that passed when first written.
    Each template is written the way the build plan says (`ways`, site_gen/plan.py). A failure of
    the work `alongside` (the image check) stops the writes at the next batch."""
    started: list[str] = []
    with contextlib.closing(render_ahead(collected, ways)) as rendered:
        for template, batch in rendered:
            if progress is not None and (not started or started[-1] != template):
                started.append(template)
                progress("templates", len(started) - 1, len(collected))
            if alongside is not None and alongside.done():
                alongside.result()  # raises its error now, not after every document is written
            if batch is KEPT_WHOLE:
                writer.keep_template(template)
                continue
            if batch is OVER_PREVIOUS:
                writer.over_previous(template)
                continue
            check_batch(template, batch, validator)
            writer.write_batch(template, batch)
    if progress is not None:
        progress("templates", len(collected), len(collected))


def render_ahead(
    collected: list[Documents], ways: dict[str, str], depth: int = RENDER_AHEAD
) -> Iterator[tuple[str, pa.RecordBatch | Marker]]:
    """Every collected batch with its template, rendered by DuckDB in a thread of its own.

    DuckDB releases the GIL while it renders, and the Writer's inserts are Python and SQLite: run
    one after the other they queue on one core (at 10k movies 23 s of SQL, then 7 s of inserts);
    here the inserts of a batch overlap the rendering of the next ones. The thread is the only user
    of the DuckDB connection until it ends, and closing this generator (the consumer failed) stops
    it and waits for it, so the caller may close the connection afterwards."""
    ready: queue.Queue = queue.Queue(depth)
    stop = threading.Event()

    def hand_over(item: object) -> bool:
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def render() -> None:
        try:
            for documents in collected:
                for batch in documents.batches(ways[documents.template]):
                    if not hand_over((documents.template, batch)):
                        return
            hand_over(None)
        except BaseException as exc:  # re-raised by the consumer, with its traceback
            hand_over(exc)

    thread = threading.Thread(target=render, name="render", daemon=True)
    thread.start()
    try:
        while (item := ready.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        thread.join()


def check_batch(template: str, batch: pa.RecordBatch, validator: Validator) -> None:
    """Raise ValidationError for the batch's first invalid document, with its JSON path and reason.

    Rows DuckDB checked carry `valid`; the first false one is validated again in Python for the
    message. Rows built in Python (`valid` null) are validated in Python."""
    uris, bodies, valid = batch.column(0), batch.column(1), batch.column(3)
    if valid.null_count == len(valid):
        for uri, body in zip(uris.to_pylist(), bodies.to_pylist()):
            validator.validate(uri, body, template)
    elif not pc.all(valid).as_py():
        index = pc.index(valid, False).as_py()
        uri = uris[index].as_py()
        validator.validate(uri, bodies[index].as_py(), template)
        raise ValidationError(uri, "", "a forbidden null or a non-finite number (compiled check)")


def render_release(
    settings: Settings,
    catalogue_dir: Path,
    release_dir: Path,
    echo: Callable[[str], None] | None = print,
    previous: Path | None = None,
    history: Path | None = None,
    progress: Progress | None = None,
    files: Mapping[str, bytes] | None = None,
) -> ReleaseSummary:
    """Render catalogue_dir into the new, empty release_dir; returns (and echoes) a summary.

    `files` are written into the release, by name, before it is marked complete: what the floor
    above makes of the release (control/openapi.py, our OpenAPI document, which knows the edge too).

    With `previous` (an earlier release with a manifest), the build is an update. The database kept
    from the build of `previous` is updated (marquee_build/state.py), only the documents whose inputs
    changed are rendered (site_gen/scope.py), and of those only the ones whose hash changed are
    checked and written, into a delta over the previous pack (site_gen/writer.py); the summary
    counts the unchanged.

    The change log (site_gen/changes.py) continues `history`'s (the release served so far, default
    `previous`), so a full build keeps it too. `progress` hears of each phase as it ends and of the
    templates as they are written.
    """

    def phase(name: str) -> None:
        """End phase `name` (timed in the summary); tell `progress`, and that the next one began."""
        laps.lap(name)
        if progress is not None:
            progress(name, 1, 1)
            following = PHASES[PHASES.index(name) + 1 :]
            if following:
                progress(following[0], 0, 1)

    if progress is not None:
        progress(PHASES[0], 0, 1)

    laps = Laps()
    catalogue_dir, release_dir = Path(catalogue_dir), Path(release_dir)
    if release_dir.exists() and any(release_dir.iterdir()):
        raise ReleaseBuildError(f"release folder {release_dir} is not empty")
    release_dir.mkdir(parents=True, exist_ok=True)
    try:
        # The database is kept beside the releases for the next build (marquee_build/state.py).
        updating = previous is not None and previous_manifest(previous) is not None
        with kept_database(
            release_dir.parent,
            str(Path(previous).resolve()) if updating else None,
            scope.code_fingerprint(scope.rendered_settings(settings)),
        ) as kept:
            loaded = load_database(catalogue_dir, kept.path, kept.digests, settings.build_memory_gb)
            con = loaded.con
            # What an update starts from (the previous release, the database objects it created again);
            # a full build has neither.
            base, created = (previous, loaded.created) if updating else (None, None)
            scope.hash_entities(con, scope.rendered_settings(settings), loaded.tables, loaded.created, previous)
            # Written now, while the hashes are in memory: at the end of a 1M build, read back from
            # DuckDB's spill, they took 14.8 s, the build's last; 10.2 s here (session 53).
            scope.save_entities(con, release_dir, previous)
            phase("database")
            try:
                with ThreadPoolExecutor(1, thread_name_prefix="images") as side:
                    image_check = start_image_check(con, catalogue_dir, release_dir, side, base, created)
                    writer = Writer(release_dir, previous=previous)
                    scoped = scope.plan_scope(con, base)
                    collected = collect(con, settings)
                    ways = plan.plan_build(
                        con, [(d.template, d.keeps_to_scope) for d in collected], writer.previous_manifest
                    )
                    phase("collect")
                    if writer.previous_manifest is not None:
                        use_previous_manifest(con, writer.previous_manifest)
                    searching = search_index.inputs_for_release(con, settings.languages, release_dir, base, scoped)
                    con.execute(f"SET streaming_buffer_size = '{RENDER_BUFFER}'")
                    credits_cursor = con.cursor()  # made here: the render thread has `con` from now on
                    # The search index is written from its exported rows beside the templates, which
                    # leave about a third of the second core idle (docs/benchmarks.md, session 42); when
                    # its process ends, the credit index's query (DuckDB's, on a cursor of its own) takes
                    # that idle instead of queueing behind the pack's blocks after the templates.
                    with (
                        ThreadPoolExecutor(1, thread_name_prefix="credits") as aside,
                        beside(search_index.write, searching, apart=searching.large) as searched,
                    ):

                        def credits_after_search() -> credit_index.CreditIndexSummary | None:
                            if searching.large:
                                searched()  # waits for the search index's process (its error raised where credits are taken)
                            return credit_index.for_release(credits_cursor, release_dir, base, created)

                        crediting = aside.submit(credits_after_search)
                        write_all(collected, ways, writer, Validator(), image_check, progress)
                        phase("write")

                        # The pack's blocks are written (writer.finish) beside the search index and the
                        # artefacts, which read the database only: at 1M films the finish was ~400 s,
                        # most of it on one core (docs/benchmarks.md, session 32). `changes` compares
                        # the packs, so it waits for the finish; leaving the block waits for it too.
                        def changes_after(packed: Future) -> int:
                            packed.result()  # the pack is finished (or its failure raised here)
                            return changes.for_release(release_dir, history or previous)

                        if writer.finishes_apart and settings.build_memory_gb:
                            # The blocks' process holds up to ~3.6 GB beside the artefacts' queries: DuckDB
                            # leaves it room (a 1M build peaked at 14.2 GB without this and with an idle
                            # worker, 10.9 GB with, session 42).
                            limit = max(settings.build_memory_gb - FINISH_APART_GB, settings.build_memory_gb / 2)
                            con.execute(f"SET memory_limit = '{limit * 1024:.0f}MB'")
                        with ThreadPoolExecutor(1, thread_name_prefix="pack") as packing:
                            packed = packing.submit(writer.finish, progress)
                            artefacts = {
                                "discover": lambda: discover_index.for_release(
                                    con, release_dir, catalogue_dir, base, created
                                ),
                                "showtimes": lambda: showtimes.for_release(con, catalogue_dir, release_dir),
                                "exports": lambda: exports.for_release(con, release_dir, None, base, created),
                                "credits": crediting.result,
                                "changes": lambda: changes_after(packed),
                            }
                            made = {}
                            for done, name in enumerate(ARTEFACT_STEPS):
                                if progress is not None:  # where the phase's minutes go at 1M (bench-build logs it)
                                    progress("artefacts", done, len(ARTEFACT_STEPS))
                                made[name] = artefacts[name]()
                        credits, discovered = made["credits"], made["discover"]
                        phase("artefacts")
                        index = searched()
                        phase("search")
                    image_count = image_check.result()
                    phase("images_after")
            finally:
                con.close()
            for name, data in (files or {}).items():
                (release_dir / name).write_bytes(data)
            (release_dir / BUILD_FILE).write_text(release_dir.name + "\n")
            kept.keep(str(release_dir.resolve()), loaded.digests)
    except BaseException:
        shutil.rmtree(release_dir, ignore_errors=True)
        raise
    written = writer.summary()
    summary = ReleaseSummary(
        release_dir.name,
        written.documents,
        written.files,
        written.bytes,
        image_count,
        laps.total(),
        writer.unchanged,
        writer.updating,
        scoped,
        loaded.steps_run,
        loaded.steps,
        laps.phases,
        index.line(),
        ways,
        credits.line() if credits is not None else "credit index linked from the previous release",
        discovered.line(),
    )
    if echo is not None:
        echo(summary.line())
    return summary
