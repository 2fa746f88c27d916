"""The site's side: applying a venue's changes to the published event.

A batch of changes is applied in one transaction, each change once and in order: one
already applied (sent twice) is passed over, one out of order is refused with the
number the site expects (`OutOfStep`). A change's rows are checked as an archive's
rows are (`core.archive.reading`), given ids here (`PublishedRow` remembers which),
written, and the event is put through the services' checks again
(`core.archive.verify`); anything refused rolls the whole batch back and is kept on
the link with its reason (`Refused`). Once committed, the event's standings are
ranked here, its screens, ratings and series follow, as if the hands were typed here.
A new publication from the venue (another stream) starts over from the whole event.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from core.archive import (
    BY_NAME,
    EVENT_FIELDS,
    HISTORY_SECTIONS,
    HOUSE_RULES,
    SECTIONS,
    ArchiveError,
    Section,
)
from core.archive.export import live_rows
from core.archive.importer import (
    build,
    build_values,
    house_ruleset_for,
    reserve_ids,
    resolve_users,
    restore,
)
from core.archive.reading import (
    check_history_row,
    check_house_rules,
    check_keys,
    check_number,
    check_username,
    check_values,
    damaged,
)
from core.archive.replacing import clear_event
from core.archive.verify import check_event_settings, verify_event
from core.caching import announce_version
from core.common import imported_reason
from core.entries.services import create_player, update_player
from core.errors import ServiceError
from core.hands import set_totals
from core.publishing.state import LOCAL_EVENT_FIELDS, NATURAL_KEYS
from core.ratings.services import queue_ratings_refresh
from core.screens.services import screens_changed
from core.series.standings import queue_series_refresh
from core.standings.services import queue_standings_refresh
from scoring.models import Hand
from tournaments.models import Event, Player, PublishedRow, PublishingLink

ROW_SECTIONS = SECTIONS[1:]  # after the players
HISTORY_ID = frozenset({"history_id"})
SENT_NAMES = frozenset(s.name for s in SECTIONS)
HISTORY_NAMES = frozenset(s.name for s in HISTORY_SECTIONS)
SENT_EVENT_FIELDS = tuple(f for f in EVENT_FIELDS if f not in LOCAL_EVENT_FIELDS)


class OutOfStep(Exception):
    """The batch does not go on from the last change applied: send from `expected`."""

    def __init__(self, expected: int):
        self.expected = expected
        super().__init__(f"the site expects change {expected}")


class Refused(Exception):
    """The site refuses change `seq` (in a batch from `first`): nothing of the batch
    was applied."""

    def __init__(self, seq: int, reason: str, *, first: int):
        self.seq, self.reason, self.first = seq, reason, first
        super().__init__(reason)


def status(link: PublishingLink) -> dict[str, Any]:
    refused = (
        {"seq": link.refused_seq, "reason": link.refused_reason}
        if link.refused_seq is not None
        else None
    )
    return {
        "event": link.event.slug,
        "stream": link.stream,
        "acknowledged": link.acknowledged,
        "last_change_at": link.last_change_at.isoformat() if link.last_change_at else None,
        "refused": refused,
    }


def apply_changes(link: PublishingLink, stream: str, changes: list[Any]) -> PublishingLink:
    """Apply the changes of `stream` not applied yet, in one transaction; the link as it
    stands after. Raises OutOfStep or Refused (kept on the link), nothing applied."""
    first = changes[0].get("seq") if changes and isinstance(changes[0], dict) else None
    if not (isinstance(first, int) and not isinstance(first, bool) and 0 < first < 2**31):
        first = None  # no change number worth keeping: the refusal is kept as change 0
    try:
        with transaction.atomic():
            link = PublishingLink.objects.select_for_update().get(pk=link.pk)
            event = Event.objects.select_for_update().get(pk=link.event_id)
            applied = Applying(link, event)
            applied.batch(stream, changes)
            link.refused_seq, link.refused_reason = None, ""
            link.save()
            return link
    except (ArchiveError, ServiceError, DatabaseError, ValueError, TypeError, KeyError) as error:
        seq = getattr(error, "seq", None) or first or 0
        reason = str(error) if not isinstance(error, KeyError) else f"missing {error}"
        if isinstance(error, DatabaseError):
            reason = _("The change could not be stored (%(error)s).") % {"error": error}
        PublishingLink.objects.filter(pk=link.pk).update(refused_seq=seq, refused_reason=reason)
        raise Refused(seq, reason, first=first or seq) from error


class Applying:
    """One batch's work: the link's ids loaded once, the changes applied in turn."""

    def __init__(self, link: PublishingLink, event: Event):
        self.link, self.event = link, event
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        for section, venue, site in PublishedRow.objects.filter(link=link).values_list(
            "section", "venue_id", "site_id"
        ):
            self.ids[section][venue] = site
        self.touched = False
        self.whole = False  # a new publication: the whole event is checked
        # What the batch changed, for the checks (`verify_event`): site ids.
        self.tables: set[int] = set()
        self.rounds: set[int] = set()
        self.hands: set[int] = set()

    def batch(self, stream: str, changes: list[Any]) -> None:
        if not isinstance(stream, str) or not stream or len(stream) > 64:
            raise ValueError(_("The batch names no publication (stream)."))
        if stream != self.link.stream:
            if not changes or not isinstance(changes[0], dict) or changes[0].get("seq") != 1:
                raise OutOfStep(1)
            self.start_over(stream)
        for change in changes:
            if not isinstance(change, dict):
                raise ValueError(_("A change is not an object."))
            seq = change.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
                raise ValueError(_("A change has no number."))
            if seq <= self.link.acknowledged:
                continue  # sent again: applied once already
            if seq != self.link.acknowledged + 1:
                raise OutOfStep(self.link.acknowledged + 1)
            try:
                self.one(change)
            except ArchiveError as error:
                error.seq = seq
                raise
            self.link.acknowledged = seq
            self.link.last_change_at = parse_datetime(str(change.get("at"))) or timezone.now()
        if self.touched:
            self.tables |= set(
                Hand.objects.filter(pk__in=self.hands).values_list("table_id", flat=True)
            )
            if self.whole:
                verify_event(self.event)
            else:
                verify_event(self.event, tables=self.tables, rounds=self.rounds)
            # The standings rows written here replaced the rebuild's own: its next run
            # reads them afresh (`core.standings.rebuild.written_rows`), under a version
            # no page has cached.
            Event.objects.filter(pk=self.event.pk).update(
                standings_version=F("standings_version") + 1
            )
            self.event.refresh_from_db()
            announce_version(self.event, self.event.standings_version)
            set_totals.forget(self.event.pk)
            queue_standings_refresh(self.event)
            screens_changed(self.event)
            queue_ratings_refresh()
            if self.event.series_id is not None:
                queue_series_refresh(self.event.series_id)
            self.link.applied_at = timezone.now()

    def start_over(self, stream: str) -> None:
        """A new publication: the event here is emptied, to be filled from its change 1."""
        clear_event(self.event)
        PublishedRow.objects.filter(link=self.link).delete()
        self.ids.clear()
        self.link.stream, self.link.acknowledged, self.link.last_change_at = stream, 0, None
        self.touched = self.whole = True

    # --- one change -----------------------------------------------------------------

    def one(self, change: dict[str, Any]) -> None:
        unknown = set(change) - {"seq", "stream", "at", "event", "rows", "gone", "history"}
        if unknown:
            raise damaged("the change", "unknown " + ", ".join(sorted(unknown)))
        rows = change.get("rows", {})
        gone = change.get("gone", {})
        history = change.get("history", {})
        for part, value, names in (
            ("rows", rows, SENT_NAMES),
            ("gone", gone, SENT_NAMES),
            ("history", history, HISTORY_NAMES),
        ):
            if not isinstance(value, dict):
                raise damaged(f"the change's {part}", "not sections of an event")
            if set(value) - names:
                strange = ", ".join(sorted(map(str, set(value) - names)))
                raise damaged(f"the change's {part}", f"no such sections here: {strange}")
        self.touched = True
        if "event" in change:
            self.event_values(change["event"])
        usernames = set()
        checked = {}
        for section in SECTIONS:
            checked[section.name] = self.check_rows(section, rows.get(section.name, []))
            for row in checked[section.name]:
                usernames |= {row[u] for u in section.users}
        checked_history = {}
        for name, raw in history.items():
            checked_history[name] = self.check_history(BY_NAME[name], raw)
            for row in checked_history[name]:
                usernames |= {row[u] for u in BY_NAME[name].users} | {row["history_user"]}
        users = resolve_users(usernames - {None}, [])
        self.players(checked["players"])
        self.give_ids(checked, checked_history)
        # Deleted rows first: a row the venue deleted and made again (a hand saved again,
        # a seat moved) holds the unique values of its new one.
        if gone:
            with quietly_deleted(self.event):
                for section in reversed(ROW_SECTIONS):
                    self.delete(section, gone.get(section.name, []))
        for section in ROW_SECTIONS:
            self.write(section, checked[section.name], users)
        for name, rows_ in checked_history.items():
            self.write_history(BY_NAME[name], rows_, users)

    def event_values(self, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise damaged("the event", "not an object")
        check_keys("the event", raw, set(raw) & {*SENT_EVENT_FIELDS, HOUSE_RULES})
        values = check_values("the event", Event, raw, [k for k in raw if k != HOUSE_RULES])
        event = self.event
        for name, value in values.items():
            setattr(event, name, value)
        current = {name: getattr(event, name) for name in EVENT_FIELDS}
        if HOUSE_RULES in raw:
            house = check_house_rules(current, raw[HOUSE_RULES])
            event.custom_ruleset = house_ruleset_for(house) if house is not None else None
        check_event_settings(event, current)
        fields = {name: getattr(event, name) for name in SENT_EVENT_FIELDS}
        Event.objects.filter(pk=event.pk).update(**fields, custom_ruleset=event.custom_ruleset)

    def check_rows(self, section: Section, raw_rows: Any) -> list[dict[str, Any]]:
        if not isinstance(raw_rows, list):
            raise damaged(section.name, "not a list")
        checked = []
        for i, raw in enumerate(raw_rows, start=1):
            where = f"{section.name} row {i}"
            check_keys(where, raw, section.keys)
            values = check_values(where, section.model, raw, section.fields)
            if section.has_ids:
                values["id"] = check_number(f"{where}, id", raw["id"])
            for ref in section.refs:
                nullable = section.model._meta.get_field(ref).null
                values[ref] = check_number(f"{where}, {ref}", raw[ref], nullable=nullable)
            for user_field in section.users:
                values[user_field] = check_username(f"{where}, {user_field}", raw[user_field])
            checked.append(values)
        return checked

    def check_history(self, section: Section, raw_rows: Any) -> list[dict[str, Any]]:
        if not isinstance(raw_rows, list):
            raise damaged(f"the history of {section.name}", "not a list")
        checked = []
        for i, raw in enumerate(raw_rows, start=1):
            where = f"history of {section.name} row {i}"
            values = check_history_row(where, section, raw, extra=HISTORY_ID)
            values["history_id"] = check_number(f"{where}, history_id", raw["history_id"])
            checked.append(values)
        return checked

    def players(self, rows: list[dict[str, Any]]) -> None:
        """The venue's players: one known already is updated (a corrected name, shown at
        once on every event of theirs here: `update_player`), a new
        one is matched to a player here of that name, club and country that this event
        has not taken already, or created."""
        known = self.ids["players"]
        taken = set(known.values())
        for row in rows:
            fields = {k: row[k] for k in ("name", "club", "country")}
            if row["id"] in known:
                update_player(player=Player.objects.get(pk=known[row["id"]]), **fields)
                continue
            match = Player.objects.filter(**fields).exclude(pk__in=taken).order_by("pk").first()
            if match is None:
                match = create_player(**fields, rating=row["rating"])
                restore(Player, [match], [row], ["created_at"])
            known[row["id"]] = match.pk
            taken.add(match.pk)
            self.remember("players", [(row["id"], match.pk)])

    def give_ids(self, checked: dict[str, list], history: dict[str, list]) -> None:
        """Ids here for every venue id the change brings or refers to, in the venue's
        order (so the site's archive numbers the rows as the venue's does). A row may
        refer only to a row this site holds or the change brings."""
        for section in ROW_SECTIONS:
            if not section.has_ids:
                continue
            known = self.ids[section.name]
            new = {r["id"] for r in checked[section.name]} | {
                r["id"] for r in history.get(section.name, [])
            }
            for other in SECTIONS:
                for ref, target in other.refs.items():
                    if target == section.name:
                        new |= {r[ref] for r in history.get(other.name, []) if r[ref]}
            new -= set(known)
            reserved = reserve_ids(section.model, len(new))
            pairs = list(zip(sorted(new), reserved, strict=True))
            known.update(pairs)
            self.remember(section.name, pairs)
        # Players only history names (deleted from the venue's registry since).
        named = {r["player"] for r in history.get("entries", []) if r["player"] is not None}
        named -= set(self.ids["players"])
        pairs = list(zip(sorted(named), reserve_ids(Player, len(named)), strict=True))
        self.ids["players"].update(pairs)
        self.remember("players", pairs)
        for section in SECTIONS:
            for ref, target in section.refs.items():
                for row in checked[section.name]:
                    if row[ref] is not None and row[ref] not in self.ids[target]:
                        raise damaged(
                            f"{section.name}, {ref}",
                            f"no {target} row has id {row[ref]} here or in the change",
                        )

    def remember(self, section: str, pairs: list[tuple[int, int]]) -> None:
        link = self.link
        made = [PublishedRow(link=link, section=section, venue_id=v, site_id=i) for v, i in pairs]
        PublishedRow.objects.bulk_create(made, batch_size=1000)

    def write(self, section: Section, rows: list[dict[str, Any]], users: dict) -> None:
        if not rows:
            return
        model = section.model
        objs = [build(section, row, self.ids, users, self.event) for row in rows]
        self.note(section.name, objs)
        auto = [
            f.name
            for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        if not section.has_ids:  # by what is unique in them
            names = [
                name if target is None else f"{name}_id"
                for name, target in NATURAL_KEYS[section.name]
            ]
            delete_keys(model, names, [tuple(getattr(o, n) for n in names) for o in objs])
            model._default_manager.bulk_create(objs, batch_size=1000)
            return
        existing = set(
            model._default_manager.filter(pk__in=[o.pk for o in objs]).values_list("pk", flat=True)
        )
        new = [(o, r) for o, r in zip(objs, rows, strict=True) if o.pk not in existing]
        old = [o for o in objs if o.pk in existing]
        model._default_manager.bulk_create([o for o, _r in new], batch_size=1000)
        restore(model, [o for o, _r in new], [r for _o, r in new], auto)
        if old:
            names = [f.name for f in model._meta.concrete_fields if not f.primary_key]
            model._default_manager.bulk_update(old, names, batch_size=500)

    def note(self, section: str, objs: list) -> None:
        """Remember the tables, rounds and hands these rows belong to."""
        for obj in objs:
            if section == "tables":
                self.tables.add(obj.pk)
                self.rounds.add(obj.round_id)
            elif section == "rounds":
                self.rounds.add(obj.pk)
            elif section in ("seats", "hands", "proposals"):
                self.tables.add(obj.table_id)
            elif section in ("hand_scores", "penalties"):
                self.hands.add(obj.hand_id)
            elif section == "clocks":
                self.rounds.add(obj.round_id)

    def delete(self, section: Section, keys: Any) -> None:
        """Rows the venue deleted, without history rows of this site's own (the
        venue's, in the change, say who deleted them)."""
        if not keys:
            return
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise damaged(f"the change's gone {section.name}", "not a list of keys")
        manager = section.model._default_manager
        if not section.has_ids:
            parts = NATURAL_KEYS[section.name]
            found = []
            for key in keys:
                values = key.split(":")
                if len(values) != len(parts) or not all(v.isdigit() for v in values):
                    raise damaged(f"the change's gone {section.name}", f"{key!r} is not a key")
                found.append(
                    tuple(
                        int(v) if target is None else self.ids[target].get(int(v))
                        for (_name, target), v in zip(parts, values, strict=True)
                    )
                )
            names = [name if target is None else f"{name}_id" for name, target in parts]
            delete_keys(section.model, names, found)
            return
        known = self.ids[section.name]
        site_ids = [known[int(k)] for k in keys if k.isdigit() and int(k) in known]
        self.note(section.name, list(manager.filter(pk__in=site_ids)))
        manager.filter(pk__in=site_ids).delete()

    def write_history(self, section: Section, rows: list[dict[str, Any]], users: dict) -> None:
        model = section.history_model
        reason_length = model._meta.get_field("history_change_reason").max_length
        objs = []
        for row in sorted(rows, key=lambda r: r["history_id"]):
            values = build_values(section, row, self.ids, users, self.event)
            objs.append(
                model(
                    **{k: v for k, v in values.items() if k != "pk"},
                    id=self.ids[section.name][row["id"]],
                    history_date=row["history_date"],
                    history_type=row["history_type"],
                    history_change_reason=imported_reason(
                        row["history_user"], row["history_change_reason"], reason_length
                    ),
                    history_user_id=None,
                )
            )
        model._default_manager.bulk_create(objs, batch_size=1000)


def delete_keys(model, names: list[str], keys: list[tuple]) -> None:
    """Delete the rows of these (a, b) keys: one query per value of the part with fewer
    values (a round's standings, an adjusted hand number), never one long expression."""
    if not keys:
        return
    few = min((0, 1), key=lambda i: len({k[i] for k in keys}))
    other = 1 - few
    grouped: dict[Any, list] = defaultdict(list)
    for key in keys:
        grouped[key[few]].append(key[other])
    for value, others in grouped.items():
        model._default_manager.filter(**{names[few]: value, f"{names[other]}__in": others}).delete()


@contextmanager
def quietly_deleted(event: Event) -> Iterator[None]:
    """Deletions that leave no history rows of this site's own: the venue's change
    carries its own, saying who deleted what. Deleting writes a "-" history row for each
    row and for each row deleted with it (a table's seats); those of the rows that
    vanished meanwhile are removed again."""
    before = {
        s.name: set(live_rows(s, event).values_list("pk", flat=True)) for s in HISTORY_SECTIONS
    }
    tops = {
        s.name: s.history_model._default_manager.aggregate(m=Max("history_id"))["m"] or 0
        for s in HISTORY_SECTIONS
    }
    yield
    for section in HISTORY_SECTIONS:
        vanished = before[section.name] - set(
            live_rows(section, event).values_list("pk", flat=True)
        )
        if vanished:
            section.history_model._default_manager.filter(
                history_id__gt=tops[section.name], history_type="-", id__in=vanished
            ).delete()
