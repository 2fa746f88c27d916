"""axe-core in Chromium on every page a director, a player or the public sees, at the
size it is seen at (desktop, phone, projector): no serious or critical violation.

axe-core runs in each page through `tests.browser.axe`. One event is set up for each
walk (`populated`). A page to check is one line in PUBLIC, PLAYERS or DIRECTOR below:
its name, its address and the size it is seen at. Not here: the pages Django and
Swagger UI bring (the admin, the password change page in the admin's look, the API's
docs), which are not the site's own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import NamedTuple

import pytest
from django.utils import timezone

from core import services
from game.rules import HandEntry, SeatEntry
from tests.browser.axe import serious_violations
from tests.core.test_series import leg
from tests.fixtures import codes_of, make_event, make_round, make_user, played_event
from tournaments.models import Entry, Event, Player, RoundClock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844), "projector": (1920, 1080)}


class Visit(NamedTuple):
    name: str
    url: str  # formatted with the setup's values: {player}, {rival}, {code}
    viewport: str  # a key of VIEWPORTS
    then: Callable | None = None  # what the visitor does there before the page is checked
    status: int = 200  # the answer expected: the page checked is the page meant


def wrong_password(page) -> None:
    page.fill("#id_username", "alice")
    page.fill("#id_password", "not her password")
    page.locator("button[type=submit]").click()
    page.wait_for_selector(".form-error, .errorlist")


def upload_players(page) -> None:
    """A file of players (one already in the registry): the preview waits for the
    director's choices."""
    csv = b"name,club,country\nAndre Brown,Kingston Kalooki Club,JM\nNew Player,,TT\n"
    page.set_input_files(
        "#players", files=[{"name": "p.csv", "mimeType": "text/csv", "buffer": csv}]
    )
    page.locator("button.primary").click()
    page.wait_for_url("**/import/preview/")


def refused_hand(page) -> None:
    page.fill("#seat1", "not a score")
    page.locator("#hand-form button.primary").click()
    page.wait_for_selector(".problems")


def refused_row(page) -> None:
    page.fill("#h4-s1", "not a score")
    page.press("#h4-s1", "Enter")
    page.wait_for_selector("#hand-4-problems")


def refused_archive(page) -> None:
    page.set_input_files(
        "input[name=archive]",
        files=[{"name": "a.json", "mimeType": "application/json", "buffer": b"{not json"}],
    )
    page.locator("button.primary").click()
    page.wait_for_selector(".messages")


def refused_address(page) -> None:
    page.fill("input[name=site_url]", "not an address at all")
    page.press("input[name=site_url]", "Enter")
    page.wait_for_selector(".messages")


def refused_event(page) -> None:
    page.locator("button.primary").click()
    page.wait_for_selector(".form-error")


def refused_settings(page) -> None:
    page.get_by_label("Minutes per round").fill("0")
    page.get_by_label("Prize row 1: amount").fill("fifty")
    page.get_by_role("button", name="Save the settings").click()
    page.wait_for_selector(".form-error")


def announce(page) -> None:
    page.fill("#announce-text", "Round 3 starts at 14:30")
    page.press("#announce-text", "Enter")
    page.wait_for_selector(".flash li")


# The public's pages; the players' pages on their phones; the director's pages.
PUBLIC = [
    Visit("events list", "/", "desktop"),
    Visit("events list", "/events/", "phone"),
    Visit("leaderboard", "/events/kingston/", "desktop"),
    Visit("leaderboard", "/events/kingston/", "phone"),
    Visit("finished event", "/events/leg-1/", "desktop"),
    Visit("event taking entries", "/events/final/", "desktop"),
    Visit("round in play", "/events/kingston/rounds/2/", "desktop"),
    Visit("round in play", "/events/kingston/rounds/2/", "phone"),
    Visit("closed round", "/events/kingston/rounds/1/", "desktop"),
    Visit("table in play", "/events/kingston/rounds/2/tables/1/", "desktop"),
    Visit("table clock", "/events/kingston/rounds/2/tables/2/", "phone"),
    Visit("closed table", "/events/kingston/rounds/1/tables/1/", "phone"),
    Visit("player", "/players/{player}/", "desktop"),
    Visit("player against another", "/players/{player}/?vs={rival}", "phone"),
    Visit("series", "/series/circuit/", "desktop"),
    Visit("series", "/series/circuit/", "phone"),
    Visit("ratings", "/ratings/?all=1", "desktop"),
    Visit("find your table", "/events/kingston/enter/", "phone"),
    Visit("projector: standings", "/events/kingston/projector/", "projector"),
    Visit("projector: seating, time up", "/events/ocho-rios/projector/", "projector"),
    Visit("table: time up", "/events/ocho-rios/rounds/1/tables/1/", "phone"),
    Visit("no such page", "/events/no-such-event/", "desktop", status=404),
    Visit("sign-in", "/accounts/login/", "desktop"),
    Visit("sign-in, wrong password", "/accounts/login/", "phone", wrong_password),
]
PLAYERS = [
    Visit("table entry: the code", "/events/kingston/rounds/2/tables/2/enter/", "phone"),
    Visit(
        "table entry: private event",
        "/events/private/rounds/1/tables/1/enter/",
        "phone",
        status=404,
    ),
    Visit("table entry", "/events/kingston/rounds/2/tables/2/enter/?code={code}", "phone"),
    Visit("table entry: hand 1", "/events/kingston/rounds/2/tables/2/enter/?hand=1", "phone"),
    Visit(
        "table entry: a refused hand",
        "/events/kingston/rounds/2/tables/2/enter/?hand=2",
        "phone",
        refused_hand,
    ),
]
DIRECTOR = [
    Visit("events", "/director/", "desktop"),
    Visit("dashboard", "/director/kingston/", "desktop"),
    Visit("dashboard: closed round", "/director/kingston/rounds/1/", "desktop"),
    Visit("dashboard: seated, time up", "/director/ocho-rios/", "desktop"),
    Visit("dashboard: a message", "/director/kingston/", "desktop", announce),
    Visit("sheet", "/director/kingston/rounds/2/tables/1/", "desktop"),
    Visit("sheet: a refused row", "/director/kingston/rounds/2/tables/1/", "desktop", refused_row),
    Visit("sheet: players' entries", "/director/kingston/rounds/2/tables/2/", "desktop"),
    Visit("sheet: closed round", "/director/kingston/rounds/1/tables/1/", "desktop"),
    Visit("hand history", "/director/kingston/rounds/1/tables/1/hands/1/history/", "desktop"),
    Visit("players' codes", "/director/kingston/rounds/2/codes/", "desktop"),
    Visit("event settings", "/director/kingston/settings/", "desktop"),
    Visit("event settings: refused", "/director/kingston/settings/", "desktop", refused_settings),
    Visit("new event", "/director/new/", "desktop"),
    Visit("new event: refused", "/director/new/", "desktop", refused_event),
    Visit("archive import", "/director/archive/import/", "desktop"),
    Visit("archive import: refused", "/director/archive/import/", "desktop", refused_archive),
    Visit("site address", "/director/site/", "desktop"),
    Visit("site address: refused", "/director/site/", "desktop", refused_address),
    Visit("toolkit", "/director/kingston/toolkit/", "desktop"),
    Visit("player import", "/director/kingston/toolkit/import/", "desktop"),
    Visit("player import preview", "/director/kingston/toolkit/import/", "desktop", upload_players),
    Visit("series list", "/organiser/", "desktop"),
    Visit("series", "/organiser/circuit/", "desktop"),
    Visit("dashboard", "/director/kingston/", "phone"),
    Visit("sheet", "/director/kingston/rounds/2/tables/1/", "phone"),
]


def populated() -> dict[str, object]:
    """Kingston (round 1 closed; round 2 in play, its clock running, an announcement
    showing; players enter their hands: at table 2 one hand confirmed, one waiting),
    two finished legs of a series with Kingston's players, the
    ratings, an event seated whose clock has run out, and a private one."""
    alice = make_user("alice", superuser=True)
    kingston = played_event(director=alice, table_entry=Event.TableEntry.PLAYERS)
    cast = list(Player.objects.filter(entries__event=kingston).order_by("pk"))
    series = services.create_series(
        data={"slug": "circuit", "name": "Island Circuit", "season": "2027",
              "points_scale": [10, 6, 4, 3, 2], "qualifiers": 3},
        by=alice,
    )  # fmt: skip
    for day, players in ((1, cast[:4]), (2, cast[3:8])):
        leg(series, players, day=day, name=f"Leg {day}").directors.add(alice)
    services.add_leg(series=series, event=kingston, by=alice)
    final = make_event(slug="final", name="Grand Final", status=Event.Status.REGISTRATION)
    for player in cast[:3]:
        Entry.objects.create(event=final, player=player)
    services.refresh_ratings()

    # At table 2 of round 2, hand 1 was entered and confirmed by the players (settled
    # lately), hand 2 is waiting for a confirmation.
    round2 = kingston.rounds.get(number=2)
    codes = codes_of(round2)
    table = round2.tables.get(number=2)
    scores = (SeatEntry(2, 15), SeatEntry(3, 25), SeatEntry(4, 35))
    for number in (1, 2):
        entry = HandEntry(went_out=1, scores=scores)
        services.propose_hand(table=table, number=number, entry=entry, code=codes[2, 1], client="a")
    services.confirm_proposal(table=table, number=1, code=codes[2, 2], client="b")
    ocho = make_event(slug="ocho-rios", name="Ocho Rios Open", time_rule="Finish the hand")
    ocho.directors.add(alice)
    seated = make_round(ocho, table_sizes=(4, 4))
    services.clock_action(round=seated, action="start", minutes=60, by=alice)
    RoundClock.objects.filter(round=seated).update(ends_at=timezone.now() - timedelta(minutes=1))
    make_round(make_event(slug="private", name="Private Club Night", public=False))
    return {"player": cast[0].pk, "rival": cast[1].pk, "code": codes[2, 2]}


def check(page, base: str, seen: Visit, values: dict[str, object]) -> list[str]:
    """Open the page, let it settle, run axe-core: each serious or critical violation
    as a line naming the page, the rule and the elements."""
    answer = page.goto(base + seen.url.format(**values))
    assert answer.status == seen.status, f"{seen.name}: {answer.status} at {page.url}"
    assert "/accounts/login/?" not in page.url, f"{seen.name}: sent to sign in"
    if seen.then is not None:
        seen.then(page)
        page.wait_for_load_state("load")
    return serious_violations(page, f"{seen.name} ({seen.viewport}, {page.url.removeprefix(base)})")


def sign_in(page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw")
    page.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/director/")


# Three walks, each on a world of its own, so that parallel runs share them out: the
# public's pages, the players' (with their table's code) and the director's (signed in).
WALKS = {
    "public": (False, PUBLIC),
    "players": (False, PLAYERS),
    "director": (True, DIRECTOR),
}


@pytest.mark.parametrize("walk", list(WALKS))
def test_no_page_has_a_serious_or_critical_accessibility_violation(live_server, new_page, walk):
    values = populated()
    base = live_server.url
    # One browser page per viewport for the visitors (the public, then the players, whose
    # code is kept for their table's entry pages only) and one per viewport for the
    # director, signed in once.
    pages: dict[tuple[bool, str], object] = {}

    def page_for(director: bool, viewport: str):
        if (director, viewport) not in pages:
            page = pages[director, viewport] = new_page(*VIEWPORTS[viewport])
            # Without motion a page is checked as it rests, not half-way through an
            # animation (the projector's page turn fades in).
            page.emulate_media(reduced_motion="reduce")
            signed_in = [p for (d, _), p in pages.items() if d and p is not page]
            if director and signed_in:
                page.context.add_cookies(signed_in[0].context.cookies())
            elif director:
                sign_in(page, base)
        return pages[director, viewport]

    problems: list[str] = []
    director, listed = WALKS[walk]
    for seen in listed:
        problems += check(page_for(director, seen.viewport), base, seen, values)
    assert not problems, "axe-core found serious or critical violations:\n" + "\n".join(problems)
