"""What one hand costs on the venue's line: its change is a few hundred bytes gzipped,
whatever the event's size, never the event again."""

from __future__ import annotations

import pytest

from core import services
from core.demo import DemoOptions, generate_demo_event
from core.publishing import outbox
from tests.fixtures import hand_at
from tests.publishing.pair import DB, Pair, gzipped, not_counted, post_batch
from tournaments.models import OutgoingChange, Round, Table

pytestmark = DB

MOST_BYTES = 4096


def open_table(event) -> tuple[Table, int, list[int]]:
    """A table of the round in play with hands still to play: it, its next hand's
    number, and the seats still at it."""
    round_ = Round.objects.filter(event=event).latest("number")
    for table in round_.tables.order_by("number"):
        numbers = list(table.hands.values_list("number", flat=True))
        if len(set(numbers)) < event.rules.hand_count:
            seats = table.seats.filter(left_after_hand__isnull=True)
            positions = list(seats.values_list("position", flat=True))
            return table, max(numbers, default=0) + 1, positions
    raise AssertionError("no table left to play")


@pytest.fixture
def demo(alice) -> Pair:
    """A 32-player event of three rounds, two closed, the third in play, published."""
    venue = generate_demo_event(DemoOptions(players=32, rounds=3, live=True, slug="demo"))
    pair = Pair.of(not_counted(venue), by=alice)
    pair.publish()
    return pair


def test_one_hand_makes_a_change_of_a_few_kilobytes_at_most(demo, alice, wire):
    venue = demo.venue
    assert Round.objects.filter(event=venue, status=Round.Status.CLOSED).count() == 2
    whole = OutgoingChange.objects.get(publication=demo.publication, seq=1).body
    assert demo.differences() == []
    table, number, seats = open_table(venue)

    services.record_hand(table=table, number=number, entry=hand_at(seats), by=alice)
    recorded = demo.capture()
    services.record_hand(table=table, number=number, entry=hand_at(seats, base=14), by=alice)
    corrected = demo.capture()

    for change in (recorded, corrected):
        body = OutgoingChange.objects.get(publication=demo.publication, seq=change["seq"]).body
        assert len(body) < MOST_BYTES, (len(body), sorted(change["rows"]))
        assert len(body) * 10 < len(whole)
        assert len(change["rows"]["hands"]) == 1
        assert set(change["rows"]) <= {"hands", "hand_scores", "penalties", "standings"}
        # As sent: the batch the publisher posts for it alone.
        batch = gzipped({"stream": demo.stream, "changes": [change]})
        assert len(batch) < MOST_BYTES
    assert (
        outbox.unpacked(
            OutgoingChange.objects.get(publication=demo.publication, seq=recorded["seq"]).body
        )
        == recorded
    )

    batch = {"stream": demo.stream, "changes": [recorded, corrected]}
    answer = post_batch(wire, demo.secret, batch)
    assert answer.status_code == 200 and answer.json()["acknowledged"] == 3
    demo.settled()
    assert demo.differences() == []
