"""At a private event the players' codes open their own table's entry pages (the QR
code on a slip, a typed code, the find-your-table page), and nothing else of the event
becomes public: to anyone without a right code its table answers exactly as a table of
no event does."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from core import caching, services
from scoring.models import Hand
from tests.fixtures import hand
from tests.html import Page
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ENTRY = "/events/kingston/rounds/1/tables/1/enter/"
NOWHERE = "/events/no-such-event/rounds/1/tables/1/enter/"
HAND_1 = {"seat1": "23", "seat2": "", "seat3": "JK AS 10H 7D", "seat4": "41", "went_out": "2"}


@pytest.fixture
def private(entry_world):
    Event.objects.filter(pk=entry_world.event.pk).update(public=False)
    return entry_world


def scanned(codes, seat: int) -> Client:
    """A phone whose player scanned their slip's QR code."""
    phone = Client()
    response = phone.get(ENTRY + f"?code={codes[(1, seat)]}")
    assert response.status_code == 302 and response["Location"] == ENTRY
    return phone


def test_a_slips_qr_code_opens_its_table_at_a_private_event(private, codes):
    page = Page(scanned(codes, 1).get(ENTRY).content)
    name = private.table.seats.get(position=1).entry.player.name
    assert page.text("who").startswith(f"You are seat 1 · {name}")
    assert page.has("hand-form") and page.has("sheet")


def test_its_players_enter_and_confirm_a_hand_at_a_private_event(private, codes):
    assert scanned(codes, 1).post(ENTRY + "hands/1/", HAND_1).status_code == 302
    confirmer = scanned(codes, 3)
    shown = Page(confirmer.get(ENTRY).content)
    assert "Confirm hand 1" in shown.text("proposal-1")
    assert confirmer.post(ENTRY + "hands/1/confirm/", {"version": "1"}).status_code == 302
    assert Hand.objects.filter(table=private.table, number=1, outcome="scored").exists()
    live = confirmer.get(Page(confirmer.get(ENTRY).content).attrs("entry-live")["hx-get"])
    assert live.status_code in (200, 204)


def test_a_typed_code_opens_the_table_at_a_private_event(private, codes):
    phone = Client()
    response = phone.post(ENTRY, {"code": codes[(1, 2)]})
    assert response.status_code == 302 and response["Location"] == ENTRY
    assert Page(phone.get(ENTRY).content).has("hand-form")


def test_find_your_table_takes_a_code_at_a_private_event(private, codes):
    phone = Client()
    form = phone.get("/events/kingston/enter/")
    assert form.status_code == 404 and Page(form.content).has("code")
    assert private.event.name not in form.content.decode()
    found = phone.post("/events/kingston/enter/", {"code": codes[(2, 3)]})
    assert found.status_code == 302
    assert found["Location"] == "/events/kingston/rounds/1/tables/2/enter/"
    assert Page(phone.get(found["Location"]).content).has("hand-form")


def test_a_code_opens_nothing_else_of_a_private_event(private, codes):
    phone = scanned(codes, 1)
    for url in (
        "/events/kingston/",
        "/events/kingston/rounds/1/tables/1/",
        "/events/kingston/projector/",
        "/api/v1/events/kingston/",
        "/api/v1/events/kingston/standings/",
        "/api/v1/events/kingston/rounds/1/tables/1/",
    ):
        assert phone.get(url).status_code == 404, url
    assert Client().get(ENTRY + "live/").status_code == 404
    # another table's pages stay closed to this phone
    other = phone.get("/events/kingston/rounds/1/tables/2/enter/")
    assert other.status_code in (403, 404) and not Page(other.content).has("hand-form")
    page = phone.get(ENTRY).content.decode()
    assert 'href="/events/kingston/"' not in page
    assert 'href="/events/kingston/rounds/1/tables/1/"' not in page


def test_a_private_events_table_answers_as_no_events_does(private, codes):
    """Whether a private event has this address is not for a guesser to learn: without
    a code, and with a wrong one, the answers are the same as where there is none."""
    for path in (ENTRY, NOWHERE):
        response = Client().get(path)
        assert response.status_code == 404, path
        assert Page(response.content).has("sign-in")
        assert private.event.name not in response.content.decode()
    wrong = [Client().get(path + "?code=AAAAAAAA") for path in (ENTRY, NOWHERE)]
    assert [r.status_code for r in wrong] == [403, 403]
    assert Page(wrong[0].content).text("sign-in-error") == Page(wrong[1].content).text(
        "sign-in-error"
    )
    found = [
        Client().post(f"/events/{slug}/enter/", {"code": "AAAAAAAA"})
        for slug in ("kingston", "no-such-event")
    ]
    assert [r.status_code for r in found] == [403, 403]
    assert Page(found[0].content).text("sign-in-error") == Page(found[1].content).text(
        "sign-in-error"
    )


def test_guessing_codes_at_a_private_event_is_throttled(private, codes, settings):
    settings.TABLE_CODE_ATTEMPTS = 2
    guesser = Client()
    statuses = [guesser.get(ENTRY + "?code=AAAAAAAA").status_code for _ in range(3)]
    assert statuses == [403, 403, 429]
    right = Client().get(ENTRY + f"?code={codes[(1, 1)]}")
    assert right.status_code == 429 and "kalooki_player_code" not in right.cookies


def test_a_phone_at_a_private_event_sets_right_a_cache_still_calling_it_public(
    private, codes, django_capture_on_commit_callbacks
):
    """The event was made private and the cache never heard (the announcement lost):
    the phone's next region, though the cache offered its signature, reads the event's
    versions again and tells the cache it is not public."""
    phone = scanned(codes, 1)
    poll = Page(phone.get(ENTRY).content).attrs("entry-live")["hx-get"]
    key = caching.version_key(private.event.slug)
    cache.set(key, (private.event.standings_version, True))  # as before it was made private
    caching.forget_process_copies()
    with django_capture_on_commit_callbacks(execute=True):
        services.propose_hand(
            table=private.table, number=1, entry=hand(1, 4), code=codes[1, 2], client="b"
        )
    assert phone.get(poll).status_code == 200
    assert cache.get(key) == (private.event.standings_version, False)
