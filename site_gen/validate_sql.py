"""The validation rule of site_gen/validate.py, compiled into DuckDB SQL once per path template.

Every SQL-rendered document is `to_json` of one typed STRUCT (`doc`), and `to_json` writes every
field of a struct, null or not, with the JSON type of its DuckDB type. So two of the rule's three
parts hold for every row once they hold for the query's result type: every listed property is
present, and every non-null value has the schema's type. `check_type` proves that when the query is
bound, before a row is rendered. The third part, null only where TMDB sends null, depends on the
data: `null_check` returns a boolean SQL expression over `doc` that is true when no forbidden null
(and no non-finite number, which `to_json` would write as invalid JSON) is anywhere in the document.
DuckDB evaluates it beside the rendering, in parallel, instead of Python parsing every document
(at 10k movies that parse was ~45 s of a second core, for 0.77M documents).

Parts of a document built as JSON in SQL (a person's combined credits mix film and series items,
so they are JSON values; watch/providers regions omit empty keys as TMDB does) have no static type:
for those the expression checks each value's JSON type and nulls with DuckDB's JSON functions.

A row whose check is false is re-validated in Python (validate.py) for the error's path and reason.
"""

from __future__ import annotations

from typing import Any

from duckdb.sqltypes import DuckDBPyType

from site_gen.validate import NULLABLE, ValidationError, join_path

# DuckDB type ids that to_json writes as each JSON Schema type.
# fmt: off
_INTEGERS = frozenset({"tinyint", "smallint", "integer", "bigint", "hugeint",
                       "utinyint", "usmallint", "uinteger", "ubigint", "uhugeint"})
# fmt: on
_FLOATS = frozenset({"float", "double"})
# fmt: off
_SQL_TYPES: dict[str, frozenset[str]] = {
    "integer": _INTEGERS,
    "number": _INTEGERS | _FLOATS | {"decimal"},
    "string": frozenset({"varchar", "date", "timestamp", "uuid", "enum"}),
    "boolean": frozenset({"boolean"}),
    "array": frozenset({"list", "array"}),
    "object": frozenset({"struct", "map"}),
}
# fmt: on
# What json_type() says for each JSON Schema type.
# fmt: off
_JSON_TYPES: dict[str, tuple[str, ...]] = {
    "integer": ("BIGINT", "UBIGINT"),
    "number": ("BIGINT", "UBIGINT", "DOUBLE"),
    "string": ("VARCHAR",),
    "boolean": ("BOOLEAN",),
    "array": ("ARRAY",),
    "object": ("OBJECT",),
}
# fmt: on


def is_json(sql_type: DuckDBPyType) -> bool:
    return str(sql_type) == "JSON"


def _children(sql_type: DuckDBPyType) -> dict[str, DuckDBPyType]:
    return dict(sql_type.children)


def _nullable(name: str, schema: dict[str, Any]) -> bool:
    return name in NULLABLE or schema.get("nullable") is True


def check_type(template: str, schema: dict[str, Any], sql_type: DuckDBPyType, path: str = "") -> None:
    """Raise ValidationError (named by template and JSON path) unless every document of this SQL type
    has every property the schema lists, each of the schema's type when not null."""
    kind = schema.get("type")
    if kind is None or sql_type.id == "null" or is_json(sql_type):
        return  # no type to check, always null (the null check decides), or checked per row in SQL
    if kind not in _SQL_TYPES:
        raise ValueError(f"unsupported schema type {kind!r}")
    if sql_type.id not in _SQL_TYPES[kind]:
        raise ValidationError(template, path, f"expected {kind}, the query gives {sql_type}")
    if kind == "object" and schema.get("properties"):
        if sql_type.id == "map":  # keyed by data (certifications by country): keys are checked per row
            for name, sub in schema["properties"].items():
                check_type(template, sub, _children(sql_type)["value"], join_path(path, name))
            return
        fields = _children(sql_type)
        for name, sub in schema["properties"].items():
            if name not in fields:
                raise ValidationError(template, join_path(path, name), "missing property")
            check_type(template, sub, fields[name], join_path(path, name))
    elif kind == "array" and "items" in schema:
        check_type(template, schema["items"], _children(sql_type)["child"], join_path(path, "[]"))
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        values = schema["additionalProperties"]
        if sql_type.id == "map":
            check_type(template, values, _children(sql_type)["value"], join_path(path, "*"))
        else:
            for name, field in _children(sql_type).items():
                check_type(template, values, field, join_path(path, name))


def null_check(
    schema: dict[str, Any], sql_type: DuckDBPyType, expr: str = "doc", checked: frozenset[str] = frozenset()
) -> str:
    """A SQL expression, true when the (type-checked) value `expr` has no forbidden null anywhere.

    `checked` names JSON properties spliced from items checked when they were serialised
    (site_gen/documents.checked_items), by path (`results`, `episodes[].crew`): only their presence
    is tested here."""
    inner = _value_check(schema, sql_type, expr, 0, checked)
    return f"coalesce({expr} IS NOT NULL AND {inner}, false)" if inner else f"{expr} IS NOT NULL"


def _all(conditions: list[str]) -> str | None:
    return "(" + " AND ".join(conditions) + ")" if conditions else None


def _sql_in(values: tuple[str, ...]) -> str:
    return "(" + ", ".join(f"'{value}'" for value in values) + ")"


def _every(
    items: str,
    schema: dict[str, Any],
    item_type: DuckDBPyType | None,
    depth: int,
    checked: frozenset[str] = frozenset(),
    path: str = "",
) -> str:
    """Every element of the SQL list `items` (of JSON values when item_type is None) is non-null, in
    SQL and in JSON, and passes its own check (`path`: the elements' path, for `checked`)."""
    var = f"v{depth}"
    if item_type is None:
        element = f"{var} IS NOT NULL AND json_type({var}) <> 'NULL'"
        inner = _json_check(schema, var, depth + 1)
    else:
        element = f"{var} IS NOT NULL"
        inner = _value_check(schema, item_type, var, depth + 1, checked, path)
    element += f" AND {inner}" if inner else ""
    return f"len(list_filter({items}, lambda {var}: NOT coalesce({element}, false))) = 0"


def _present(field: str, inner: str | None) -> str:
    return f"({field} IS NOT NULL" + (f" AND {inner})" if inner else ")")


def _value_check(
    schema: dict[str, Any],
    sql_type: DuckDBPyType,
    expr: str,
    depth: int,
    checked: frozenset[str] = frozenset(),
    path: str = "",
) -> str | None:
    """Checks inside the non-null value `expr` of a type that passed check_type; None if none are needed.
    Properties whose path (from `path`, the value's own) is in `checked` (JSON already checked, see
    null_check) are only required present."""
    if sql_type.id == "null":
        return None  # always null: the caller's IS NOT NULL decides
    if is_json(sql_type):
        return _json_check(schema, expr, depth)
    if sql_type.id in _FLOATS:
        return f"isfinite({expr})"
    kind = schema.get("type")
    if kind == "object" and schema.get("properties"):
        conditions = []
        for name, sub in schema["properties"].items():
            if sql_type.id == "map":
                conditions.append(f"map_contains({expr}, '{name}')")
                field, field_type = f"map_extract_value({expr}, '{name}')", _children(sql_type)["value"]
            else:
                field, field_type = f"struct_extract({expr}, '{name}')", _children(sql_type)[name]
            here = f"{path}.{name}" if path else name
            if here in checked and is_json(field_type):
                conditions.append(_present(field, None))
                continue
            inner = _value_check(sub, field_type, field, depth, checked, here)
            if _nullable(name, sub):
                if inner:
                    conditions.append(f"({field} IS NULL OR {inner})")
            else:
                conditions.append(_present(field, inner))
        return _all(conditions)
    if kind == "array" and "items" in schema:
        child = _children(sql_type)["child"]
        return _every(expr, schema["items"], None if is_json(child) else child, depth, checked, path + "[]")
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        if sql_type.id == "map":
            value_type = _children(sql_type)["value"]
            return _every(
                f"map_values({expr})",
                schema["additionalProperties"],
                None if is_json(value_type) else value_type,
                depth,
            )
        values, conditions = schema["additionalProperties"], []
        for name, field_type in _children(sql_type).items():
            field = f"struct_extract({expr}, '{name}')"
            conditions.append(_present(field, _value_check(values, field_type, field, depth)))
        return _all(conditions)
    return None


def _json_check(schema: dict[str, Any], expr: str, depth: int, typed: bool = False) -> str | None:
    """Checks of the JSON value `expr` (not SQL NULL; a JSON null is the caller's to allow): its JSON type
    (unless `typed`: the caller checked it), and inside it the same rule. JSON is parsed per call, so
    an object's properties are typed in one call, and so are the items of an array of plain values."""
    kind = schema.get("type")
    if kind is None:
        return None
    conditions = [] if typed else [f"json_type({expr}) IN {_sql_in(_JSON_TYPES[kind])}"]
    if kind == "object" and schema.get("properties"):
        props = list(schema["properties"].items())
        types = f"t{depth}"
        paths = ", ".join(f"'$.\"{name}\"'" for name, _ in props)
        per_property = []
        for index, (name, sub) in enumerate(props, start=1):
            allowed = _JSON_TYPES.get(sub.get("type"), ()) + (("NULL",) if _nullable(name, sub) else ())
            this = f"{types}[{index}]"
            per_property.append(f"coalesce({this} IN {_sql_in(allowed)}, false)" if allowed else f"{this} IS NOT NULL")
            if _plain_items(sub):
                inner = _plain_items_check(sub["items"], f"json_type({expr}, '$.\"{name}\"[*]')", depth)
            elif _deep(sub):
                inner = _json_check(sub, f"json_extract({expr}, '$.\"{name}\"')", depth + 1, typed=True)
            else:
                inner = None
            if inner:
                per_property.append(f"({this} = 'NULL' OR {inner})")
        # A value that is not an object has none of the paths, so its types are null: no own-type test.
        return (
            f"list_bool_and(list_transform([json_type({expr}, [{paths}])], lambda {types}: "
            f"{' AND '.join(per_property)}))"
        )
    if _plain_items(schema):
        conditions.append(_plain_items_check(schema["items"], f"json_type({expr}, '$[*]')", depth))
    elif kind == "array" and "items" in schema:
        conditions.append(_every(f"json_extract({expr}, '$[*]')", schema["items"], None, depth))
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        conditions.append(_every(f"json_extract({expr}, '$.*')", schema["additionalProperties"], None, depth))
    return _all(conditions)


def _plain_items(schema: dict[str, Any]) -> bool:
    """An array whose items are typed plain values (genre_ids, origin_country)."""
    return schema.get("type") == "array" and "type" in schema.get("items", {}) and not _deep(schema["items"])


def _plain_items_check(items: dict[str, Any], item_types: str, depth: int) -> str:
    """Every JSON type in the list `item_types` is one the items' schema allows (never null)."""
    return (
        f"coalesce(list_bool_and(list_transform({item_types}, lambda e{depth}: "
        f"coalesce(e{depth} IN {_sql_in(_JSON_TYPES[items['type']])}, false))), true)"
    )


def _deep(schema: dict[str, Any]) -> bool:
    """Whether a value of this schema has anything inside it to check."""
    return bool(
        (
            schema.get("type") == "object"
            and (schema.get("properties") or isinstance(schema.get("additionalProperties"), dict))
        )
        or (schema.get("type") == "array" and "items" in schema)
    )
