"""The standings document the standings job keeps for a new version, made from the rows
its rebuild wrote (and the rows its last document made), is the document read back from
the database at that version, row for row: on random events with corrections,
withdrawals, forced closes, reopened rounds and namesakes made and undone, and with a
no-show a substitute replaced."""

from __future__ import annotations

import contextlib

import pytest
from django.core.cache import cache
from hypothesis import given, settings
from hypothesis import strategies as st

from core import services
from core.errors import ServiceError
from core.standings.document import MADE
from core.standings.selectors import build_standings, standings_key
from game.rules import HandEntry, SeatEntry
from tests.core.test_standings_incremental import EVENTS, FORMATS, SIZES, act, hand_action
from tests.fixtures import make_entries, make_event, make_round, named_entries
from tests.substitutes import NAMES, NO_SHOW, play_round
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db

actions = st.lists(
    st.one_of(
        hand_action,
        hand_action,
        hand_action,
        st.tuples(st.just("delete"), st.integers(1, 2), st.integers(1, 9)),
        st.tuples(st.just("withdraw"), st.integers(0, 8), st.integers(0, 9)),
        st.tuples(st.just("close")),
        st.tuples(st.just("reopen")),
        st.tuples(st.just("next_round")),
        st.tuples(st.just("rename"), st.integers(0, 8), st.integers(0, 8)),
    ),
    min_size=1,
    max_size=20,
)


def kept_after_rebuild(event: Event, capture) -> object:
    """Rebuild as the standings job does, and the document it kept for the version."""
    with capture(execute=True):
        services.refresh_standings(event=event, warm=True)
    event.refresh_from_db()
    return cache.get(standings_key(event))


def rename(event: Event, action: tuple) -> None:
    """A player given another's name (namesakes, told apart on the lists), or their
    own back."""
    entries = list(Entry.objects.filter(event=event).order_by("seed_number"))
    player = entries[action[1] % len(entries)].player
    other = entries[action[2] % len(entries)].player
    name = other.name if other != player else f"Player {player.pk}"
    services.update_player(player=player, name=name)


@settings(EVENTS, max_examples=15)
@given(sizes=SIZES, steps=actions, format=FORMATS)
def test_the_kept_document_is_the_one_read_from_the_database(
    sizes, steps, format, django_capture_on_commit_callbacks
):
    event = make_event(rounds_planned=3, format=format)
    make_round(event, table_sizes=sizes, entries=make_entries(event, sum(sizes)))
    for action in steps:
        with contextlib.suppress(ServiceError):  # refused, nothing written
            if action[0] == "rename":
                rename(event, action)
            else:
                act(event, action)
        event.refresh_from_db()
        kept = kept_after_rebuild(event, django_capture_on_commit_callbacks)
        assert kept == build_standings(event, None), action


def saving_first_hands(event: Event, capture):
    """Save hand 1 at a table of the event's round (seat 1 went out, seats 2-4 scored
    `points`), then rebuild as the job does: the document it kept."""
    round_ = event.rounds.get()

    def save(table: int, points: tuple[int, int, int], version: int | None = None) -> object:
        scores = tuple(SeatEntry(seat=s, points=p) for s, p in zip((2, 3, 4), points, strict=True))
        entry = HandEntry(went_out=1, scores=(SeatEntry(seat=1, points=0), *scores))
        table = round_.tables.get(number=table)
        services.record_hand(table=table, number=1, entry=entry, expected_version=version)
        event.refresh_from_db()
        return kept_after_rebuild(event, capture)

    return save


def test_a_correction_makes_again_only_its_row_and_its_neighbours_notes(
    django_capture_on_commit_callbacks,
):
    event = make_event(format="total")
    round_ = make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    save = saving_first_hands(event, django_capture_on_commit_callbacks)

    for table in (1, 2, 3):
        save(table, (10 + table, 20 + table, 30 + table))
    first = MADE.get(event.pk).rows
    kept = save(3, (13, 23, 34), version=1)  # 34, not 33: still last
    assert kept == build_standings(event, None)
    again = MADE.get(event.pk).rows
    last = round_.tables.get(number=3).seats.get(position=4).entry.player_id
    assert [row.player.id for row in again][-1] == last and again[-1].points == 34
    assert again[-1] is not first[-1]
    assert all(again[i] is first[i] for i in range(len(first) - 2))  # not its neighbour's


def test_the_players_passed_are_moved_not_made_again(django_capture_on_commit_callbacks):
    event = make_event(format="total")
    round_ = make_round(event, table_sizes=(4, 4, 4), entries=make_entries(event, 12))
    save = saving_first_hands(event, django_capture_on_commit_callbacks)

    for table in (1, 2, 3):
        save(table, (10, 10, 30 + table))  # two tied on 10 at every table: tie notes
    first = {row.player.id: row for row in MADE.get(event.pk).rows}
    kept = save(3, (10, 10, 5), version=1)  # 5, not 33: past the six on 10, and 31 and 32
    assert kept == build_standings(event, None)
    again = MADE.get(event.pk).rows
    mover = round_.tables.get(number=3).seats.get(position=4).entry.player_id
    passed = [r for r in again if r.player.id != mover and r.rank != first[r.player.id].rank]
    assert len(passed) == 8
    # Each a copy of its row before at its new place: the same player, incomplete sets
    # and note, not made again from the stored values.
    assert all(r.player is first[r.player.id].player for r in passed)
    assert any(r.tie for r in passed)
    assert next(r for r in again if r.player.id == mover).player is not first[mover].player


def test_a_no_show_replaced_and_namesakes_read_as_the_database_says(
    django_capture_on_commit_callbacks,
):
    event = make_event(slug="kingston", rounds_planned=2)
    entries = named_entries(event, NAMES)
    services.substitute_entry(entry=entries[NO_SHOW], name="Jane Doe", club="Ocho Rios Club")
    services.update_player(player=entries[0].player, name="Marcia Reid")  # a namesake
    play_round(event, 1)
    kept = kept_after_rebuild(event, django_capture_on_commit_callbacks)
    assert kept == build_standings(event, None)
    errol = next(row for row in kept.rows if row.player.name == "Errol Ferguson")
    assert errol.replaced_by is not None and errol.replaced_by.name == "Jane Doe"
    assert sorted(row.name for row in kept.rows if row.player.name == "Marcia Reid") == [
        "Marcia Reid (1)",
        "Marcia Reid (2)",
    ]
