"""Playwright driving Debian's Chromium (never a downloaded browser).

Headless, as Playwright runs Chromium by default: Debian's `chromium-headless-shell`
(the same Chromium without the desktop browser around it) when it is installed, half
the CPU of the full browser for the same pages (docs/benchmarks.md, "The suite at two
minutes"); else Debian's `chromium` in its headless mode. CHROMIUM names
another. Under CI=true a missing Chromium fails the browser tests; elsewhere they are
skipped with the command that installs it.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
import time

import pytest
from django.core.signals import request_finished, request_started

CHROMIUMS = ("chromium-headless-shell", "chromium")
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
    named = os.environ.get("CHROMIUM")
    found = next(filter(None, map(shutil.which, [named] if named else CHROMIUMS)), None)
    if not found:
        message = "Chromium is not installed: apt-get install chromium-headless-shell"
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
    reports anything the policy blocked. Each is a visitor who asked for less motion
    (prefers-reduced-motion): the live pages' pulsing dot and the projector's page turn
    (CSS alone, static/public/public.css) then rest, and Chromium stops drawing a frame
    sixty times a second for them (its CPU on four browser modules 20.6 -> 17.1 s)."""
    contexts, violations = [], []

    def watch(message) -> None:
        if VIOLATION.search(message.text):
            violations.append(f"{message.location.get('url', '')}: {message.text}")

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(
            viewport={"width": width, "height": height}, reduced_motion="reduce"
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", watch)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert violations == [], "the Content-Security-Policy blocked something"


class Requests:
    """How many requests the live server is answering now: a page closed at the end of
    a test may leave one still reading the database in the server's thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0

    def started(self, **_kwargs) -> None:
        with self.lock:
            self.open += 1

    def finished(self, **_kwargs) -> None:
        with self.lock:
            self.open = max(0, self.open - 1)


@pytest.fixture(autouse=True)
def _requests_answered_before_the_flush():
    """The database is emptied after each browser test only once the live server has
    answered every request the test's pages sent (a poll in flight holds a read lock on
    the shared in-memory SQLite database, and the flush would fail on it, leaving the
    rows for the next test). Torn down after the pages are closed, before the flush."""
    requests = Requests()
    request_started.connect(requests.started)
    request_finished.connect(requests.finished)
    yield
    deadline = time.monotonic() + 10
    while requests.open and time.monotonic() < deadline:
        time.sleep(0.02)
    request_started.disconnect(requests.started)
    request_finished.disconnect(requests.finished)
