"""site_gen/templates.py: the table of templates says what their SQL does, and the preparations run
in an order that gives each what it reads. (tests/test_site_gen_scope.py holds the table's `scoped`
to account: a rebuild must equal a full build.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from marquee.manifests import manifest_key, manifest_keys
from site_gen import release
from site_gen.documents import SQL_DIR, schema_for
from site_gen.templates import TEMPLATES, Preparation, preparation_order, template_kind, template_owner

SITE_GEN = Path(release.__file__).parent
PREPARED = {name for preparation in release.PREPARATIONS for name in preparation.makes}


def names_in(sql: str) -> set[str]:
    """The prepared tables and macros an SQL text names (comments included: a name mentioned is
    declared, which costs nothing)."""
    return {name for name in PREPARED if re.search(rf"\b{name}\b", sql)}


def sql_rows():
    return [t for t in TEMPLATES if t.items_table is None and t.objects_module is None]


def test_every_template_has_its_sql_and_a_schema():
    for template in sql_rows():
        assert (SQL_DIR / template.source).is_file(), template.path
    for template in TEMPLATES:
        if not template.path.startswith("/_items/"):
            assert schema_for(template.path)["type"], template.path
        if template.objects_module is not None:
            assert template.objects_module in release.OBJECTS, template.path
    every_file = {p.name for p in SQL_DIR.glob("*.sql")}
    used = (
        {t.source for t in sql_rows()}
        | {f for p in release.PREPARATIONS for f in p.sql}
        | {name for path in SITE_GEN.glob("*.py") for name in re.findall(r'load_sql\("([^"]+)"\)', path.read_text())}
    )
    prefixes = {
        prefix for path in SITE_GEN.glob("*.py") for prefix in re.findall(r'load_sql\(f"([a-z_]+)\{', path.read_text())
    }  # search_{kind}.sql
    left = {name for name in every_file - used if not name.startswith(tuple(prefixes))}
    assert not left, left  # no SQL file left behind by a removed template


def test_scoped_is_what_the_sql_does():
    for template in sql_rows():
        sql = (SQL_DIR / template.source).read_text()
        assert template.scoped == ("in_scope(" in sql), template.path
        if template.scoped:
            assert template_kind(template.path) is not None, template.path
        if template_owner(template.path) is not None:  # its names do not carry its owner's id
            assert not template.scoped and template_kind(template.path) is None, template.path
    assert all(t.scoped for t in TEMPLATES if t.items_table is not None)  # from_items keeps to in_scope()
    assert not any(t.scoped for t in TEMPLATES if t.objects_module is not None)


def test_reads_are_what_the_sql_reads():
    for template in sql_rows():
        named = names_in((SQL_DIR / template.source).read_text())
        assert named <= set(template.needs), (template.path, named - set(template.needs))
        assert set(template.reads) <= named | {"render_variants"}, template.path  # nothing declared for show
    for preparation in release.PREPARATIONS:
        named = (
            set().union(*(names_in((SQL_DIR / f).read_text()) for f in preparation.sql)) if preparation.sql else set()
        )
        undeclared = named - set(preparation.reads) - set(preparation.makes)
        assert not undeclared, (preparation.name, undeclared)
        assert set(preparation.optional) <= set(preparation.makes)


def test_each_preparation_runs_after_what_it_reads():
    order = preparation_order(list(release.PREPARATIONS))
    made: set[str] = set()
    for preparation in order:
        assert set(preparation.reads) <= made, preparation.name
        made |= set(preparation.makes)
    # In reverse as given, the order still comes out right: it is derived, not the tuple's.
    again = preparation_order(list(reversed(release.PREPARATIONS)))
    made = set()
    for preparation in again:
        assert set(preparation.reads) <= made, preparation.name
        made |= set(preparation.makes)


def test_an_unknown_read_or_a_cycle_is_refused():
    def step(name: str, makes: tuple[str, ...], reads: tuple[str, ...] = ()) -> Preparation:
        return Preparation(name, lambda con, settings: None, makes=makes, reads=reads)

    with pytest.raises(ValueError, match="no preparation makes"):
        preparation_order([step("a", ("x",), ("nowhere",))])
    with pytest.raises(ValueError, match="cycle"):
        preparation_order([step("a", ("x",), ("y",)), step("b", ("y",), ("x",))])
    assert [p.name for p in preparation_order([step("b", ("y",), ("x",)), step("a", ("x",))])] == ["a", "b"]


def test_a_full_build_renders_exactly_the_table(built_pack):
    rendered = manifest_keys(built_pack / "MANIFEST")
    assert rendered <= {manifest_key(t.path) for t in TEMPLATES}
    # Only the OMDb full plots may be empty: the sample's plots are one sentence (tests/test_site_gen_compat.py).
    assert {t.path for t in TEMPLATES if manifest_key(t.path) not in rendered} <= {
        t.path for t in TEMPLATES if t.path.startswith("/compat/") and t.path.endswith("/full")
    }
