"""A whole event published in one change equals the venue's; then every action at the
venue, captured as its own change and applied, keeps the two copies equal."""

from __future__ import annotations

from django.db import transaction

from core import services
from core.seating.services import seat_round
from scoring.models import Hand, HandScore
from tests.fixtures import hand_at, make_event
from tests.publishing.pair import DB
from tournaments.models import Announcement, Entry, Event, Player, Round

pytestmark = DB


def test_the_whole_event_in_one_change_equals_the_venues(pair):
    change = pair.capture()
    assert change["seq"] == 1 and change["stream"] == pair.stream
    # Everything of the event travels: closed round, redeal, correction, deleted
    # hand, withdrawal, clock, announcements (one removed).
    assert {"players", "entries", "rounds", "hands", "hand_scores", "penalties"} <= set(
        change["rows"]
    )
    assert {"clocks", "announcements", "standings"} <= set(change["rows"])
    assert any(r["history_type"] == "-" for r in change["history"]["hands"])

    link = pair.apply(change)

    assert link.acknowledged == 1 and link.refused_seq is None
    assert pair.differences() == []
    site = Event.objects.get(pk=pair.site.pk)
    venue = Event.objects.get(pk=pair.venue.pk)
    assert site.uid == venue.uid and site.counted and not venue.counted
    assert site.slug == "kingston-site" and site.name == venue.name
    # The site's copy is its own: its own rows, its own registry's players.
    assert not set(site.entries.values_list("pk", flat=True)) & set(
        venue.entries.values_list("pk", flat=True)
    )
    assert not set(site.entries.values_list("player", flat=True)) & set(
        venue.entries.values_list("player", flat=True)
    )
    assert Hand.objects.filter(table__round__event=site).count() == (
        Hand.objects.filter(table__round__event=venue).count()
    )
    assert Round.objects.get(event=site, number=1).status == Round.Status.CLOSED
    redealt = Hand.objects.filter(table__round__event=site, outcome="redeal")
    assert (
        redealt.count() == 1
        and Hand.objects.filter(table=redealt.get().table, number=2, attempt=2).exists()
    )
    corrected = Hand.history.filter(id__in=Hand.objects.filter(table__round__event=site))
    assert corrected.filter(history_type="~").exists()
    assert Announcement.objects.filter(event=site, removed_at__isnull=True).count() == 1
    assert site.entries.filter(status=Entry.Status.WITHDRAWN).count() == 1


def test_a_capture_with_nothing_changed_is_none(pair):
    assert pair.capture() is not None
    assert pair.capture() is None
    assert pair.capture(whole=False) is None
    assert pair.capture() is None
    pair.publication.refresh_from_db()
    assert pair.publication.captured == 1


def test_a_capture_inside_a_transaction_already_open_reads_in_it(pair):
    with transaction.atomic():
        change = pair.capture()
    assert change["seq"] == 1


def test_each_action_at_the_venue_as_its_own_change_keeps_the_copies_equal(pair, alice):
    pair.publish()
    assert pair.differences() == []
    venue = pair.venue
    round2 = Round.objects.get(event=venue, number=2)
    table1 = round2.tables.get(number=1)
    table2 = round2.tables.get(number=2)
    seats1 = [1, 2, 3, 4]  # seat 5 left table 1 after hand 2
    hand_count = venue.rules.hand_count
    seen = []

    def step(name, action):
        action()
        change = pair.capture(whole=False)  # as the publisher looks between whole looks
        assert change is not None, f"{name}: nothing captured"
        assert change["seq"] == len(seen) + 2
        link = pair.apply(change)
        assert link.acknowledged == change["seq"]
        assert pair.differences() == [], name
        assert pair.capture(whole=False) is None, f"{name}: captured twice"
        seen.append(name)
        return change

    def record(table, number, seats, base=10):
        return lambda: services.record_hand(
            table=table, number=number, entry=hand_at(seats, base=base), by=alice
        )

    change = step("record a hand", record(table1, 3, seats1))
    assert len(change["rows"]["hands"]) == 1
    step("correct it", record(table1, 3, seats1, base=13))
    change = step("delete it", lambda: services.delete_hand(table=table1, number=3, by=alice))
    assert change["gone"]["hands"] and change["gone"]["hand_scores"]
    assert (
        not Hand.objects.filter(table__round__event=pair.site, table__round__number=2)
        .filter(table__number=1, number=3)
        .exists()
    )
    step("record it again", record(table1, 3, seats1, base=11))
    step(
        "post an announcement",
        lambda: services.post_announcement(event=venue, text="Lunch at one", by=alice),
    )
    announcement = Announcement.objects.get(event=venue, text="Lunch at one")
    step("remove it", lambda: services.remove_announcement(announcement=announcement, by=alice))
    step("pause the clock", lambda: services.clock_action(round=round2, action="pause", by=alice))
    step("resume the clock", lambda: services.clock_action(round=round2, action="resume", by=alice))

    def play_the_rest():
        for number in range(4, hand_count + 1):
            record(table1, number, seats1)()
        for number in range(1, hand_count + 1):
            record(table2, number, [1, 2, 3, 4])()

    step("play the rest of round 2", play_the_rest)
    step("close round 2", lambda: services.close_round(round=round2, by=alice))
    assert Round.objects.get(event=pair.site, number=2).status == Round.Status.CLOSED
    step(
        "reopen round 2",
        lambda: services.reopen_round(round=round2, reason="A score misread", by=alice),
    )
    assert Round.objects.get(event=pair.site, number=2).status == Round.Status.PUBLISHED
    step("close it again", lambda: services.close_round(round=round2, by=alice))
    step(
        "change the event's settings",
        lambda: services.update_event(
            event=venue, data={"name": "Kingston Kalooki Masters", "rounds_planned": 3}, by=alice
        ),
    )
    assert Event.objects.get(pk=pair.site.pk).name == "Kingston Kalooki Masters"

    def start_round_3():
        round3 = services.start_round(event=venue, by=alice)
        seat_round(round_id=round3.pk)  # the seating job, run as its commit would
        services.publish_round(round=Round.objects.get(pk=round3.pk), by=alice)

    step("start, seat and publish round 3", start_round_3)
    assert Round.objects.get(event=pair.site, number=3).status == Round.Status.PUBLISHED
    leaving = Entry.objects.filter(event=venue, status=Entry.Status.ACTIVE).order_by("pk").first()
    step("withdraw a player", lambda: services.withdraw_entry(entry=leaving, by=alice))
    player = leaving.player
    before = Player.objects.get(pk=pair.site_id("players", player.pk)).name
    # The site's player plays another event here too, whose pages show the new name.
    league = make_event(slug="club-league", name="Club League")
    Entry.objects.create(event=league, player_id=pair.site_id("players", player.pk))
    league_screens = Event.objects.get(pk=league.pk).screen_version

    def rename():
        services.update_player(player=player, name="Andre Brown-Campbell", by=alice)

    change = step("rename a player", rename)
    assert change["rows"] == {"players": [change["rows"]["players"][0]]}
    renamed = Player.objects.get(pk=pair.site_id("players", player.pk))
    assert renamed.pk != player.pk and (before, renamed.name) == (
        player.name.replace("-Campbell", ""),
        "Andre Brown-Campbell",
    )
    assert Event.objects.get(pk=league.pk).screen_version == league_screens + 1
    assert HandScore.objects.filter(hand__table__round__event=pair.site).count() == (
        HandScore.objects.filter(hand__table__round__event=venue).count()
    )
    assert pair.link.acknowledged == len(seen) + 1
    # The publisher's whole look finds nothing its quicker looks missed.
    assert pair.capture(whole=True) is None
