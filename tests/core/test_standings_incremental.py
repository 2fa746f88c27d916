"""The incremental standings rebuild (from the set totals every hand save keeps, writing
only the rows that changed) gives exactly what the full rebuild (every hand score
added up again) gives: on random events with corrections, redeals, deleted hands,
withdrawals with leave points, forced closes and reopened rounds."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import services
from core.errors import ServiceError
from core.hands import set_totals
from core.standings.rebuild import scored_totals
from core.standings.stored import WRITTEN
from game.rules import HandEntry, PenaltyEntry, SeatEntry
from scoring.models import SetTotal, Standing
from tests.fixtures import make_entries, make_event, make_round
from tournaments.models import Entry, Round, Seat

pytestmark = pytest.mark.django_db

HANDS = 9  # a Jamaican set

hand_action = st.tuples(
    st.just("hand"),
    st.integers(1, 2),  # table
    st.integers(1, HANDS),  # hand number
    st.integers(0, 4),  # who went out, among the seats playing it
    st.integers(1, 60),  # base points
    st.booleans(),  # an over-call penalty on the first loser
)
actions = st.lists(
    st.one_of(
        hand_action,
        hand_action,
        hand_action,
        st.tuples(st.just("redeal"), st.integers(1, 2), st.integers(1, HANDS)),
        st.tuples(st.just("delete"), st.integers(1, 2), st.integers(1, HANDS)),
        st.tuples(st.just("withdraw"), st.integers(0, 8), st.integers(0, HANDS)),
        st.tuples(st.just("close")),
        st.tuples(st.just("reopen")),
        st.tuples(st.just("next_round")),
    ),
    min_size=1,
    max_size=30,
)


# Random events: their tables, their format, and hypothesis's settings for a test that
# plays one through the services (a database per example).
SIZES = st.sampled_from([(4, 4), (5, 4), (4, 3)])
FORMATS = st.sampled_from(["total", "table-points", "knockout"])
EVENTS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def snapshot(round_: Round) -> dict[int, tuple]:
    rows = Standing.objects.filter(round=round_).values_list("entry_id", *WRITTEN)
    return {row[0]: row[1:] for row in rows}


def kept_totals(event) -> dict[int, dict]:
    kept = SetTotal.objects.filter(event=event).values("seat_id", *set_totals.FIELDS)
    return {row.pop("seat_id"): row for row in kept if row["hands_played"]}


def playing(table, number: int) -> list[int]:
    return [s.position for s in Seat.objects.filter(table=table) if s.plays_hand(number)]


def act(event, action) -> None:
    rounds = list(event.rounds.order_by("number"))
    round_ = rounds[-1]
    kind = action[0]
    if kind in ("hand", "redeal", "delete"):
        table = round_.tables.filter(number=action[1]).first()
        if table is None:
            return
        number = action[2]
        if kind == "redeal":
            services.record_hand(table=table, number=number, entry=HandEntry(redeal=True))
        elif kind == "delete":
            services.delete_hand(table=table, number=number)
        else:
            _, _, _, out, base, overcall = action
            seats = playing(table, number)
            if not seats:
                return
            went_out = seats[out % len(seats)]
            scores = tuple(
                SeatEntry(seat=s, points=0 if s == went_out else base + s) for s in seats
            )
            losers = [s for s in seats if s != went_out]
            penalties = (
                (PenaltyEntry(seat=losers[0], kind="overcall", extra_calls=1),)
                if overcall and losers
                else ()
            )
            entry = HandEntry(went_out=went_out, scores=scores, penalties=penalties)
            services.record_hand(table=table, number=number, entry=entry)
    elif kind == "withdraw":
        entries = list(Entry.objects.filter(event=event).order_by("seed_number"))
        services.withdraw_entry(entry=entries[action[1] % len(entries)], left_after_hand=action[2])
    elif kind == "close" and round_.status == Round.Status.PUBLISHED:
        services.close_round(round=round_, force=True)
    elif kind == "reopen" and round_.status == Round.Status.CLOSED:
        services.reopen_round(round=round_)
    elif kind == "next_round" and round_.status == Round.Status.CLOSED and len(rounds) < 3:
        active = list(
            Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).order_by("-seed_number")
        )
        if len(active) >= 6:
            sizes = (len(active) - len(active) // 2, len(active) // 2)
            make_round(event, number=round_.number + 1, table_sizes=sizes, entries=active)


# 20 random events: each runs up to 30 actions through the services and compares the
# incremental rebuild with the full one after every action (hundreds of comparisons a
# run, over the three formats and table sizes); 40 took twice the time, the suite's
# longest single test.
@settings(EVENTS, max_examples=20)
@given(sizes=SIZES, steps=actions, format=FORMATS)
def test_incremental_standings_equal_the_full_rebuild(sizes, steps, format):
    # total and table-points rank the round in play on the closed rounds' tallies
    # (kept per process); knockout ranks every round's sets.
    event = make_event(rounds_planned=3, format=format)
    entries = make_entries(event, sum(sizes))
    make_round(event, table_sizes=sizes, entries=entries)
    services.refresh_standings(event=event, full=True)
    for action in steps:
        with contextlib.suppress(ServiceError):  # refused, nothing written: the same for both
            act(event, action)
        event.refresh_from_db()
        services.refresh_standings(event=event)  # incremental once the totals are kept
        current = event.rounds.order_by("-number").first()
        incremental = snapshot(current)
        assert set_totals.is_kept(event.pk)
        assert kept_totals(event) == scored_totals(event=event)
        event.refresh_from_db()
        services.refresh_standings(event=event, full=True)
        assert snapshot(current) == incremental, action
        assert kept_totals(event) == scored_totals(event=event)


def test_a_hand_save_keeps_its_tables_set_totals():
    event = make_event()
    round_ = make_round(event, table_sizes=(4, 4))
    services.refresh_standings(event=event)
    assert set_totals.is_kept(event.pk)
    table = round_.tables.get(number=1)
    scores = tuple(SeatEntry(seat=s, points=0 if s == 2 else 10 * s) for s in range(1, 5))
    services.record_hand(table=table, number=1, entry=HandEntry(went_out=2, scores=scores))
    kept = {
        t.seat.position: (t.total, t.hands_won, t.hands_played)
        for t in SetTotal.objects.filter(seat__table=table).select_related("seat")
    }
    assert kept == {1: (10, 0, 1), 2: (0, 1, 1), 3: (30, 0, 1), 4: (40, 0, 1)}
    services.record_hand(table=table, number=1, entry=HandEntry(redeal=True), expected_version=1)
    assert SetTotal.objects.filter(seat__table=table, hands_played=0).count() == 4
    assert kept_totals(event) == scored_totals(event=event) == {}


def test_a_reopened_round_is_rebuilt_in_full():
    event = make_event()
    round_ = make_round(event, table_sizes=(4,))
    services.refresh_standings(event=event)
    services.close_round(round=round_, force=True)
    services.reopen_round(round=round_)
    assert not set_totals.is_kept(event.pk)
    services.refresh_standings(event=event)
    assert set_totals.is_kept(event.pk)


def save_first_hand(event, table, last: int, version: int | None = None) -> None:
    """Hand 1 at `table` (seat 4 scoring `last`), then the standings rebuilt."""
    points = {1: 0, 2: 5, 3: 6, 4: last}
    scores = tuple(SeatEntry(seat=s, points=p) for s, p in points.items())
    entry = HandEntry(went_out=1, scores=scores)
    services.record_hand(table=table, number=1, entry=entry, expected_version=version)
    event.refresh_from_db()
    services.refresh_standings(event=event)


def test_the_rebuild_writes_only_the_standings_that_changed():
    event = make_event()
    round_ = make_round(event, table_sizes=(4, 4, 4))
    table = round_.tables.get(number=3)
    save_first_hand(event, table, 7)
    before = dict(Standing.objects.filter(round=round_).values_list("entry_id", "pk"))
    save_first_hand(event, table, 8, version=1)  # seat 4 scored 8, not 7: still last
    after = dict(Standing.objects.filter(round=round_).values_list("entry_id", "pk"))
    assert after.keys() == before.keys()
    rewritten = {entry for entry in after if after[entry] != before[entry]}
    assert rewritten == {table.seats.get(position=4).entry_id}


def test_the_players_passed_keep_their_rows_and_only_move():
    event = make_event(format="total")
    round_ = make_round(event, table_sizes=(4, 4, 4))
    tables = list(round_.tables.order_by("number"))
    for table, last in zip(tables, (40, 30, 20), strict=True):
        save_first_hand(event, table, last)
    before = dict(Standing.objects.filter(round=round_).values_list("entry_id", "pk"))
    ranks = dict(Standing.objects.filter(round=round_).values_list("entry_id", "rank"))
    mover = tables[0].seats.get(position=4).entry_id
    save_first_hand(event, tables[0], 4, version=1)  # 4, not 40: last to fourth, past eight
    after = dict(Standing.objects.filter(round=round_).values_list("entry_id", "pk"))
    passed = {
        entry
        for entry, rank in Standing.objects.filter(round=round_).values_list("entry_id", "rank")
        if rank != ranks[entry] and entry != mover
    }
    assert len(passed) == 8
    assert all(after[entry] == before[entry] for entry in passed)  # updated in place
    assert after[mover] != before[mover]  # its figures changed: written again
    incremental = snapshot(round_)
    event.refresh_from_db()
    services.refresh_standings(event=event, full=True)
    assert snapshot(round_) == incremental


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)  # each save its own transaction, as in production
def test_the_players_passed_are_updated_in_their_pages():
    """On PostgreSQL a moved row is a heap-only update (no index entry written): neither
    its rank nor its movement is indexed, and the table keeps room in its pages
    (scoring migration 0014). The rows are written once before (one page, with room for
    the moved rows' new versions whether or not older ones can be pruned yet)."""
    from django.db import connection, transaction

    def updates() -> tuple[int, int]:  # this transaction's, on the standings table
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables "
                "WHERE relname = 'scoring_standing'"
            )
            return cursor.fetchone()  # pending counts, this transaction's and earlier ones'

    event = make_event(format="total")
    round_ = make_round(event, table_sizes=(4, 4))
    services.refresh_standings(event=event)  # every player under way at 0, drawn apart
    ranks = dict(Standing.objects.filter(round=round_).values_list("entry_id", "rank"))
    # The hand is played at the table whose players the last of the draw is not among:
    # three of them fall to the last three places, so at least that player moves up
    # (at the other table, the draw could leave every player of the other table where
    # they were: one draw in seventy).
    last = max(ranks, key=ranks.get)
    first = next(
        t for t in round_.tables.all() if last not in t.seats.values_list("entry_id", flat=True)
    )
    with transaction.atomic():  # one connection: its counts before and after the save
        updated, in_place = updates()
        save_first_hand(event, first, 40)  # three of its players fall to the last places
        now_updated, now_in_place = updates()
    at_first = set(first.seats.values_list("entry_id", flat=True))
    passed = {
        entry
        for entry, rank in Standing.objects.filter(round=round_).values_list("entry_id", "rank")
        if rank != ranks[entry] and entry not in at_first
    }
    assert last in passed  # the other table's players who moved up
    assert now_updated - updated == len(passed)  # each updated, not written again
    assert now_in_place - in_place == len(passed)  # each in its own page
    with connection.cursor() as cursor:  # pages written with room: for every event's rows
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = 'scoring_standing'")
        assert cursor.fetchone()[0] == ["fillfactor=80"]


def test_one_events_rows_are_read_without_sorting_by_the_event():
    """The rebuild's reads of one event's seats, entries and previous ranks, a hand's
    version (every save through the API asks it) and the previous round's ranks the
    seating reads, name their order on the rows' own
    joins: the models' default orders go on through the event's date and name, which
    joins the event (twice for a seat) and sorts thousands of rows on text."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from core.hands.selectors import hand_version
    from core.seating.selectors import latest_ranks

    event = make_event(rounds_planned=2, format="total")
    entries = make_entries(event, 8)
    first = make_round(event, table_sizes=(4, 4), entries=entries)
    for table in first.tables.all():
        save_first_hand(event, table, 12)
    first.status = Round.Status.CLOSED
    first.save()
    second = make_round(event, number=2, table_sizes=(4, 4), entries=entries)
    table = second.tables.order_by("number").first()
    with CaptureQueriesContext(connection) as captured:
        save_first_hand(event, table, 9)
        assert hand_version(table, 1) == 1
        assert sorted(latest_ranks(event, before=2).values()) == list(range(1, 9))  # seating
    orders = [q["sql"].rpartition("ORDER BY")[2] for q in captured if "ORDER BY" in q["sql"]]
    assert orders  # the seats and the entries are read in order
    assert not [order for order in orders if "starts_on" in order]


def test_the_command_rebuilds_in_full():
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    event = make_event(slug="kingston")
    round_ = make_round(event, table_sizes=(4,))
    services.refresh_standings(event=event)
    scores = tuple(SeatEntry(seat=s, points=0 if s == 1 else 7) for s in range(1, 5))
    services.record_hand(
        table=round_.tables.get(), number=1, entry=HandEntry(went_out=1, scores=scores)
    )
    SetTotal.objects.filter(event=event).update(total=999)  # however they went wrong
    out = StringIO()
    call_command("rebuild_standings", "kingston", stdout=out)
    assert out.getvalue().startswith("kingston: standings version")
    assert kept_totals(event) == scored_totals(event=event)
    assert sorted(Standing.objects.filter(round=round_).values_list("points", flat=True)) == [
        0, 7, 7, 7,
    ]  # fmt: skip
    with pytest.raises(CommandError, match="'nowhere'"):
        call_command("rebuild_standings", "nowhere")


def test_a_round_in_play_is_ranked_on_the_closed_rounds_figures():
    from core.standings import rebuild as read

    event = make_event(rounds_planned=2, format="table-points")
    entries = make_entries(event, 8)
    first = make_round(event, table_sizes=(4, 4), entries=entries)
    services.refresh_standings(event=event)
    for table in first.tables.all():
        for number in range(1, HANDS + 1):
            scores = tuple(
                SeatEntry(seat=s, points=0 if s == 1 else s * number) for s in (1, 2, 3, 4)
            )
            services.record_hand(
                table=table, number=number, entry=HandEntry(went_out=1, scores=scores)
            )
    services.close_round(round=first)
    second = make_round(event, number=2, table_sizes=(4, 4), entries=entries[::-1])
    table = second.tables.get(number=1)
    scores = tuple(SeatEntry(seat=s, points=0 if s == 2 else 9 * s) for s in (1, 2, 3, 4))
    services.record_hand(table=table, number=1, entry=HandEntry(went_out=2, scores=scores))
    event.refresh_from_db()
    services.refresh_standings(event=event)
    assert read.CLOSED_BASES.get(event.pk) is not None  # ranked on round 1's tallies
    incremental = snapshot(second)
    event.refresh_from_db()
    services.refresh_standings(event=event, full=True)
    assert snapshot(second) == incremental
    assert len(incremental) == 8


@pytest.mark.django_db(transaction=True)
def test_the_next_rebuild_compares_with_the_rows_this_process_wrote():
    from core.standings import rebuild as read

    event = make_event()
    round_ = make_round(event, table_sizes=(4, 4, 4))
    table = round_.tables.get(number=2)
    services.refresh_standings(event=event)
    assert read.WRITTEN_ROWS.get(event.pk)[:2] == (round_.pk, 1)  # kept once committed

    def save(number: int, last: int) -> None:
        scores = tuple(SeatEntry(seat=s, points=0 if s == 1 else last + s) for s in (1, 2, 3, 4))
        services.record_hand(table=table, number=number, entry=HandEntry(went_out=1, scores=scores))
        event.refresh_from_db()
        services.refresh_standings(event=event)

    save(1, 30)
    save(2, 5)
    incremental = snapshot(round_)
    kept = read.WRITTEN_ROWS.get(event.pk)[2]
    assert {entry: values for entry, (_pk, values) in kept.items()} == incremental
    # A row gone behind its back (a deleted entry's, say): the copy is not trusted.
    Standing.objects.filter(round=round_).order_by("rank").first().delete()
    save(3, 7)
    incremental = snapshot(round_)
    assert len(incremental) == 12
    event.refresh_from_db()
    services.refresh_standings(event=event, full=True)
    assert snapshot(round_) == incremental
