"""A series final seeded by rating across events (README, "Series"): the seeds follow
the shown rating (mu - 3 sigma), players not rated yet after the rated ones in series
order; round 1 seated `spread` uses those seeds; the ratings are brought up to date
first; a carried-over score still follows the series rank; a bad choice is refused
naming the field, with nothing written."""

from __future__ import annotations

import pytest

from core import background, derived, services
from core.errors import InvalidInput
from core.ratings import services as ratings
from scoring.models import PlayerRating, SeriesStanding
from tests.core.ratings_world import closed_round
from tests.core.test_series import leg
from tests.database import committed_once
from tests.fixtures import make_root
from tournaments.models import Entry, Event, Player, Seat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def circuit_world(django_db_setup, django_db_blocker):
    """The circuit and its director, built once for the module (`committed_once`)."""
    yield from committed_once(django_db_blocker, lambda: make_circuit(make_root()))


@pytest.fixture
def circuit(circuit_world, transactional_db):
    return circuit_world()


def make_circuit(root):
    """Eight qualifiers from two private legs (so the legs rate nobody) of a private
    series (a public series' legs are public events), and a public club night where six
    of them played: at each table the first seated goes out every hand, the later seats
    score more. P0 and P4 have never played a rated set."""
    p = [Player.objects.create(name=f"P{i}") for i in range(8)]
    guests = [Player.objects.create(name=f"Guest {i}") for i in range(2)]
    series = services.create_series(
        data={"slug": "circuit", "name": "Circuit", "points_scale": [10, 6, 4, 3],
              "qualifiers": 8, "public": False},
        by=root,
    )  # fmt: skip
    leg(series, p[0:4], day=1, public=False)
    leg(series, p[4:8], day=2, public=False)
    club = Event.objects.create(slug="club-night", name="Club night", rounds_planned=2)
    tables = [[p[7], p[6], p[5], guests[0]], [p[3], p[2], p[1], guests[1]]]
    for number in (1, 2):
        closed_round(club, tables, number=number)
    return series, p


def series_order(series) -> list[int]:
    return list(
        SeriesStanding.objects.filter(series=series, qualified=True)
        .order_by("rank")
        .values_list("player_id", flat=True)
    )


def expected_rating_order(qualified: list[int]) -> list[int]:
    shown = dict(PlayerRating.objects.values_list("player_id", "rating"))
    rated = sorted((p for p in qualified if p in shown), key=lambda p: -shown[p])
    return rated + [p for p in qualified if p not in shown]


def test_the_final_is_seeded_by_rating_with_the_unrated_last_in_series_order(circuit):
    series, p = circuit
    qualified = series_order(series)
    final = Event.objects.create(
        slug="final", name="Final", status=Event.Status.REGISTRATION, seating="spread"
    )
    order = services.create_final(series=series, event=final, seed_by="rating")
    assert order == expected_rating_order(qualified)
    assert order != qualified  # the rating disagrees with the series here
    # The two who went out every hand lead; the never-rated come last, in series order.
    assert set(order[:2]) == {p[7].pk, p[3].pk}
    assert order[-2:] == [x for x in qualified if x in (p[0].pk, p[4].pk)]
    seeds = dict(Entry.objects.filter(event=final).values_list("player_id", "seed_number"))
    assert [seeds[pid] for pid in order] == list(range(1, 9))

    # Round 1 seated "spread": the seeds are snaked over the two tables, so each pair of
    # seeds (1, 2), (3, 4), ... sits apart, and the two best rated never meet.
    services.start_round(event=final, policy="spread")
    table_of = dict(
        Seat.objects.filter(round__event=final).values_list("entry__player_id", "table__number")
    )
    for band in range(0, 8, 2):
        assert table_of[order[band]] != table_of[order[band + 1]]
    assert table_of[p[7].pk] != table_of[p[3].pk]


def test_by_default_and_by_series_the_seeds_follow_the_series_rank(circuit):
    series, _ = circuit
    qualified = series_order(series)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    assert services.create_final(series=series, event=final, seed_by="series") == qualified
    assert services.create_final(series=series, event=final) == qualified  # again: the same


def test_the_ratings_are_brought_up_to_date_before_seeding_by_them(circuit, monkeypatch):
    series, p = circuit
    # A round closes and its ratings job is lost: the ratings are stale.
    monkeypatch.setitem(background.JOBS, ratings.RATINGS, lambda key=0: None)
    late = Event.objects.create(slug="late", name="Late", rounds_planned=1)
    closed_round(late, [[p[0], p[1], p[2], p[3]]])
    monkeypatch.undo()
    assert derived.is_dirty(ratings.RATINGS, ratings.KEY)
    assert not PlayerRating.objects.filter(player=p[0]).exists()
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    order = services.create_final(series=series, event=final, seed_by="rating")
    assert not derived.is_dirty(ratings.RATINGS, ratings.KEY)
    assert PlayerRating.objects.filter(player=p[0]).exists()  # rated now, so seeded by it
    assert order == expected_rating_order(series_order(series))
    assert order[-1] == p[4].pk  # the only qualifier never rated


def test_a_carried_over_score_follows_the_series_rank_whatever_the_seeding(circuit):
    series, _ = circuit
    services.update_series(series=series, data={"carry_over_step": 10})
    qualified = series_order(series)
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    order = services.create_final(series=series, event=final, seed_by="rating")
    assert order != qualified
    carried = dict(Entry.objects.filter(event=final).values_list("player_id", "carried_points"))
    # Two legs of four with nobody in both: the winners are level (10 each, a 1st, no leg
    # in common), so are the seconds, ...: each pair carries the same, its best rank's.
    assert [carried[pid] for pid in qualified] == [0, 0, 20, 20, 40, 40, 60, 60]


def test_a_bad_seeding_is_refused_naming_the_field_and_nothing_is_written(circuit):
    series, _ = circuit
    final = Event.objects.create(slug="final", name="Final", status=Event.Status.REGISTRATION)
    for bad in ["elo", "", None, 1, ["rating"], "Rating"]:
        with pytest.raises(InvalidInput) as refused:
            services.create_final(series=series, event=final, seed_by=bad)
        assert list(refused.value.errors) == ["seed_by"]
        assert not Entry.objects.filter(event=final).exists()
    series.refresh_from_db()
    assert series.final_id is None
