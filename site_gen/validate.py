"""Check rendered documents against the 200-response schemas of TMDB's OpenAPI spec.

The rule (stricter than JSON Schema, because TMDB's schemas list properties but mark none required):
every property a schema lists must be present, recursively through nested objects and array items;
every non-null value must have the schema's type (`integer` is an int but not a bool, `number` is an
int or a float); null is allowed only for the property names in NULLABLE. Extra properties are fine,
as the real API sends some the spec omits.

This module is the rule's reference. A build checks SQL-rendered documents with the same rule
compiled into DuckDB (site_gen/validate_sql.py) and comes back here only for documents built in
Python and for the message about a row DuckDB found invalid. Schemas are compiled once into closures
(the hot loop is a dict lookup and a `type(v) in ...` test per property). On the first violation
`ValidationError` names the URI, the JSON path (`cast[3].profile_path`) and the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

SCHEMA_FILE = Path(__file__).resolve().parent / "schemas" / "tmdb_v3_responses.json"

# The one relaxation list. TMDB's schemas declare nothing nullable, but the real API sends null for
# absent values of these properties; a null anywhere else is a rendering bug.
# fmt: off
NULLABLE: frozenset[str] = frozenset({
    "poster_path",            # movie or collection without a poster
    "backdrop_path",          # ... without a backdrop
    "profile_path",           # person without a photo (credits)
    "logo_path",              # company without a logo (production_companies)
    "belongs_to_collection",  # movie outside any collection
    "imdb_id",                # movie not (yet) on IMDb
    "release_date",           # movie without an announced date (movie details, collection parts)
    "still_path",             # TV episode without a still
})
# fmt: on

# fmt: off
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int,),
    "number": (int, float),
    "string": (str,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}
# fmt: on

Checker = Callable[[Any], None]


class ValidationError(Exception):
    """A rendered document does not match its schema."""

    def __init__(self, uri: str, path: str, reason: str) -> None:
        super().__init__(f"{uri}: {path or '<document>'}: {reason}")
        self.uri, self.path, self.reason = uri, path, reason

    def __reduce__(self):  # raised in the validation process, re-raised in the build's
        return ValidationError, (self.uri, self.path, self.reason)


class _Violation(Exception):
    """Raised inside compiled checkers; `parts` collects the JSON path innermost-first as it unwinds."""

    def __init__(self, reason: str, parts: list[str | int] | None = None) -> None:
        self.reason, self.parts = reason, parts or []


def _kind(value: Any) -> str:
    return (
        "null"
        if value is None
        else {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}.get(
            type(value), type(value).__name__
        )
    )


def _format_path(parts: list[str | int]) -> str:
    out = ""
    for part in reversed(parts):
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _types_of(schema: dict[str, Any]) -> tuple[type, ...] | None:
    kind = schema.get("type")
    if kind is None:
        return None
    if kind not in _PY_TYPES:
        raise ValueError(f"unsupported schema type {kind!r}")
    return _PY_TYPES[kind]


def _nested(schema: dict[str, Any]) -> Checker | None:
    """Checker for what is inside a value (properties or items), or None if the type test is enough."""
    if schema.get("type") == "object" and schema.get("properties"):
        return _compile_object(schema["properties"])
    if schema.get("type") == "array" and "items" in schema:
        return _compile_array(schema["items"])
    if schema.get("type") == "object" and isinstance(schema.get("additionalProperties"), dict):
        return _compile_map(schema["additionalProperties"])
    return None


def _compile_map(values: dict[str, Any]) -> Checker:
    """Objects keyed by data (region codes of watch/providers): every value must fit `values`.
    `additionalProperties` only appears in our own marquee_*.json schemas."""
    types, nested = _types_of(values), _nested(values)

    def check_map(value: dict[str, Any]) -> None:
        for key, item in value.items():
            if item is None:
                raise _Violation("null is not allowed here", [key])
            if types is not None and type(item) not in types:
                raise _Violation(f"expected {_expected(types)}, got {_kind(item)}", [key])
            if nested is not None:
                try:
                    nested(item)
                except _Violation as exc:
                    exc.parts.append(key)
                    raise

    return check_map


def _compile_object(properties: dict[str, Any]) -> Checker:
    # `nullable: true` (OpenAPI 3.0 style) only appears in our own marquee_*.json schemas: a per-path
    # relaxation where TMDB sends null for one document's property but not everywhere that name is used.
    plan = [
        (name, _types_of(sub), _nested(sub), name in NULLABLE or sub.get("nullable") is True)
        for name, sub in properties.items()
    ]

    def check_object(value: dict[str, Any]) -> None:
        for name, types, nested, nullable in plan:
            try:
                item = value[name]
            except KeyError:
                raise _Violation("missing property", [name]) from None
            if item is None:
                if nullable:
                    continue
                raise _Violation("null is not allowed here", [name])
            if types is not None and type(item) not in types:
                raise _Violation(f"expected {_expected(types)}, got {_kind(item)}", [name])
            if nested is not None:
                try:
                    nested(item)
                except _Violation as exc:
                    exc.parts.append(name)
                    raise

    return check_object


def _compile_array(items: dict[str, Any]) -> Checker:
    types, nested = _types_of(items), _nested(items)

    def check_array(value: list[Any]) -> None:
        for index, item in enumerate(value):
            if item is None:
                raise _Violation("null is not allowed here", [index])
            if types is not None and type(item) not in types:
                raise _Violation(f"expected {_expected(types)}, got {_kind(item)}", [index])
            if nested is not None:
                try:
                    nested(item)
                except _Violation as exc:
                    exc.parts.append(index)
                    raise

    return check_array


def _expected(types: tuple[type, ...]) -> str:
    for name, candidate in _PY_TYPES.items():
        if candidate == types:
            return name
    return "/".join(t.__name__ for t in types)


def compile_schema(schema: dict[str, Any]) -> Checker:
    """A function that returns None for a valid document and raises _Violation otherwise."""
    types, nested = _types_of(schema), _nested(schema)

    def check_document(value: Any) -> None:
        if types is not None and type(value) not in types:
            raise _Violation(f"expected {_expected(types)}, got {_kind(value)}")
        if nested is not None:
            nested(value)

    return check_document


def join_path(path: str, part: str) -> str:
    """A JSON path one step further down: `cast[].id`, `results[]`."""
    if not path or not part:
        return path or part
    return f"{path}{part}" if part.startswith("[") else f"{path}.{part}"


def check_value(where: str, path: str, schema: dict[str, Any], value: Any) -> None:
    """Raise ValidationError (at `where`, the JSON path under `path`) unless value fits the schema."""
    try:
        compile_schema(schema)(value)
    except _Violation as exc:
        raise ValidationError(where, join_path(path, _format_path(exc.parts)), exc.reason) from None


def load_schemas(path: Path = SCHEMA_FILE) -> dict[str, Any]:
    """TMDB's extracted schemas, then every `marquee_*.json` beside them (our own schemas, which add paths
    TMDB documents without a body and replace TMDB schemas that are wrong about the real responses)."""
    schemas = orjson.loads(path.read_bytes())
    if path == SCHEMA_FILE:
        for extra in sorted(path.parent.glob("marquee_*.json")):
            schemas.update(orjson.loads(extra.read_bytes()))
    return schemas


def _template_regex(template: str) -> re.Pattern[str]:
    pattern = "".join(
        "[^/]+" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]+\})", template)
    )
    # Variants share their template: `.de-DE` (language), `.page2` (page) or both after the last segment.
    return re.compile(f"^{pattern}(?:\\.[A-Za-z0-9-]+)*$")


class Validator:
    """Validates documents by URI (the path template is found by matching) or by explicit template."""

    def __init__(self, schemas: dict[str, Any] | None = None) -> None:
        self._schemas = load_schemas() if schemas is None else schemas
        self._checkers = {template: compile_schema(s) for template, s in self._schemas.items()}
        # A literal path before a template it also matches (/3/movie/popular, not /3/movie/{movie_id}):
        # templates with fewer parameters first, then as listed.
        self._routes = [(_template_regex(t), t) for t in sorted(self._schemas, key=lambda t: t.count("{"))]

    @property
    def templates(self) -> list[str]:
        return list(self._schemas)

    def knows(self, uri: str) -> bool:
        """Whether a schema's path matches `uri`."""
        return self._matching(uri) is not None

    def template_for(self, uri: str) -> str:
        template = self._matching(uri)
        if template is None:
            raise ValidationError(uri, "", "no schema for this path")
        return template

    def _matching(self, uri: str) -> str | None:
        return next((template for regex, template in self._routes if regex.match(uri)), None)

    def validate(self, uri: str, document: Any, template: str | None = None) -> None:
        """Raise ValidationError unless document (a parsed object or JSON bytes/str) fits its schema."""
        checker = self._checkers[template or self.template_for(uri)]
        if isinstance(document, (bytes, str)):
            try:
                document = orjson.loads(document)
            except orjson.JSONDecodeError as exc:
                raise ValidationError(uri, "", f"not JSON: {exc}") from None
        try:
            checker(document)
        except _Violation as exc:
            raise ValidationError(uri, _format_path(exc.parts), exc.reason) from None
