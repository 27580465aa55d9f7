"""The build plan: how each template is written, decided for all of them before anything renders.

A full build writes every template in full (FULL). An update (a previous release with a manifest,
marquee/manifests.py) decides per template, from the render scope (site_gen/scope.py plan_scope:
which entities changed or are linked to a change) and the previous manifest:

- KEPT: nothing of its kind is in scope, so every previous document is kept and none is rendered
  (Writer.keep_template: its manifest file is a hard link);
- DELTA: its SQL keeps to in_scope() and the previous manifest's delta of it is small
  (manifests.delta_fits): the entities in scope are rendered as changes over the previous manifest
  (Writer.over_previous), the others' rows not even read;
- SCOPED: the entities in scope are rendered, the others' documents kept by their hash from the
  previous manifest;
- WHOLE: every document is rendered and compared with the previous manifest by its hash (the
  scope could not be narrowed: something hashed whole changed, or its SQL does not keep to
  in_scope()).

Why a plan apart from the rendering: the decision is the incremental build's logic, and written
down it can be read and tested for an update without rendering it twice (ReleaseSummary.plan).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import duckdb

from marquee.manifests import delta_fits
from site_gen import scope

FULL, WHOLE, SCOPED, DELTA, KEPT = "full", "whole", "scoped", "delta", "kept"
WAYS = (FULL, WHOLE, SCOPED, DELTA, KEPT)


def decide(con: duckdb.DuckDBPyConnection, template: str, keeps_to_scope: bool, previous_manifest: Path | None) -> str:
    """How `template` is written: FULL without a previous manifest, else as the scope says.
    `keeps_to_scope`: its SQL renders only the entities in_scope() admits."""
    if previous_manifest is None:
        return FULL
    if not scope.scoped(con):
        return WHOLE
    reach = scope.template_plan(con, template, keeps_to_scope)
    if reach == "none":
        return KEPT
    if reach == "scoped":
        return DELTA if delta_fits(previous_manifest, template) else SCOPED
    return WHOLE


def plan_build(
    con: duckdb.DuckDBPyConnection, templates: list[tuple[str, bool]], previous_manifest: Path | None
) -> dict[str, str]:
    """Each template's way ((template, keeps_to_scope) pairs, in the order they are written)."""
    return {template: decide(con, template, keeps, previous_manifest) for template, keeps in templates}


def counts(plan: dict[str, str]) -> str:
    """`12 delta, 3 whole, 70 kept`: how many templates go each way, for the build's summary."""
    tally = Counter(plan.values())
    return ", ".join(f"{tally[way]} {way}" for way in WAYS if tally[way])
