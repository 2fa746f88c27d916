from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.publishing.pair import Pair, site_registry, small_venue, venue_event


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
def pair(alice) -> Pair:
    """alice's `played_event` at the venue, to be published to the site's empty event
    (which alice directs there too); the site's registry holds its players already."""
    site_registry()
    return Pair.of(venue_event(director=alice), by=alice)


@pytest.fixture
def small(alice) -> Pair:
    """alice's small event (`small_venue`) published whole to the site (change 1)."""
    pair = Pair.of(small_venue(director=alice), by=alice)
    pair.publish()
    return pair
