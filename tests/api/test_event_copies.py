"""The API's event document carries the event's identity and says when it is a copy
(`uid`, `counted`, `copy_of`); `POST /api/v1/events/{slug}/count/` counts a copy
instead of the event it copies, through the same service as the director's page."""

from __future__ import annotations

import pytest

from core import archive
from core.archive import export as archive_export
from core.archive import importer as archive_import
from tests.fixtures import make_event, make_user
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def copy(event, alice) -> Event:
    """A copy of alice's Kingston Open, kept beside it, that she directs too."""
    text = archive.dumps(archive_export.export_event(event))
    imported = archive_import.import_event(raw=text, rename="kingston-copy", by=alice, held="copy")
    return imported.event


def test_an_event_carries_its_identity_and_counts(api, event):
    document = api.as_().get("/api/v1/events/kingston/").json()
    assert (document["uid"], document["counted"], document["copy_of"]) == (
        str(event.uid),
        True,
        None,
    )


def test_a_copy_names_the_event_it_copies_in_the_list_too(
    api, event, copy, django_assert_max_num_queries
):
    document = api.as_().get("/api/v1/events/kingston-copy/").json()
    assert (document["uid"], document["counted"], document["copy_of"]) == (
        str(event.uid),
        False,
        "kingston",
    )
    for n in range(3):
        other = archive_import.import_event(
            raw=archive.dumps(archive_export.export_event(event)),
            rename=f"more-{n}",
            held="copy",
        ).event
        assert not other.counted
    with django_assert_max_num_queries(8):  # one look-up for every copy listed
        listed = api.as_().get("/api/v1/events/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert {row["slug"]: row["copy_of"] for row in rows} == {
        "kingston": None,
        "kingston-copy": "kingston",
        "more-0": "kingston",
        "more-1": "kingston",
        "more-2": "kingston",
    }


def test_a_copy_of_a_private_event_does_not_name_it_to_the_public(api, event, copy):
    Event.objects.filter(pk=event.pk).update(public=False)
    assert api.as_().get("/api/v1/events/kingston-copy/").json()["copy_of"] is None


def test_counting_a_copy_takes_the_original_out(api, event, copy, alice):
    response = api.as_(alice).post("/api/v1/events/kingston-copy/count/")
    assert response.status_code == 200, response.json()
    assert (response.json()["counted"], response.json()["copy_of"]) == (True, None)
    again = api.as_(alice).get("/api/v1/events/kingston/").json()
    assert (again["counted"], again["copy_of"]) == (False, "kingston-copy")
    refused = api.as_(alice).post("/api/v1/events/kingston-copy/count/")
    assert refused.status_code == 409
    assert "counts already" in refused.json()["event"][0]


def test_only_a_director_of_both_events_counts_a_copy(api, event, copy):
    assert api.as_().post("/api/v1/events/kingston-copy/count/").status_code in (401, 403)
    carol = make_user("carol")
    copy.directors.add(carol)  # she directs the copy, not the event it would take out
    response = api.as_(carol).post("/api/v1/events/kingston-copy/count/")
    assert response.status_code == 403
    assert "you do not direct kingston" in response.json()["event"][0]
    dave = make_user("dave")
    make_event(slug="daves").directors.add(dave)
    assert api.as_(dave).post("/api/v1/events/kingston-copy/count/").status_code == 403
    assert not Event.objects.get(slug="kingston-copy").counted
