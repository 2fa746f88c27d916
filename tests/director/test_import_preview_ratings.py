"""The import preview shows two ratings on two scales, each labelled with where it
comes from and what it is used for: the number in the file's rating column, and the
rating a registered player has on this site."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from scoring.models import PlayerRating, RatedRound
from tests.fixtures import make_event, make_round, make_user
from tests.html import signed_in
from tournaments.models import Event, Player, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def preview():
    """Alice's preview of a file rating Andre Brown 1620 in Elo, where the Andre Brown
    already registered is rated -9.45 on this site."""
    alice = make_user("alice")
    event = make_event(slug="kingston", status=Event.Status.REGISTRATION)
    event.directors.add(alice)
    andre = Player.objects.create(name="Andre Brown", club="Kingston Kalooki Club")
    played = make_round(make_event(slug="earlier"), status=Round.Status.CLOSED)
    rated = RatedRound.objects.create(round=played, sequence=1, closed_at=timezone.now())
    PlayerRating.objects.create(
        player=andre, mu=15.0, sigma=8.15, rating=-9.45, sets=1, rated_round=rated
    )
    client = signed_in(alice)
    data = b"name,club,rating\nAndre Brown,Kingston Kalooki Club,1620\nLorna Bailey,,1450\n"
    upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")
    client.post("/director/kingston/toolkit/import/", {"players": upload})
    response = client.get("/director/kingston/toolkit/import/preview/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_files_rating_column_says_it_is_the_files(preview):
    assert ">Rating in file</abbr></th>" in preview
    assert "<td>1620</td>" in preview and "<td>1450</td>" in preview


def test_a_registered_players_rating_says_it_is_this_sites(preview):
    assert "rating on this site -9.45" in preview
    # Merging keeps what is registered: the file's number is not stored for him.
    assert "the file's rating 1620 is not stored" in preview


def test_the_page_says_where_each_rating_comes_from_and_what_seeding_uses(preview):
    assert "Two ratings on two scales." in preview
    assert "worked out here from the sets they have played" in preview
    assert "orders the others by their rating on this site once any player" in preview
    assert "by the rating in the file until then" in preview
