"""The venue screens' services and reads: the round clock stored in the database (each
action with its history), announcements, the seating board and the field, and the
screen version every change grows and announces once committed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from core import caching, selectors, services
from core.errors import InvalidInput, StateConflict
from core.screens.services import MAX_SHOWN
from core.standings.boards import FIELD, SEATING, STANDINGS
from game.clock import OVER, PAUSED, RUNNING, STOPPED
from game.rules import HandEntry, SeatEntry
from tests.fixtures import make_alice, make_entries, make_event, make_root, make_round
from tournaments.models import Announcement, Event, Player, Round, RoundClock

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = make_event(slug="kingston", round_minutes=75)
    make_round(event, table_sizes=(4, 4))
    return event


def round_of(event: Event, number: int = 1) -> Round:
    return event.rounds.get(number=number)


def screen_version(event: Event) -> int:
    return Event.objects.get(pk=event.pk).screen_version


def record_first_hand(event: Event, number: int = 1) -> None:
    table = round_of(event, number).tables.get(number=1)
    scores = tuple(SeatEntry(seat, 10) for seat in (2, 3, 4))
    services.record_hand(table=table, number=1, entry=HandEntry(went_out=1, scores=scores))


# --- The clock ----------------------------------------------------------------------------


def test_a_round_not_started_shows_the_events_round_time(event):
    clock = selectors.round_clock(event, 1)
    reading = clock.read(timezone.now())
    assert (reading.reading.state, reading.reading.remaining_s) == (STOPPED, 75 * 60)
    assert [t.number for t in reading.tables] == [1, 2]
    assert not RoundClock.objects.exists()


def test_starting_the_clock_stores_its_end_and_who_started_it(event):
    alice = make_alice()
    before = timezone.now()
    stored = services.clock_action(round=round_of(event), action="start", by=alice)
    assert stored.minutes == 75
    length = timedelta(minutes=75)
    assert before + length <= stored.ends_at <= timezone.now() + length
    history = stored.history.get()
    assert (history.history_type, history.history_user) == ("+", alice)
    reading = selectors.round_clock(event, 1).read(timezone.now()).reading
    assert reading.state == RUNNING and 75 * 60 - 5 <= reading.remaining_s <= 75 * 60


def test_the_clock_lives_in_the_database_so_every_process_reads_the_same(event):
    round_ = round_of(event)
    services.clock_action(round=round_, action="start", minutes=60)
    services.clock_action(round=round_, action="extend", minutes=4, table=2)
    services.clock_action(round=round_, action="pause")
    stored = RoundClock.objects.get(round=round_)
    assert stored.paused_at is not None and stored.table_extra_s == {"2": 240}
    # Another process, later: the same frozen time left, whatever has passed since.
    later = stored.paused_at + timedelta(hours=3)
    reading = selectors.round_clock(event, 1).read(later)
    assert reading.reading.state == PAUSED
    assert [t.extra_s for t in reading.tables] == [0, 240]
    assert reading.tables[1].reading.remaining_s == reading.reading.remaining_s + 240
    services.clock_action(round=round_, action="resume")
    assert RoundClock.objects.get(round=round_).paused_at is None
    assert stored.history.count() == 4


def test_the_clock_of_a_round_not_in_play_cannot_change(event):
    draft = make_round(event, number=2, status=Round.Status.DRAFT)
    with pytest.raises(StateConflict, match="not published yet") as refused:
        services.clock_action(round=draft, action="start")
    assert refused.value.errors == {
        "round": ["Round 2 is not published yet: only a round in play has a clock."]
    }
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.CLOSED)
    with pytest.raises(StateConflict, match="Round 2 is closed"):
        services.clock_action(round=draft, action="pause")


def test_refusals_name_their_field_and_write_nothing(event):
    round_ = round_of(event)
    with pytest.raises(StateConflict) as conflict:
        services.clock_action(round=round_, action="pause")
    assert conflict.value.status_code == 409 and "action" in conflict.value.errors
    with pytest.raises(InvalidInput) as invalid:
        services.clock_action(round=round_, action="start", minutes=0)
    assert invalid.value.status_code == 400 and "minutes" in invalid.value.errors
    services.clock_action(round=round_, action="start")
    with pytest.raises(InvalidInput) as no_table:
        services.clock_action(round=round_, action="extend", minutes=5, table=9)
    assert no_table.value.errors == {"table": ["Round 1 has no table 9."]}
    assert RoundClock.objects.get().history.count() == 1


def test_every_clock_action_grows_the_screen_version_and_announces_it_after_commit(
    event, django_capture_on_commit_callbacks
):
    start = screen_version(event)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.clock_action(round=round_of(event), action="start")
    assert screen_version(event) == start + 1
    assert cache.get(caching.screen_key("kingston")) is None  # not before it commits
    for callback in callbacks:
        callback()
    assert cache.get(caching.screen_key("kingston")) == start + 1


def test_over_once_the_time_runs_out(event):
    round_ = round_of(event)
    services.clock_action(round=round_, action="start", minutes=1)
    clock = selectors.round_clock(event, 1)
    assert clock.read(timezone.now() + timedelta(minutes=2)).reading.state == OVER


# --- Announcements ------------------------------------------------------------------------


def test_an_announcement_shows_until_removed_and_stays_in_the_history(event):
    alice = make_alice()
    posted = services.post_announcement(event=event, text="  Round 3 starts\n at 14:30 ", by=alice)
    assert posted.text == "Round 3 starts at 14:30" and posted.posted_by == alice
    assert [a.text for a in selectors.announcements(event, current=True)] == [posted.text]
    removed = services.remove_announcement(announcement=posted, by=alice)
    assert removed.removed_at is not None and removed.removed_by == alice
    assert not selectors.announcements(event, current=True).exists()
    assert list(selectors.announcements(event, current=False)) == [posted]
    # Sent twice: nothing changes, nothing is refused.
    version = screen_version(event)
    again = services.remove_announcement(announcement=posted, by=None)
    assert again.removed_at == removed.removed_at and again.removed_by == alice
    assert screen_version(event) == version


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("   ", "Write the announcement."),
        ("x" * 201, "An announcement is at most 200 characters; this one has 201."),
    ],
)
def test_an_empty_or_long_announcement_is_refused(event, text, message):
    with pytest.raises(InvalidInput) as refused:
        services.post_announcement(event=event, text=text)
    assert refused.value.errors == {"text": [message]}
    assert not Announcement.objects.exists()


def test_at_most_ten_announcements_show_at_once(event):
    for n in range(MAX_SHOWN):
        services.post_announcement(event=event, text=f"Line {n}")
    with pytest.raises(StateConflict, match="remove one first"):
        services.post_announcement(event=event, text="One too many")
    services.remove_announcement(announcement=Announcement.objects.first())
    services.post_announcement(event=event, text="Room again")


def test_posting_and_removing_grow_the_screen_version(event):
    start = screen_version(event)
    posted = services.post_announcement(event=event, text="Tea is ready")
    services.remove_announcement(announcement=posted)
    assert screen_version(event) == start + 2


# --- What else the screens follow ---------------------------------------------------------


def test_registering_withdrawing_and_settings_grow_the_screen_version():
    event = make_event(slug="montego", status=Event.Status.REGISTRATION)
    start = screen_version(event)
    entry = services.register_entry(event=event, player=Player.objects.create(name="Lorna"))
    services.withdraw_entry(entry=entry)
    changed = services.update_event(event=event, data={"time_rule": "Stop at once."})
    assert screen_version(event) == start + 3 == changed.screen_version


def test_a_swap_in_a_round_in_play_rebuilds_what_the_pages_key_on(
    event, django_capture_on_commit_callbacks
):
    round_ = round_of(event)
    version = Event.objects.get(pk=event.pk).standings_version
    first, second = (round_.tables.get(number=n).seats.get(position=1).entry for n in (1, 2))
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_players(round=round_, first=first, second=second)
    assert Event.objects.get(pk=event.pk).standings_version == version + 1


# --- The board: the field, then the seating, then the standings ---------------------------


def public(event: Event) -> Event:
    return selectors.public_event(AnonymousUser(), event.slug)


def test_before_the_first_round_the_board_is_the_field_a_to_z_without_ranks():
    event = make_event(slug="field", status=Event.Status.REGISTRATION)
    entries = make_entries(event, 3)
    for entry, name in zip(entries, ["carlton", "Andre", "Beverley"], strict=True):
        Player.objects.filter(pk=entry.player_id).update(name=name)
    services.withdraw_entry(entry=entries[1])
    board = selectors.board(public(event))
    assert board.phase == FIELD and board.progress is None
    assert [(r.name, r.withdrawn) for r in board.field] == [
        ("Beverley", False),
        ("carlton", False),
        ("Andre", True),
    ]
    assert board.entered == 2


def test_from_publishing_until_the_first_hand_the_board_is_the_seating(
    event, django_assert_max_num_queries
):
    names = ["zoe", "Yvonne", "Andre", "andrea", "Marcia", "Kemar", "Omar", "Lorna"]
    seats = round_of(event).seats.order_by("table__number", "position")
    for seat, name in zip(seats, names, strict=True):
        Player.objects.filter(pk=seat.entry.player_id).update(name=name)
    # The standings, the round's progress, its seats and the event's namesakes.
    with django_assert_max_num_queries(5):
        board = selectors.board(public(event))
    assert board.phase == SEATING
    assert [r.name for r in board.seating] == [
        "Andre",
        "andrea",
        "Kemar",
        "Lorna",
        "Marcia",
        "Omar",
        "Yvonne",
        "zoe",
    ]
    assert (board.seating[0].table, board.seating[0].seat) == (1, 3)
    record_first_hand(event)
    board = selectors.board(public(event))
    assert board.phase == STANDINGS and board.seating == ()


def test_a_redeal_counts_as_the_first_hand(event):
    table = round_of(event).tables.get(number=2)
    services.record_hand(table=table, number=1, entry=HandEntry(redeal=True))
    assert selectors.board(public(event)).phase == STANDINGS


def test_a_closed_round_shows_its_standings_even_without_hands(event):
    Round.objects.filter(pk=round_of(event).pk).update(status=Round.Status.CLOSED)
    assert selectors.board(public(event)).phase == STANDINGS


def test_the_screen_reads_the_round_in_plays_clock_and_the_announcements_showing(
    event, django_assert_max_num_queries
):
    services.clock_action(round=round_of(event), action="start", minutes=30)
    services.clock_action(round=round_of(event), action="extend", minutes=2, table=1)
    kept = services.post_announcement(event=event, text="Showing")
    gone = services.post_announcement(event=event, text="Gone")
    services.remove_announcement(announcement=gone)
    found = public(event)
    with django_assert_max_num_queries(2):
        screen = selectors.screen(found)
    assert [a.text for a in screen.announcements] == [kept.text]
    now = timezone.now()
    assert screen.clock.face(now).state == RUNNING
    assert [f.label for f in screen.clock.extra_faces(now)] == ["Table 1"]
    assert screen.clock.face(now, 1).extra == "2:00"
    Round.objects.filter(pk=round_of(event).pk).update(status=Round.Status.CLOSED)
    assert selectors.screen(public(event)).clock is None


def test_the_admin_shows_clocks_and_announcements_with_their_history_but_changes_neither(
    client, event
):
    client.force_login(make_root())
    stored = services.clock_action(round=round_of(event), action="start")
    posted = services.post_announcement(event=event, text="Tea is ready")
    for name, obj in (("roundclock", stored), ("announcement", posted)):
        assert client.get(reverse(f"admin:tournaments_{name}_changelist")).status_code == 200
        change = client.get(reverse(f"admin:tournaments_{name}_change", args=[obj.pk]))
        assert change.status_code == 200 and b'name="_save"' not in change.content
        assert client.get(reverse(f"admin:tournaments_{name}_add")).status_code == 403
    history = client.get(reverse("admin:tournaments_roundclock_history", args=[stored.pk]))
    assert history.status_code == 200
