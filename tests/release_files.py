"""Reading a rendered release the way nginx and the edge do (edge/languages.py's candidates), from
the one-file-per-document view of its pack (conftest's `built_release`), and making small packs by
hand for edge tests."""

from __future__ import annotations

import atexit
import hashlib
import itertools
import re
import shutil
import tempfile
from pathlib import Path

import orjson

from edge.languages import candidates
from marquee.packs import BASE_NAME, ITEMS, PACK_NAME, Pack, assemble
from marquee.settings import from_env
from site_gen.writer import Writer

_packed = itertools.count()
DEFAULT_LANGUAGES = from_env({}).languages  # what conftest's releases are rendered in


def served_bytes(release: Path, uri: str, language: str | None = None, languages: list[str] | None = None) -> bytes:
    """The document served for `uri` with `?language=` (a code outside `languages`, the default list,
    asks for the untranslated variant), by edge/languages.py's own candidates: site_gen drops
    variants equal to their fallback, so the answer may be the untranslated or the default document."""
    for name in candidates(uri, language, None, languages or DEFAULT_LANGUAGES):
        if (release / name).is_file():
            return (release / name).read_bytes()
    raise FileNotFoundError(f"{uri} in {language!r}: no variant, no untranslated and no default document in {release}")


def served(release: Path, uri: str, language: str | None = None) -> dict:
    return orjson.loads(served_bytes(release, uri, language))


UNTRANSLATED_LANGUAGE = "xx"  # a code no release is rendered in: its answer is the `.und` variant


def assert_und_files_differ_from_default(folder: Path) -> int:
    """Every X.und.json present differs from X.json (equal ones are not written); returns how many."""
    count = 0
    for und in folder.glob("*.und.json"):
        assert und.read_bytes() != und.with_name(und.name.replace(".und.json", ".json")).read_bytes(), und
        count += 1
    return count


_unpacked: dict[str, Path] = {}  # by the pack's MD5
_pack_digests: dict[Path, str] = {}  # a release's pack read once, not at every call


def unpacked(release: Path) -> Path:
    """A folder with one file per served document of `release`'s pack (`3/movie/603.de-DE.json`, the
    row names), made once per pack's bytes (the e2e stacks' release is a copy of the session's: one
    folder for both, not 16k files written twice): tests glob and open documents as paths. Every
    byte is the pack's; composites are assembled, and their items (no path serves them) are not files."""
    real = Path(release).resolve()
    if real not in _pack_digests:
        digest = hashlib.md5()
        for name in (PACK_NAME, BASE_NAME):  # a delta's documents are its pack's and its base's
            if (real / name).is_file():
                digest.update((real / name).read_bytes())
        _pack_digests[real] = digest.hexdigest()
    key = _pack_digests[real]
    if key not in _unpacked:
        tree = Path(tempfile.mkdtemp(prefix=f"unpacked-{real.name}-"))
        atexit.register(shutil.rmtree, tree, True)  # ~75 MB a folder: not left behind by each run
        with Pack(real) as pack:
            for name, body, _ in pack.rows():
                if name.startswith(ITEMS):
                    continue
                body = assemble(bytes(body), pack.raw)  # as served: a composite's items spliced in, no item alone
                path = tree / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(body)
        _unpacked[key] = tree
    return _unpacked[key]


def template_regex(template: str) -> re.Pattern[str]:
    """`/3/tv/{series_id}/season/{season_number}` -> a pattern naming each parameter, over release
    document names (`3/tv/1/season/2.de-DE.json` without `.json`: variant suffixes allowed)."""
    pattern = "".join(
        f"(?P<{part[1:-1]}>[^/.]+)" if part.startswith("{") else re.escape(part)
        for part in re.split(r"(\{[^}]+\})", template.lstrip("/"))
    )
    return re.compile(f"^{pattern}(?:\\.[A-Za-z0-9-]+)*$")


def real_parameters(tree: Path, templates) -> dict[str, list[dict[str, str]]]:
    """For each path template with placeholders, the placeholder values of every document of the
    unpacked release `tree` it names (sorted): requests that find something."""
    names = [str(p.relative_to(tree))[: -len(".json")] for p in tree.rglob("*.json")]
    real = {}
    for template in templates:
        if "{" in template:
            regex = template_regex(template)
            found = sorted({tuple(sorted(m.groupdict().items())) for n in names if (m := regex.match(n))})
            real[template] = [dict(p) for p in found]
    return real


def pack_tree(folder: Path) -> Path:
    """A new release folder (beside `folder`) whose pack holds every `*.json` file under folder,
    named as the Writer names them: handmade documents for edge tests, repacked on every call."""
    target = folder.parent / f"{folder.name}-pack{next(_packed)}"
    writer = Writer(target)
    for path in sorted(folder.rglob("*.json")):
        writer.write("/" + str(path.relative_to(folder))[: -len(".json")], path.read_bytes())
    writer.finish()
    return target
