from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_front_page_renders_in_chromium(live_server, new_page):
    page = new_page()
    page.goto(live_server.url + "/")
    assert "Kalooki" in page.title() or "Kalooki" in page.text_content("body")


def test_pages_run_under_the_content_security_policy(live_server, browser):
    """The policy is on and Chromium enforces it: an inline script put into a page is
    blocked and reported (what `new_page` watches for on every other page)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        seen = []
        page.on("console", lambda message: seen.append(message.text))
        response = page.goto(live_server.url + "/accounts/login/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.ran = true'; document.body.appendChild(s); }"
        )
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.ran === undefined")
        assert any("Content Security Policy" in text for text in seen)
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/", "/api/docs/", "/admin/login/", "/accounts/login/"])
def test_the_site_s_own_pages_break_no_rule_of_the_policy(live_server, new_page, path):
    page = new_page()
    page.goto(live_server.url + path)
    page.wait_for_load_state("networkidle")
    assert page.title()
