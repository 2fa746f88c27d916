"""The new-event form in Chromium: the address follows the name until the director
types one of their own."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tests.browser.test_director_sheet import sign_in
from tests.fixtures import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_address_follows_the_name_until_typed(live_server, new_page):
    alice = make_user("alice")
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    page = new_page()
    sign_in(page, live_server)
    page.goto(live_server.url + "/director/new/")
    page.fill("#id_name", "Port Antonio Open 2027")
    assert page.input_value("#id_slug") == "port-antonio-open-2027"
    page.fill("#id_name", "Négril Kalooki Night")
    assert page.input_value("#id_slug") == "negril-kalooki-night"
    page.fill("#id_slug", "negril-night")
    page.fill("#id_name", "Negril Night 2")
    assert page.input_value("#id_slug") == "negril-night"
