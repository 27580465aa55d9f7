"""Reading a rendered release the way nginx and the edge do (edge/languages.py's candidates)."""

from __future__ import annotations

from pathlib import Path

import orjson


def served_bytes(release: Path, uri: str, suffix: str = "") -> bytes:
    """The file served for `uri` with a variant suffix ('.de-DE', '.und' or ''): the variant, else the
    untranslated variant, else the default document (site_gen drops variants equal to their fallback)."""
    base = release / uri.lstrip("/")
    for candidate in dict.fromkeys((suffix, ".und", "")):
        path = base.with_name(base.name + candidate + ".json")
        if path.is_file():
            return path.read_bytes()
    raise FileNotFoundError(f"{uri}{suffix}: no variant, no .und and no default document in {release}")


def served(release: Path, uri: str, suffix: str = "") -> dict:
    return orjson.loads(served_bytes(release, uri, suffix))


def assert_und_files_differ_from_default(folder: Path) -> int:
    """Every X.und.json present differs from X.json (equal ones are not written); returns how many."""
    count = 0
    for und in folder.glob("*.und.json"):
        assert und.read_bytes() != und.with_name(und.name.replace(".und.json", ".json")).read_bytes(), und
        count += 1
    return count
