"""The event settings page: every setting the API takes, on one page, grouped as a
director thinks of them; saved through the same service as the API's; a setting that
can no longer change shown read-only with the reason; refusals beside their field,
nothing saved."""

from __future__ import annotations

import html
import re

import pytest

from core import services
from core.events.services import EVENT_FIELDS, EXTRA_FIELDS
from director.settings_forms import initial_settings
from tests.fixtures import hand
from tests.html import Page, signed_in
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def url(event: Event) -> str:
    return f"/director/{event.slug}/settings/"


def as_posted(event: Event, prizes: list[tuple[str, str, str]] = (), **changes) -> dict:
    """The form as a browser sends it: every setting as it stands, then `changes`;
    ticked boxes "on", unticked ones left out."""
    values = {**initial_settings(event), **changes}
    data = {}
    for name, value in values.items():
        if value is None or value is False:
            continue
        if value is True:
            data[name] = "on"
        elif isinstance(value, list):
            data[name] = ", ".join(str(v) for v in value)
        else:
            data[name] = str(value)
    rows = list(prizes) + [("", "", "")] * 3
    data.update(
        {
            "prize-TOTAL_FORMS": str(len(rows)),
            "prize-INITIAL_FORMS": str(len(event.prizes)),  # the rows the page showed
            "prize-MIN_NUM_FORMS": "0",
            "prize-MAX_NUM_FORMS": "1000",
        }
    )
    for i, (place, amount, item) in enumerate(rows):
        data.update({f"prize-{i}-place": place, f"prize-{i}-amount": amount})
        data[f"prize-{i}-item"] = item
    return data


def form_errors(response) -> list[str]:
    found = re.findall(r'class="form-error" role="alert">(.*?)</', response.content.decode())
    return [html.unescape(text) for text in found]


def test_the_page_carries_every_setting_the_api_takes(director, w):
    response = director.get(url(w.event))
    assert response.status_code == 200
    names = set(re.findall(r'name="(\w+)"', response.content.decode()))
    api_settings = (set(EVENT_FIELDS) | set(EXTRA_FIELDS)) - {"status", "prizes"}
    assert api_settings - names == set()
    body = response.content.decode()
    for group in ("The game", "The deck and penalties", "Time", "Seating", "Prizes"):
        assert f"<legend>{group}</legend>" in body
    # The dashboard links to it.
    assert url(w.event) in director.get(f"/director/{w.event.slug}/").content.decode()


def test_settings_are_saved_through_the_service_with_prizes_as_rows(director, w):
    data = as_posted(
        w.event,
        prizes=[("1", "J$50,000", "a trophy"), ("2", "25,000.50", ""), ("3", "", "a cap")],
        director_penalty=150,
        packs=3,
        jokers=6,
        round_minutes=75,
        time_rule="Finish the hand in play.",
        table_entry=Event.TableEntry.PLAYERS,
        check_in=True,
        prize_currency="J$",
        prize_ties="share",
        public=False,
    )
    response = director.post(url(w.event), data)
    assert response.status_code == 302, form_errors(response)
    event = Event.objects.get(pk=w.event.pk)
    assert (event.director_penalty, event.packs, event.jokers) == (150, 3, 6)
    assert (event.round_minutes, event.time_rule) == (75, "Finish the hand in play.")
    assert event.table_entry == Event.TableEntry.PLAYERS
    assert event.check_in is True and event.public is False
    assert event.prize_currency == "J$" and event.prize_ties == "share"
    assert event.prizes == [
        {"place": 1, "amount": "50000.00", "item": "a trophy"},
        {"place": 2, "amount": "25000.50", "item": ""},
        {"place": 3, "amount": "0.00", "item": "a cap"},
    ]
    assert event.history.first().history_user == w.alice
    # The rows come back as written, with the currency.
    body = director.get(url(event)).content.decode()
    assert 'value="50,000.00"' in body and "Amount (J$)" in body
    # Sent back unchanged: nothing is saved, and the page says so.
    before = event.history.count()
    again = director.post(
        url(event),
        as_posted(
            event,
            prizes=[("1", "50,000.00", "a trophy"), ("2", "25,000.50", ""), ("3", "", "a cap")],
        ),
        follow=True,
    )
    assert "Nothing was changed." in again.content.decode()
    assert event.history.count() == before


@pytest.mark.parametrize(
    ("changes", "prizes", "expected"),
    [
        ({"director_penalty": 5000}, [], "Director penalty (points): "),
        ({"table_points": "4, two, 1"}, [], "Table points: Write it as 4, 2, 1, 0."),
        ({"tiebreaks": "points, luck"}, [], "unknown tiebreaks 'luck'"),
        ({"round_minutes": 0}, [], "Minutes per round: "),
        ({}, [("1", "fifty", "")], "Row 1, amount: 'fifty' is not an amount"),
        ({}, [("", "100", "")], "Row 1, place: Give the place this prize is for."),
        ({}, [("1", "100", ""), ("1", "50", "")], "place 1 is given twice"),
    ],
    ids=[
        "penalty too high",
        "points not numbers",
        "unknown tiebreak",
        "no minutes",
        "amount",
        "no place",
        "place twice",
    ],
)
def test_a_refusal_is_shown_beside_its_field_and_nothing_is_saved(
    director, w, changes, prizes, expected
):
    before = w.event.history.count()
    response = director.post(url(w.event), as_posted(w.event, prizes=prizes, **changes))
    assert response.status_code == 400
    assert any(expected in error for error in form_errors(response)), form_errors(response)
    assert w.event.history.count() == before
    assert Event.objects.get(pk=w.event.pk).prizes == []


def test_a_setting_that_can_no_longer_change_is_read_only_with_its_reason(director, w):
    services.record_hand(table=w.table, number=1, entry=hand(1, 4), by=w.alice)
    response = director.get(url(w.event))
    page = Page(response.content)
    assert "disabled" in page.fields[("", "director_penalty")]["attrs"]
    assert "disabled" in page.fields[("", "slug")]["attrs"]
    assert "disabled" not in page.fields[("", "round_minutes")]["attrs"]
    body = html.unescape(response.content.decode())
    assert "Can no longer change: Hands have been recorded with it" in body
    assert "Can no longer change: It is in the address of the event's pages" in body
    # A read-only setting sent changed anyway is not taken; the others are saved.
    data = as_posted(w.event, director_penalty=150, slug="elsewhere", round_minutes=80)
    response = director.post(url(w.event), data)
    assert response.status_code == 302, form_errors(response)
    event = Event.objects.get(pk=w.event.pk)
    assert (event.director_penalty, event.slug, event.round_minutes) == (100, w.event.slug, 80)


def test_a_closed_round_freezes_how_its_sets_rank(director, w):
    for table in w.round.tables.all():
        for number in range(1, w.event.rules.hand_count + 1):
            services.record_hand(table=table, number=number, entry=hand(1, 4), by=w.alice)
    services.close_round(round=w.round, by=w.alice)
    body = html.unescape(director.get(url(w.event)).content.decode())
    assert "Played results stay as they were ranked: round 1 closed with this setting." in body
    assert (
        Page(director.get(url(w.event)).content).fields[("", "format")]["attrs"].get("disabled")
        is not None
    )


def test_only_the_events_directors_see_its_settings(w):
    other = signed_in(w.bob)
    assert other.get(url(w.event)).status_code == 404
    assert other.post(url(w.event), as_posted(w.event, director_penalty=150)).status_code == 404
    assert Event.objects.get(pk=w.event.pk).director_penalty == 100
