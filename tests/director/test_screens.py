"""The venue screens panel of the dashboard: the round clock's actions and the
announcements, each answered with what it did (or why not) back on the panel."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.director import test_dashboard
from tests.html import Page, signed_in
from tournaments.models import DEFAULT_TIME_RULE, Announcement, Round, RoundClock

pytestmark = pytest.mark.django_db


def flashes(response) -> list[str]:
    return [html.unescape(text) for text in test_dashboard.flashes(response)]


def clock(director, w, **data):
    return director.post(w.url("rounds/1/clock/"), data, follow=True)


def test_the_panel_offers_to_start_the_clock_with_the_events_round_time(w, director):
    page = Page(director.get(w.url()).content)
    assert page.text("clock-heading") == "Round 1 clock"
    assert page.attrs("clock-minutes")["value"] == "90"
    assert "Start the clock" in page.text("clock")
    assert not page.has("clock-pause") and not page.has("extend-minutes")


def test_start_pause_resume_and_extend_say_what_they_did(w, director):
    started = clock(director, w, action="start", minutes="60")
    assert started.redirect_chain[-1][0] == w.url("rounds/1/") + "#clock"
    assert re.fullmatch(
        r"The clock is started: 60 minutes; time runs out at \d\d:\d\d\.", flashes(started)[0]
    )
    assert Page(started.content).has("clock-pause")
    paused = clock(director, w, action="pause")
    assert re.fullmatch(r"The clock is paused with (1:00:00|59:5\d) left\.", flashes(paused)[0])
    assert Page(paused.content).has("clock-resume")
    resumed = clock(director, w, action="resume")
    assert flashes(resumed)[0].startswith("The clock is running again: time runs out at ")
    table = clock(director, w, action="extend", minutes="5", table="2")
    assert flashes(table)[0].startswith("Table 2 has 5 minutes more: time runs out at ")
    every = clock(director, w, action="extend", minutes="-1")
    assert flashes(every)[0].startswith("Every table has 1 minute less: ")
    stored = RoundClock.objects.get(round=w.round)
    assert stored.table_extra_s == {"2": 300} and stored.minutes == 60
    assert [h.history_user for h in stored.history.all()] == [w.alice] * 5
    page = Page(every.content)
    assert "Table 2 +5:00 extra" in page.text("clock")


def test_a_refused_action_says_why_and_changes_nothing(w, director):
    assert flashes(clock(director, w, action="pause")) == ["The clock has not started."]
    assert flashes(clock(director, w, action="start", minutes="0")) == [
        "A round's time is 1 to 600 minutes."
    ]
    clock(director, w, action="start")
    assert flashes(clock(director, w, action="extend", minutes="5", table="7")) == [
        "Round 1 has no table 7."
    ]
    assert flashes(clock(director, w, action="start")) == [
        "The clock is running: pause it first to start it again."
    ]
    assert flashes(clock(director, w, action="dance")) == [
        "Action: Select a valid choice. dance is not one of the available choices."
    ]
    assert RoundClock.objects.get().history.count() == 1


def test_a_round_not_in_play_has_no_clock_panel(w, director):
    Round.objects.filter(pk=w.round.pk).update(status=Round.Status.DRAFT)
    page = Page(director.get(w.url()).content)
    assert "publish round 1's seating to start it" in page.text("clock")
    assert not page.has("clock-minutes")


def test_announcements_are_posted_removed_and_kept_in_the_history(w, director):
    text = {"text": "Round 2 starts at 14:30"}
    posted = director.post(w.url("announcements/"), text, follow=True)
    assert flashes(posted) == ["On the screens now: “Round 2 starts at 14:30”."]
    assert posted.redirect_chain[-1][0] == w.url() + "#announce"
    found = Announcement.objects.get()
    assert found.posted_by == w.alice
    page = posted.content.decode()
    assert f'data-announcement="{found.pk}"' in page
    removed = director.post(w.url(f"announcements/{found.pk}/remove/"), follow=True)
    assert flashes(removed) == [
        "Taken off the screens (kept in the history): “Round 2 starts at 14:30”."
    ]
    page = removed.content.decode()
    assert f'data-announcement="{found.pk}"' not in page
    assert f'data-removed="{found.pk}"' in page and "Removed announcements (history)" in page


def test_an_empty_announcement_is_refused(w, director):
    response = director.post(w.url("announcements/"), {"text": " "}, follow=True)
    assert flashes(response) == ["Announcement: This field is required."]
    assert not Announcement.objects.exists()


def test_only_the_events_directors_use_the_panel(w):
    other = signed_in(w.bob)
    assert other.post(w.url("rounds/1/clock/"), {"action": "start"}).status_code == 404
    assert other.post(w.url("announcements/"), {"text": "Hello"}).status_code == 404
    mine = Announcement.objects.create(event=w.event, text="Mine", posted_at=timezone.now())
    assert other.post(w.url(f"announcements/{mine.pk}/remove/")).status_code == 404
    anonymous = signed_in(None).post(w.url("rounds/1/clock/"), {"action": "start"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert not RoundClock.objects.exists()
    assert Announcement.objects.get().removed_at is None
    # Another event's announcement is not found under this one.
    bobs = Announcement.objects.create(event=w.bobs_event, text="Bob's", posted_at=mine.posted_at)
    director = signed_in(w.alice)
    assert director.post(w.url(f"announcements/{bobs.pk}/remove/")).status_code == 404


def test_the_rule_at_time_is_written_from_the_panel(w, director):
    page = Page(director.get(w.url()).content)
    assert page.attrs("time-rule")["value"] == w.event.time_rule_text == DEFAULT_TIME_RULE
    rule = {"time_rule": " Stop when  time is called. "}
    saved = director.post(w.url("time-rule/"), rule, follow=True)
    assert flashes(saved) == ["At time, the screens now say: “Stop when time is called.”."]
    w.event.refresh_from_db()
    assert w.event.time_rule == "Stop when time is called."
    too_long = director.post(w.url("time-rule/"), {"time_rule": "x" * 301}, follow=True)
    assert flashes(too_long) == ["Ensure this value has at most 300 characters (it has 301)."]
    assert signed_in(w.bob).post(w.url("time-rule/"), {"time_rule": "Mine"}).status_code == 404


def test_the_panel_offers_pause_while_a_table_still_plays_its_extra_time(w, director):
    """The round's own time is up but table 2 plays on: the clock as a whole runs."""
    now = timezone.now()
    RoundClock.objects.create(
        round=w.round,
        minutes=60,
        ends_at=now - timedelta(minutes=1),
        table_extra_s={"2": 300},
    )
    page = Page(director.get(w.url()).content)
    assert page.has("clock-pause") and "Start again" not in page.text("clock")
    assert flashes(clock(director, w, action="pause"))[0].startswith("The clock is paused")
