"""A season run from the pages alone, in Chromium, touching neither the admin nor the
API: three legs set up, their players imported from CSV files (the same players
recognised from one leg to the next), played on the sheets and finished; the final
set up with its prize table as rows on its settings page; the organiser creates the
series with its own prize table, adds the legs, enters the qualifiers in the final;
the final is played and finished; the public pages show the series' standings and
both prize tables in the currency they were typed in."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tests.browser.test_director_sheet import sign_in
from tests.browser.test_whole_event import (
    close,
    flash,
    import_players,
    start_and_publish,
    type_table,
)
from tests.fixtures import make_user
from tournaments.models import Entry, Event, Player, Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CAST = [
    ("Ann Archer", "Kingston Kalooki Club"),
    ("Ben Bell", "Kingston Kalooki Club"),
    ("Cy Cole", "Ocho Rios Club"),
    ("Di Dunn", "Ocho Rios Club"),
    ("Eve Eden", "Mandeville Social Club"),
]
LEGS = [
    ("Kingston Leg", "kingston-leg", [0, 1, 2, 3]),
    ("Ocho Rios Leg", "ocho-rios-leg", [1, 2, 3, 4]),
    ("Mandeville Leg", "mandeville-leg", [0, 2, 3, 4]),
]
TRINIDAD_HANDS = 7


def set_up(page, live_server, name: str, slug: str) -> str:
    """A one-round Trinidad event from *Set up a new event*; its dashboard's address."""
    page.goto(f"{live_server.url}/director/new/")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Address (slug)").fill(slug)
    page.locator("select[name=ruleset]").select_option("trinidad")
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Create the event").click()
    base = f"{live_server.url}/director/{slug}"
    page.wait_for_url(base + "/")
    return base


def play_and_finish(page, base: str) -> None:
    page.goto(base + "/")
    start_and_publish(page, 1)
    type_table(page, base, 1, 1, range(1, TRINIDAD_HANDS + 1))
    close(page, base, 1)
    page.get_by_role("button", name="Finish the event").click()
    flash(page, "The event is finished")


def fill_prize_rows(page, rows: list[tuple[str, str, str]]) -> None:
    for i, (place, amount, item) in enumerate(rows, start=1):
        page.get_by_label(f"Prize row {i}: place").fill(place)
        page.get_by_label(f"Prize row {i}: amount").fill(amount)
        page.get_by_label(f"Prize row {i}: item").fill(item)


def test_a_season_with_its_final_and_prizes_from_the_pages_alone(live_server, new_page):
    olive = make_user("olive")
    olive.user_permissions.add(Permission.objects.get(codename="add_event"))
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server, username="olive")

    # Three legs, each set up, its players imported, played and finished.
    for name, slug, who in LEGS:
        base = set_up(page, live_server, name, slug)
        page.goto(base + "/")
        import_players(page, [CAST[i] for i in who])
        play_and_finish(page, base)
    # The CSV import recognised the players of the earlier legs: five players in all.
    assert Player.objects.count() == len(CAST)

    # The final: its prize table typed as rows, in Jamaican dollars, on its settings page.
    final_base = set_up(page, live_server, "Grand Final", "grand-final")
    page.get_by_role("link", name="Settings", exact=True).click()
    page.get_by_label("Currency").fill("J$")
    fill_prize_rows(page, [("1", "J$50,000", "the Kalooki Cup"), ("2", "20,000", "")])
    page.get_by_role("button", name="Save the settings").click()
    flash(page, "The settings are saved.")
    assert page.get_by_label("Prize row 1: amount").input_value() == "50,000.00"

    # The organiser's series: settings and prizes, the legs, the qualifiers in the final.
    page.goto(f"{live_server.url}/organiser/")
    page.fill("#id_slug", "island-2027")
    page.fill("#id_name", "Island Circuit")
    page.fill("#id_points_scale", "10, 6, 4, 3")
    page.fill("#id_qualifiers", "4")
    page.click("text=Create the series")
    page.wait_for_url(f"{live_server.url}/organiser/island-2027/")
    for _name, slug, _who in LEGS:
        page.select_option("#add-leg", slug)
        page.click("text=Add the leg")
        flash(page, "is a leg of the series")
    page.get_by_label("Prize currency").fill("TT$")
    fill_prize_rows(page, [("1", "TT$ 5,000", ""), ("2", "2500.00", "")])
    page.get_by_role("button", name="Save the settings").click()
    flash(page, "The series settings are saved")
    series = Series.objects.get(slug="island-2027")
    assert series.prizes[0] == {"place": 1, "amount": "5000.00", "item": ""}
    page.reload()  # the legs' standings are ranked by the background job
    page.select_option("#final-event", "grand-final")
    page.get_by_role("button", name="Enter the qualifiers").click()
    page.wait_for_load_state()
    final = Event.objects.get(slug="grand-final")
    assert Entry.objects.filter(event=final).count() == 4

    # The final, played and finished from its dashboard.
    play_and_finish(page, final_base)

    # The public pages: the series' standings and prizes, the final's prize winners.
    page.goto(f"{live_server.url}/series/island-2027/")
    body = page.inner_text("main")
    for name, _club in CAST:
        assert name in body
    assert "TT$5,000.00" in body and "TT$2,500.00" in body
    assert "Provisional" not in body  # every leg is finished
    page.goto(f"{live_server.url}/events/grand-final/")
    prizes = page.inner_text("section.prizes")
    assert "J$50,000.00 and the Kalooki Cup" in prizes and "J$20,000.00" in prizes
