from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.fixtures import kept_for_the_module, make_alice
from tests.publishing.pair import KeptPair, Pair, site_registry, small_venue, venue_event

# The fixtures made once for a module's tests, alice among what they make.
KEPT = ("kept_pair", "kept_small")


@pytest.fixture
def wire():
    """The site as the publisher meets it: an answer for every request, a 500 too
    (never the exception itself, as the test client would raise it)."""
    return Client(raise_request_exception=False, headers={"Accept-Language": "en"})


def api_as(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def alice(request, db):
    """Directs the event under test: for a test of a fixture in `KEPT`, the alice it
    made (read afresh); for any other test, made for it."""
    for name in KEPT:
        if name in request.fixturenames:
            request.getfixturevalue(name)
            return get_user_model().objects.get(username="alice")
    return make_alice()


@pytest.fixture(scope="module")
def kept_pair(django_db_setup, django_db_blocker):
    """`pair`, made once for the module's tests (alice with it)."""

    def build() -> KeptPair:
        director = make_alice()
        site_registry()
        return KeptPair.of(Pair.of(venue_event(director=director), by=director))

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def pair(kept_pair, db) -> Pair:
    """alice's `played_event` at the venue, to be published to the site's empty event
    (which alice directs there too); the site's registry holds its players already."""
    return kept_pair.fresh()


@pytest.fixture(scope="module")
def kept_small(django_db_setup, django_db_blocker):
    """`small`, made once for the module's tests (alice with it)."""

    def build() -> KeptPair:
        director = make_alice()
        pair = Pair.of(small_venue(director=director), by=director)
        pair.publish()
        return KeptPair.of(pair)

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def small(kept_small, db) -> Pair:
    """alice's small event (`small_venue`) published whole to the site (change 1)."""
    return kept_small.fresh()
