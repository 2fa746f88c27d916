"""The organiser's series pages: only its organisers see and change a series; legs,
settings and the final go through the services."""

from __future__ import annotations

import pytest

from core import services
from tests.core.test_series import leg
from tests.core.test_series_final_seeding import expected_rating_order, make_circuit, series_order
from tests.fixtures import make_event
from tests.html import signed_in
from tournaments.models import Entry, Event, Player, Series

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def series(alice):
    return services.create_series(
        data={"slug": "circuit", "name": "Circuit", "qualifiers": 2}, by=alice
    )


def test_only_organisers_see_the_series_pages(series, alice, bob):
    assert signed_in(None).get("/organiser/circuit/").status_code == 302  # to the login
    assert signed_in(bob).get("/organiser/circuit/").status_code == 404
    page = signed_in(alice).get("/organiser/circuit/")
    assert page.status_code == 200 and b"Circuit" in page.content
    assert b"circuit" in signed_in(alice).get("/organiser/").content
    assert signed_in(bob).post("/organiser/circuit/settings/", {}).status_code == 404


def test_an_organiser_adds_legs_sees_standings_and_creates_the_final(series, alice):
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    event = leg(None, players, day=1)
    event.directors.add(alice)
    client = signed_in(alice)
    assert b"leg-1" in client.get("/organiser/circuit/").content  # offered as a leg
    client.post("/organiser/circuit/legs/", {"event": "leg-1"})
    assert Event.objects.get(slug="leg-1").series_id == series.pk
    page = client.get("/organiser/circuit/").content.decode()
    assert "yes: final" in page and "qualified" in page
    final = Event.objects.create(slug="final", name="Final", status="registration")
    final.directors.add(alice)
    client.post("/organiser/circuit/final/", {"event": "final"})
    seeds = list(Entry.objects.filter(event=final).order_by("seed_number"))
    assert [e.player.name for e in seeds] == ["P0", "P1"]
    response = client.post(
        "/organiser/circuit/settings/",
        {"name": "Circuit", "points_scale": "5, 9", "qualifiers": 2, "public": "on"},
        follow=True,
    )
    assert b"worse place never scores more" in response.content
    assert Series.objects.get().points_scale != [5, 9]


def test_a_director_with_the_right_creates_a_series_from_the_page(root):
    client = signed_in(root)
    response = client.post(
        "/organiser/new/",
        {"slug": "season", "name": "Season", "season": "2027", "qualifiers": 8, "public": "on"},
    )
    assert response.status_code == 302 and response["Location"] == "/organiser/season/"
    assert Series.objects.get(slug="season").organisers.get() == root


def test_a_user_without_the_right_cannot_create_a_series(bob):
    response = signed_in(bob).post("/organiser/new/", {"slug": "x", "name": "X", "qualifiers": 1})
    assert response.status_code == 403


def test_the_organiser_seeds_the_final_by_rating_from_the_page(root):
    series, _ = make_circuit(root)
    final = Event.objects.create(slug="final", name="Final", status="registration")
    final.directors.add(root)
    client = signed_in(root)
    page = client.get("/organiser/circuit/").content.decode()
    assert 'name="seed_by"' in page and 'value="rating"' in page
    refused = client.post(
        "/organiser/circuit/final/", {"event": "final", "seed_by": "elo"}, follow=True
    )
    assert "Seed the final by series rank or by rating" in refused.content.decode()
    assert not Entry.objects.filter(event=final).exists()
    done = client.post(
        "/organiser/circuit/final/", {"event": "final", "seed_by": "rating"}, follow=True
    )
    assert "seeded by rating across events" in done.content.decode()
    seeded = list(
        Entry.objects.filter(event=final).order_by("seed_number").values_list("player", flat=True)
    )
    assert seeded == expected_rating_order(series_order(series)) != series_order(series)


def test_the_organiser_reads_why_a_private_event_is_refused(series, alice):
    """A public series' legs and final are public events: the pages show the refusal
    (never a 500) and nothing changes."""
    players = [Player.objects.create(name=f"P{i}") for i in range(4)]
    hidden = leg(None, players, day=1, name="Hidden Cup", public=False)
    final = Event.objects.create(
        slug="final", name="Private Final", status="registration", public=False
    )
    for event in (hidden, final):
        event.directors.add(alice)
    client = signed_in(alice)
    added = client.post("/organiser/circuit/legs/", {"event": "leg-1"}, follow=True)
    assert added.status_code == 200
    assert "Hidden Cup is a private event" in added.content.decode()
    assert Event.objects.get(pk=hidden.pk).series_id is None
    made = client.post("/organiser/circuit/final/", {"event": "final"}, follow=True)
    assert made.status_code == 200
    assert "Private Final is a private event" in made.content.decode()
    assert Series.objects.get(pk=series.pk).final_id is None and not final.entries.exists()
    # A private series takes it; made public again, the settings page says why not.
    services.update_series(series=series, data={"public": False})
    services.add_leg(series=series, event=hidden)
    settings = client.post(
        "/organiser/circuit/settings/",
        {"name": "Circuit", "qualifiers": 2, "public": "on"},
        follow=True,
    )
    assert settings.status_code == 200
    assert "Hidden Cup is a private event" in settings.content.decode()
    assert not Series.objects.get(pk=series.pk).public


def test_the_page_says_why_another_directors_event_cannot_be_a_leg(series, alice, bob):
    """The service's check, in its words: a public event Alice may see but does not
    direct is refused on the page, and nothing changes."""
    client = signed_in(alice)
    added = client.post("/organiser/circuit/legs/", {"event": "bobs-event"}, follow=True)
    assert added.status_code == 200
    assert "Only a director of Bob&#x27;s Event may make it a leg" in added.content.decode()
    assert Event.objects.get(slug="bobs-event").series_id is None
    final = client.post("/organiser/circuit/final/", {"event": "bobs-event"}, follow=True)
    assert "Only a director of Bob&#x27;s Event may make it a series&#x27; final" in (
        final.content.decode()
    )
    assert Series.objects.get(pk=series.pk).final_id is None


def test_removing_an_event_that_is_no_leg_is_not_found(series, alice):
    assert signed_in(alice).post("/organiser/circuit/legs/nothing/remove/").status_code == 404


def test_the_series_list_counts_legs_in_one_query_however_many_series(
    alice, django_assert_max_num_queries
):
    """Each series with its number of legs, read in the list's own query."""
    client = signed_in(alice)
    client.get("/organiser/")  # the session and the user, read once
    for n in range(3):
        series = services.create_series(data={"slug": f"s{n}", "name": f"S{n}"}, by=alice)
        for day in range(1, n + 1):
            services.add_leg(series=series, event=make_event(slug=f"s{n}-{day}"))
    with django_assert_max_num_queries(6) as counted:
        page = client.get("/organiser/").content.decode()
    few = len(counted)
    assert 'S2</a> <span class="meta">2 legs' in page and 'S0</a> <span class="meta">0 legs' in page
    services.create_series(data={"slug": "s9", "name": "S9"}, by=alice)
    with django_assert_max_num_queries(few):
        client.get("/organiser/")


def prize_form(rows: list[tuple[str, str, str]], **fields) -> dict:
    """The series settings form with its prize rows, as the page sends it."""
    data = {"name": "Circuit", "slug": "circuit", "qualifiers": 2, "public": "on", **fields}
    rows = rows + [("", "", "")] * 3
    data.update({"prize-TOTAL_FORMS": len(rows), "prize-INITIAL_FORMS": 0})
    for i, (place, amount, item) in enumerate(rows):
        data.update({f"prize-{i}-place": place, f"prize-{i}-amount": amount})
        data[f"prize-{i}-item"] = item
    return data


def test_a_series_prize_table_is_edited_as_rows_with_its_currency(series, alice):
    client = signed_in(alice)
    page = client.get("/organiser/circuit/").content.decode()
    assert 'name="prize-0-amount"' in page and 'name="prize_currency"' in page
    rows = [("1", "J$50,000", "a trophy"), ("2", "20,000.50", ""), ("3", "", "a medal")]
    response = client.post(
        "/organiser/circuit/settings/",
        prize_form(rows, prize_currency="J$", prize_ties="share"),
    )
    assert response.status_code == 302
    series.refresh_from_db()
    assert series.prizes == [
        {"place": 1, "amount": "50000.00", "item": "a trophy"},
        {"place": 2, "amount": "20000.50", "item": ""},
        {"place": 3, "amount": "0.00", "item": "a medal"},
    ]
    assert (series.prize_currency, series.prize_ties) == ("J$", "share")
    public = signed_in(None).get("/series/circuit/").content.decode()
    assert '<li value="1">J$50,000.00 and a trophy</li>' in public
    # A row the page cannot read is named, and nothing is saved.
    response = client.post(
        "/organiser/circuit/settings/",
        prize_form([("1", "fifty thousand", "")], name="Renamed"),
        follow=True,
    )
    text = response.content.decode()
    assert "Prize row 1, amount: &#x27;fifty thousand&#x27; is not an amount" in text
    series.refresh_from_db()
    assert series.name == "Circuit" and series.prizes[0]["amount"] == "50000.00"
