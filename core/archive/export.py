"""Building an event's archive (the format is described in core.archive)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timezone as dt_timezone
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, models
from django.db.models import Q
from django.utils import timezone

from core.archive import (
    BY_NAME,
    EVENT_FIELDS,
    FORMAT,
    HISTORY_SECTIONS,
    HOUSE_RULES,
    PLAYERS,
    SECTIONS,
    VERSION,
    Section,
    checksum,
    encode,
    renumber_quality,
)
from core.common import author_and_reason
from scoring.models import Hand
from tournaments.models import Entry, Event, Player, Round, Table


def history_rows(section: Section, event: Event) -> models.QuerySet:
    """The history rows of the event's objects, deleted ones included: subqueries, so
    no list of ids is sent to the database whatever the event's size."""
    history = section.history_model._default_manager
    rounds = Round.objects.filter(event=event).values("pk")
    table_ids = Table.objects.filter(round__event=event).values("pk")
    old_table_ids = Table.history.model._default_manager.filter(round_id__in=rounds).values("id")
    hand_ids = Hand.objects.filter(table__round__event=event).values("pk")
    old_hand_ids = Hand.history.model._default_manager.filter(
        Q(table_id__in=table_ids) | Q(table_id__in=old_table_ids)
    ).values("id")
    filters = {
        "entries": Q(event_id=event.pk),
        "rounds": Q(event_id=event.pk),
        "tables": Q(round_id__in=rounds),
        "seats": Q(round_id__in=rounds),
        "hands": Q(table_id__in=table_ids) | Q(table_id__in=old_table_ids),
        "hand_scores": Q(hand_id__in=hand_ids) | Q(hand_id__in=old_hand_ids),
        "penalties": Q(hand_id__in=hand_ids) | Q(hand_id__in=old_hand_ids),
        "proposals": Q(table_id__in=table_ids) | Q(table_id__in=old_table_ids),
        "clocks": Q(round_id__in=rounds),
    }
    return history.filter(filters[section.name]).order_by("history_date", "history_id")


def live_rows(section: Section, event: Event) -> models.QuerySet:
    manager = section.model._default_manager
    filters = {
        "entries": Q(event=event),
        "rounds": Q(event=event),
        "tables": Q(round__event=event),
        "seats": Q(round__event=event),
        "hands": Q(table__round__event=event),
        "hand_scores": Q(hand__table__round__event=event),
        "adjusted_scores": Q(seat__round__event=event),
        "penalties": Q(hand__table__round__event=event),
        "codes": Q(round__event=event),
        "proposals": Q(table__round__event=event),
        "standings": Q(event=event),
        "clocks": Q(round__event=event),
        "announcements": Q(event=event),
    }
    return manager.filter(filters[section.name]).order_by(*ORDER.get(section.name, ("pk",)))


# The sections without ids, in the order of what is unique in them (`core.publishing.
# state.NATURAL_KEYS`), not of their rows' ids: a standing keeps its id while its place
# moves (`core.standings.services.update_places`), so two copies of one event ranked by
# different runs of rebuilds hold the same rows under ids in another order.
ORDER = {"standings": ("round_id", "entry_id"), "adjusted_scores": ("seat_id", "number")}


class Numbering:
    """The archive's numbers for one section's source ids: 1, 2, 3... in the given order
    (or, `identity`, the source ids themselves: what a venue publishes)."""

    def __init__(self, ids: Iterable[int], *, identity: bool = False):
        self.numbers = {source: source if identity else n for n, source in enumerate(ids, 1)}

    def __getitem__(self, source: int | None) -> int | None:
        return None if source is None else self.numbers[source]


def build_payload(
    event: Event, *, identity: bool = False, history_after: dict[str, int] | None = None
) -> dict[str, Any]:
    """The archive's payload for `event`: a fixed number of queries. With `identity`,
    rows keep this database's ids and history rows their own (`history_id`): the state a
    venue publishes (`core.publishing.state`), which may ask only for the history rows
    after those it has (`history_after`, by section)."""
    live = {s.name: list(live_rows(s, event)) for s in SECTIONS if s is not PLAYERS}
    after = history_after or {}
    history = {
        s.name: list(history_rows(s, event).filter(history_id__gt=after.get(s.name, 0)))
        for s in HISTORY_SECTIONS
    }
    # Every source id a section's rows have or are referred to by.
    seen: dict[str, set[int]] = {s.name: set() for s in SECTIONS}
    for name, rows in [*live.items(), *history.items()]:
        section = BY_NAME[name]
        for obj in rows:
            if section.has_ids:
                seen[name].add(obj.id)
            for ref, target in section.refs.items():
                value = getattr(obj, f"{ref}_id")
                if value is not None:
                    seen[target].add(value)
    old_players = Entry.history.model._default_manager.filter(event_id=event.pk)
    players = list(
        Player.objects.filter(
            Q(entries__event=event) | Q(pk__in=old_players.values("player_id"))
        ).distinct()
    )
    # Players in an order of their own, the same in every installation (ids are not);
    # then any that only history names, since deleted from the registry.
    players.sort(key=lambda p: (p.name, p.club, str(p.country), p.created_at, p.pk))
    known = {p.pk for p in players}
    numbering = {name: Numbering(sorted(ids), identity=identity) for name, ids in seen.items()}
    numbering["players"] = Numbering(
        [*(p.pk for p in players), *sorted(seen["players"] - known)], identity=identity
    )
    directors = list(event.directors.all())
    user_ids = {user.pk for user in directors}
    for name, rows in [*live.items(), *history.items()]:
        for obj in rows:
            for user_field in BY_NAME[name].users:
                user_ids.add(getattr(obj, f"{user_field}_id"))
    for rows in history.values():
        user_ids |= {obj.history_user_id for obj in rows}
    usernames = dict(
        get_user_model()
        ._default_manager.filter(pk__in=user_ids - {None})
        .values_list("pk", get_user_model().USERNAME_FIELD)
    )

    def row(section: Section, obj: models.Model, *, historical: bool = False) -> dict[str, Any]:
        fields_of = type(obj)._meta
        out: dict[str, Any] = {}
        if section.has_ids or historical:
            out["id"] = numbering[section.name][obj.id]
        for name in section.fields:
            out[name] = encode(fields_of.get_field(name), getattr(obj, name))
        for ref, target in section.refs.items():
            out[ref] = numbering[target][getattr(obj, f"{ref}_id")]
        for user_field in section.users:
            out[user_field] = usernames.get(getattr(obj, f"{user_field}_id"))
        if section.name == "rounds":
            out["quality"] = renumber_quality(out["quality"], numbering["entries"].numbers)
        if historical and identity:
            out["history_id"] = obj.history_id
        if historical:
            out["history_date"] = encode(fields_of.get_field("history_date"), obj.history_date)
            out["history_type"] = obj.history_type
            out["history_change_reason"] = obj.history_change_reason
            out["history_user"] = usernames.get(obj.history_user_id)
            if obj.history_user_id is None:  # an imported author, named in the reason
                out["history_user"], out["history_change_reason"] = author_and_reason(
                    obj.history_change_reason
                )
        return out

    payload: dict[str, Any] = {
        "event": {
            name: encode(Event._meta.get_field(name), getattr(event, name)) for name in EVENT_FIELDS
        }
    }
    payload["event"]["directors"] = sorted(usernames[u.pk] for u in directors)
    payload["event"][HOUSE_RULES] = event.house_values
    payload["players"] = [row(PLAYERS, p) for p in players]
    payload["players"].sort(key=lambda r: r["id"])
    for name, rows in live.items():
        payload[name] = [row(BY_NAME[name], obj) for obj in rows]
    payload["history"] = {
        name: [row(BY_NAME[name], obj, historical=True) for obj in rows]
        for name, rows in history.items()
    }
    return payload


def export_event(event: Event) -> dict[str, Any]:
    """The whole event as an archive document (see core.archive)."""
    payload = build_payload(event)
    return {
        "format": FORMAT,
        "version": VERSION,
        "checksum": checksum(payload),
        "exported_at": timezone.now().astimezone(dt_timezone.utc).isoformat(),
        "database": connection.vendor,
        "payload": payload,
    }
