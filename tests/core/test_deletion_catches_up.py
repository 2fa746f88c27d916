"""Deleting an event, however it is done (the admin, `demo_event --replace`, a queryset),
marks the ratings (and a leg's series standings) stale in the same transaction, so
they catch up by themselves: the ratings end exactly as if the event had never been
played."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin import site
from django.core.management import call_command
from django.utils import timezone

from core import background, derived, services
from core.ratings import services as ratings
from core.tasks import catch_up
from scoring.models import DerivedState, PlayerRating, RatedRound, SeriesStanding
from tests.core.ratings_world import closed_round, players
from tests.core.test_series import leg
from tests.fixtures import make_event
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db(transaction=True)
RATINGS = ratings.RATINGS


def current() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.sets) for r in PlayerRating.objects.all()}


@pytest.fixture
def two_events():
    """Event A (two rounds) rated first; then event B, where two of A's players met two
    newcomers. The ratings before B was played are kept to compare."""
    cast = players(6)
    a = make_event(slug="a", name="Event A", rounds_planned=2)
    for n in (1, 2):
        closed_round(a, [cast[0:4]], number=n)
    services.refresh_ratings()
    before_b = current()
    b = make_event(slug="b", name="Event B", rounds_planned=1)
    closed_round(b, [[cast[5], cast[4], cast[1], cast[0]]])
    services.refresh_ratings()
    assert current() != before_b and cast[4].pk in current()
    return cast, before_b


def lose_the_ratings_job(monkeypatch):
    monkeypatch.setitem(background.JOBS, RATINGS, lambda key=0: None)


def test_the_admins_delete_marks_the_ratings_stale_and_they_catch_up(
    two_events, root, monkeypatch, rf
):
    cast, before_b = two_events
    lose_the_ratings_job(monkeypatch)
    event = Event.objects.get(slug="b")
    # What the admin's delete view does once confirmed (its page refuses an event with
    # hands, whose rows the admin keeps read-only; the receivers do not depend on it).
    request = rf.post("/admin/")
    request.user = root
    site.get_model_admin(Event).delete_model(request, event)
    assert not Event.objects.filter(slug="b").exists()
    assert derived.is_dirty(RATINGS, ratings.KEY)
    monkeypatch.undo()
    assert catch_up_now() >= 1  # the periodic catch-up rebuilds them
    assert not derived.is_dirty(RATINGS, ratings.KEY)
    assert current() == before_b  # as if event B had never been played
    assert cast[4].pk not in current() and cast[5].pk not in current()
    services.refresh_ratings(full=True)
    assert current() == before_b  # and a full recomputation agrees


def test_a_queryset_delete_is_caught_up_by_the_job_at_once(two_events):
    _, before_b = two_events
    Event.objects.filter(slug="b").delete()  # the job runs once the delete commits
    assert not derived.is_dirty(RATINGS, ratings.KEY)
    assert current() == before_b


def test_demo_event_replace_leaves_the_ratings_up_to_date():
    call_command("demo_event", "--players", "8", "--rounds", "1", "--slug", "demo", "--seed", "3")
    assert RatedRound.objects.exists() and PlayerRating.objects.exists()
    call_command("demo_event", "--players", "8", "--rounds", "0", "--slug", "demo", "--replace")
    # The new demo closes no round: the old one's rated round went with it, and the
    # ratings are brought up to date (nobody rated from a round that is gone).
    assert not derived.is_dirty(RATINGS, ratings.KEY)
    assert not RatedRound.objects.exists() and not PlayerRating.objects.exists()


def catch_up_now() -> int:
    """The periodic catch-up, once the stale data has waited long enough for it."""
    DerivedState.objects.filter(dirty_since__isnull=False).update(
        dirty_since=timezone.now() - timedelta(seconds=60)
    )
    return catch_up()


def test_deleting_a_leg_ranks_its_series_again_without_it(root, monkeypatch):
    cast = [Player.objects.create(name=f"P{i}") for i in range(4)]
    series = services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 4, 3]}, by=root
    )
    leg(series, cast, day=1)
    leg(series, list(reversed(cast)), day=2)
    assert SeriesStanding.objects.get(series=series, player=cast[0]).points == 13
    monkeypatch.setitem(background.JOBS, background.SERIES_STANDINGS, lambda key: None)
    Event.objects.get(slug="leg-2").delete()
    assert derived.is_dirty(background.SERIES_STANDINGS, series.pk)
    monkeypatch.undo()
    assert catch_up_now() >= 1
    rows = SeriesStanding.objects.filter(series=series).order_by("rank")
    assert [(r.player_id, r.points) for r in rows] == [
        (p.pk, pts) for p, pts in zip(cast, [10, 6, 4, 3], strict=True)
    ]
