"""A public series' legs and final are public events (its page, standings and players'
pages show them to anyone): adding a private event as a leg or the final, making a
series public while a leg or its final is private, and making a leg or final of a
public series private are each refused, naming the field, with nothing written. A
private series may have private legs and a private final."""

from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput
from core.series.services import check_series
from tests.core.test_series import leg
from tests.fixtures import make_event
from tournaments.models import Event, Player, Series

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def series(root):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "qualifiers": 2}, by=root
    )


@pytest.fixture
def players(db):
    return [Player.objects.create(name=f"P{i}") for i in range(4)]


def refused(action, field: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as error:
        action()
    assert list(error.value.errors) == [field], error.value.errors
    assert error.value.status_code == 400
    return error.value


def test_a_private_event_is_not_added_as_a_leg_of_a_public_series(series):
    hidden = make_event(slug="hidden", name="Hidden Cup", public=False)
    error = refused(lambda: services.add_leg(series=series, event=hidden), "event")
    assert "Hidden Cup is a private event" in str(error)
    assert Event.objects.get(pk=hidden.pk).series_id is None
    assert not Event.objects.get(pk=hidden.pk).public


def test_a_private_event_is_not_made_the_final_of_a_public_series(series, players):
    leg(series, players, day=1)
    hidden = make_event(
        slug="hidden", name="Hidden Final", public=False, status=Event.Status.REGISTRATION
    )
    refused(lambda: services.create_final(series=series, event=hidden), "event")
    assert Series.objects.get(pk=series.pk).final_id is None
    assert not hidden.entries.exists()


def test_a_series_with_a_private_leg_is_not_made_public(series, players):
    services.update_series(series=series, data={"public": False})
    leg(series, players, day=1, public=False, name="Hidden Leg")
    error = refused(
        lambda: services.update_series(series=series, data={"public": True, "qualifiers": 5}),
        "public",
    )
    assert "Hidden Leg is a private event" in str(error)
    stored = Series.objects.get(pk=series.pk)
    assert not stored.public and stored.qualifiers == 2  # nothing written


def test_a_series_with_a_private_final_is_not_made_public(series, players):
    services.update_series(series=series, data={"public": False})
    leg(series, players, day=1)
    hidden = make_event(
        slug="hidden", name="Hidden Final", public=False, status=Event.Status.REGISTRATION
    )
    services.create_final(series=series, event=hidden)  # a private series: allowed
    refused(lambda: services.update_series(series=series, data={"public": True}), "public")
    assert not Series.objects.get(pk=series.pk).public


def test_a_leg_of_a_public_series_is_not_made_private(series, players):
    event = leg(series, players, day=1, name="Kingston Leg")
    error = refused(lambda: services.update_event(event=event, data={"public": False}), "public")
    assert "a leg of the public series Circuit" in str(error)
    assert Event.objects.get(pk=event.pk).public


def test_the_final_of_a_public_series_is_not_made_private(series, players):
    leg(series, players, day=1)
    final = make_event(slug="final", name="Final", status=Event.Status.REGISTRATION)
    services.create_final(series=series, event=final)
    error = refused(
        lambda: services.update_event(event=final, data={"public": False, "name": "Renamed"}),
        "public",
    )
    assert "the final of the public series Circuit" in str(error)
    stored = Event.objects.get(pk=final.pk)
    assert stored.public and stored.name == "Final"


def test_the_admin_event_form_check_refuses_it_too(series, players):
    event = Event.objects.get(pk=leg(series, players, day=1).pk)  # as the admin reads it
    refused(lambda: services.check_update(event, {"public": False}), "public")


def test_a_private_series_may_have_private_legs_and_a_private_final(series, players):
    services.update_series(series=series, data={"public": False})
    hidden = leg(series, players, day=1, public=False)
    final = make_event(slug="final", name="Final", public=False, status=Event.Status.REGISTRATION)
    services.create_final(series=series, event=final)
    visible = leg(series, players, day=2)
    services.update_event(event=visible, data={"public": False})  # its series is private
    assert set(Series.objects.get(pk=series.pk).legs.all()) == {hidden, visible}


def test_once_the_series_is_private_or_the_event_out_of_it_the_event_may_be_private(
    series, players
):
    first = leg(series, players, day=1)
    second = leg(series, players, day=2)
    services.remove_leg(series=series, event=first)
    services.update_event(event=first, data={"public": False})
    services.update_series(series=series, data={"public": False})
    services.update_event(event=second, data={"public": False})
    assert not Event.objects.filter(public=True).exists()


def test_a_public_series_takes_public_legs_and_an_event_of_no_series_may_be_private(series):
    loose = make_event(slug="loose", name="Loose", public=True)
    services.update_event(event=loose, data={"public": False})  # in no series
    services.update_event(event=loose, data={"public": True})
    services.add_leg(series=series, event=loose)
    assert Event.objects.get(pk=loose.pk).series_id == series.pk


def test_the_admin_series_form_check_refuses_making_it_public_with_a_private_leg(series, players):
    services.update_series(series=series, data={"public": False})
    leg(series, players, day=1, public=False)
    stored = Series.objects.get(pk=series.pk)
    refused(lambda: check_series({"public": True, "name": "Circuit"}, series=stored), "public")
    check_series({"public": False, "name": "Renamed"}, series=stored)  # still private: fine


def test_the_final_set_through_the_service_follows_the_rule(series):
    hidden = make_event(slug="hidden", name="Hidden", public=False)
    error = refused(
        lambda: services.update_series(series=series, data={"final": "hidden"}), "final"
    )
    assert "Hidden is a private event" in str(error)
    final = make_event(slug="final", name="Final")
    services.update_series(series=series, data={"final": "final"})  # by the system: any
    assert Series.objects.get(pk=series.pk).final_id == final.pk
    refused(lambda: services.update_event(event=final, data={"public": False}), "public")
    assert not Event.objects.get(pk=hidden.pk).public
