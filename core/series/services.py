"""A series (a circuit of events): create it, change it, add its legs; the checks on its
settings, its legs and its final. The grand final's entries from its qualifiers are
made in `core.series.final`; its standings, rebuilt by a background job from the legs'
final standings, in `core.series.standings`.

A public series' legs and final are public events: the series' page, its standings and
its players' pages show them to anyone, so every change that could break this (a leg
or final added, a series made public, an event made private: `check_may_be_private`)
is refused, naming the field, before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from core import stored_texts as st
from core.common import full_clean_or_raise, with_history_user
from core.errors import Forbidden, InvalidInput, ServiceError, StateConflict
from core.events.access import can_direct, visible_events
from core.locks import for_request
from core.screens.services import screens_changed
from core.series.selectors import qualification_frozen
from core.series.standings import queue_series_refresh
from core.words import listing, translated
from game import prizes as game_prizes
from game import series as game_series
from scoring.models import Hand
from tournaments.models import Event, Series

SERIES_FIELDS = (
    "slug",
    "name",
    "season",
    "points_scale",
    "best_of",
    "qualifiers",
    "public",
    "prizes",
    "prize_currency",
    "prize_ties",
    "carry_over_step",
    "ties_qualify",
    "wildcard_carry",
)
# Set by an event's slug (null: none); checked and resolved by `final_event`.
LINK_FIELDS = ("final",)
# Changing these changes the series standings.
RANKING_FIELDS = ("points_scale", "best_of", "qualifiers", "ties_qualify")
# Frozen with the qualification once the final has begun: these rank the series, or
# set the carries its entrants play the final with.
FROZEN_FIELDS = (*RANKING_FIELDS, "carry_over_step", "wildcard_carry")
# Shown on the public pages of its legs and final (which link to a public series).
SHOWN_FIELDS = ("slug", "name", "season", "public")
# What an event is to a series, as the refusals name it (the checks' `as_`), in the
# reader's language.
ROLES = {
    "a leg": pgettext_lazy("role in a series", "a leg"),
    "the final": pgettext_lazy("role in a series", "the final"),
    "a series' final": pgettext_lazy("role in a series", "a series' final"),
    "a leg of a series": pgettext_lazy("role in a series", "a leg of a series"),
}


def role_words(as_: str) -> str:
    return str(ROLES.get(as_, as_))


def check_series(data: Mapping[str, Any], *, series: Series | None = None) -> None:
    """The settings' own checks; given the series as stored, also that making it public
    leaves no private leg or final, and that a new carried-over step suits its final
    (the admin checks through this)."""
    unknown = sorted(set(data) - set(SERIES_FIELDS) - set(LINK_FIELDS))
    if unknown:
        raise InvalidInput({name: [_("This is not a series setting.")] for name in unknown})
    if "points_scale" in data:
        try:
            game_series.check_points_scale(data["points_scale"])
        except ValueError as error:
            # The rules' own words for what is wrong with it (`game.series`).
            raise InvalidInput(
                _("The points scale %(error)s.") % {"error": translated(error)},
                field="points_scale",
            ) from error
    if "prizes" in data:
        check_prizes(data["prizes"])
    if series is not None and series.pk is not None and data.get("public") and not series.public:
        check_may_be_public(series, final=series.final, lock=False)
    step = data.get("carry_over_step")
    stored = series is not None and series.pk is not None and "final" not in data
    if stored and isinstance(step, int) and step != series.carry_over_step:
        check_carry_over(step, series.final, field="carry_over_step")  # its final as stored
        check_step_unchanged(series, step, series.final)


def check_public_event(public: bool, event: Event, *, as_: str, field: str = "event") -> None:
    """A leg or the final of a series that is (or is to be) `public` must be a public
    event."""
    if public and not event.public:
        raise InvalidInput(
            _(
                "%(name)s is a private event, so it cannot be %(role)s of a public series "
                "(which shows its legs and final to everyone): make the event public first, "
                "or the series private."
            )
            % {"name": event.name, "role": role_words(as_)},
            field=field,
        )


def check_may_be_public(series: Series, *, final: Event | None, lock: bool = True) -> None:
    """Making a series public: none of its legs, nor its final (`final`: as it will be),
    is a private event. With `lock`, takes those events' row locks (after the series',
    as `add_leg` does), so an event made private meanwhile is seen here, or sees the
    series public."""
    shown = Q(series=series)
    if final is not None:
        shown |= Q(pk=final.pk)
    events = Event.objects.select_for_update() if lock else Event.objects.all()
    private = [
        event.name for event in events.filter(shown).order_by("starts_on", "pk") if not event.public
    ]
    if private:
        raise InvalidInput(
            ngettext(
                "A public series shows its legs and final to everyone, and %(names)s is a "
                "private event: make it public first.",
                "A public series shows its legs and final to everyone, and %(names)s are "
                "private events: make them public first.",
                len(private),
            )
            % {"names": listing(private)},
            field="public",
        )


def check_may_be_private(event: Event) -> None:
    """An event that is a leg or the final of a public series stays public (the series
    shows it to everyone)."""
    shown_by = Q(final=event)
    if event.series_id is not None:
        shown_by |= Q(pk=event.series_id)
    series = Series.objects.filter(shown_by, public=True).first()
    if series is not None:
        role = "a leg" if series.pk == event.series_id else "the final"
        raise InvalidInput(
            _(
                "This event is %(role)s of the public series %(series)s, which shows it to "
                "everyone: make the series private, or take the event out of it, first."
            )
            % {"role": role_words(role), "series": series},
            field="public",
        )


def check_not_final_elsewhere(series: Series, event: Event, *, field: str) -> None:
    other = Series.objects.filter(final=event).exclude(pk=series.pk).first()
    if other is not None:
        raise InvalidInput(
            _("%(name)s is already the final of %(series)s; an event is the final of one series.")
            % {"name": event.name, "series": other},
            field=field,
        )


def check_carry_over(
    step: int, final: Event | None, *, field: str, error: type[ServiceError] = InvalidInput
) -> None:
    """A carried-over score is penalty points: only a final ranked by total points
    (format "total") can start from one."""
    if step and final is not None and final.format != Event.Format.TOTAL:
        raise error(
            _(
                "A carried-over score is penalty points: the final, %(name)s, must rank by "
                'total points (format "total"), or carry_over_step be 0.'
            )
            % {"name": final.name},
            field=field,
        )


def check_final_format(event: Event, format: str) -> None:
    """An event that is the final of a series carrying a score keeps ranking by total
    points (for the event's own settings to call before changing `format`)."""
    if format == Event.Format.TOTAL:
        return
    series = Series.objects.filter(final=event, carry_over_step__gt=0).first()
    if series is not None:
        raise InvalidInput(
            _(
                "This event is the final of %(series)s, which carries a score into it as "
                'penalty points: it ranks by total points (format "total"). Clear the '
                "series' final, or set its carry_over_step to 0, first."
            )
            % {"series": series},
            field="format",
        )


def check_step_unchanged(series: Series, step: int, final: Event | None) -> None:
    """The final's entries carry the points the step gave when they were seeded: a new
    step makes the final out of step until it is seeded again, which it can be until
    its first round is seated; after that the step no longer changes."""
    if step == series.carry_over_step or final is None:
        return
    if Hand.objects.filter(table__round__event=final).exists():
        raise InvalidInput(
            _(
                "%(name)s, the final, has begun (its first hand is recorded), so its "
                "carried points stay as they were seeded."
            )
            % {"name": final.name},
            field="carry_over_step",
        )


def check_counted(
    event: Event,
    *,
    as_: str,
    field: str = "event",
    error: type[ServiceError] = StateConflict,
) -> None:
    """A copy of an event (an archive of it imported beside it) is left out of ratings
    and series until an organiser counts it instead, which takes the other out."""
    if not event.counted:
        raise error(
            _(
                "%(name)s (%(slug)s) is a copy of an event held here, left out of ratings "
                "and series, so it cannot be %(role)s of a series: count it instead of the "
                "other first (its dashboard), which takes the other out."
            )
            % {"name": event.name, "slug": event.slug, "role": role_words(as_)},
            field=field,
        )


def check_directs(
    by: AbstractBaseUser | None,
    event: Event,
    *,
    as_: str,
    field: str = "event",
    error: type[ServiceError] = Forbidden,
) -> None:
    """Only a director of an event (a superuser directs them all) brings it into a
    series, as a leg or as the final: the one check behind the pages, the API and
    `PATCH /series/`'s `final` (where it is a field's value, so a 400). `by` None: a
    job or the shell, which may."""
    if by is not None and not can_direct(by, event):
        raise error(
            _("Only a director of %(name)s may make it %(role)s.")
            % {"name": event.name, "role": role_words(as_)},
            field=field,
        )


def final_event(
    series: Series, value: Any, *, public: bool, by: AbstractBaseUser | None
) -> Event | None:
    """The event a series' `final` names (its slug; None: no final), locked, once it
    passes every check: it exists, the user directs it (a superuser directs them all),
    it is not a leg of this series nor the final of another, and the final of a series
    that is to be `public` is a public event."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(_("Name the final by its event's slug (or null: none)."), field="final")
    found = Event.objects.all() if by is None else visible_events(by)
    pk = found.filter(slug=value).values_list("pk", flat=True).first()
    if pk is None:  # a private event the user may not see does not exist for them
        raise InvalidInput(_("No such event."), field="final")
    event = Event.objects.select_for_update().get(pk=pk)  # after the series' lock
    if series.pk is not None and series.final_id == event.pk:
        return event  # unchanged (making the series public checks it again)
    check_directs(by, event, as_="a series' final", field="final", error=InvalidInput)
    check_counted(event, as_="the final", field="final", error=InvalidInput)
    if series.pk is not None and event.series_id == series.pk:
        raise InvalidInput(
            _("%(name)s is a leg of this series, not its final.") % {"name": event.name},
            field="final",
        )
    check_not_final_elsewhere(series, event, field="final")
    check_public_event(public, event, as_="the final", field="final")
    return event


def check_prizes(value: Any) -> list[dict]:
    """A prize table as stored (amounts as text), or the reason it is refused."""
    try:
        table = game_prizes.check_table(value)
    except ValueError as error:
        # The rules' own words for what is wrong with it (`game.prizes`).
        raise InvalidInput(
            _("The prize table: %(error)s.") % {"error": translated(error)}, field="prizes"
        ) from error
    return [p.as_dict() for p in table]


@transaction.atomic
def create_series(*, data: Mapping[str, Any], by: AbstractBaseUser | None = None) -> Series:
    """Create a series; whoever creates it organises it."""
    check_series(data)
    values = dict(data)
    if "prizes" in values:
        values["prizes"] = check_prizes(values["prizes"])
    final = values.pop("final", None)
    series = Series(**values)
    series.final = final_event(series, final, public=series.public, by=by)
    check_carry_over(series.carry_over_step, series.final, field="final")
    full_clean_or_raise(series)
    with_history_user(series, by).save()
    if by is not None and by.is_authenticated:
        series.organisers.add(by)
    if series.final is not None:
        screens_changed(series.final)  # its public page links to the series
    return series


@for_request("series")
def update_series(
    *, series: Series, data: Mapping[str, Any], by: AbstractBaseUser | None = None
) -> Series:
    series = Series.objects.select_for_update().get(pk=series.pk)
    check_series(data)
    reranked = any(f in data and data[f] != getattr(series, f) for f in RANKING_FIELDS)
    frozen = [f for f in FROZEN_FIELDS if f in data and data[f] != getattr(series, f)]
    if frozen:
        check_qualification_open(series, field=frozen[0])
    shown = {f: getattr(series, f) for f in SHOWN_FIELDS}
    if not data:
        return series  # nothing to change: no save, no history row
    before = series.final
    values = dict(data)
    if "final" in values:
        public = values.get("public", series.public)
        final = final_event(series, values.pop("final"), public=public, by=by)
    else:
        final = before
    if values.get("public") and not series.public:
        check_may_be_public(series, final=final)
    step = values.get("carry_over_step", series.carry_over_step)
    if "final" in data and final != before:
        check_carry_over(step, final, field="final")
    if step != series.carry_over_step:
        check_carry_over(step, final, field="carry_over_step")
        check_step_unchanged(series, step, final)
    for field, value in values.items():
        setattr(series, field, check_prizes(value) if field == "prizes" else value)
    series.final = final
    full_clean_or_raise(series)
    with_history_user(series, by).save()
    if reranked:
        queue_series_refresh(series.pk)
    if final != before:
        for event in (before, final):
            if event is not None:
                screens_changed(event)  # its public page links to the series, or no more
    if any(f in data and data[f] != shown[f] for f in SHOWN_FIELDS):
        for event in Event.objects.filter(Q(series=series) | Q(final_of=series)):
            screens_changed(event)  # their public pages name and link the series
    return series


def check_qualification_open(series: Series, *, field: str = "series") -> None:
    """Once the final has begun (its first hand recorded, so it can no longer be seeded
    again) the series' qualification is frozen: a change to its legs, its ranking
    settings or a leg's results is refused until the organiser reopens the series with
    a reason (`reopen_series`)."""
    if qualification_frozen(series):
        raise StateConflict(
            _(
                "The final of %(series)s has started, so the series' qualification is frozen. "
                "Its organiser reopens the series, with a reason, before a leg or a setting "
                "that ranks it changes."
            )
            % {"series": series},
            field=field,
        )


@for_request("series")
def reopen_series(*, series: Series, reason: str, by: AbstractBaseUser | None = None) -> Series:
    """Allow changes to a series whose final has started (its legs' results, its legs,
    its ranking settings), with the organiser's reason, kept and shown on its page."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    reason = " ".join((reason or "").split())
    if not reason:
        raise InvalidInput(_("Say why the series is reopened."), field="reason")
    limit = Series._meta.get_field("reopened_reason").max_length
    if len(reason) > limit:
        raise InvalidInput(
            _("The reason is at most %(most)s characters.") % {"most": limit}, field="reason"
        )
    series.reopened_at = timezone.now()
    series.reopened_reason = reason
    with_history_user(series, by, st.stored(st.REOPENED, reason=reason)).save(
        update_fields=["reopened_at", "reopened_reason", "updated_at"]
    )
    queue_series_refresh(series.pk)  # no longer frozen: legs finished since now count
    return series


@for_request("series")
def add_leg(*, series: Series, event: Event, by: AbstractBaseUser | None = None) -> Event:
    """Make `event` a leg of `series` (an event is a leg of at most one series)."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    event = Event.objects.select_for_update().get(pk=event.pk)
    check_directs(by, event, as_="a leg of a series")
    if event.series_id == series.pk:
        return event
    if event.series_id is not None:
        raise StateConflict(
            _("%(name)s is already a leg of another series; an event belongs to one.")
            % {"name": event.name},
            field="event",
        )
    if series.final_id == event.pk:
        raise StateConflict(
            _("%(name)s is this series' final, not a leg.") % {"name": event.name}, field="event"
        )
    check_counted(event, as_="a leg")
    check_public_event(series.public, event, as_="a leg")
    check_qualification_open(series, field="event")
    event.series = series
    event.series_places = None
    event.save(update_fields=["series", "series_places", "updated_at"])
    screens_changed(event)  # its public page links to the series
    queue_series_refresh(series.pk)
    return event


@for_request("series")
def remove_leg(*, series: Series, event: Event, by: AbstractBaseUser | None = None) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.series_id != series.pk:
        raise InvalidInput(
            _("%(name)s is not a leg of this series.") % {"name": event.name}, field="event"
        )
    check_qualification_open(series, field="event")
    event.series = None
    event.series_places = None  # what this series counted from it, no longer its own
    event.save(update_fields=["series", "series_places", "updated_at"])
    screens_changed(event)
    queue_series_refresh(series.pk)
    return event
