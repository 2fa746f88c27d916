"""The announcements list honours the API's page size: `?limit=` up to its maximum
(never the whole of an event's announcements at once), `?offset=` for the next page."""

from __future__ import annotations

import pytest
from django.utils import timezone

from api.guards import MAX_LIMIT
from tournaments.models import Announcement

pytestmark = pytest.mark.django_db

URL = "/api/v1/events/kingston/announcements/"


@pytest.fixture
def many(event):
    now = timezone.now()
    Announcement.objects.bulk_create(
        Announcement(event=event, text=f"Notice {i}", posted_at=now) for i in range(MAX_LIMIT + 5)
    )
    return event


def test_a_limit_beyond_the_maximum_gives_the_maximum(api, many):
    assert len(api.as_().get(URL, {"limit": 100_000}).json()) == MAX_LIMIT


def test_without_a_limit_one_page_of_the_default_size(api, many, settings):
    assert len(api.as_().get(URL).json()) == settings.REST_FRAMEWORK["PAGE_SIZE"]


def test_offset_gives_the_next_page(api, many):
    first = api.as_().get(URL, {"limit": 3}).json()
    second = api.as_().get(URL, {"limit": 3, "offset": 3}).json()
    assert len(second) == 3 and not {a["id"] for a in first} & {a["id"] for a in second}
    assert api.as_().get(URL, {"offset": MAX_LIMIT + 4}).json()[0]["text"].startswith("Notice")
