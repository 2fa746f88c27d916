"""The New event form carries the agreed variants (README, "The agreed variants"):
over-call penalty, Trinidad doubling and a penalty amount per hand, each with its help,
checked by the service as the API's are; a combination it refuses names the field and
writes nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import Permission

from tests.html import Page, signed_in
from tournaments.models import Event

pytestmark = pytest.mark.django_db

BASE = {
    "name": "Mandeville Open",
    "slug": "mandeville",
    "ruleset": "jamaica",
    "format": "total",
    "rounds_planned": "4",
    "seating": "swiss",
    "overcall_penalty": "",  # as the page sends it: "as the ruleset says"
}
VARIANTS = ("overcall_penalty", "trinidad_doubling", "penalty_per_hand")


@pytest.fixture
def creator(w):
    w.alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    return signed_in(w.alice)


def form_errors(response) -> list[str]:
    found = re.findall(
        r'<span class="form-error" role="alert">(.*?)</span>', response.content.decode()
    )
    return [html.unescape(text) for text in found]


def test_the_form_offers_the_agreed_variants_with_their_help(creator):
    response = creator.get("/director/new/")
    body = response.content.decode()
    assert "on the event's settings page" in body  # for the deck and the director penalty
    assert "agreed variants take their usual values" not in body
    page = Page(response.content)
    fields = {name: page.fields[("", name)] for name in VARIANTS}
    # The over-call penalty is a choice that starts at the ruleset's own (Jamaica: on,
    # Trinidad: off); the other variants are boxes that start unticked.
    assert (fields["overcall_penalty"]["tag"], fields["overcall_penalty"]["value"]) == (
        "select",
        "",
    )
    assert "as the ruleset says (Jamaica: on, Trinidad: off)" in body
    boxes = {name: fields[name]["attrs"] for name in VARIANTS if name != "overcall_penalty"}
    assert [name for name, attrs in boxes.items() if "checked" in attrs] == []
    assert all(attrs["type"] == "checkbox" for attrs in boxes.values())
    for name, field in fields.items():
        attrs = field["attrs"]
        helptext = attrs["aria-describedby"]
        assert helptext == f"id_{name}_helptext"
        assert page.text(helptext) == str(Event._meta.get_field(name).help_text)
    assert "Only for a Trinidad set." in page.text("id_trinidad_doubling_helptext")


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({}, (True, False, False)),
        ({"overcall_penalty": "off"}, (False, False, False)),
        ({"overcall_penalty": "on"}, (True, False, False)),
        # In a Trinidad set the remedy for over-calling is the challenge: no penalty
        # unless the director asks for it.
        ({"ruleset": "trinidad"}, (False, False, False)),
        ({"ruleset": "trinidad", "trinidad_doubling": "on"}, (False, True, False)),
        ({"ruleset": "trinidad", "overcall_penalty": "on"}, (True, False, False)),
        ({"penalty_per_hand": "on"}, (True, False, True)),
    ],
    ids=[
        "the defaults",
        "over-call at no cost",
        "over-call penalty asked for",
        "trinidad",
        "trinidad doubling",
        "trinidad with the over-call penalty",
        "penalty per hand",
    ],
)
def test_an_event_is_created_with_each_variant(creator, w, settings, expected):
    data = {key: value for key, value in {**BASE, **settings}.items() if value}
    response = creator.post("/director/new/", data)
    assert response.status_code == 302, form_errors(response)
    assert response["Location"] == "/director/mandeville/"
    event = Event.objects.get(slug="mandeville")
    assert tuple(getattr(event, name) for name in VARIANTS) == expected
    assert event.ruleset == data["ruleset"]
    assert event.table_rules.overcall_penalty is expected[0]
    assert event.table_rules.penalty_per_hand is expected[2]
    assert list(event.directors.all()) == [w.alice]


def test_trinidad_doubling_for_a_jamaican_set_is_refused_on_the_field(creator):
    data = {**BASE, "overcall_penalty": "off", "trinidad_doubling": "on", "penalty_per_hand": "on"}
    response = creator.post("/director/new/", data)
    assert response.status_code == 400
    assert form_errors(response) == [
        "Trinidad doubling on a down and out: Trinidad doubling is for a Trinidad set; a "
        "Jamaican set always doubles on a down and out."
    ]
    assert not Event.objects.filter(slug="mandeville").exists()
    # What was typed is kept, to correct and send again.
    page = Page(response.content)
    assert page.fields[("", "overcall_penalty")]["value"] == "off"
    assert all("checked" in page.fields[("", name)]["attrs"] for name in VARIANTS[1:])


def test_a_date_as_people_write_it_and_the_odd_tables_are_asked_before_round_1(creator, w):
    page = creator.get("/director/new/").content.decode()
    assert 'type="date"' in page and "When the players do not fill tables of four" in page
    data = {**BASE, "starts_on": "14/12/2026", "odd_tables": "threes"}
    response = creator.post("/director/new/", {k: v for k, v in data.items() if v})
    assert response.status_code == 302, form_errors(response)
    event = Event.objects.get(slug="mandeville")
    assert (str(event.starts_on), event.odd_tables) == ("2026-12-14", "threes")
    data = {**BASE, "slug": "other", "starts_on": "12/31/2026"}
    refused = creator.post("/director/new/", {k: v for k, v in data.items() if v})
    assert form_errors(refused) == ["Starts on: Give the date as 14/12/2026 (day, month, year)."]
