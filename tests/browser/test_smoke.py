from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_front_page_renders_in_chromium(live_server, new_page):
    page = new_page()
    page.goto(live_server.url + "/")
    assert "Kalooki" in page.title() or "Kalooki" in page.text_content("body")
