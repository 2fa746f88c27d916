"""A player of the registry changed (README, "How an event runs": the admin goes
through the same services), from the admin or from a venue's publication, by one
service: checked as the model says, nothing written when refused; a changed name or
club grows the screen version of every event the player is entered in, so the live
pages show it at their next poll."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from core import services
from core.errors import InvalidInput
from tests.fixtures import make_event
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def andre():
    andre = services.create_player(name="Andre Brown", club="Kingston", country="JM")
    for slug in ("kingston", "ocho-rios"):
        Entry.objects.create(event=make_event(slug=slug, name=slug.title()), player=andre)
    make_event(slug="elsewhere", name="Elsewhere")
    return andre


def screens() -> dict[str, int]:
    return dict(Event.objects.values_list("slug", "screen_version"))


def test_a_new_name_shows_on_every_event_the_player_is_entered_in(andre):
    before = screens()
    services.update_player(player=andre, name="André Brown")
    assert Player.objects.get(pk=andre.pk).name == "André Brown"
    after = screens()
    assert after["kingston"] == before["kingston"] + 1
    assert after["ocho-rios"] == before["ocho-rios"] + 1
    assert after["elsewhere"] == before["elsewhere"]


def test_a_rating_alone_or_no_change_leaves_the_pages_as_they_are(andre):
    before = screens()
    services.update_player(player=andre, rating=1500)
    services.update_player(player=andre, name="Andre Brown", club="Kingston")
    assert Player.objects.get(pk=andre.pk).rating == 1500
    assert screens() == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [({"name": ""}, "name"), ({"name": "x" * 121}, "name"), ({"country": "XX"}, "country"),
     ({"seed": 3}, "seed")],
)  # fmt: skip
def test_a_bad_change_is_refused_naming_the_field_and_nothing_is_written(andre, changes, field):
    before = screens()
    with pytest.raises(InvalidInput) as refused:
        services.update_player(player=andre, **changes)
    assert list(refused.value.errors) == [field]
    assert (andre.name, andre.country) == ("Andre Brown", "JM")  # the caller's, unchanged
    stored = Player.objects.get(pk=andre.pk)
    assert (stored.name, stored.club, stored.country) == ("Andre Brown", "Kingston", "JM")
    assert screens() == before


def test_the_admin_adds_and_changes_players_through_the_service(andre, root):
    admin = Client()
    admin.force_login(root)
    added = admin.post(
        reverse("admin:tournaments_player_add"),
        {"name": "New Player", "club": "", "country": "TT", "rating": ""},
    )
    assert added.status_code == 302
    assert Player.objects.filter(name="New Player", country="TT").exists()
    before = screens()
    changed = admin.post(
        reverse("admin:tournaments_player_change", args=[andre.pk]),
        {"name": "Andre Brown", "club": "Montego Bay", "country": "JM", "rating": ""},
    )
    assert changed.status_code == 302
    assert Player.objects.get(pk=andre.pk).club == "Montego Bay"
    assert screens()["kingston"] == before["kingston"] + 1
