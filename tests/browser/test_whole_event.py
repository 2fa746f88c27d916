"""A whole event run from the director's pages alone, in Chromium: set-up, players from
a CSV file and a late arrival, check-in with a no-show replaced by a substitute, club
avoidance, four rounds entered on the sheets (the seat left empty went out), a
correction with its reason and an earlier version restored with a reason, a
withdrawal mid-round with its leave point, closing each round, finishing the event,
printing the standings and the find-your-table list, and the archive exported and
imported again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from core.common import author_and_reason
from core.stored_texts.words import reason_words
from scoring.models import Hand
from tests.browser.test_director_sheet import sign_in
from tests.fixtures import make_user
from tournaments.models import Entry, Event, Seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = [
    ("Andre Brown", "Kingston Kalooki Club"),
    ("Beverley Campbell", "Spanish Town Card Players"),
    ("Carlton Clarke", "Kingston Kalooki Club"),
    ("Delroy Edwards", "Spanish Town Card Players"),
    ("Hyacinth Henry", "Mandeville Social Club"),
    ("Icilda James", "Mandeville Social Club"),
    ("Noah Noshow", "Kingston Kalooki Club"),
]


def flash(page, text: str) -> None:
    page.wait_for_selector(f"li.flash-success:has-text({text!r})")


def type_table(page, base: str, round_: int, table: int, hands) -> None:
    """Every hand given at one table, with the keyboard: the first seat still playing
    went out (its box left empty), the others hold a few points; Enter saves."""
    page.goto(f"{base}/rounds/{round_}/tables/{table}/")
    for n in hands:
        boxes = page.locator(f"#hand-{n} input.seat-input:not([disabled])")
        count = boxes.count()
        boxes.first.focus()
        for i in range(count):
            if i:
                page.keyboard.type(str(3 + i + n))
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#hand-{n}[data-state=saved]")


def import_players(page, cast: list[tuple[str, str]]) -> None:
    """From the dashboard: *Import players (CSV)*, a file of names and clubs, its
    preview, and the import confirmed."""
    page.get_by_role("link", name="Import players (CSV)").click()
    csv = "name,club\n" + "".join(f"{name},{club}\n" for name, club in cast)
    page.set_input_files(
        "input[type=file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv.encode()}],
    )
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name=f"Import {len(cast)} rows").click()
    page.wait_for_selector("text=Players imported")


def start_and_publish(page, number: int) -> None:
    page.get_by_role("button", name=f"Start round {number}").click()
    flash(page, "The next round is started")
    page.get_by_role("button", name=f"Publish round {number}").click()
    flash(page, f"Round {number} is published")


def close(page, base: str, number: int) -> None:
    page.goto(f"{base}/rounds/{number}/")
    page.get_by_role("button", name=f"Close round {number}").click()
    flash(page, f"Round {number} is closed.")


def test_a_whole_event_from_the_directors_pages(live_server, new_page, tmp_path):
    alice = make_user("alice")
    alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    page = new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    sign_in(page, live_server)
    base = f"{live_server.url}/director/port-royal"

    # Set-up.
    page.get_by_role("link", name="Set up a new event").click()
    page.get_by_label("Name").fill("Port Royal Open")
    page.get_by_label("Address (slug)").fill("port-royal")
    page.get_by_label("Rounds").fill("4")
    page.get_by_label("Seating from round 2").select_option("mixer")
    page.get_by_label("Seat only checked-in players").check()
    page.get_by_label("Keep clubs apart").check()
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_url(base + "/")

    # Players from a CSV file, then a late arrival.
    import_players(page, PLAYERS)
    page.get_by_role("link", name="Port Royal Open: dashboard").click()
    late = page.get_by_role("form", name="Add a late player")
    late.get_by_role("textbox", name="Late player").fill("Lena Late")
    late.get_by_role("textbox", name="club").fill("Ocho Rios Club")
    late.get_by_role("button", name="Add player").click()
    flash(page, "Lena Late is entered.")

    # Check-in: Noah does not come; Sam Sub takes his place (checked in on arrival).
    for name, _ in [*PLAYERS, ("Lena Late", "")]:
        if name != "Noah Noshow":
            page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Save check-in").click()
    flash(page, "7 players checked in (6 changed).")  # Lena was, on arrival
    form = page.get_by_role("form", name="Replace a no-show")
    form.get_by_label("No-show").select_option(label="Noah Noshow")
    form.get_by_role("textbox", name="replaced by").fill("Sam Sub")
    form.get_by_role("button", name="Substitute").click()
    flash(page, "Sam Sub replaces Noah Noshow, who is withdrawn.")

    # Round 1, seated with clubs apart.
    start_and_publish(page, 1)
    assert "0</strong> pairs of clubmates at one table" in page.content()
    for table in (1, 2):
        type_table(page, base, 1, table, range(1, 10))
    close(page, base, 1)

    # Round 2, with a correction and its reason, then the first version restored with a reason.
    start_and_publish(page, 2)
    for table in (1, 2):
        type_table(page, base, 2, table, range(1, 10))
    page.goto(f"{base}/rounds/2/tables/2/")  # every row as stored: none "saved" just now
    page.fill("#h1-s2", "12")
    page.fill("#h1-reason", "seat 2 read from the wrong column")  # the row's last box
    page.press("#h1-reason", "Enter")
    page.wait_for_selector("#hand-1[data-state=saved]")
    page.goto(f"{base}/rounds/2/tables/2/hands/1/history/")
    reason = page.locator(".history-reason").first.text_content()
    assert reason == "Reason: seat 2 read from the wrong column"
    restore = page.get_by_role("form", name="Restore version 1")
    restore.get_by_label("Reason").fill("the correction was typed from the wrong sheet")
    restore.get_by_label("Reason").press("Enter")
    flash(page, "Hand 1 is restored to version 1 (now version 3).")
    close(page, base, 2)

    # Round 3: a player withdraws after hand 4; their table plays on with three.
    page.goto(base + "/")
    start_and_publish(page, 3)
    type_table(page, base, 3, 1, range(1, 5))
    leaver = Seat.objects.get(
        round__event__slug="port-royal", round__number=3, table__number=1, position=2
    ).entry.player.name
    page.goto(base + "/")
    withdraw = page.get_by_role("form", name="Withdraw a player")
    withdraw.get_by_label("Withdraw").select_option(label=leaver)
    withdraw.get_by_label("left after hand").fill("4")
    withdraw.get_by_role("button", name="Withdraw").click()
    flash(page, f"{leaver} withdrew after hand 4 at table 1")
    type_table(page, base, 3, 1, range(5, 10))
    type_table(page, base, 3, 2, range(1, 10))
    close(page, base, 3)

    # Round 4: seven players left, at a table of four and one of three.
    page.goto(base + "/")
    start_and_publish(page, 4)
    for table in (1, 2):
        type_table(page, base, 4, table, range(1, 10))
    close(page, base, 4)
    page.get_by_role("button", name="Finish the event").click()
    flash(page, "The event is finished")

    # Printing, from the dashboard's links.
    for name in ("Find your table (A–Z, PDF)", "Results (PDF)"):
        href = page.get_by_role("link", name=name).get_attribute("href")
        response = page.request.get(live_server.url + href)
        assert response.ok and response.headers["content-type"] == "application/pdf"

    # The archive, exported and imported again under another address.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the archive").click()
    archive = tmp_path / "port-royal.json"
    download.value.save_as(archive)
    page.goto(live_server.url + "/director/archive/import/")
    page.set_input_files("input[name=archive]", str(archive))
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    # The site holds this event already: it asks, and a copy is kept beside it.
    assert "This site holds this event already" in page.inner_text("main")
    page.set_input_files("input[name=archive]", str(archive))
    page.get_by_label("Keep a copy beside it").check()
    page.get_by_label("Slug of the copy").fill("port-royal-copy")
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    assert page.url == live_server.url + "/director/port-royal-copy/", page.inner_text("main")

    event, copy = Event.objects.get(slug="port-royal"), Event.objects.get(slug="port-royal-copy")
    assert event.status == copy.status == "finished"
    assert event.uid == copy.uid and event.counted and not copy.counted
    assert event.check_in and event.club_avoidance and copy.check_in and copy.club_avoidance
    names = set(Entry.objects.filter(event=event).values_list("player__name", "status"))
    assert ("Noah Noshow", "withdrawn") in names
    # The draw is random: the substitute may be the one who withdraws in round 3.
    assert ("Sam Sub", "withdrawn" if leaver == "Sam Sub" else "active") in names
    assert (leaver, "withdrawn") in names  # whoever sat at seat 2 of table 1 in round 3
    late = "withdrawn" if leaver == "Lena Late" else "active"
    assert ("Lena Late", late) in names
    assert Seat.objects.filter(round__event=event, entry__player__name="Lena Late").exists()
    assert not Seat.objects.filter(round__event=event, entry__player__name="Noah Noshow").exists()
    for e in (event, copy):
        assert e.rounds.filter(status="closed").count() == 4
        assert Hand.objects.filter(table__round__event=e, outcome="scored").count() == 4 * 18
    restored = Hand.objects.get(
        table__round__event=copy, table__round__number=2, table__number=2, number=1
    )
    assert restored.version == 3
    # The copy's history keeps each change's author as text from the archive.
    reasons = [
        reason_words(author_and_reason(h.history_change_reason)[1]) for h in restored.history.all()
    ]
    assert "restored version 1: the correction was typed from the wrong sheet" in reasons
    assert author_and_reason(restored.history.get(version=2).history_change_reason)[1] == (
        "seat 2 read from the wrong column"
    )
