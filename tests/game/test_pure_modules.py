"""The game package is plain Python: every module in it imports nothing from Django
nor from the rest of the project (DESIGN.md: the pure modules)."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import game

PURE = sorted(f"game.{module.name}" for module in pkgutil.iter_modules(game.__path__))
FIRST_PARTY = {
    "django",
    "kalooki_site",
    "tournaments",
    "scoring",
    "core",
    "director",
    "public",
    "api",
}


def test_the_game_package_has_the_modules_the_design_names():
    assert {"game.cards", "game.rulesets", "game.rules", "game.ranking", "game.seating"} <= set(
        PURE
    )


def test_every_game_module_imports_nothing_from_django_or_the_project():
    code = (
        "import sys\n"
        f"for name in {PURE!r}: __import__(name)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FIRST_PARTY)!r})\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
