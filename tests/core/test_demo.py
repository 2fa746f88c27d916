from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from core.hands.stored import check_stored_hand
from game.seating import table_sizes
from scoring.models import Hand, HandScore
from tournaments.models import Event, Round, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Event:
    call_command("demo_event", players=34, rounds=3, seed=7, live=True, slug="demo")
    return Event.objects.get(slug="demo")


def test_every_generated_hand_obeys_every_rule(demo):
    """Each hand is what the rules engine gives for what a director would have typed:
    the same check an imported archive goes through."""
    hands = (
        Hand.objects.filter(table__round__event=demo, outcome="scored")
        .select_related("went_out", "table__round__event")
        .prefetch_related("scores__seat", "penalties__seat", "table__seats")
    )
    assert hands.count() > 100
    for hand in hands:
        seats = {s.position: s for s in hand.table.seats.all() if s.plays_hand(hand.number)}
        check_stored_hand(hand, seats)


def test_the_demo_has_the_colour_of_a_real_event(demo):
    scored = Hand.objects.filter(table__round__event=demo, outcome="scored")
    assert scored.filter(down_and_out=True).exists()
    assert Hand.objects.filter(table__round__event=demo, outcome="redeal").exists()
    assert scored.filter(penalties__kind="overcall").exists()
    assert HandScore.objects.filter(hand__in=scored).exclude(cards="").exists()
    points = list(
        HandScore.objects.filter(hand__in=scored, card_points__gt=0).values_list(
            "card_points", flat=True
        )
    )
    assert 20 < sum(points) / len(points) < 120  # a realistic average hand left over


def test_closed_rounds_are_complete_and_the_live_round_is_part_entered(demo):
    closed = demo.rounds.filter(status=Round.Status.CLOSED)
    assert closed.count() == 2
    for round_ in closed:
        for table in round_.tables.all():
            assert table.hands.filter(outcome="scored").count() == 9
    live = demo.rounds.get(number=3)
    assert live.status == Round.Status.PUBLISHED
    counts = [t.hands.filter(outcome="scored").count() for t in live.tables.all()]
    assert min(counts) < 9


def test_every_entry_is_seated_once_per_round_at_tables_of_four_or_five(demo):
    for round_ in demo.rounds.all():
        assert Seat.objects.filter(round=round_).count() == 34
        sizes = sorted(t.seats.count() for t in round_.tables.all())
        assert sizes == sorted(table_sizes(34)) == [4] * 6 + [5] * 2
        assert round_.quality["repeat_meetings"] == 0


def test_the_command_refuses_to_overwrite_unless_asked(demo):
    with pytest.raises(CommandError, match="--replace"):
        call_command("demo_event", players=34, rounds=3, slug="demo")
    call_command("demo_event", players=34, rounds=3, slug="demo", if_missing=True)
    assert Event.objects.filter(slug="demo").count() == 1
    call_command("demo_event", players=8, rounds=1, slug="demo", replace=True)
    assert Event.objects.get(slug="demo").entries.count() == 8


def test_the_same_seed_makes_the_same_event():
    call_command("demo_event", players=12, rounds=2, seed=3, slug="a")
    call_command("demo_event", players=12, rounds=2, seed=3, slug="b")

    def sheet(slug):
        return list(
            HandScore.objects.filter(hand__table__round__event__slug=slug)
            .order_by(
                "hand__table__round__number",
                "hand__table__number",
                "hand__number",
                "seat__position",
            )
            .values_list("score", flat=True)
        )

    assert sheet("a") == sheet("b")


def test_an_upcoming_event_takes_entries_and_has_no_round_yet():
    call_command("demo_event", players=0, rounds=0, planned=3, slug="upcoming", name="Upcoming")
    event = Event.objects.get(slug="upcoming")
    assert (event.status, event.rounds_planned) == ("registration", 3)
    assert not event.rounds.exists() and not event.entries.exists()


def test_the_sample_csv_imports_into_the_upcoming_event():
    from pathlib import Path

    call_command("demo_event", players=0, rounds=0, planned=3, slug="upcoming", name="Upcoming")
    sample = Path(__file__).resolve().parents[2] / "docs" / "sample-players.csv"
    call_command("import_players", "upcoming", str(sample), "--noinput")
    assert Event.objects.get(slug="upcoming").entries.count() == 12


def test_a_demo_where_players_enter_gives_the_round_in_play_its_codes():
    call_command("demo_event", players=12, rounds=2, live=True, table_entry="players", slug="d")
    event = Event.objects.get(slug="d")
    assert event.table_entry == "players"
    live, played = event.rounds.get(number=2), event.rounds.get(number=1)
    seated = set(Seat.objects.filter(round=live).values_list("entry_id", flat=True))
    assert set(live.codes.values_list("entry_id", flat=True)) == seated
    assert not played.codes.exists()  # a closed round's codes would open nothing


def test_the_montego_bay_demo_is_in_montego_bay():
    call_command(
        "demo_event",
        "--players=0",
        "--rounds=0",
        "--planned=3",
        "--slug=montego-bay-open",
        "--name=Montego Bay Open",
        "--venue=Montego Bay, Jamaica",
        stdout=io.StringIO(),
    )
    assert Event.objects.get(slug="montego-bay-open").venue == "Montego Bay, Jamaica"
    with open("Makefile") as makefile:
        assert '--venue "Montego Bay, Jamaica"' in makefile.read()
