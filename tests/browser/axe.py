"""axe-core in Chromium: the serious and critical violations on the page as it stands.

axe-core's script (MPL-2.0) comes with the axe-playwright-python package; it is put
into the page through the DevTools protocol (`page.evaluate`), which the site's
Content-Security-Policy does not govern, as a script tag would be refused.
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

FAILING = ("serious", "critical")


def serious_violations(page, where: str) -> list[str]:
    """Run axe-core on the page as it is now: each serious or critical violation as a
    line beginning with `where` (what the page is), naming the rule and the elements."""
    page.evaluate(AXE_SCRIPT)
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    lines = []
    for violation in found["violations"]:
        if violation["impact"] not in FAILING:
            continue
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        more = len(violation["nodes"]) - 5
        lines.append(
            f"{where}: {violation['id']} [{violation['impact']}] {violation['help']}: {targets}"
            + (f" and {more} more" if more > 0 else "")
        )
    return lines
