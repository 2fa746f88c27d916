"""Ratings across events (core.ratings.services): rated round by round in one global
order, incrementally, with the same numbers as a full recomputation."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from core import derived, services
from core.ratings.services import KEY, RATINGS
from scoring.models import PlayerRating, RatedRound, RatingChange
from tests.core.ratings_world import closed_round, players
from tests.fixtures import hand_at, make_event

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[list, list]:
    current = list(
        PlayerRating.objects.order_by("player_id").values_list(
            "player_id", "mu", "sigma", "rating", "sets", "movement", "rated_round__round_id"
        )
    )
    history = list(
        RatingChange.objects.order_by("sequence", "player_id").values_list(
            "player_id", "rated_round__round_id", "sequence", "mu", "sigma", "rating", "before"
        )
    )
    return current, history


def rating(player) -> PlayerRating:
    return PlayerRating.objects.get(player=player)


def test_a_player_who_wins_every_set_rises_above_everyone_they_beat():
    cast = players(8)
    winner, others = cast[0], cast[1:]
    event = make_event(rounds_planned=3)
    for n in range(1, 4):
        rotated = others[n:] + others[:n]
        closed_round(event, [[winner, *rotated[:3]], rotated[3:7]], number=n)
        services.refresh_ratings()
    best = rating(winner)
    assert best.sets == 3
    beaten = {p for n in range(1, 4) for p in (others[n:] + others[:n])[:3]}
    assert all(best.rating > rating(p).rating for p in beaten)
    assert all(best.mu > rating(p).mu for p in beaten)


def test_incremental_rebuilds_agree_exactly_with_a_full_recomputation():
    cast = players(12)
    a, b = make_event(slug="a"), make_event(slug="b")
    closed_round(a, [cast[0:4], cast[4:8]])
    services.refresh_ratings()
    closed_round(b, [cast[4:8], cast[8:12]], base=20)
    services.refresh_ratings()
    closed_round(
        a, [[cast[7], cast[1], cast[2], cast[3]], [cast[4], cast[5], cast[6], cast[0]]], number=2
    )
    services.refresh_ratings()
    services.refresh_ratings()  # nothing new: nothing changes
    incremental = snapshot()
    assert len(incremental[0]) == 12
    assert list(RatedRound.objects.values_list("sequence", flat=True)) == [1, 2, 3]
    PlayerRating.objects.all().delete()
    RatedRound.objects.all().delete()
    call_command("recompute_ratings", stdout=io.StringIO())
    assert snapshot() == incremental


def test_a_round_reopened_corrected_and_closed_again_is_rated_in_its_new_place():
    cast = players(8)
    a, b = make_event(slug="a"), make_event(slug="b")
    round_a = closed_round(a, [cast[0:4]])
    closed_round(b, [cast[2:6]])
    services.refresh_ratings()
    before = rating(cast[0]).rating
    assert list(RatedRound.objects.values_list("round_id", flat=True))[0] == round_a.pk

    services.reopen_round(round=round_a)
    services.refresh_ratings()
    # Out of the ratings while it is open: a's players only through b's round.
    assert not PlayerRating.objects.filter(player=cast[0]).exists()
    assert rating(cast[2]).sets == 1

    # Player 1 (seat 4) corrects to going out in every hand, then the round closes again.
    table = round_a.tables.get()
    for number in range(1, a.rules.hand_count + 1):
        services.record_hand(table=table, number=number, entry=hand_at(range(1, 5), went_out=4))
    round_a.refresh_from_db()
    services.close_round(round=round_a)
    services.refresh_ratings()
    order = list(RatedRound.objects.order_by("sequence").values_list("round_id", flat=True))
    assert order[-1] == round_a.pk  # closed last, rated last
    assert rating(cast[3]).rating > rating(cast[0]).rating
    assert rating(cast[0]).rating != before
    incremental = snapshot()
    call_command("recompute_ratings", stdout=io.StringIO())
    assert snapshot() == incremental


def test_private_events_are_not_rated_and_an_event_made_private_leaves_the_ratings():
    cast = players(8)
    hidden = make_event(slug="hidden", public=False)
    shown = make_event(slug="shown")
    closed_round(hidden, [cast[0:4]])
    closed_round(shown, [cast[4:8]])
    services.refresh_ratings()
    assert set(PlayerRating.objects.values_list("player_id", flat=True)) == {
        p.pk for p in cast[4:8]
    }
    services.update_event(event=shown, data={"public": False})
    assert derived.is_dirty(RATINGS, KEY)
    services.refresh_ratings()
    assert not PlayerRating.objects.exists()


def test_an_incomplete_set_is_left_out_and_the_tables_other_sets_rated():
    cast = players(8)
    event = make_event()
    closed_round(event, [cast[0:4], cast[4:8]], force_missing=2)
    services.refresh_ratings()
    assert set(PlayerRating.objects.values_list("player_id", flat=True)) == {
        p.pk for p in cast[0:4]
    }


def test_closing_a_round_marks_the_ratings_stale_and_the_job_rebuilds_them(
    django_capture_on_commit_callbacks,
):
    cast = players(4)
    event = make_event()
    with django_capture_on_commit_callbacks(execute=True):
        closed_round(event, [cast])
    assert not derived.is_dirty(RATINGS, KEY)
    assert PlayerRating.objects.count() == 4


def test_ratings_lost_on_the_way_are_caught_up(settings, monkeypatch):
    cast = players(4)
    event = make_event()
    closed_round(event, [cast])  # its job never ran (callbacks not executed)
    assert derived.is_dirty(RATINGS, KEY)
    derived.catch_up(grace=0)
    assert not derived.is_dirty(RATINGS, KEY)
    assert PlayerRating.objects.count() == 4


def test_an_event_deleted_leaves_the_ratings_as_if_it_had_never_been_played():
    cast = players(8)
    a, b, c = make_event(slug="a"), make_event(slug="b"), make_event(slug="c")
    closed_round(a, [cast[0:4]])
    closed_round(b, [cast[0:4]], base=30)
    closed_round(c, [cast[4:8]])
    services.refresh_ratings()
    b.delete()
    services.refresh_ratings()
    after = snapshot()
    assert list(RatedRound.objects.values_list("sequence", flat=True)) == [1, 2]
    call_command("recompute_ratings", stdout=io.StringIO())
    assert snapshot() == after
    assert rating(cast[0]).sets == 1
