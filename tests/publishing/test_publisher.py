"""The venue's publisher against a real site (`live_server`): it sends everything the
site has not acknowledged; a refusal stops it with the reason; an unreachable site is
noted and tried again; after a restart it captures only what changed since."""

from __future__ import annotations

import pytest
from django.db.models import F

from core import services
from core.publishing import outbox
from core.publishing.sending import Publisher, Stopped, Unreachable, send_pending
from scoring.models import Hand, HandScore
from tests.publishing.pair import (
    Pair,
    closed_port,
    record_next_hand,
    site_registry,
    venue_event,
)
from tournaments.models import OutgoingChange, Publication, PublishingLink

# Real commits: the site's standings are rebuilt (eagerly) once a batch commits, and
# the site answers from another thread.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live(alice, live_server) -> Pair:
    """alice's `played_event` at the venue, publishing to the live site's empty event."""
    site_registry()
    return Pair.of(venue_event(director=alice), by=alice, site_url=live_server.url, settle=False)


def fresh(publication: Publication) -> Publication:
    return Publication.objects.select_related("event").get(pk=publication.pk)


def latest_change(publication: Publication) -> dict:
    body = OutgoingChange.objects.filter(publication=publication).latest("seq").body
    return outbox.unpacked(body)


def test_the_publisher_sends_everything_and_the_site_has_it_all(live, alice):
    publisher = Publisher(fresh(live.publication))
    assert publisher.look()

    send_pending(publisher.publication)

    publication = fresh(live.publication)
    assert publication.acknowledged == publication.captured == 1
    assert publication.contacted_at is not None and publication.unreachable_since is None
    assert publication.acknowledged_change_at is not None
    assert live.differences() == []

    # Two more changes, sent together.
    record_next_hand(live.venue, by=alice, round_number=2, seats=[1, 2, 3, 4])
    assert publisher.look()
    services.post_announcement(event=live.venue, text="Round 3 after lunch", by=alice)
    assert publisher.look()
    assert not publisher.look()  # nothing new
    assert publisher.waiting() == 2

    publisher.send()

    publication = fresh(live.publication)
    assert publication.acknowledged == publication.captured == 3 and publisher.waiting() == 0
    assert PublishingLink.objects.get(event=live.site).acknowledged == 3
    assert live.differences() == []


def test_a_refusal_stops_the_publisher_with_the_reason(live, alice):
    publisher = Publisher(fresh(live.publication))
    publisher.step()
    assert fresh(live.publication).acknowledged == 1
    # A venue row the rules engine disagrees with (written past the services).
    record_next_hand(live.venue, by=alice, round_number=2, seats=[1, 2, 3, 4])
    hand = Hand.objects.filter(table__round__event=live.venue).latest("pk")
    HandScore.objects.filter(hand=hand, score__gt=0).update(score=F("score") + 5)
    assert publisher.look()

    with pytest.raises(Stopped) as stopped:
        send_pending(fresh(live.publication))
    assert "change 2" in str(stopped.value)
    assert "round 2, table 1, hand 3" in str(stopped.value)

    publisher.send()

    publication = fresh(live.publication)
    assert publication.refused == str(stopped.value)
    assert publication.acknowledged == 1
    link = PublishingLink.objects.get(event=live.site)
    assert link.refused_seq == 2 and "round 2, table 1, hand 3" in link.refused_reason
    assert (
        not Hand.objects.filter(table__round__event=live.site, table__round__number=2)
        .filter(number=3)
        .exists()
    )
    # Stopped, it sends nothing more until the director tries again.
    services.post_announcement(event=live.venue, text="Waiting", by=alice)
    publisher.step()
    assert fresh(live.publication).acknowledged == 1

    # Mended at the venue, tried again: the site takes the batch, mend and all.
    HandScore.objects.filter(hand=hand, score__gt=0).update(score=F("score") - 5)
    assert not publisher.look()  # written past the services: no history row moved
    publisher.full_look_at = 0.0  # a minute on, the whole look finds it
    assert publisher.look()
    outbox.retry_publishing(event=live.venue)
    publisher.publication.refused = ""  # as the publisher's loop reads it again
    publisher.send()

    publication = fresh(live.publication)
    assert publication.refused == "" and publication.acknowledged == publication.captured
    assert PublishingLink.objects.get(event=live.site).refused_seq is None
    assert live.differences() == []


def test_an_unreachable_site_is_noted_and_tried_again(live, live_server):
    Publication.objects.filter(pk=live.publication.pk).update(
        site=f"http://127.0.0.1:{closed_port()}"
    )
    publisher = Publisher(fresh(live.publication))
    assert publisher.look()

    with pytest.raises(Unreachable):
        send_pending(fresh(live.publication))
    publisher.send()

    publication = fresh(live.publication)
    assert publication.unreachable_since is not None and publication.problem
    assert publication.acknowledged == 0 and publication.captured == 1
    assert publisher.failures == 1
    since = publication.unreachable_since
    publisher.send()  # still failing: the time it first failed is kept
    assert fresh(live.publication).unreachable_since == since

    # Back again (the site's address mended here, the wait cut short).
    Publication.objects.filter(pk=live.publication.pk).update(site=live_server.url)
    publisher.publication = fresh(live.publication)
    publisher.wait_until = 0.0
    publisher.send()

    publication = fresh(live.publication)
    assert publication.unreachable_since is None and publication.problem == ""
    assert publication.acknowledged == 1 and publisher.failures == 0
    assert live.differences() == []


def test_after_a_restart_the_next_capture_holds_only_what_changed_since(live, alice):
    first = Publisher(fresh(live.publication))
    first.step()
    services.post_announcement(event=live.venue, text="Before the restart", by=alice)
    first.step()
    assert fresh(live.publication).acknowledged == 2
    del first  # the publisher's process ends

    number = record_next_hand(live.venue, by=alice, round_number=2, seats=[1, 2, 3, 4])
    restarted = Publisher(fresh(live.publication))
    assert restarted.look()

    change = latest_change(live.publication)
    assert change["seq"] == 3
    new_hand = Hand.objects.filter(table__round__event=live.venue).latest("pk")
    assert [h["id"] for h in change["rows"]["hands"]] == [new_hand.pk]
    assert change["rows"]["hands"][0]["number"] == number
    assert set(change["rows"]) <= {"hands", "hand_scores", "penalties", "standings", "seats"}
    assert set(change.get("history", {})) <= {"hands", "hand_scores", "penalties"}
    assert "gone" not in change and "announcements" not in change["rows"]
    assert len(OutgoingChange.objects.get(publication=live.publication, seq=3).body) < 4096
    assert not restarted.look()

    restarted.send()

    assert fresh(live.publication).acknowledged == 3
    assert live.differences() == []
