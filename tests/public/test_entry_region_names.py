"""The players' entry region names the table's players as every list of the event does
(namesakes told apart), from a copy of the event's namesakes kept under its screen
version: a player registered with a seated player's name, or a name changed in the
admin, shows on the table's phones at their next poll; and the region brought again
costs a fixed number of queries, the event's namesakes not among them once kept."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from core import services
from tests.fixtures import make_round
from tests.html import Page
from tournaments.models import Player

pytestmark = pytest.mark.django_db

ENTRY = "/events/kingston/rounds/1/tables/1/enter/"


def phone_of(codes, seat: int) -> tuple[Client, str]:
    """A phone signed in at table 1, and the poll its page gives it."""
    phone = Client()
    assert phone.get(f"{ENTRY}?code={codes[(1, seat)]}").status_code == 302
    return phone, Page(phone.get(ENTRY).content).attrs("entry-live")["hx-get"]


def heads(answer) -> list[str]:
    """The table's players as the sheet's head names them."""
    html = answer.content.decode()
    return [part.split("</span>", 1)[0] for part in html.split('<span class="name">')[1:]]


def test_a_namesake_registered_shows_at_the_next_poll(w, codes, django_capture_on_commit_callbacks):
    phone, poll = phone_of(codes, 2)
    seated = w.table.seats.get(position=1).entry.player
    assert phone.get(poll).status_code == 204
    assert seated.name in heads(phone.get(ENTRY + "live/"))  # the region, namesakes kept
    with django_capture_on_commit_callbacks(execute=True):
        other = services.create_player(name=seated.name.upper(), club="Montego Bay Club")
        services.register_entry(event=w.event, player=other)
    answer = phone.get(poll)
    assert answer.status_code == 200
    assert f"{seated.name} ({seated.club or 'no club'})" in heads(answer)


def test_a_name_changed_in_the_admin_shows_at_the_next_poll(
    w, codes, django_capture_on_commit_callbacks
):
    phone, poll = phone_of(codes, 2)
    seated = w.table.seats.get(position=3).entry.player
    assert seated.name in heads(phone.get(ENTRY + "live/"))  # the namesakes kept
    assert phone.get(poll).status_code == 204
    admin = Client()
    admin.force_login(w.root)
    change = reverse("admin:tournaments_player_change", args=[seated.pk])
    fields = {"name": "Marcia Renamed", "club": seated.club, "country": seated.country}
    with django_capture_on_commit_callbacks(execute=True):
        saved = admin.post(change, {**fields, "rating": seated.rating or ""})
    assert saved.status_code == 302
    assert Player.objects.get(pk=seated.pk).name == "Marcia Renamed"
    answer = phone.get(poll)
    assert answer.status_code == 200
    assert "Marcia Renamed" in heads(answer) and seated.name not in heads(answer)


def test_the_region_brought_again_costs_a_fixed_number_of_queries(
    w, codes, django_assert_num_queries
):
    phone, _ = phone_of(codes, 2)
    # The table, its seats with the phone's player, its hands, the players' entries: the
    # event and the namesakes come from the copies the page's own request kept.
    with django_assert_num_queries(4):
        assert phone.get(ENTRY + "live/").status_code == 200


def test_the_page_a_phone_comes_back_to_reads_the_event_from_the_cache(
    w, codes, django_assert_num_queries
):
    """Every proposal and confirmation brings its phone back to the table's page: the
    event comes from the copy kept at the announced versions, as the region's does."""
    phone, _ = phone_of(codes, 2)
    # The table, its seats with the phone's player (read once for the region and the
    # hand's form), its hands, the players' entries.
    with django_assert_num_queries(4) as again:
        assert phone.get(ENTRY).status_code == 200
    assert not any('FROM "tournaments_event"' in q["sql"] for q in again.captured_queries)


@pytest.fixture
def w(entry_world):
    return entry_world


def test_a_round_published_since_the_event_was_kept_opens_its_tables(w, codes):
    """Every player scans their new table's code as the round is published, before its
    standings move the event's versions: the table's page reads the event afresh."""
    phone, _ = phone_of(codes, 2)  # the event kept, its latest round 1
    make_round(w.event, number=2)
    page = Client().get("/events/kingston/rounds/2/tables/1/enter/")
    assert page.status_code == 200
    assert Page(page.content).has("sign-in")


def test_a_round_published_since_the_event_was_kept_answers_its_tables_region(w, codes):
    """The region's poll and the proposals find the new round's tables as the page does."""
    phone_of(codes, 2)  # the event kept, its latest round 1
    make_round(w.event, number=2)
    answer = Client().get("/events/kingston/rounds/2/tables/1/enter/live/")
    assert answer.status_code == 204, answer.status_code  # answered, not "no such round"
