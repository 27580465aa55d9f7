"""Extract the 200-response schemas of the paths Marquee renders from TMDB's OpenAPI spec.

Run once when the set of rendered paths changes, and commit the output, so the repo never needs the
spec at build time:

    python site_gen/schemas/extract.py ../shared/reference/tmdb-v3-openapi.json

Only `type`, `properties` and `items` are kept: examples and defaults are documentation, and
dropping them keeps the committed file small and its diffs meaningful.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "tmdb_v3_responses.json"

# Every path template site_gen renders; extend it together with the renderer that adds a path.
RENDERED_PATHS: tuple[str, ...] = (
    "/3/authentication",
    "/3/collection/{collection_id}",
    "/3/configuration",
    "/3/genre/movie/list",
    "/3/movie/{movie_id}",
    "/3/movie/{movie_id}/credits",
)
_KEEP = ("type", "properties", "items")


def _strip(schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in _KEEP:
        if key not in schema:
            continue
        value = schema[key]
        if key == "properties":
            out[key] = {name: _strip(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = _strip(value)
        else:
            out[key] = value
    return out


def extract(spec: dict[str, Any], paths: tuple[str, ...] = RENDERED_PATHS) -> dict[str, Any]:
    """{path template: stripped 200 application/json schema} for each rendered path."""
    schemas = {}
    for path in paths:
        try:
            response = spec["paths"][path]["get"]["responses"]["200"]
            schema = response["content"]["application/json"]["schema"]
        except KeyError:
            raise SystemExit(f"{path}: no GET 200 application/json schema in the spec") from None
        if "$ref" in json.dumps(schema):
            raise SystemExit(f"{path}: schema uses $ref, which this extractor does not resolve")
        schemas[path] = _strip(schema)
    return schemas


def render(schemas: dict[str, Any]) -> str:
    return json.dumps(schemas, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", type=Path, help="TMDB's OpenAPI 3.1 JSON file")
    parser.add_argument("--out", type=Path, default=OUT, help=f"output file (default: {OUT})")
    args = parser.parse_args(argv)
    spec = json.loads(args.spec.read_text())
    args.out.write_text(render(extract(spec)))
    print(f"wrote {len(RENDERED_PATHS)} schemas to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
