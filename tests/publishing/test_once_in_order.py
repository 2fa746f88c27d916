"""Each change is applied once and in order: a batch sent again is acknowledged and
changes nothing, one that skips a change gets 409 with the change the site expects, and
a new publication (another stream) starts over from its change 1."""

from __future__ import annotations

from core import services
from core.publishing import outbox
from scoring.models import Hand, HandScore
from tests.publishing.pair import DB, Pair, history_counts, post_batch, record_next_hand
from tournaments.models import Announcement, Entry, PublishedRow

pytestmark = DB


def counts(pair: Pair) -> dict:
    return {
        "hands": Hand.objects.filter(table__round__event=pair.site).count(),
        "scores": HandScore.objects.filter(hand__table__round__event=pair.site).count(),
        "announcements": Announcement.objects.filter(event=pair.site).count(),
        "entries": Entry.objects.filter(event=pair.site).count(),
        "mapped": PublishedRow.objects.filter(link__event=pair.site).count(),
        "history": history_counts(),
    }


def three_changes(pair: Pair, alice) -> list[dict]:
    """Changes 2, 3 and 4 at the venue: two hands and an announcement."""
    made = []
    for _ in range(2):
        record_next_hand(pair.venue, by=alice)
        made.append(pair.capture())
    services.post_announcement(event=pair.venue, text="Last hand of the round", by=alice)
    made.append(pair.capture())
    assert [c["seq"] for c in made] == [2, 3, 4]
    return made


def test_the_same_batch_sent_twice_is_acknowledged_once(small, alice, wire):
    batch = {"stream": small.stream, "changes": three_changes(small, alice)}

    first = post_batch(wire, small.secret, batch)
    assert first.status_code == 200, first.content
    assert first.json()["acknowledged"] == 4 and first.json()["refused"] is None
    small.settled()
    after = counts(small)
    assert small.differences() == []
    applied_at = small.link.applied_at

    again = post_batch(wire, small.secret, batch)

    assert again.status_code == 200, again.content
    assert again.json()["acknowledged"] == 4
    assert counts(small) == after
    assert small.link.applied_at == applied_at  # nothing was applied again
    small.settled()
    assert small.differences() == []


def test_a_batch_overlapping_what_was_applied_applies_only_the_rest(small, alice, wire):
    two, three, four = three_changes(small, alice)
    assert post_batch(wire, small.secret, {"stream": small.stream, "changes": [two, three]})
    history = history_counts()

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [three, four]})

    assert answer.status_code == 200 and answer.json()["acknowledged"] == 4
    grown = history_counts()
    assert grown["hands"] == history["hands"]  # hand 4 (change 3) not written twice
    small.settled()
    assert small.differences() == []


def test_a_batch_beyond_the_next_change_gets_409_with_the_one_expected(small, alice, wire):
    two, three, four = three_changes(small, alice)
    before = counts(small)

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [three, four]})

    assert answer.status_code == 409, answer.content
    assert answer.json()["expected"] == 2 and answer.json()["acknowledged"] == 1
    assert counts(small) == before
    assert small.link.refused_seq is None  # not a refusal: the publisher sends from 2

    # A gap inside a batch: nothing of it is applied either.
    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [two, four]})
    assert answer.status_code == 409 and answer.json()["expected"] == 3
    assert counts(small) == before

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [two, three, four]})
    assert answer.status_code == 200 and answer.json()["acknowledged"] == 4
    small.settled()
    assert small.differences() == []


def test_a_new_stream_starts_over_from_its_change_1(small, alice, wire):
    for change in three_changes(small, alice):
        small.apply(change)
    assert small.link.acknowledged == 4
    old_stream = small.stream
    # At the venue meanwhile: a hand deleted and the announcement gone, which the old
    # stream never sends; then the venue publishes afresh (a new stream).
    venue = small.venue
    table = venue.rounds.get(number=1).tables.get()
    services.delete_hand(table=table, number=4, by=alice)
    Announcement.objects.filter(event=venue).delete()
    outbox.stop_publishing(event=venue)
    small.publication = outbox.start_publishing(
        event=venue, site=small.publication.site, link=small.secret
    )
    small.snapshot = outbox.remembered(small.publication)
    assert small.stream != old_stream
    whole = small.capture()
    assert whole["seq"] == 1

    # The new stream must begin at its change 1.
    beyond = dict(whole, seq=2)
    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [beyond]})
    assert answer.status_code == 409 and answer.json()["expected"] == 1
    assert small.link.stream == old_stream and small.link.acknowledged == 4
    old_site_hands = set(
        Hand.objects.filter(table__round__event=small.site).values_list("pk", flat=True)
    )

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [whole]})

    assert answer.status_code == 200, answer.content
    assert answer.json()["stream"] == small.stream and answer.json()["acknowledged"] == 1
    small.settled()
    assert small.differences() == []
    assert not Announcement.objects.filter(event=small.site).exists()
    assert not Hand.objects.filter(table__round__event=small.site, number=4).exists()
    # The venue's hands are mapped afresh, the deleted one too (its history has it),
    # and never to the site's rows from before.
    mapped = PublishedRow.objects.filter(link__event=small.site, section="hands")
    venue_hands = {r["id"] for r in whole["history"]["hands"]} | {
        r["id"] for r in whole["rows"]["hands"]
    }
    assert set(mapped.values_list("venue_id", flat=True)) == venue_hands
    assert set(
        Hand.objects.filter(table__round__event=small.site).values_list("pk", flat=True)
    ) <= set(mapped.values_list("site_id", flat=True))
    assert not old_site_hands & set(mapped.values_list("site_id", flat=True))

    # The old stream's next changes are stale now: the site follows the new one.
    record_next_hand(venue, by=alice)
    stale = dict(whole, seq=5, stream=old_stream)
    answer = post_batch(wire, small.secret, {"stream": old_stream, "changes": [stale]})
    assert answer.status_code == 409 and answer.json()["expected"] == 1
    assert small.link.stream == small.stream
    small.apply(small.capture())
    assert small.differences() == []
