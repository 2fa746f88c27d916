"""In a Trinidad set the remedy for over-calling is the challenge, so an event played to
it charges no over-call penalty unless it agrees to (RULES.md, "Decided for
tournaments"): wherever a director makes an event or changes its ruleset - the New
event page, the admin, the API, the settings page - a Trinidad event starts with the
penalty off, a Jamaican one with it on, and the director may still choose."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from rest_framework.test import APIClient

from tests.director.test_event_settings import as_posted
from tests.fixtures import make_event, make_user
from tests.html import Page, signed_in
from tournaments.models import Event

pytestmark = pytest.mark.django_db

NEW_EVENT = {
    "name": "Port of Spain Open",
    "slug": "pos",
    "format": "total",
    "rounds_planned": "3",
    "seating": "swiss",
}


@pytest.fixture
def creator(alice):
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    return signed_in(alice)


def test_the_new_event_page_asks_nothing_for_the_penalty_and_trinidad_has_none(creator):
    """The page as a director meets it: the over-call penalty starts "as the ruleset
    says", so choosing Trinidad and nothing else makes an event without it."""
    page = Page(creator.get("/director/new/").content)
    assert page.fields[("", "overcall_penalty")]["value"] == ""
    sent = {**NEW_EVENT, "ruleset": "trinidad", "overcall_penalty": ""}
    assert creator.post("/director/new/", sent).status_code == 302
    event = Event.objects.get(slug="pos")
    assert (event.ruleset, event.overcall_penalty) == ("trinidad", False)
    assert event.table_rules.overcall_penalty is False


@pytest.mark.parametrize(
    ("ruleset", "choice", "charged"),
    [
        ("jamaica", "", True),
        ("jamaica", "off", False),
        ("trinidad", "", False),
        ("trinidad", "on", True),
        ("trinidad", "off", False),
    ],
)
def test_the_director_may_still_choose_on_the_new_event_page(creator, ruleset, choice, charged):
    sent = {**NEW_EVENT, "ruleset": ruleset, "overcall_penalty": choice}
    assert creator.post("/director/new/", sent).status_code == 302
    assert Event.objects.get(slug="pos").overcall_penalty is charged


def admin_add_form(client) -> dict:
    """The admin's add-event form as a browser posts it, untouched."""
    form = client.get(reverse("admin:tournaments_event_add")).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    return {k: ("on" if v is True else v) for k, v in data.items() if v is not False}


@pytest.mark.parametrize(
    ("ruleset", "choice", "charged"),
    [("trinidad", "", False), ("trinidad", "on", True), ("jamaica", "", True)],
)
def test_an_event_added_in_the_admin_takes_its_rulesets_penalty(client, ruleset, choice, charged):
    root = make_user("root", superuser=True)
    client.force_login(root)
    data = admin_add_form(client)
    assert data["overcall_penalty"] == ""  # "as the ruleset says", not the model's tick
    data.update(
        {
            "slug": "pos",
            "name": "Port of Spain Open",
            "ruleset": ruleset,
            "overcall_penalty": choice,
            "directors": [root.pk],
        }
    )
    response = client.post(reverse("admin:tournaments_event_add"), data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Event.objects.get(slug="pos").overcall_penalty is charged


def test_the_admin_turning_an_event_trinidad_drops_the_penalty_unless_asked(client):
    root = make_user("root", superuser=True)
    client.force_login(root)
    event = make_event(slug="pos")
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    assert data["overcall_penalty"] == "on"  # as stored
    response = client.post(url, {**data, "ruleset": "trinidad"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    event.refresh_from_db()
    assert (event.ruleset, event.overcall_penalty) == ("trinidad", False)


def patch(user, slug: str, body: dict):
    client = APIClient()
    client.force_authenticate(user)
    return client.patch(f"/api/v1/events/{slug}/", body, format="json")


def test_a_patch_changing_the_ruleset_takes_its_default_unless_it_names_the_penalty(alice):
    event = make_event(slug="pos")
    event.directors.add(alice)
    assert event.overcall_penalty is True
    response = patch(alice, "pos", {"ruleset": "trinidad"})
    assert response.status_code == 200, response.json()
    assert response.json()["overcall_penalty"] is False
    # Named: as asked, whatever the ruleset.
    response = patch(alice, "pos", {"ruleset": "jamaica", "overcall_penalty": False})
    assert response.json()["overcall_penalty"] is False
    response = patch(alice, "pos", {"ruleset": "trinidad", "overcall_penalty": True})
    assert response.json()["overcall_penalty"] is True
    # Another setting, or the same ruleset again, leaves the director's choice alone.
    assert patch(alice, "pos", {"name": "PoS Open"}).json()["overcall_penalty"] is True
    assert patch(alice, "pos", {"ruleset": "trinidad"}).json()["overcall_penalty"] is True
    # Back to Jamaica without naming it: Jamaica's default, on.
    assert patch(alice, "pos", {"ruleset": "jamaica"}).json()["overcall_penalty"] is True
    event.refresh_from_db()
    assert (event.ruleset, event.overcall_penalty) == ("jamaica", True)


def test_the_settings_page_turning_an_event_trinidad_drops_the_penalty(alice):
    """The page sends the box as it stood (ticked) with the new ruleset: the director did
    not ask for the penalty, so the Trinidad event has none."""
    event = make_event(slug="pos")
    event.directors.add(alice)
    director = signed_in(alice)
    response = director.post("/director/pos/settings/", as_posted(event, ruleset="trinidad"))
    assert response.status_code == 302, response.content.decode()[:2000]
    event.refresh_from_db()
    assert (event.ruleset, event.overcall_penalty) == ("trinidad", False)
    # Ticking it afterwards is the director asking for it.
    response = director.post("/director/pos/settings/", as_posted(event, overcall_penalty=True))
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.ruleset, event.overcall_penalty) == ("trinidad", True)
