"""The build SQL as steps, and which of them a rebuild must run again.

Each statement of the build SQL is one step (marquee_build.catalogue `build_steps`: a load of each
contract table as-is, then build/sql/*.sql): it creates one object (a table, or a temp table the
next steps read) from Parquet files of the catalogue and objects earlier steps created. When the
database of the previous build is kept (marquee_build.catalogue.load_database), a rebuild runs only
the steps that read a changed Parquet file or an object a step of this run created again, like
make. Temp objects do not outlive a connection: one is created again whenever a step that runs
reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import duckdb

_CREATE = re.compile(
    r"^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(TEMP\s+|TEMPORARY\s+)?(?:TABLE|VIEW|MACRO)\s+"
    r"(?:IF\s+NOT\s+EXISTS\s+)?\"?(\w+)\"?",
    re.IGNORECASE,
)
_PARQUET = re.compile(r"/(\w+)\.parquet")
_WORD = re.compile(r"\b\w+\b")


@dataclass(frozen=True)
class Step:
    file: str
    sql: str
    creates: str | None  # the object it creates (None: a statement creating nothing)
    temp: bool
    files: frozenset[str]  # Parquet tables it reads, by name
    reads: frozenset[str]  # objects of earlier steps it reads


def _without_comments(sql: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in sql.splitlines())


def parse_steps(sources: list[tuple[str, str]]) -> list[Step]:
    """The statements of the SQL sources ((name, text), in order), with what each creates and reads."""
    steps: list[Step] = []
    created: set[str] = set()
    for name, text in sources:
        for statement in duckdb.extract_statements(text):
            sql = statement.query
            plain = _without_comments(sql)
            match = _CREATE.search(plain)
            creates = match.group(2) if match else None
            words = set(_WORD.findall(plain))
            steps.append(
                Step(
                    name,
                    sql,
                    creates,
                    bool(match and match.group(1)),
                    frozenset(_PARQUET.findall(plain)),
                    frozenset(words & created - {creates}),
                )
            )
            if creates is not None:
                created.add(creates)
    return steps


def steps_to_run(steps: list[Step], changed_files: set[str] | None) -> tuple[list[bool], set[str]]:
    """Which steps run (all when changed_files is None) and which objects they create anew."""
    if changed_files is None:
        return [True] * len(steps), {step.creates for step in steps if step.creates}
    dirty: set[str] = set()
    run = [False] * len(steps)
    for index, step in enumerate(steps):
        if step.files & changed_files or step.reads & dirty or step.creates is None:
            run[index] = True
            if step.creates:
                dirty.add(step.creates)
    # Pull in the temp objects a running step reads (and what they read), latest first.
    temp_steps = {step.creates: index for index, step in enumerate(steps) if step.temp}
    needed = [name for index, step in enumerate(steps) if run[index] for name in step.reads if name in temp_steps]
    while needed:
        index = temp_steps[needed.pop()]
        if not run[index]:
            run[index] = True
            needed.extend(name for name in steps[index].reads if name in temp_steps)
    return run, dirty
