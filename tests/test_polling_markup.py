"""Every live region polls without an hx-trigger filter (htmx evaluates one with eval,
which htmx-config and the Content-Security-Policy forbid) and is marked `data-poll`,
so static/public/clock.js holds its polls while the page is hidden."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
TRIGGER = re.compile(r'hx-trigger="([^"]*)"')


def polling_tags() -> list[tuple[str, str]]:
    found = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for tag in re.findall(r"<[a-z]+\s[^>]*hx-trigger=[^>]*>", path.read_text()):
            found.append((str(path.relative_to(TEMPLATES)), tag))
    return found


def test_every_live_region_polls_with_a_plain_timer_and_says_so():
    polling = [(name, tag) for name, tag in polling_tags() if "every" in TRIGGER.search(tag)[1]]
    assert len(polling) >= 6
    for name, tag in polling:
        assert re.fullmatch(r"every (\{\{ [\w.]+ \}\}|\d+)s", TRIGGER.search(tag)[1]), name
        assert re.search(r"\sdata-poll[\s>]", tag), name


def test_no_template_asks_htmx_to_evaluate_script():
    for name, tag in polling_tags():
        assert "[" not in TRIGGER.search(tag)[1], name
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"hx-on|hx-vars|hx-vals=.(js|javascript):", text), path
