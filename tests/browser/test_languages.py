"""The language switch in Chromium: the leaderboard in Persian, right to left with
Persian digits, kept on reload (the language cookie), and back to English."""

from __future__ import annotations

import pytest

from tests.fixtures import make_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATE = """() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    persianDigits: /[۰-۹]/.test(document.querySelector("main").textContent),
})"""


def switch_to(page, name: str) -> None:
    with page.expect_navigation():
        page.click(f'.language-switch button:text-is("{name}")')


def test_the_leaderboard_switches_to_persian_and_back(live_server, new_page):
    world = make_world()
    page = new_page()
    address = f"{live_server.url}/events/{world.event.slug}/"
    page.goto(address)
    assert page.evaluate(STATE)["lang"] == "en"

    switch_to(page, "فارسی")
    assert page.url == address
    state = page.evaluate(STATE)
    assert (state["lang"], state["dir"], state["persianDigits"]) == ("fa", "rtl", True)
    assert page.get_attribute('.language-switch button[lang="fa"]', "aria-pressed") == "true"

    page.reload()
    assert page.evaluate(STATE)["dir"] == "rtl"

    switch_to(page, "English")
    state = page.evaluate(STATE)
    assert (state["lang"], state["dir"], state["persianDigits"]) == ("en", "ltr", False)
