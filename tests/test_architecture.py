"""The house's floors (docs/architecture.md): each package imports only its own floor and those
below it, so a reader can tell which way the house is built, and the edge process loads neither the
build's DuckDB and pyarrow nor the renderer.

    ground   marquee            settings, registry, packs, artefacts, formats
    sources  marquee_build      the catalogue's contract and load (build/)
             marquee_datasets   the generator and importers (datasets/), which write through the contract
    rooms    site_gen, edge     the renderer and the server: neither imports the other
    roof     control            the CLI, its commands and the service supervisor
    tools    bench, loadtests, tests
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"build": "marquee_build", "datasets": "marquee_datasets"}  # installed under prefixed names
# fmt: off
FLOOR = {
    "marquee": 0,
    "marquee_build": 1, "marquee_datasets": 2,
    "site_gen": 3, "edge": 3,
    "control": 4,
    "bench": 5, "loadtests": 5, "tests": 6,
}
# fmt: on
APART = {("site_gen", "edge"), ("edge", "site_gen")}  # one floor, two rooms


def package_of(path: Path) -> str:
    top = path.relative_to(ROOT).parts[0]
    return FOLDERS.get(top, top)


def imported(path: Path) -> set[str]:
    """Our packages a module imports, wherever in it (a function's import counts as much)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in FLOOR)
    return found


def modules() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [
        ROOT / name for name in listed.stdout.split() if Path(name).parts[0] in FLOOR or name.split("/")[0] in FOLDERS
    ]


def test_no_module_imports_a_floor_above_its_own_or_the_room_beside_it():
    upward = []
    for path in modules():
        own = package_of(path)
        for other in imported(path):
            if FLOOR[other] > FLOOR[own] or (own, other) in APART:
                upward.append(f"{path.relative_to(ROOT)} imports {other}")
    assert len(modules()) > 200 and not upward, upward


def test_the_check_sees_an_upward_import(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text("import os\n\ndef later():\n    from control.services import Stack\n    from edge import app\n")
    assert imported(module) == {"control", "edge"}


def test_the_edge_process_loads_neither_the_renderer_nor_the_build():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, edge.app, edge.answer_workers; print(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert not {"site_gen", "duckdb", "pyarrow", "marquee_build", "control"} & {name.split(".")[0] for name in loaded}
