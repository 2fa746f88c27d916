"""Waiting for a page's state from the test's side.

Playwright's own `wait_for_function` polls its predicate inside the page with
`eval`, which the site's Content-Security-Policy (no 'unsafe-eval') refuses on
any poll after the first. These helpers ask the page again and again instead, each
time through the DevTools protocol, which the policy does not govern.
"""

from __future__ import annotations

import time

from playwright.sync_api import Error


def wait_until(page, script: str, arg=None, timeout: int = 10_000, every: int = 50):
    """Evaluate `script` (an expression or a function of `arg`) until it is truthy;
    return its value. Fails after `timeout` milliseconds, naming the script."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            value = page.evaluate(script, arg)
        except Error as error:  # a navigation replaced the document: ask the new one
            if "context was destroyed" not in str(error):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} ms for: {script}")
        page.wait_for_timeout(every)
