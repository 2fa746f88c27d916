"""A table's lock: a director locks a table whose sheet is checked and signed, so no
hand there changes by mistake; unlocking allows corrections again."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from core.caching.stamps import touch_table
from core.common import with_history_user
from core.errors import StateConflict
from core.locks import for_request
from tournaments.models import Round, Table


def check_table_open(table: Table) -> None:
    """A table takes writes only while its round is in play and it is not locked."""
    if table.round.status == Round.Status.CLOSED:
        raise StateConflict(
            _("Round %(round)s is closed; its hands can no longer change.")
            % {"round": table.round.number},
            field="round",
        )
    if table.round.status != Round.Status.PUBLISHED:
        raise StateConflict(
            _("Round %(round)s is not published yet; publish the seating first.")
            % {"round": table.round.number},
            field="round",
        )
    if table.locked:
        raise StateConflict(
            _("Table %(table)s is locked; unlock it to change its hands.")
            % {"table": table.number},
            field="table",
        )


def check_lockable(table: Table, *, locking: bool) -> None:
    if table.round.status == Round.Status.CLOSED:
        if locking:
            message = _("Round %(round)s is closed.")
        else:
            message = _("Round %(round)s is closed; its tables stay as they are.")
        raise StateConflict(message % {"round": table.round.number}, field="round")


@for_request("table")
def lock_table(*, table: Table, by: AbstractBaseUser | None = None) -> Table:
    return set_locked(table, True, by)


@for_request("table")
def unlock_table(*, table: Table, by: AbstractBaseUser | None = None) -> Table:
    return set_locked(table, False, by)


def set_locked(table: Table, locked: bool, by: AbstractBaseUser | None) -> Table:
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event")
        .get(pk=table.pk)
    )
    check_lockable(table, locking=locked)
    table.locked = locked
    with_history_user(table, by).save(update_fields=["locked"])
    touch_table(table)  # the players' entry page says whether it takes hands
    return table
