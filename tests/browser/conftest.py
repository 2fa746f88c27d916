"""Playwright driving Debian's Chromium (never a downloaded browser).

Under CI=true a missing Chromium fails the browser tests; elsewhere they are skipped
with the command that installs it.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    found = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not found:
        message = "Chromium is not installed: apt-get install chromium"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop; Django must allow sync DB calls here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=FLAGS)
        yield browser
        browser.close()


# Chromium reports every script, style or handler the Content-Security-Policy blocks.
VIOLATION = re.compile(r"Content Security Policy|Refused to (execute|apply|load|evaluate)")


@pytest.fixture
def new_page(browser):
    """Open a fresh browser context (its own cookies) per call: one per user. Every
    page runs under the site's Content-Security-Policy, and a test fails if Chromium
    reports anything the policy blocked."""
    contexts, violations = [], []

    def watch(message) -> None:
        if VIOLATION.search(message.text):
            violations.append(f"{message.location.get('url', '')}: {message.text}")

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", watch)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert violations == [], "the Content-Security-Policy blocked something"
