"""The event day on the dashboard: a late player, the check-in list (only those checked in
are seated), a substitute for a no-show, a round beyond the planned number, the day
options; each with who may, what a bad form says, and what is written."""

from __future__ import annotations

import html
import re

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from core.stored_texts.words import reason_words
from tests.fixtures import make_entries, make_event, make_round, play
from tests.html import signed_in
from tournaments.models import Entry, Event, Player, Round, Seat

pytestmark = pytest.mark.django_db


def flashes(response) -> list[str]:
    found = re.findall(r'<li class="flash-\w+">(.*?)</li>', response.content.decode())
    return [html.unescape(text) for text in found]


def test_a_late_player_is_added_from_the_dashboard(w, director):
    page = director.get(w.url()).content.decode()
    assert 'action="/director/kingston/players/add/"' in page
    response = director.post(
        w.url("players/add/"), {"name": " Winston Reid ", "club": "Mandeville"}, follow=True
    )
    assert flashes(response) == [
        "Winston Reid is entered; round 1 is in play without them, they are seated from the next."
    ]
    entry = Entry.objects.get(event=w.event, player__name="Winston Reid")
    assert entry.status == "active" and entry.player.club == "Mandeville"
    assert entry.history.latest().history_user == w.alice
    assert not Seat.objects.filter(entry=entry).exists()


def test_a_late_player_needs_a_name_and_a_free_seed(w, director):
    response = director.post(w.url("players/add/"), {"name": ""}, follow=True)
    assert flashes(response) == ["Name: This field is required."]
    response = director.post(w.url("players/add/"), {"name": "X", "seed_number": "1"}, follow=True)
    assert flashes(response) == ["Seed 1 is already taken."]
    assert not Player.objects.filter(name="X").exists()  # one transaction: nothing written


def test_only_the_events_directors_may_add_or_substitute(w):
    bob = signed_in(w.bob)
    before = Entry.objects.count()
    assert bob.post(w.url("players/add/"), {"name": "Z"}).status_code == 404
    assert bob.post(w.url("check-in/"), {}).status_code == 404
    assert bob.post(w.url("rounds/extra/")).status_code == 404
    assert bob.post(w.url("options/"), {"check_in": "on"}).status_code == 404
    no_show = Entry.objects.filter(event=w.event).first()
    substitute = {"player": no_show.pk, "name": "Sub Stitute"}
    assert bob.post(w.url("substitute/"), substitute).status_code == 404
    assert Entry.objects.count() == before
    assert Entry.objects.get(pk=no_show.pk).status == Entry.Status.ACTIVE
    response = signed_in(None).post(w.url("players/add/"), {"name": "Z"})
    assert response.status_code == 302 and "login" in response["Location"]
    # The actions take POST only: a GET opens the dashboard, where their forms are.
    opened = signed_in(w.alice).get(w.url("check-in/"))
    assert (opened.status_code, opened["Location"]) == (302, w.url())


def test_check_in_is_an_option_and_the_list_records_who_is_here(w, director):
    page = director.get(w.url()).content.decode()
    assert "Check-in (tick" not in page
    response = director.post(w.url("options/"), {"check_in": "on"}, follow=True)
    assert flashes(response) == [
        "From the next round seated: only checked-in players are seated; clubs are not kept apart."
    ]
    w.event.refresh_from_db()
    assert w.event.check_in and not w.event.club_avoidance
    page = response.content.decode()
    assert "Check-in (tick" in page and "<strong>0</strong> checked in" in page
    entries = list(Entry.objects.filter(event=w.event).order_by("pk"))
    response = director.post(
        w.url("check-in/"), {"present": [e.pk for e in entries[:5]]}, follow=True
    )
    assert flashes(response) == ["5 players checked in (5 changed)."]
    assert [e.checked_in for e in Entry.objects.filter(event=w.event).order_by("pk")] == [
        True
    ] * 5 + [False] * 3
    assert Entry.objects.get(pk=entries[0].pk).history.latest().history_user == w.alice
    # Unticking checks a player out.
    response = director.post(
        w.url("check-in/"), {"present": [e.pk for e in entries[:4]]}, follow=True
    )
    assert flashes(response) == ["4 players checked in (1 changed)."]
    # The no-show menu offers only those not checked in.
    menu = response.content.decode().split('name="player" required>')[1].split("</select>")[0]
    assert menu.count("<option value=") == 1 + 4  # "Choose a player not checked in", 4 absent
    assert f'value="{entries[0].pk}"' not in menu and f'value="{entries[7].pk}"' in menu
    # Everyone at once, and nobody.
    response = director.post(w.url("check-in/"), {"everyone": "on"}, follow=True)
    assert flashes(response) == ["8 players checked in (4 changed)."]
    response = director.post(w.url("check-in/"), {"nobody": "on"}, follow=True)
    assert flashes(response) == ["0 players checked in (8 changed)."]
    assert not Entry.objects.filter(event=w.event, checked_in=True).exists()


def test_the_check_in_service_refuses_a_stranger_or_a_withdrawn_player_by_name(w):
    """What the form's choices keep out, the service refuses too (the API's path)."""
    ours = list(Entry.objects.filter(event=w.event).select_related("player"))
    stranger = make_entries(w.bobs_event, 1)[0]
    with pytest.raises(InvalidInput) as refused:
        services.record_check_in(event=w.event, present=[ours[0], stranger])
    assert refused.value.errors == {"players": ["Choose players of this event."]}
    services.withdraw_entry(entry=ours[1], left_after_hand=0)
    with pytest.raises(InvalidInput) as refused:
        services.record_check_in(event=w.event, present=[ours[0], ours[1]])
    name = ours[1].player.name
    assert refused.value.errors == {
        "players": [f"{name} withdrew; only active players are checked in."]
    }
    assert not Entry.objects.filter(checked_in=True).exists()


def test_check_in_refuses_another_events_or_a_withdrawn_player(w, director):
    w.event.check_in = True
    w.event.save()
    other = make_entries(w.bobs_event, 1)[0]
    response = director.post(w.url("check-in/"), {"present": [other.pk]}, follow=True)
    assert flashes(response) == ["Choose active players of this event."]
    entry = Entry.objects.filter(event=w.event).first()
    services.withdraw_entry(entry=entry, left_after_hand=0)
    response = director.post(w.url("check-in/"), {"present": [entry.pk]}, follow=True)
    assert flashes(response) == ["Choose active players of this event."]
    assert not Entry.objects.filter(checked_in=True).exists()


@pytest.mark.django_db(transaction=True)
def test_with_check_in_only_the_checked_in_players_are_seated():
    event = make_event(slug="checked", check_in=True, rounds_planned=3)
    entries = make_entries(event, 10)
    services.record_check_in(event=event, present=entries[:8])
    round_ = services.start_round(event=event, seed=5)
    round_.refresh_from_db()
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert seated == {e.pk for e in entries[:8]}
    # Too few checked in: the refusal says why.
    event2 = make_event(slug="checked2", check_in=True)
    make_entries(event2, 6)
    with pytest.raises(InvalidInput) as e:
        services.start_round(event=event2)
    assert "0 players are active and checked in" in str(e.value)


@pytest.mark.django_db(transaction=True)
def test_a_draft_is_seated_again_when_the_check_in_list_changes():
    """Unticking two players after the draft was drawn takes them out of it; a late
    arrival is checked in and seated in it."""
    event = make_event(slug="recheck", check_in=True, rounds_planned=3)
    entries = make_entries(event, 10)
    services.record_check_in(event=event, present=entries)
    round_ = services.start_round(event=event, seed=5)

    def seated() -> set[int]:
        return set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))

    assert seated() == {e.pk for e in entries}
    assert services.record_check_in(event=event, present=entries[:8]) == 2
    assert Round.objects.get(pk=round_.pk).status == Round.Status.DRAFT
    assert seated() == {e.pk for e in entries[:8]}
    late = services.add_late_player(event=event, name="Late Comer")
    assert late.checked_in and late.pk in seated() and len(seated()) == 9


def test_a_late_player_is_checked_in_when_the_event_uses_check_in(w):
    w.event.check_in = True
    w.event.save()
    entry = services.add_late_player(event=w.event, name="Late Comer", by=w.alice)
    assert entry.checked_in


def test_a_substitute_takes_a_no_shows_seed_and_seat_in_a_draft(w, director):
    event = make_event(slug="subs")
    event.directors.add(w.alice)
    entries = make_entries(event, 8)
    round_ = make_round(event, table_sizes=(4, 4), entries=entries, status=Round.Status.DRAFT)
    no_show = entries[2]
    response = director.post(
        "/director/subs/substitute/", {"player": no_show.pk, "name": "Sub Stitute"}, follow=True
    )
    assert flashes(response) == [f"Sub Stitute replaces {no_show.player.name}, who is withdrawn."]
    no_show.refresh_from_db()
    sub = Entry.objects.get(event=event, player__name="Sub Stitute")
    assert (no_show.status, no_show.seed_number) == ("withdrawn", None)
    assert (sub.status, sub.seed_number) == ("active", 3)
    seat = Seat.objects.get(round=round_, entry=sub)
    assert reason_words(seat.history.latest().history_change_reason) == (
        f"Sub Stitute replaces {no_show.player.name}"
    )
    no_show_reason = no_show.history.latest().history_change_reason
    assert reason_words(no_show_reason) == "no-show, replaced by Sub Stitute"
    round_.refresh_from_db()
    assert round_.quality["repeat_meetings"] == 0  # the report is made again with the sub


def test_a_player_who_withdrew_can_come_back_as_a_substitute_but_not_every_player(w):
    """The substitute may be an entry who withdrew: not one playing, not one who sat in
    the round already, not another event's."""
    event = make_event(slug="returns")
    entries = make_entries(event, 9)
    make_round(event, table_sizes=(4, 4), entries=entries[:8])  # in play, no hand yet
    no_show, playing, left, benched = entries[6], entries[3], entries[0], entries[8]
    services.withdraw_entry(entry=left, left_after_hand=0)  # sat at table 1, then left
    services.withdraw_entry(entry=benched)
    cases = [
        (playing, InvalidInput, f"{playing.player.name} is playing already"),
        (make_entries(w.bobs_event, 1)[0], InvalidInput, "Choose a player of this event."),
        (left, StateConflict, f"{left.player.name} sat in round 1 already."),
    ]
    for sub, error, reason in cases:
        with pytest.raises(error) as refused:
            services.substitute_entry(entry=no_show, player_entry=sub)
        assert refused.value.errors["substitute"][0].startswith(reason)
        assert Entry.objects.get(pk=no_show.pk).status == "active"  # nothing written
    seed = no_show.seed_number
    sub = services.substitute_entry(entry=no_show, player_entry=benched)
    assert (sub.pk, sub.status, sub.seed_number) == (benched.pk, "active", seed)
    assert Entry.objects.get(pk=no_show.pk).status == "withdrawn"
    assert Seat.objects.get(round__event=event, table__number=2, position=3).entry_id == sub.pk


def test_a_substitute_in_a_round_in_play_gets_a_code_only_before_the_first_hand(w, director):
    no_show = Seat.objects.get(round=w.round, table__number=2, position=1).entry
    played = Seat.objects.get(round=w.round, table__number=1, position=1).entry
    play(w.table, [1], [1, 2, 3, 4])
    response = director.post(w.url("substitute/"), {"player": played.pk, "name": "A"}, follow=True)
    assert "Table 1 has started round 1" in flashes(response)[0]
    assert not Player.objects.filter(name="A").exists()
    response = director.post(w.url("substitute/"), {"player": no_show.pk, "name": "B"}, follow=True)
    assert flashes(response) == [f"B replaces {no_show.player.name}, who is withdrawn."]
    sub = Entry.objects.get(event=w.event, player__name="B")
    assert sub.codes.filter(round=w.round).count() == 1
    assert not no_show.codes.filter(round=w.round).exists()


def test_a_substitute_form_needs_someone(w, director):
    entry = Entry.objects.filter(event=w.event).first()
    response = director.post(w.url("substitute/"), {"player": entry.pk}, follow=True)
    assert flashes(response) == [
        "Give the substitute: a new player's name, or a player who withdrew."
    ]


def test_no_extra_round_is_offered_while_planned_rounds_are_still_to_come(w, director):
    w.event.rounds_planned = 3
    w.event.save()
    assert "Add round" not in director.get(w.url()).content.decode()


def test_an_extra_round_is_added_once_the_planned_rounds_are_reached(w, director):
    w.event.rounds_planned = 1
    w.event.save()
    assert "Add round 2" in director.get(w.url()).content.decode()
    response = director.post(w.url("rounds/extra/"), follow=True)
    assert flashes(response) == [
        "The event now plans 2 rounds: round 2 can start once the rounds before it are closed."
    ]
    w.event.refresh_from_db()
    assert w.event.rounds_planned == 2
    w.event.status = Event.Status.FINISHED
    w.event.save()
    response = director.post(w.url("rounds/extra/"), follow=True)
    assert flashes(response) == ["The event is finished; reopen its last round to play on."]


@pytest.mark.django_db(transaction=True)
def test_club_avoidance_seats_clubmates_apart_and_the_report_counts_them(alice):
    event = make_event(slug="clubs", club_avoidance=True)
    event.directors.add(alice)
    entries = make_entries(event, 12)
    for i, entry in enumerate(entries):
        Player.objects.filter(pk=entry.player_id).update(club="ABCD"[i % 4])
    round_ = services.start_round(event=event, seed=4)
    round_.refresh_from_db()
    assert round_.quality["club_meetings"] == 0
    for table in round_.tables.all():
        clubs = [s.entry.player.club for s in table.seats.select_related("entry__player")]
        assert len(clubs) == 4 and len(set(clubs)) == 4
    page = signed_in(alice).get("/director/clubs/").content.decode()
    assert "<strong>0</strong> pairs of clubmates at one table" in page
    # A director's swap that seats two clubmates together is counted, by name.
    t1 = list(round_.tables.get(number=1).seats.select_related("entry__player"))
    t2 = list(round_.tables.get(number=2).seats.select_related("entry__player"))
    a = next(s for s in t1 if any(o.entry.player.club == s.entry.player.club for o in t2))
    b = next(s for s in t2 if s.entry.player.club != a.entry.player.club)
    services.swap_players(round=round_, first=a.entry, second=b.entry)
    round_.refresh_from_db()
    assert round_.quality["club_meetings"] >= 1


def test_publish_comes_after_the_draft_seating_and_the_swap_tools(w, director):
    Round.objects.filter(pk=w.round.pk).update(status=Round.Status.DRAFT)
    page = director.get(w.url()).content.decode()
    quality = page.index("Seating quality")
    swap = page.index('aria-label="Swap two players"')
    tables = page.index('<table class="progress">')
    publish = page.index("Publish round 1")
    assert quality < publish and swap < publish and tables < publish


def test_a_new_event_is_set_up_from_the_pages(w):
    from django.contrib.auth.models import Permission

    w.alice.user_permissions.add(Permission.objects.get(codename="add_event"))
    director = signed_in(w.alice)
    assert "Set up a new event" in director.get("/director/").content.decode()
    response = director.post(
        "/director/new/",
        {
            "name": "Mandeville Open",
            "slug": "mandeville",
            "ruleset": "jamaica",
            "format": "total",
            "rounds_planned": "4",
            "seating": "mixer",
            "check_in": "on",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/director/mandeville/"
    event = Event.objects.get(slug="mandeville")
    assert (event.rounds_planned, event.seating, event.check_in, event.status) == (
        4,
        "mixer",
        True,
        "registration",
    )
    assert list(event.directors.all()) == [w.alice]
    response = director.post(
        "/director/new/",
        {
            "name": "X",
            "slug": "mandeville",
            "ruleset": "jamaica",
            "format": "total",
            "rounds_planned": "4",
            "seating": "swiss",
        },
    )
    assert response.status_code == 400
    assert Event.objects.filter(slug="mandeville").count() == 1
    assert signed_in(w.bob).get("/director/new/").status_code == 404
