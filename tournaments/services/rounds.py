"""The round lifecycle: start -> seated by a Celery task -> draft (the director may swap
or move players) -> published (in play) -> closed.

Seating itself is the pure `tournaments.seating`; this module gathers its input from
the database (who is active, who has met whom, the standings, who has dealt first)
and stores its output as tables and seats with history.
"""

from __future__ import annotations

import secrets
from collections import Counter, defaultdict
from itertools import combinations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from tournaments.errors import InvalidInput, StateConflict
from tournaments.models import MAX_SEATS, MIN_SEATS, Entry, Event, Round, Seat, Table
from tournaments.services.events import with_history_user

MAX_SEED = 2**62


def queue_seating(round_: Round) -> None:
    from tournaments import tasks

    round_id = round_.pk
    transaction.on_commit(lambda: tasks.seat_round.delay(round_id))


def queue_standings(event: Event) -> None:
    from scoring.services import queue_standings_refresh

    queue_standings_refresh(event)


def choose_policy(event: Event, number: int, requested: str | None) -> str:
    if event.format == Event.Format.KNOCKOUT and number > 1:
        if requested not in (None, "knockout"):
            raise InvalidInput(
                "A knockout event seats the players who advanced; no other policy applies.",
                field="policy",
            )
        return "knockout"
    if requested is not None:
        if requested not in Event.Seating.values:
            valid = ", ".join(Event.Seating.values)
            raise InvalidInput(f"{requested!r} is not a seating policy ({valid}).", field="policy")
        return requested
    if number == 1:
        return "spread" if event.seating == Event.Seating.SPREAD else "random"
    return event.seating


def check_seed(seed: object) -> int:
    if seed is None:
        return secrets.randbelow(MAX_SEED)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise InvalidInput(
            f"The seed must be a whole number from 0 to {MAX_SEED - 1}.", field="seed"
        )
    return seed


@transaction.atomic
def start_round(
    *,
    event: Event,
    policy: str | None = None,
    seed: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Round:
    """Start the next round; a Celery task seats it (the round is 'seating' until then)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.FINISHED:
        raise StateConflict("The event is finished.", field="event")
    last = event.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise StateConflict(
            f"Round {last.number} is {last.get_status_display().lower()}; "
            "close it before starting the next.",
            field="round",
        )
    number = 1 if last is None else last.number + 1
    if number > event.rounds_planned:
        raise StateConflict(
            f"The event planned {event.rounds_planned} rounds; raise rounds_planned to add one.",
            field="round",
        )
    chosen = choose_policy(event, number, policy)
    active = contenders_for(event, chosen)
    if len(active) < MIN_SEATS:
        who = "players advanced" if chosen == "knockout" else "players are active"
        raise InvalidInput(
            f"At least {MIN_SEATS} players are needed to seat a round; {len(active)} {who}.",
            field="players",
        )
    round_ = Round.objects.create(
        event=event,
        number=number,
        status=Round.Status.SEATING,
        policy=chosen,
        seed=check_seed(seed),
    )
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status", "updated_at"])
    queue_seating(round_)
    return round_


@transaction.atomic
def reseat_round(
    *, round: Round, seed: int | None = None, by: AbstractBaseUser | None = None
) -> Round:
    """Draw a draft round's seating again (after entries changed, or for another draw)."""
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status not in (Round.Status.DRAFT, Round.Status.SEATING):
        raise StateConflict(
            f"Round {round_.number} is {round_.status}; only a draft can be seated again.",
            field="round",
        )
    for seat in Seat.objects.filter(round=round_):
        with_history_user(seat, by).delete()
    round_.tables.all().delete()
    round_.status = Round.Status.SEATING
    if seed is not None:
        round_.seed = check_seed(seed)
    round_.quality = {}
    round_.save()
    queue_seating(round_)
    return round_


def contenders_for(event: Event, policy: str) -> list[Entry]:
    """The entries to seat: the active ones, or for a knockout those who advanced."""
    active = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).select_related("player")
    if policy != "knockout":
        return list(active)
    from scoring.models import Standing

    last_closed = event.rounds.filter(status=Round.Status.CLOSED).order_by("-number").first()
    advanced = Standing.objects.filter(round=last_closed, status=Standing.Status.ACTIVE)
    return list(active.filter(pk__in=advanced.values("entry_id")))


def meetings(event: Event, *, before: int) -> dict[frozenset[int], int]:
    """How often each pair of entries has shared a table in rounds before `before`."""
    at_table: dict[int, list[int]] = defaultdict(list)
    rows = Seat.objects.filter(round__event=event, round__number__lt=before).values_list(
        "table_id", "entry_id"
    )
    for table_id, entry_id in rows:
        at_table[table_id].append(entry_id)
    met: Counter[frozenset[int]] = Counter()
    for entries in at_table.values():
        for a, b in combinations(sorted(entries), 2):
            met[frozenset((a, b))] += 1
    return dict(met)


def latest_ranks(event: Event, *, before: int) -> dict[int, int]:
    from scoring.models import Standing

    last = (
        Round.objects.filter(event=event, number__lt=before, standings__isnull=False)
        .order_by("-number")
        .first()
    )
    if last is None:
        return {}
    return dict(Standing.objects.filter(round=last).values_list("entry_id", "rank"))


def build_request(round_: Round):
    from tournaments import seating

    event = round_.event
    entries = contenders_for(event, round_.policy)
    ranks = latest_ranks(event, before=round_.number)
    earlier = Seat.objects.filter(round__event=event, round__number__lt=round_.number)
    dealt = dict(
        earlier.values("entry_id")
        .annotate(n=Count("pk", filter=Q(first_dealer=True)))
        .values_list("entry_id", "n")
    )
    positions: dict[int, list[int]] = defaultdict(list)
    for entry_id, position in earlier.order_by("round__number").values_list("entry_id", "position"):
        positions[entry_id].append(position)
    contenders = tuple(
        seating.Contender(
            id=entry.pk,
            seed=entry.seed_number,
            rating=entry.player.rating,
            rank=ranks.get(entry.pk),
            dealt_first=dealt.get(entry.pk, 0),
            positions=tuple(positions[entry.pk]),
        )
        for entry in sorted(entries, key=lambda e: e.pk)
    )
    return seating.SeatingRequest(
        contenders=contenders,
        met=meetings(event, before=round_.number),
        policy=round_.policy,
        odd_tables=event.odd_tables,
        seed=round_.seed,
    )


@transaction.atomic
def seat_round(*, round_id: int) -> Round:
    """Compute and store the seating of a round that is waiting for it.

    Idempotent: a round that is already seated (or gone further) is left as it is.
    Takes the round's row lock, so two workers given the same round seat it once.
    """
    from tournaments import seating

    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_id)
    if round_.status != Round.Status.SEATING:
        return round_
    try:
        plan = seating.seat(build_request(round_))
    except seating.SeatingError as error:
        # Someone withdrew meanwhile: leave an empty draft that says why.
        round_.status = Round.Status.DRAFT
        round_.quality = {"error": str(error)}
        round_.save(update_fields=["status", "quality"])
        return round_
    tables = Table.objects.bulk_create([Table(round=round_, number=t.number) for t in plan.tables])
    seats = [
        Seat(
            table=table,
            round=round_,
            entry_id=entry_id,
            position=position,
            first_dealer=position == planned.dealer,
        )
        for table, planned in zip(tables, plan.tables, strict=True)
        for position, entry_id in enumerate(planned.seats, start=1)
    ]
    bulk_create_with_history(seats, Seat, default_change_reason="seated")
    round_.status = Round.Status.DRAFT
    round_.quality = plan.quality.as_dict()
    round_.save(update_fields=["status", "quality"])
    return round_


def table_lists(round_: Round) -> list[list[int]]:
    by_table: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for table_number, position, entry_id in Seat.objects.filter(round=round_).values_list(
        "table__number", "position", "entry_id"
    ):
        by_table[table_number].append((position, entry_id))
    return [[e for _, e in sorted(by_table[n])] for n in sorted(by_table)]


def refresh_quality(round_: Round) -> None:
    """Recompute the quality report after the director changed the seating by hand."""
    from tournaments import seating

    ranks = latest_ranks(round_.event, before=round_.number)
    quality = seating.assess(
        table_lists(round_),
        meetings(round_.event, before=round_.number),
        ranks or None,
        policy=round_.policy,
    )
    round_.quality = quality.as_dict()
    round_.save(update_fields=["quality"])


def check_adjustable(round_: Round, tables: list[Table]) -> None:
    """The director may change a draft's seating, or a published round's before any hand
    is recorded at the tables concerned."""
    from scoring.models import Hand

    if round_.status == Round.Status.DRAFT:
        return
    if (
        round_.status == Round.Status.PUBLISHED
        and not Hand.objects.filter(table__in=tables).exists()
    ):
        return
    raise StateConflict(
        f"Round {round_.number} is {round_.status}"
        + (" and hands are recorded at these tables" if round_.status == "published" else "")
        + "; its seating can no longer change.",
        field="round",
    )


def seat_of(round_: Round, entry: Entry, field: str) -> Seat:
    seat = Seat.objects.filter(round=round_, entry=entry).select_related("table").first()
    if seat is None:
        raise InvalidInput(
            f"{entry.player.name} is not seated in round {round_.number}.", field=field
        )
    return seat


@transaction.atomic
def swap_players(
    *, round: Round, first: Entry, second: Entry, by: AbstractBaseUser | None = None
) -> Round:
    """Swap two players' places (table and seat)."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    a, b = seat_of(round_, first, "first"), seat_of(round_, second, "second")
    if a.pk == b.pk:
        raise InvalidInput("Choose two different players to swap.", field="second")
    check_adjustable(round_, [a.table, b.table])
    # Seats are unique per (round, entry) and (table, position): replace both rows.
    places = [
        (a.table, a.position, a.first_dealer, second),
        (b.table, b.position, b.first_dealer, first),
    ]
    for seat in (a, b):
        with_history_user(seat, by).delete()
    for table, position, dealer, entry in places:
        seat = Seat(table=table, round=round_, entry=entry, position=position, first_dealer=dealer)
        with_history_user(seat, by).save()
    refresh_quality(round_)
    return round_


@transaction.atomic
def move_player(
    *, round: Round, entry: Entry, table_number: int, by: AbstractBaseUser | None = None
) -> Round:
    """Move a player to the last seat of another table (or of a new table, numbered
    one past the last). Both tables must keep 3 to 6 players."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    seat = seat_of(round_, entry, "player")
    source = seat.table
    last_number = round_.tables.count()
    if not isinstance(table_number, int) or not 1 <= table_number <= last_number + 1:
        raise InvalidInput(
            f"Choose a table from 1 to {last_number}, or {last_number + 1} for a new table.",
            field="table",
        )
    if table_number == source.number:
        raise InvalidInput(
            f"{entry.player.name} already sits at table {table_number}.", field="table"
        )
    target = round_.tables.filter(number=table_number).first()
    check_adjustable(round_, [source] + ([target] if target else []))
    source_size = source.seats.count()
    if source_size - 1 < MIN_SEATS:
        raise InvalidInput(
            f"Table {source.number} would keep only {source_size - 1} players; "
            f"a table needs at least {MIN_SEATS}.",
            field="table",
        )
    if target is None:
        target = Table.objects.create(round=round_, number=table_number)
    target_size = target.seats.count()
    if target_size + 1 > MAX_SEATS:
        raise InvalidInput(f"Table {table_number} already has {MAX_SEATS} players.", field="table")
    was_dealer = seat.first_dealer
    with_history_user(seat, by).delete()
    # Close the gap at the old table, keeping positions 1..n.
    for other in source.seats.filter(position__gt=seat.position).order_by("position"):
        other.position -= 1
        with_history_user(other, by).save()
    if was_dealer:
        first = source.seats.get(position=1)
        first.first_dealer = True
        with_history_user(first, by).save()
    moved = Seat(
        table=target,
        round=round_,
        entry=entry,
        position=target_size + 1,
        first_dealer=target_size == 0,
    )
    with_history_user(moved, by).save()
    refresh_quality(round_)
    return round_


def check_table_sizes(round_: Round) -> None:
    sizes = dict(round_.tables.annotate(n=Count("seats")).values_list("number", "n"))
    if not sizes:
        reason = round_.quality.get("error", "it has no tables")
        raise StateConflict(f"Round {round_.number} cannot be published: {reason}", field="round")
    wrong = [
        f"table {t} has {n}" for t, n in sorted(sizes.items()) if not MIN_SEATS <= n <= MAX_SEATS
    ]
    if wrong:
        raise StateConflict(
            f"Every table needs {MIN_SEATS} to {MAX_SEATS} players: {', '.join(wrong)}.",
            field="round",
        )


@transaction.atomic
def publish_round(*, round: Round, by: AbstractBaseUser | None = None) -> Round:
    """The draft seating becomes the official one; the round is in play."""
    round_ = Round.objects.select_for_update().get(pk=round.pk)
    if round_.status != Round.Status.DRAFT:
        already = {
            "published": "already published",
            "closed": "closed",
            "seating": "still being seated",
        }
        raise StateConflict(f"Round {round_.number} is {already[round_.status]}.", field="round")
    check_table_sizes(round_)
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    queue_standings(round_.event)  # the new round's live standings and progress
    return round_


def missing_hands(round_: Round) -> list[str]:
    """Each table that lacks scored hands, in words: 'table 3 has 7 of 9 hands'."""
    from scoring.selectors import hands_entered
    from scoring.services import ruleset_of

    needed = ruleset_of(round_.event).hand_count
    entered = hands_entered(round_)
    counts = [
        (table.number, len(entered.get(table.pk, ((), 0))[0]))
        for table in round_.tables.order_by("number")
    ]
    return [f"table {number} has {n} of {needed} hands" for number, n in counts if n < needed]


@transaction.atomic
def close_round(*, round: Round, force: bool = False, by: AbstractBaseUser | None = None) -> Round:
    """Close a round when every table has all its hands; `force` closes it anyway and is
    recorded. The round's standings are then final."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise StateConflict(
            f"Round {round_.number} is {round_.status}; only a round in play can be closed.",
            field="round",
        )
    missing = missing_hands(round_)
    if missing and not force:
        raise StateConflict(
            "Hands are missing: " + "; ".join(missing) + ". Enter them, or close with force.",
            field="force",
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.forced_close = bool(missing)
    round_.save(update_fields=["status", "closed_at", "forced_close"])
    event = round_.event
    if round_.number >= event.rounds_planned and event.status != Event.Status.FINISHED:
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status", "updated_at"])
    queue_standings(event)
    return round_


def reseat_draft_after_entry_change(event: Event, by: AbstractBaseUser | None) -> None:
    """An entry added or withdrawn while the next round is a draft: seat it again."""
    draft = event.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        reseat_round(round=draft, by=by)
