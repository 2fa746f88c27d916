"""Signing in, and the director of another event refused."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.browser.test_director_sheet import sign_in
from tests.fixtures import make_entries, make_event, make_round, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def events():
    alice, bob = make_user("alice"), make_user("bob")
    kingston = make_event(slug="kingston", name="Kingston Open", public=False)
    kingston.directors.add(alice)
    make_round(kingston, table_sizes=(4,), entries=make_entries(kingston, 4))
    mobay = make_event(slug="mobay", name="Montego Bay Classic")
    mobay.directors.add(bob)
    return kingston, mobay


def test_a_director_signs_in_and_sees_their_events(live_server, new_page, events):
    page = new_page()
    sign_in(page, live_server)
    assert page.locator(".event-list a").all_text_contents() == ["Kingston Open"]
    page.click("text=Kingston Open")
    page.wait_for_url("**/director/kingston/")
    assert page.text_content("h1") == "Kingston Open"


def test_a_wrong_password_is_refused(live_server, new_page, events):
    page = new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "wrong")
    page.press("#id_password", "Enter")
    page.wait_for_selector("#login-error")
    assert "do not match" in page.text_content("#login-error")


def test_the_director_of_another_event_is_refused(live_server, new_page, events):
    page = new_page()
    sign_in(page, live_server, username="bob")
    assert page.locator(".event-list a").all_text_contents() == ["Montego Bay Classic"]
    for path in ("/director/kingston/", "/director/kingston/rounds/1/tables/1/"):
        response = page.goto(live_server.url + path)
        assert response.status == 404
        assert "Kingston Open" not in page.content()
    # Nor can a save be slipped in with bob's own session and CSRF token.
    page.goto(live_server.url + "/director/")
    status = page.evaluate(
        """async () => {
            const headers = JSON.parse(document.body.getAttribute('hx-headers'));
            headers['HX-Request'] = 'true';
            const body = new URLSearchParams({version: '0', seat1: '5', seat2: '0', seat3: '7',
                                              seat4: '9', went_out: '2'});
            const url = '/director/kingston/rounds/1/tables/1/hands/1/';
            return (await fetch(url, {method: 'POST', headers, body})).status;
        }"""
    )
    assert status == 404
    assert not Hand.objects.exists()
