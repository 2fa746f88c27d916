"""Checking an event archive and importing it as a new event (the format is described
in core.archive).

Importing checks the whole document first (`core.archive.reading`), then writes
everything in one transaction: players are matched by name, club and country (or
created), every other row gets new ids reserved from the database's own sequences (in
the archive's order, so exporting the imported event gives the same payload again),
and history rows keep their dates, authors (users known here, by username) and
reasons. Before it commits, the event is put through the services' own checks
(`core.archive.verify`). Anything wrong and nothing is written.

An archive grants nobody anything: its directors are not made directors here and no
user is created; only the user the importer names (`by`) directs the new event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.utils.translation import gettext as _

from core import stored_texts as st
from core.archive import (
    HISTORY_SECTIONS,
    IMPLICIT_EVENT,
    SECTIONS,
    ArchiveError,
    Section,
    renumber_quality,
)
from core.archive.reading import Checked, check_payload, load
from core.archive.replacing import CHOICES, REPLACE, already_held, check_replace, clear_event
from core.archive.verify import check_event_settings, verify_event
from core.caching import announce_version
from core.common import imported_reason, with_history_user
from core.copies.selectors import events_of
from core.entries.services import create_player
from core.errors import ServiceError
from core.events.access import visible_events as visible
from core.events.selectors import visible_players
from core.events.services import RESERVED_SLUGS
from core.ratings.services import queue_ratings_refresh
from core.screens.services import screens_changed
from core.series.standings import queue_series_refresh
from core.words import listing
from tournaments.models import Event, HouseRuleset, Player

# --- import --------------------------------------------------------------------------


def house_ruleset_for(values: dict[str, Any]) -> HouseRuleset:
    """The site's custom ruleset of that slug, or one made from the archived values (an
    event with hands plays to the values frozen into it either way)."""
    found = HouseRuleset.objects.filter(slug=values["slug"]).first()
    if found is not None:
        return found
    return HouseRuleset.objects.create(
        slug=values["slug"][:80],
        name=values["name"][:200],
        **{name: values[name] for name in HouseRuleset.VALUE_FIELDS},
    )


@dataclass
class Imported:
    event: Event
    players_created: int = 0
    players_matched: int = 0
    authors_unknown: list[str] = field(default_factory=list)
    directors_not_granted: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    # This site held the event already: it was replaced, or this is a copy of it.
    replaced: bool = False
    copy_of: str | None = None

    def summary(self) -> str:
        # The rows by the archive's own names for them ("rounds", "hand scores").
        rows = ", ".join(f"{n} {name.replace('_', ' ')}" for name, n in self.counts.items())
        text = _(
            "Imported %(name)s as %(slug)s: %(rows)s; players: %(created)s new, "
            "%(matched)s matched."
        ) % {
            "name": repr(self.event.name),
            "slug": repr(self.event.slug),
            "rows": rows,
            "created": self.players_created,
            "matched": self.players_matched,
        }
        parts = [text]
        if self.replaced:
            parts.append(
                _(
                    "It replaced the event held here (its address, directors and series "
                    "stay; its ratings and series count the archive's results)."
                )
            )
        elif not self.event.counted and self.copy_of:
            parts.append(
                _(
                    "It is a copy of %(original)s, left out of ratings and series until an "
                    "organiser counts it instead."
                )
                % {"original": repr(self.copy_of)}
            )
        elif not self.event.counted:
            parts.append(
                _(
                    "It is a copy, left out of ratings and series until an organiser counts "
                    "it instead."
                )
            )
        if self.authors_unknown:
            parts.append(
                _(
                    "Hands and announcements by users not known here are kept without who "
                    "recorded them: %(users)s."
                )
                % {"users": listing(self.authors_unknown)}
            )
        if self.directors_not_granted:
            parts.append(
                _(
                    "The archive's directors (%(users)s) were not made directors here; name "
                    "one with --director."
                )
                % {"users": listing(self.directors_not_granted)}
            )
        return " ".join(parts)


def reserve_ids(model: type[models.Model], count: int) -> list[int]:
    """`count` new primary keys from the table's own sequence, ascending, which no row
    will ever be given afterwards (history rows refer to ids of rows since deleted)."""
    if count == 0:
        return []
    table = model._meta.db_table
    column = model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), column, count],
            )
            return sorted(r[0] for r in cursor.fetchall())
        if connection.vendor == "sqlite":
            # AUTOINCREMENT tables never reuse a number below sqlite_sequence's.
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            found = cursor.fetchone()
            quote = connection.ops.quote_name
            cursor.execute(f"SELECT MAX({quote(column)}) FROM {quote(table)}")
            top = max(found[0] if found else 0, cursor.fetchone()[0] or 0)
            if found:
                cursor.execute(
                    "UPDATE sqlite_sequence SET seq = %s WHERE name = %s", [top + count, table]
                )
            else:
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, top + count]
                )
            return list(range(top + 1, top + count + 1))
    raise ArchiveError(f"Importing needs SQLite or PostgreSQL, not {connection.vendor}.")


def resolve_users(usernames: set[str], unknown: list[str]) -> dict[str, int]:
    """The users known here, by username, to keep history's authors. An archive never
    creates a user: one not known here is left out (noted in `unknown`)."""
    user_model = get_user_model()
    key = user_model.USERNAME_FIELD
    found = dict(
        user_model._default_manager.filter(**{f"{key}__in": usernames}).values_list(key, "pk")
    )
    unknown.extend(sorted(usernames - set(found)))
    return found


def players_seen_by(by: AbstractBaseUser | None):
    """The players an import may match: those the importing director may see (a player
    of others' private events only must not become public through an archive); the
    command line, run by the site's operator, sees them all."""
    return Player.objects.all() if by is None else visible_players(by)


def match_players(
    rows: list[dict[str, Any]], imported: Imported, by: AbstractBaseUser | None = None
) -> dict[int, int]:
    """Archive player number -> player id here: the oldest player the importer may see
    with the same name, club and country not matched already, else a new player (with
    the archive's rating and creation date)."""
    keys = {(r["name"], r["club"], r["country"]) for r in rows}
    names = {k[0] for k in keys}
    existing: dict[tuple[str, str, str], list[int]] = {}
    for pk, name, club, country in (
        players_seen_by(by)
        .filter(name__in=names)
        .order_by("pk")
        .values_list("pk", "name", "club", "country")
    ):
        existing.setdefault((name, club, str(country)), []).append(pk)
    ids: dict[int, int] = {}
    new_rows = []
    for r in rows:
        free = existing.get((r["name"], r["club"], r["country"]))
        if free:
            ids[r["id"]] = free.pop(0)
            imported.players_matched += 1
        else:
            new_rows.append(r)
    players = []
    for r in new_rows:
        player = create_player(
            name=r["name"], club=r["club"], country=r["country"], rating=r["rating"]
        )
        ids[r["id"]] = player.pk
        players.append(player)
    restore(Player, players, new_rows, ["created_at"])
    imported.players_created = len(players)
    return ids


def restore(
    model: type[models.Model], objs: list[models.Model], rows: list[dict], names: list[str]
) -> None:
    """Put back the timestamps Django's auto_now fields overwrote on insert."""
    if not objs or not names:
        return
    for obj, row in zip(objs, rows, strict=True):
        for name in names:
            setattr(obj, name, row[name])
    model._default_manager.bulk_update(objs, names, batch_size=500)


def check_slug(slug: str) -> str:
    try:
        validate_slug(slug)
    except ValidationError as error:
        raise ArchiveError(
            _("%(slug)s is not a valid event slug.") % {"slug": repr(slug)}
        ) from error
    if len(slug) > Event._meta.get_field("slug").max_length:
        raise ArchiveError(_("%(slug)s is too long for an event slug.") % {"slug": repr(slug)})
    if slug in RESERVED_SLUGS:
        raise ArchiveError(
            _("%(slug)s is the address of a director's page: import it under another slug.")
            % {"slug": repr(slug)}
        )
    return slug


def import_event(
    *,
    raw: bytes | str | Mapping[str, Any],
    rename: str | None = None,
    by: AbstractBaseUser | None = None,
    held: str | None = None,
) -> Imported:
    """Import an archive as a new event (named `rename` if given). An archive of an
    event this site holds already (the same identity) is refused with `AlreadyHeld`
    unless `held` says what to do: "replace" the event held here (the one that counts),
    or keep a "copy" beside it (left out of ratings and series until an organiser
    counts it). One transaction; raises ArchiveError, with nothing written, for
    anything it cannot take."""
    if held is not None and held not in CHOICES:
        raise ArchiveError(f"held: {held!r} is neither {' nor '.join(CHOICES)}.")
    checked = check_payload(load(raw))
    slug = check_slug(rename or checked.event["slug"]) if held != REPLACE else None
    try:
        with transaction.atomic():
            found = events_of(checked.event["uid"])
            if found and held is None:
                raise already_held(found, by, checked.event["slug"], rename)
            if found and held == REPLACE:
                imported = replace(
                    check_replace(found[0], checked, rename=rename, by=by), checked, by
                )
            else:
                if slug is None:
                    slug = check_slug(rename or checked.event["slug"])
                imported = write(checked, slug, by, copy_of=found[0] if found else None)
            queue_ratings_refresh()  # its closed rounds are rated, in their place
            connection.check_constraints(
                table_names=[s.model._meta.db_table for s in SECTIONS] + ["tournaments_event"]
            )
    except DatabaseError as error:
        # An archive that passed every check above but that the database refuses.
        raise ArchiveError(
            _("The archive could not be stored (%(error)s); nothing was imported.")
            % {"error": error}
        ) from error
    except ServiceError as error:
        raise ArchiveError(
            _("The archive is not valid: %(error)s. Nothing was imported.") % {"error": error}
        ) from error
    except RecursionError as error:
        raise ArchiveError(
            _("The archive is nested far too deep; nothing was imported.")
        ) from error
    return imported


def replace(event: Event, checked: Checked, by: AbstractBaseUser | None) -> Imported:
    """The event held here, emptied and filled again from the archive: the archive's
    settings and rows, the event's own address, directors, series and counting kept;
    its versions grow past both, so no page or cache shows the old contents."""
    clear_event(event)
    standings = max(event.standings_version, checked.event["standings_version"]) + 1
    screens = max(event.screen_version, checked.event["screen_version"])
    kept = {"slug", "uid", "created_at", "updated_at", "standings_version", "screen_version"}
    for name, value in checked.event.items():
        if name not in kept:
            setattr(event, name, value)
    event.custom_ruleset = (
        house_ruleset_for(checked.house_rules) if checked.house_rules is not None else None
    )
    event.standings_version, event.screen_version = standings, screens
    event.series_places = None  # its series counts the new contents
    check_event_settings(event, checked.event)
    with_history_user(event, by, st.stored(st.ARCHIVE_REPLACED)).save()
    imported = write_rows(checked, event, by)
    imported.replaced = True
    announce_version(event, standings)
    screens_changed(event)
    if event.series_id is not None:
        queue_series_refresh(event.series_id)
    return imported


def write(
    checked: Checked, slug: str, by: AbstractBaseUser | None, *, copy_of: Event | None = None
) -> Imported:
    """A new event from the archive: a copy, left out of ratings and series, when this
    site holds the event already (`copy_of`, the one that counts if one does)."""
    if Event.objects.filter(slug=slug).exists():
        # Worded the same whether the importer may see that event or not.
        if copy_of is not None:
            message = _(
                "A copy needs an address of its own: the slug %(slug)s is taken here; import "
                "it under another slug (the import page's New slug, or --rename NEW_SLUG on "
                "the command line). Nothing was imported."
            )
        else:
            message = _(
                "The slug %(slug)s is taken here; import it under another slug (the import "
                "page's New slug, or --rename NEW_SLUG on the command line). Nothing was "
                "imported."
            )
        raise ArchiveError(message % {"slug": repr(slug)})
    event = Event(**{**checked.event, "slug": slug}, counted=copy_of is None)
    if checked.house_rules is not None:
        event.custom_ruleset = house_ruleset_for(checked.house_rules)
    check_event_settings(event, checked.event)
    event.save()
    restore(Event, [event], [checked.event], ["created_at", "updated_at"])
    if by is not None and by.is_authenticated:
        event.directors.add(by)
    imported = write_rows(checked, event, by)
    shown = copy_of is not None and copy_of.counted
    if shown and (by is None or visible(by).filter(pk=copy_of.pk).exists()):
        imported.copy_of = copy_of.slug
    return imported


def write_rows(checked: Checked, event: Event, by: AbstractBaseUser | None) -> Imported:
    """Every row the archive brings into `event` (saved, and empty of them)."""
    granted = set(event.directors.values_list(get_user_model().USERNAME_FIELD, flat=True))
    imported = Imported(
        event=event, directors_not_granted=[d for d in checked.directors if d not in granted]
    )
    users = resolve_users(checked.usernames, imported.authors_unknown)
    ids: dict[str, dict[int, int]] = {
        "players": match_players(checked.rows["players"], imported, by)
    }
    # Every number a section's rows have or are referred to by gets an id of its own.
    for section in SECTIONS[1:]:
        if not section.has_ids:
            continue
        numbers = {r["id"] for r in checked.rows[section.name]}
        numbers |= {r["id"] for r in checked.history.get(section.name, [])}
        for other in SECTIONS:
            for ref, target in other.refs.items():
                if target == section.name:
                    rows = checked.rows[other.name] + checked.history.get(other.name, [])
                    numbers |= {r[ref] for r in rows if r[ref] is not None}
        reserved = reserve_ids(section.model, len(numbers))
        ids[section.name] = dict(zip(sorted(numbers), reserved, strict=True))
    # Players that only history refers to (since deleted from the source registry).
    history_players = {
        r["player"] for r in checked.history["entries"] if r["player"] is not None
    } - set(ids["players"])
    ids["players"] |= dict(
        zip(sorted(history_players), reserve_ids(Player, len(history_players)), strict=True)
    )
    for section in SECTIONS[1:]:
        rows = checked.rows[section.name]
        objs = [build(section, row, ids, users, event) for row in rows]
        section.model._default_manager.bulk_create(objs, batch_size=1000)
        auto = [
            f.name
            for f in section.model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        restore(section.model, objs, rows, auto)
        imported.counts[section.name] = len(objs)
    for section in HISTORY_SECTIONS:
        model = section.history_model
        reason_length = model._meta.get_field("history_change_reason").max_length
        objs = [
            model(
                **{
                    k: v
                    for k, v in build_values(section, row, ids, users, event).items()
                    if k != "pk"
                },
                id=ids[section.name][row["id"]],
                history_date=row["history_date"],
                history_type=row["history_type"],
                history_change_reason=imported_reason(
                    row["history_user"], row["history_change_reason"], reason_length
                ),
                history_user_id=None,
            )
            for row in checked.history[section.name]
        ]
        model._default_manager.bulk_create(objs, batch_size=1000)
    imported.counts["history rows"] = sum(len(rows) for rows in checked.history.values())
    verify_event(event)
    return imported


def build_values(
    section: Section,
    row: Mapping[str, Any],
    ids: Mapping[str, Mapping[int, int]],
    users: Mapping[str, int],
    event: Event,
) -> dict[str, Any]:
    values: dict[str, Any] = {name: row[name] for name in section.fields}
    for ref, target in section.refs.items():
        number = row[ref]
        values[f"{ref}_id"] = None if number is None else ids[target][number]
    for user_field in section.users:
        values[f"{user_field}_id"] = users.get(row[user_field])
    if section.name in IMPLICIT_EVENT:
        values["event_id"] = event.pk
    if section.name == "rounds":
        values["quality"] = renumber_quality(values["quality"], ids["entries"])
    if section.has_ids:
        values["pk"] = ids[section.name][row["id"]]
    return values


def build(
    section: Section,
    row: Mapping[str, Any],
    ids: Mapping[str, Mapping[int, int]],
    users: Mapping[str, int],
    event: Event,
) -> models.Model:
    return section.model(**build_values(section, row, ids, users, event))
