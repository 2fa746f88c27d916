"""The round clock's arithmetic: remaining time, pauses, extensions for every table or
one, and which actions each state allows."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.clock import (
    OVER,
    PAUSED,
    RUNNING,
    STOPPED,
    Clock,
    ClockConflict,
    ClockInvalid,
    Reading,
    format_duration,
)

T0 = datetime(2026, 12, 5, 14, 0, tzinfo=timezone.utc)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def started(minutes: int = 90) -> Clock:
    return Clock(minutes=90).start(T0, minutes)


def test_a_clock_not_started_shows_the_rounds_full_time_and_no_end():
    reading = Clock(minutes=75).read(at(10))
    assert (reading.state, reading.remaining_s, reading.ends_at) == (STOPPED, 75 * 60, None)


def test_a_started_clock_counts_down_to_its_end_then_is_over():
    clock = started(90)
    assert clock.read(at(0)) == clock.read(T0)
    assert clock.read(at(30)).remaining_s == 60 * 60
    assert clock.read(at(30)).ends_at == at(90)
    assert clock.read(at(89, 59.2)).remaining_s == 1  # a part second still shows as one
    assert clock.read(at(90)).state == OVER
    assert clock.read(at(95)).remaining_s == 0


def test_a_pause_freezes_the_time_left_and_resuming_moves_the_end_on():
    clock = started(90).pause(at(30))
    assert clock.read(at(45)) == clock.read(at(30))
    assert clock.read(at(45)).state == PAUSED
    assert clock.read(at(45)).ends_at is None
    resumed = clock.resume(at(40))
    assert resumed.read(at(40)).remaining_s == 60 * 60
    assert resumed.read(at(40)).ends_at == at(100)
    assert resumed.paused_at is None


def test_extending_every_table_moves_the_rounds_end():
    clock = started(90).extend(at(10), 5)
    assert clock.ends_at == at(95)
    assert clock.read(at(94)).state == RUNNING


def test_minutes_given_after_time_ran_out_count_from_now():
    clock = started(90).extend(at(93), 5)
    assert clock.read(at(93)).remaining_s == 5 * 60
    assert clock.read(at(93)).state == RUNNING


def test_one_tables_extra_time_is_its_own():
    clock = started(90).extend(at(10), 7, table=3)
    assert clock.extra_s == {3: 7 * 60}
    assert clock.read(at(92)).state == OVER  # the round's time
    table = clock.read(at(92), table=3)
    assert (table.state, table.remaining_s, table.ends_at) == (RUNNING, 5 * 60, at(97))
    assert clock.read(at(92), table=4).state == OVER
    # A second extension adds to the first; an extension of every table keeps both.
    again = clock.extend(at(20), 3, table=3).extend(at(20), 10)
    assert again.read(at(100), table=3).remaining_s == 10 * 60
    assert again.read(at(100)).state == OVER


def test_extending_every_table_after_time_ran_out_gives_each_exactly_the_minutes():
    clock = started(1).extend(at(0), 2, table=2)  # table 2 ends at 3 minutes
    assert clock.read(at(2, 4), table=2).remaining_s == 56
    later = clock.extend(at(2, 4), 1)
    assert later.read(at(2, 4), table=2).remaining_s == 56 + 60
    assert later.read(at(2, 4)).remaining_s == 60  # the round's own time, from now
    assert later.read(at(2, 4), table=1).remaining_s == 60
    assert later.read(at(3, 5), table=2).state == RUNNING
    assert later.read(at(4, 1), table=2).state == OVER


def test_extending_every_table_when_all_time_ran_out_counts_from_now_for_each():
    clock = started(1).extend(at(0), 2, table=2).extend(at(10), 5)
    assert clock.extra_s == {}
    assert [clock.read(at(10), table=t).remaining_s for t in (None, 1, 2)] == [300] * 3


def test_extending_every_table_while_paused_after_time_ran_out_counts_from_the_pause():
    clock = started(1).extend(at(0), 2, table=2).pause(at(2, 4)).extend(at(5), 1)
    assert clock.read(at(5), table=2).remaining_s == 116
    resumed = clock.resume(at(6))
    assert resumed.read(at(6), table=2).remaining_s == 116
    assert resumed.read(at(6)).remaining_s == 60


def test_a_director_pauses_while_a_table_still_plays_its_extra_time():
    clock = started(1).extend(at(0), 2, table=2)
    assert clock.state(at(2)) == RUNNING  # the round's own time is over, table 2's is not
    paused = clock.act(at(2), "pause", minutes=None, table=None)
    assert paused.read(at(10), table=2) == paused.read(at(2), table=2)
    assert paused.read(at(10), table=2).state == PAUSED
    assert paused.resume(at(10)).read(at(10), table=2).remaining_s == 60
    with pytest.raises(ClockConflict, match="Time is up"):
        clock.pause(at(3))  # every table's time is over
    with pytest.raises(ClockConflict, match="pause it first"):
        clock.start(at(2), 30)  # starting again would drop table 2's extra time


def test_a_table_whose_time_ran_out_gets_its_minutes_from_now():
    clock = started(90).extend(at(10), 2, table=1)  # table 1 ends at 92
    later = clock.extend(at(95), 5, table=1)
    assert later.read(at(95), table=1).remaining_s == 5 * 60


def test_negative_minutes_take_time_back_but_never_below_a_tables_own_end():
    clock = started(90).extend(at(10), 50, table=2)
    fixed = clock.extend(at(11), -45, table=2)
    assert fixed.extra_s == {2: 5 * 60}
    assert fixed.extend(at(11), -5, table=2).extra_s == {}  # back to the round's time
    with pytest.raises(ClockInvalid, match="Table 2 has 5:00 of extra time") as refused:
        fixed.extend(at(11), -6, table=2)
    assert refused.value.field == "minutes"
    assert started(90).extend(at(10), -10).ends_at == at(80)


def test_extending_while_paused_counts_from_the_pause():
    clock = started(90).pause(at(30)).extend(at(50), 5, table=4)
    assert clock.read(at(70), table=4).remaining_s == 65 * 60
    assert clock.resume(at(60)).read(at(60), table=4).remaining_s == 65 * 60


def test_starting_again_restarts_the_time_and_drops_extra_time():
    clock = started(90).extend(at(1), 5, table=2).pause(at(2))
    again = clock.start(at(3), 60)
    assert again == Clock(minutes=60, ends_at=at(63))
    over = started(1)
    assert over.start(at(5), 30).read(at(5)).remaining_s == 30 * 60


def test_a_closed_rounds_clock_is_over_from_its_closing():
    clock = started(90).extend(at(1), 5, table=2)
    early = clock.close(at(30))  # closed with force, time left on every table
    assert [early.read(at(31), t) for t in (None, 1, 2)] == [Reading(OVER, 0, at(30))] * 3
    late = clock.close(at(93))  # table 2 still played when the round closed
    assert late.read(at(100)) == Reading(OVER, 0, at(90))
    assert late.read(at(100), table=2) == Reading(OVER, 0, at(93))
    paused = started(90).pause(at(10)).close(at(20))
    assert paused.read(at(21)) == Reading(OVER, 0, at(20))
    assert Clock(minutes=90).close(at(5)).read(at(6)) == Reading(OVER, 0, at(5))


@pytest.mark.parametrize(
    ("clock", "action", "message"),
    [
        (started(90), "start", "pause it first"),
        (Clock(minutes=90), "pause", "has not started"),
        (started(90).pause(at(1)), "pause", "already paused"),
        (started(1), "pause", "Time is up"),
        (started(90), "resume", "not paused"),
        (Clock(minutes=90), "resume", "not paused"),
    ],
)
def test_each_state_refuses_what_makes_no_sense(clock, action, message):
    with pytest.raises(ClockConflict, match=message) as refused:
        clock.act(at(5), action, minutes=None, table=None)
    assert refused.value.field == "action"


def test_extending_a_clock_not_started_is_refused():
    with pytest.raises(ClockConflict, match="Start the clock"):
        Clock(minutes=90).extend(at(1), 5)


@pytest.mark.parametrize(
    ("action", "minutes", "table", "field", "message"),
    [
        ("start", 0, None, "minutes", "1 to 600 minutes"),
        ("start", 601, None, "minutes", "1 to 600 minutes"),
        ("start", True, None, "minutes", "1 to 600 minutes"),
        ("start", None, 2, "table", "Only an extension"),
        ("pause", 5, None, "minutes", "not given to pause"),
        ("extend", None, None, "minutes", "Give the minutes"),
        ("extend", 0, None, "minutes", "other than 0"),
        ("extend", 121, 1, "minutes", "-120 to 120"),
        ("stop", None, None, "action", "start, pause, resume, extend"),
    ],
)
def test_wrong_values_name_their_field(action, minutes, table, field, message):
    with pytest.raises(ClockInvalid, match=message) as refused:
        started(90).act(at(1), action, minutes=minutes, table=table)
    assert refused.value.field == field


def test_start_without_minutes_takes_the_clocks_own_length():
    assert Clock(minutes=75).act(T0, "start", None, None).ends_at == at(75)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pause", "resume", "extend", "extend-table"]),
            st.integers(min_value=1, max_value=600),  # seconds later
            st.integers(min_value=1, max_value=30),  # minutes
        ),
        max_size=12,
    )
)
def test_the_time_left_only_moves_as_the_actions_say(actions):
    """Whatever the director does, the time left at any moment is the round's length
    plus the minutes given, less the time the clock ran; a table's is at least that."""
    clock, now = started(90), T0
    ran, given_s = timedelta(0), 0
    for action, later, minutes in actions:
        step = timedelta(seconds=later)
        if clock.paused_at is None and clock.read(now).state == RUNNING:
            ran += min(step, timedelta(seconds=clock.read(now).remaining_s))
        now += step
        if clock.read(now).state == OVER:
            break
        try:
            if action == "extend-table":
                clock = clock.extend(now, minutes, table=1)
            else:
                clock = clock.act(now, action, minutes if action == "extend" else None, None)
        except ClockConflict:
            continue
        if action == "extend":
            given_s += minutes * 60
    expected = 90 * 60 + given_s - ran.total_seconds()
    assert abs(clock.read(now).remaining_s - expected) <= 1
    assert clock.read(now, table=1).remaining_s >= clock.read(now).remaining_s


def test_durations_read_like_a_clock():
    assert [format_duration(s) for s in (0, 9, 754, 3900, -5)] == [
        "0:00",
        "0:09",
        "12:34",
        "1:05:00",
        "0:00",
    ]
