from __future__ import annotations

import subprocess
import sys

PURE = ["scoring.cards", "scoring.rulesets", "scoring.rules"]


def test_the_game_logic_imports_nothing_from_django():
    code = (
        "import sys\n"
        f"for name in {PURE!r}: __import__(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'django')\n"
        "print(','.join(loaded))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
