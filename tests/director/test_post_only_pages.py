"""A GET on a director's or organiser's POST-only address opens the page its form lives
on, not a blank 405 (a link shared, a reload after a redirect went astray)."""

from __future__ import annotations

import pytest

from tests.fixtures import make_world
from tests.html import signed_in

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "page"),
    [
        ("/organiser/new/", "/organiser/"),
        ("/director/kingston/rounds/1/close/", "/director/kingston/rounds/1/"),
        ("/director/kingston/rounds/1/tables/1/lock/", "/director/kingston/rounds/1/tables/1/"),
        (
            "/director/kingston/rounds/1/tables/1/hands/3/",
            "/director/kingston/rounds/1/tables/1/#hand-3",
        ),
        ("/director/kingston/finish/", "/director/kingston/"),
    ],
)
def test_a_get_on_a_post_only_address_opens_its_page(address, page):
    world = make_world()
    director = signed_in(world.alice)
    response = director.get(address)
    assert (response.status_code, response["Location"]) == (302, page)
    assert director.get(page.split("#")[0]).status_code == 200


def test_the_api_still_answers_405():
    world = make_world()
    director = signed_in(world.alice)
    assert director.get("/api/v1/events/kingston/finish/").status_code == 405
