"""Importing an archive of an event this site already holds (the same identity,
`Event.uid`): the director replaces the event held here, or keeps a copy beside it
(`core.archive.importer.import_event`, `held`).

Replacing keeps the event's row, and with it what is this site's own: its address
(slug), its directors, whether it counts, its series (it stays a leg, or the final),
its publishing; everything the archive brings (settings, players' entries, rounds,
hands, standings, history) is the archive's, as a new import's would be. The ratings
and the series follow the new contents: the old rounds go (and what was rated from
them, `core.signals`), the new ones are rated in their place."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils.translation import gettext as _

from core.archive import HISTORY_SECTIONS, ArchiveError
from core.archive.reading import Checked
from core.events.access import can_direct
from core.publishing.links import read_only_reason
from core.series.selectors import final_started
from core.series.services import role_words
from scoring.models import Hand
from tournaments.models import Announcement, Entry, Event, Round, Series, Table

# What to do with an archive of an event held here.
REPLACE = "replace"
COPY = "copy"
CHOICES = (REPLACE, COPY)


class AlreadyHeld(ArchiveError):
    """This site holds the archive's event already: the importer chooses to replace it
    or to keep a copy. Nothing was written."""

    def __init__(
        self, message: str, *, shown: list[Event], hidden: bool, can_replace: bool, slug: str
    ):
        super().__init__(message)
        self.shown = shown  # the events of that identity the importer may see
        self.hidden = hidden  # some the importer may not see
        self.can_replace = can_replace
        self.slug = slug  # a free slug for a copy


def free_slug(base: str) -> str:
    """`base`-copy, or -copy-2, -copy-3...: the first not taken here."""
    max_length = Event._meta.get_field("slug").max_length
    for n in range(1, 1000):
        tail = "-copy" if n == 1 else f"-copy-{n}"
        slug = base[: max_length - len(tail)] + tail
        if not Event.objects.filter(slug=slug).exists():
            return slug
    return ""


def already_held(
    held: list[Event], by: AbstractBaseUser | None, slug: str, rename: str | None
) -> AlreadyHeld:
    """The question an import of an event held here asks (`held`: the events of its
    identity, the one that counts first), naming only the events `by` may see, with a
    slug for a copy: `rename` if it is free, else one made from the archive's `slug`."""
    shown = held if by is None else [e for e in held if e.public or can_direct(by, e)]
    can_replace = by is None or can_direct(by, held[0])
    replace = (
        _("replace it (--replace)") if can_replace else _("not replace it: you do not direct it")
    )
    if held[0] in shown:
        message = _(
            "This site holds this event already (as %(slug)s). Choose: %(replace)s; or keep a "
            "copy beside it (--copy, under a new slug: --rename NEW_SLUG), marked as a copy "
            "and left out of ratings and series until an organiser counts it. Nothing was "
            "imported."
        ) % {"slug": repr(held[0].slug), "replace": replace}
    else:
        message = _(
            "This site holds this event already. Choose: %(replace)s; or keep a copy beside "
            "it (--copy, under a new slug: --rename NEW_SLUG), marked as a copy and left out "
            "of ratings and series until an organiser counts it. Nothing was imported."
        ) % {"replace": replace}
    return AlreadyHeld(
        message,
        shown=shown,
        hidden=len(shown) < len(held),
        can_replace=can_replace,
        slug=rename
        if rename and not Event.objects.filter(slug=rename).exists()
        else free_slug(slug),
    )


def check_replace(
    target: Event, checked: Checked, *, rename: str | None, by: AbstractBaseUser | None
) -> Event:
    """The event to replace, locked (its series first), once replacing it is allowed:
    `by` directs it (None: the command line, which may), no other slug is asked for,
    and its series can take the new contents (the qualification open, a public series'
    leg or final staying public, a final that carries a score ranking by total points)."""
    if by is not None and not can_direct(by, target):
        raise ArchiveError(
            _(
                "This site holds this event already, and you do not direct it: keep a copy "
                "(it stays out of ratings and series), or ask one of its directors to "
                "replace it. Nothing was imported."
            )
        )
    if rename is not None and rename != target.slug:
        raise ArchiveError(
            _(
                "A replaced event keeps its address (%(slug)s): leave the new slug empty to "
                "replace it, or keep a copy under the new slug. Nothing was imported."
            )
            % {"slug": repr(target.slug)}
        )
    series = list(
        Series.objects.select_for_update()
        .filter(Q(pk=target.series_id) | Q(final_id=target.pk))
        .order_by("pk")
    )
    target = Event.objects.select_for_update().get(pk=target.pk)
    published = read_only_reason(target.pk)
    if published is not None:
        raise ArchiveError(published + " " + _("Nothing was imported."))
    public = checked.event["public"]
    for one in series:
        role = "a leg" if one.pk == target.series_id else "the final"
        if role == "a leg" and one.reopened_at is None and final_started(one):
            raise ArchiveError(
                _(
                    "%(name)s is a leg of %(series)s, whose final has started: the series' "
                    "qualification is frozen until its organiser reopens it. Nothing was "
                    "imported."
                )
                % {"name": target.name, "series": one}
            )
        if one.public and not public:
            raise ArchiveError(
                _(
                    "%(name)s is %(role)s of the public series %(series)s, which shows it to "
                    "everyone, and the archive's event is private: make the series private, "
                    "or take the event out of it, first. Nothing was imported."
                )
                % {"name": target.name, "role": role_words(role), "series": one}
            )
        if role == "the final" and one.carry_over_step and checked.event["format"] != "total":
            raise ArchiveError(
                _(
                    "%(name)s is the final of %(series)s, which carries a score into it: the "
                    'archive\'s event must rank by total points (format "total"). Nothing '
                    "was imported."
                )
                % {"name": target.name, "series": one}
            )
    return target


def clear_event(event: Event) -> None:
    """Delete what an archive brings of the event (its entries, rounds and everything in
    them, announcements) and all their history, keeping the event's row. Deleting
    writes history rows of its own (and marks the ratings stale, `core.signals`); the
    history is read from the history tables alone, so those go too."""
    Round.objects.filter(event=event).delete()
    Entry.objects.filter(event=event).delete()
    Announcement.objects.filter(event=event).delete()
    rounds = Round.history.filter(event_id=event.pk).values("id")
    tables = Table.history.filter(round_id__in=rounds).values("id")
    hands = Hand.history.filter(table_id__in=tables).values("id")
    by_section = {
        "entries": Q(event_id=event.pk),
        "rounds": Q(event_id=event.pk),
        "tables": Q(round_id__in=rounds),
        "seats": Q(round_id__in=rounds),
        "clocks": Q(round_id__in=rounds),
        "hands": Q(table_id__in=tables),
        "proposals": Q(table_id__in=tables),
        "hand_scores": Q(hand_id__in=hands),
        "penalties": Q(hand_id__in=hands),
    }
    # The rows others' filters read go last: hands after their scores, tables after
    # their hands, rounds after their tables.
    for section in reversed(HISTORY_SECTIONS):
        section.history_model._default_manager.filter(by_section[section.name]).delete()
