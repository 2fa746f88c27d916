"""The code's layers point one way (README, "What is where"):

    game  <-  tournaments, scoring (models)  <-  core  <-  director, public, api  <-  kalooki_site

Read from the source itself: every first-party import of every module, at module level
only (none hides inside a function), and no circle anywhere in the graph they draw.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "tournaments", "scoring", "core", "director", "public", "api", "kalooki_site")
# What each top-level package may import from the project (besides itself).
ALLOWED = {
    "game": set(),
    "tournaments": {"game"},
    "scoring": {"game", "tournaments"},
    "core": {"game", "tournaments", "scoring"},
    "director": {"game", "tournaments", "scoring", "core"},
    "public": {"game", "tournaments", "scoring", "core"},
    "api": {"game", "tournaments", "scoring", "core"},
    "kalooki_site": {"director", "public", "api", "core"},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


MODULES = modules()


def first_party(name: str) -> bool:
    return name.split(".")[0] in PACKAGES


def target(module: str, level: int, base: str | None, name: str | None, here: str) -> str:
    """The module an import names: `from core import services` is core.services when that
    is a module of its own, else the package core."""
    if level:
        package = here if MODULES[here].name == "__init__.py" else here.rsplit(".", 1)[0]
        for _ in range(level - 1):
            package = package.rsplit(".", 1)[0]
        base = f"{package}.{base}" if base else package
    full = f"{base}.{name}" if name else base
    return full if full in MODULES else base


def imports(name: str) -> tuple[set[str], list[tuple[int, str]]]:
    """The first-party modules `name` imports at module level, and any first-party
    import found inside a function or class body (line, what)."""
    tree = ast.parse(MODULES[name].read_text())
    top, nested = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [
                target(name, node.level, node.module, alias.name, name) for alias in node.names
            ]
        else:
            continue
        targets = [t for t in targets if t and first_party(t)]
        if not targets:
            continue
        if node in tree.body:
            top.update(targets)
        else:
            nested.extend((node.lineno, t) for t in targets)
    top.discard(name)
    return top, nested


@functools.cache
def graph() -> dict[str, tuple[set[str], list[tuple[int, str]]]]:
    """Every module's imports, read when a test first asks (not while collecting, which
    every parallel worker does)."""
    return {name: imports(name) for name in MODULES}


# Django's documented way to connect signal receivers: imported by the app's
# `AppConfig.ready()`, once the models are loaded (at module level it cannot be).
READY_IMPORTS = {"core.apps": {"core.signals"}}


def test_no_first_party_import_hides_inside_a_function():
    hidden = {
        name: [(line, t) for line, t in nested if t not in READY_IMPORTS.get(name, set())]
        for name, (_, nested) in graph().items()
    }
    assert {name: found for name, found in hidden.items() if found} == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_the_layers_below_it(package):
    wrong = {
        name: sorted(t for t in top if t.split(".")[0] not in ALLOWED[package] | {package})
        for name, (top, _) in graph().items()
        if name.split(".")[0] == package
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def packages_run(importer: str, imported: str) -> set[str]:
    """Importing `a.b.c` from outside the package `a.b` first runs `a.b`'s `__init__`
    (and `a`'s): those are edges of the graph too. From inside `a.b` they are not, since
    the package is already being set up by then."""
    parts = imported.split(".")
    parents = {".".join(parts[:i]) for i in range(1, len(parts))}
    return {
        p for p in parents if p in MODULES and not (importer == p or importer.startswith(p + "."))
    }


def edges_of(name: str, top: set[str]) -> set[str]:
    found = {t for t in top if t in MODULES}
    for t in list(found):
        found |= packages_run(name, t)
    found.discard(name)
    return found


def test_an_import_from_outside_a_package_counts_its_init():
    assert packages_run("core.series.selectors", "core.hands.selectors") == {"core.hands"}
    assert packages_run("director.sheet", "core.hands.services") == {"core", "core.hands"}
    assert packages_run("core.hands.services", "core.hands.history") == set()


# Inside `core`, one package per feature. A feature reaches another only through its
# public names (no module or name starting with "_"), and never through the index modules
# that gather core's names for the pages and the API (`core.services`, `core.selectors`,
# `core.printing`): those sit above every feature.
FEATURES = sorted(
    path.parent.name
    for path in (ROOT / "core").glob("*/__init__.py")
    if path.parent.name not in {"admin", "management", "templatetags", "migrations"}
)
INDEXES = {"core.services", "core.selectors", "core.printing"}


def feature_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "core" and parts[1] in FEATURES else None


def private_names(name: str) -> list[str]:
    """What `name` takes from another feature that is not public there."""
    tree = ast.parse(MODULES[name].read_text())
    taken = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            source = feature_of(node.module)
            if source is None or source == feature_of(name):
                continue
            for alias in node.names:
                whole = f"{node.module}.{alias.name}".split(".")
                if any(part.startswith("_") and part != "__init__" for part in whole):
                    taken.append(f"{node.module}.{alias.name}")
    return taken


def test_core_is_grouped_by_feature():
    assert {"events", "hands", "standings", "seating", "table_entry", "series"} <= set(FEATURES)
    # Left at the top of core: what every feature shares, the indexes, the app's wiring.
    shared = {
        "background",
        "caching",
        "collation",
        "common",
        "counters",
        "derived",
        "errors",
        "jobs",
        "locks",
        "pdf",
        "process_copies",  # caching's copies kept in one process (core.caching offers them)
        "tasks",
        "words",
    }
    wiring = {"__init__", "apps", "signals"}
    loose = {path.stem for path in (ROOT / "core").glob("*.py")}
    assert loose <= shared | wiring | {"services", "selectors", "printing"}


def test_a_feature_never_imports_the_indexes():
    wrong = {
        name: sorted(top & INDEXES)
        for name, (top, _) in graph().items()
        if feature_of(name) and top & INDEXES
    }
    assert wrong == {}


def test_a_feature_takes_only_public_names_from_another():
    wrong = {name: private_names(name) for name in MODULES if feature_of(name)}
    assert {name: taken for name, taken in wrong.items() if taken} == {}


def test_the_public_names_check_sees_a_private_import(tmp_path, monkeypatch):
    module = tmp_path / "sheet.py"
    module.write_text("from core.hands.services import _locked_table\n")
    monkeypatch.setitem(MODULES, "core.rounds.sheet", module)
    assert private_names("core.rounds.sheet") == ["core.hands.services._locked_table"]


def test_the_import_graph_has_no_circle():
    edges = {name: edges_of(name, top) for name, (top, _) in graph().items()}
    # Tarjan's strongly connected components: a component of more than one module is a circle.
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    assert circles == []
