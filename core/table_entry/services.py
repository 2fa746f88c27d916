"""Entry at the table: a player enters a hand with their code, another player at the
table confirms it, and it is recorded through `record_hand`, exactly as a director's
entry is (rules, version, history naming both seats, standings rebuild); or they
dispute it, and the director decides.

The rules chosen here (README, "How an event runs"):
- a code opens only its own table, in its own round; a wrong one is refused (403) and
  counted against the client (`core.table_entry.codes`: 429 after a few);
- players enter only where the event says so (`Event.table_entry`), only while the
  round is in play and the table unlocked, and only hands they play;
- a hand already recorded takes no entry (409): a director corrects it;
- a new entry for a hand waiting for confirmation replaces it (the table corrects
  itself); a disputed hand waits for the director, whose entry always wins;
- the player who entered a hand can neither confirm nor dispute it;
- each entry of a hand at a table has its number (`Proposal.version`): a confirmation
  that names one the table has since entered again is refused (409), so what is
  recorded is what the confirming player saw;
- a code opens its table at a private event too (the code is the credential), and
  nothing else of the event: to anyone without a right code, a private event's table
  answers exactly as a table of no event does.
Every entry, confirmation and dispute is kept, with its history.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import stored_texts as st
from core.caching.stamps import touch_table
from core.common import with_history_user
from core.errors import Forbidden, Missing, ProposalChanged, StaleVersion, StateConflict
from core.hands.services import (
    attempts_of,
    current_version,
    lock_table_for_write,
    record_hand,
    score_entry,
)
from core.locks import for_request
from core.table_entry import codes
from core.table_entry.codes import new_code
from core.table_entry.seats import event_by_slug, players_table, seat_for_code, seat_with_code
from core.table_entry.selectors import entry_document, entry_from_document
from game import rules
from scoring.models import Hand, Proposal
from tournaments.models import Event, PlayerCode, Round, Seat, Table

FIELD = codes.FIELD


def identify_player(*, table: Table, code: str, client: str, proven: bool = False) -> Seat:
    """The seat at `table` of the player whose code (for the table's round) this is.

    A code of nobody at this table is refused (Forbidden) and counted against
    `client`; a client with too many wrong codes lately is refused every code
    (TooManyAttempts) until its window ends, unless the code is `proven`: the
    caller read it from what this site signed for that browser once the code was
    right, which guessers sharing the client's address cannot forge. Writes nothing
    to the database.
    """
    where = at_table(table.round.number, table.number)
    return checked_code(
        code,
        client,
        where,
        lambda typed: seat_with_code(table, typed),
        place=f"table:{table.pk}",
        proven=proven,
    )


def at_table(round_number: int, table_number: int) -> str:
    """Where a code is refused, as its refusal says it."""
    return _("at table %(table)s in round %(round)s") % {
        "table": table_number,
        "round": round_number,
    }


def open_table(
    *, slug: str, round_number: int, table_number: int, code: str, client: str, proven: bool = False
) -> Table:
    """A table of an event the caller may not see (a private one), opened by the code
    of one of its players: their code is their credential, for their table only.

    Whatever the slug names (a private event, or nothing), the answers are the same, so
    they tell nobody whether a private event exists: no code is "No such event." (404);
    a wrong one is refused (403) and counted at this address, so guessing is throttled
    as at a public table (429 after a few)."""
    if not codes.normalize(code):
        raise Missing(_("No such event."))
    table = players_table(slug, round_number, table_number)

    def lookup(typed: str) -> Seat | None:
        return seat_with_code(table, typed) if table is not None else None

    checked_code(
        code,
        client,
        at_table(round_number, table_number),
        lookup,
        place=f"hidden-table:{slug}/{round_number}/{table_number}",
        proven=proven,
    )
    return table


def find_seat(*, event: Event, code: str, client: str) -> Seat:
    """The seat, in a round of `event` in play, of the player whose code this is (for a
    player who types their code to find their table): refused and counted as
    `identify_player` refuses and counts."""
    return checked_code(
        code,
        client,
        IN_PLAY,
        lambda typed: seat_for_code(event, typed),
        place=f"event:{event.pk}",
    )


def find_seat_at(*, slug: str, code: str, client: str) -> Seat:
    """`find_seat` at an event the caller may not see (a private one, or none): a right
    code finds its player's table; anything else is answered as at an event that does
    not exist, so a private event's slug is never confirmed."""
    event = event_by_slug(slug)
    return checked_code(
        code,
        client,
        IN_PLAY,
        lambda typed: seat_for_code(event, typed) if event is not None else None,
        place=f"hidden-event:{slug}",
    )


IN_PLAY = gettext_lazy("in a round in play")


def checked_code(
    code: str,
    client: str,
    where: str,
    lookup: Callable[[str], Seat | None],
    *,
    place: str,
    proven: bool = False,
) -> Seat:
    """The seat `lookup` finds for the typed code; wrong codes are counted against the
    client at `place` (a table, or an event's find-your-table page: `core.table_entry.codes`).
    A `proven` code passes whatever the count (see `identify_player`); one no longer
    right here is refused but not counted, being no guess."""
    typed = codes.normalize(code)
    if proven and typed:
        seat = lookup(typed)
        if seat is None:
            raise Forbidden(
                _("Your code is no longer that of a player %(where)s. Check your player slip.")
                % {"where": where},
                field=FIELD,
            )
        return seat
    codes.check_allowed(client, place)
    if not typed:
        raise Forbidden(_("Give your player code (it is on your player slip)."), field=FIELD)
    seat = lookup(typed)
    if seat is None:
        codes.count_wrong(client, place)
        raise Forbidden(
            _("This is not the code of a player %(where)s. Check your player slip.")
            % {"where": where},
            field=FIELD,
        )
    return seat


def check_players_enter(event: Event) -> None:
    if event.table_entry != Event.TableEntry.PLAYERS:
        raise Forbidden(
            _("At this event the directors enter the hands; players do not."), field=FIELD
        )


def named(seat: Seat) -> dict:
    """A seat as the history's reasons name it (a code's values: `core.stored_texts`)."""
    return st.seat(seat.position, seat.entry.player.name)


def player_at_table(
    table: Table, number: int, code: str, client: str, proven: bool
) -> tuple[Table, Seat]:
    """The checks every player's action starts with, in the order a refusal is given:
    the code, the event's setting, the table taking writes (its row lock taken), the
    player still playing hand `number`."""
    seat = identify_player(table=table, code=code, client=client, proven=proven)
    check_players_enter(table.round.event)
    table = lock_table_for_write(table)
    if not seat.plays_hand(number):
        raise Forbidden(
            _(
                "You left the table after hand %(hand)s; the players still at the table "
                "enter and confirm its hands."
            )
            % {"hand": seat.left_after_hand},
            field=FIELD,
        )
    return table, seat


def check_not_recorded(attempts: list[Hand], number: int) -> None:
    if any(hand.outcome == Hand.Outcome.SCORED for hand in attempts):
        raise StateConflict(
            _("Hand %(hand)s is already recorded; only a director can change it now.")
            % {"hand": number},
            field="hand",
        )


def latest_for_update(table: Table, number: int) -> Proposal | None:
    return (
        Proposal.objects.select_for_update(of=("self",))
        .filter(table=table, number=number)
        .select_related("entered_by__player")
        .order_by("-created_at", "-pk")
        .first()
    )


def disputed_conflict(proposal: Proposal) -> StateConflict:
    return StateConflict(
        _("Hand %(hand)s is disputed (by seat %(seat)s); the director decides it.")
        % {"hand": proposal.number, "seat": proposal.disputed_seat},
        field="hand",
    )


@for_request("table")
def propose_hand(
    *,
    table: Table,
    number: int,
    entry: rules.HandEntry,
    code: str,
    client: str,
    proven: bool = False,
) -> Proposal:
    """A player at `table` enters hand `number`: it waits, unrecorded, until another
    player there confirms it. The rules engine judges it now, as it will when it is
    recorded. Sending the same entry again changes nothing; any other entry is the
    hand's next version."""
    table, seat = player_at_table(table, number, code, client, proven)
    attempts = attempts_of(table, number)
    check_not_recorded(attempts, number)
    latest = latest_for_update(table, number)
    if latest is not None and latest.state == Proposal.State.DISPUTED:
        raise disputed_conflict(latest)
    score_entry(table, number, entry)
    document = entry_document(entry)
    pending = latest if latest is not None and latest.state == Proposal.State.PENDING else None
    if pending is not None:
        if pending.entered_by_id == seat.entry_id and pending.entry == document:
            return pending
        pending.state = Proposal.State.REPLACED
        with_history_user(pending, None, st.stored(st.REPLACED, **named(seat))).save()
    proposal = Proposal(
        table=table,
        number=number,
        entry=document,
        base_version=current_version(attempts),
        entered_by=seat.entry,
        entered_seat=seat.position,
        version=latest.version + 1 if latest is not None else 1,
    )
    with_history_user(proposal, None, st.stored(st.ENTERED, **named(seat))).save()
    touch_table(table)
    return proposal


def nothing_waiting(number: int) -> Missing:
    return Missing(
        _("No entry for hand %(hand)s is waiting for confirmation.") % {"hand": number},
        field="hand",
    )


@for_request("table")
def confirm_proposal(
    *,
    table: Table,
    number: int,
    code: str,
    client: str,
    version: int | None = None,
    proven: bool = False,
) -> Proposal:
    """Another player at the table confirms the entry waiting for hand `number`: it is
    recorded through `record_hand` as if a director had sent it, its history naming
    the seats that entered and confirmed it. Confirming again changes nothing.

    `version` is the entry the player was shown: if the table has entered the hand
    again since, nothing is recorded (ProposalChanged, 409) and the player looks at the
    new entry. Without it (API clients from before versions) the waiting entry is
    confirmed as it stands; the pages always send it."""
    table, seat = player_at_table(table, number, code, client, proven)
    proposal = latest_for_update(table, number)
    if (
        proposal is not None
        and proposal.state == Proposal.State.RECORDED
        and proposal.confirmed_by_id == seat.entry_id
    ):
        return proposal
    check_not_recorded(attempts_of(table, number), number)
    if proposal is not None and proposal.state == Proposal.State.DISPUTED:
        raise disputed_conflict(proposal)
    if proposal is None or proposal.state != Proposal.State.PENDING:
        raise nothing_waiting(number)
    if version is not None and version != proposal.version:
        raise ProposalChanged(
            _(
                "Hand %(hand)s was entered again (by seat %(seat)s) since you looked at it: "
                "nothing was recorded. Check the new entry before you confirm it."
            )
            % {"hand": number, "seat": proposal.entered_seat},
            field="version",
        )
    if proposal.entered_by_id == seat.entry_id:
        raise StateConflict(
            _("You entered hand %(hand)s: another player at the table confirms it.")
            % {"hand": number},
            field=FIELD,
        )
    proposal.state = Proposal.State.RECORDED
    proposal.confirmed_by, proposal.confirmed_seat = seat.entry, seat.position
    reason = st.stored(
        st.PLAYERS,
        **st.seat(proposal.entered_seat, proposal.entered_by.player.name),
        by_seat=seat.position,
        by_name=seat.entry.player.name,
    )
    with_history_user(proposal, None, reason).save()
    try:
        record_hand(
            table=table,
            number=number,
            entry=entry_from_document(proposal.entry),
            expected_version=proposal.base_version,
            reason=reason,
        )
    except StaleVersion as stale:  # a director changed the hand meanwhile
        raise StateConflict(
            _("Hand %(hand)s was changed by a director meanwhile; nothing was recorded.")
            % {"hand": number},
            field="hand",
        ) from stale
    return proposal


@for_request("table")
def dispute_proposal(
    *,
    table: Table,
    number: int,
    code: str,
    client: str,
    entry: rules.HandEntry | None = None,
    proven: bool = False,
) -> Proposal:
    """Another player at the table disputes the entry waiting for hand `number`, with
    their own version of the hand if they give one (judged by the rules engine):
    nothing is recorded, and the director decides. The player who disputed may give
    their version afterwards, or change it, until the director decides; disputing again
    without one changes nothing."""
    table, seat = player_at_table(table, number, code, client, proven)
    check_not_recorded(attempts_of(table, number), number)
    proposal = latest_for_update(table, number)
    if proposal is None:
        raise nothing_waiting(number)
    alternative = None
    if entry is not None:
        score_entry(table, number, entry)
        alternative = entry_document(entry)
    if proposal.state == Proposal.State.DISPUTED:
        if proposal.disputed_by_id != seat.entry_id:
            raise disputed_conflict(proposal)
        if alternative is None or proposal.alternative == alternative:
            return proposal
        proposal.alternative = alternative
        with_history_user(proposal, None, st.stored(st.VERSION_GIVEN, **named(seat))).save()
        touch_table(table)
        return proposal
    if proposal.state != Proposal.State.PENDING:
        raise nothing_waiting(number)
    if proposal.entered_by_id == seat.entry_id:
        raise StateConflict(
            _("You entered hand %(hand)s: enter it again to change it.") % {"hand": number},
            field=FIELD,
        )
    proposal.state = Proposal.State.DISPUTED
    proposal.disputed_by, proposal.disputed_seat = seat.entry, seat.position
    proposal.alternative = alternative
    with_history_user(proposal, None, st.stored(st.DISPUTED, **named(seat))).save()
    touch_table(table)
    return proposal


@for_request("round")
def issue_codes(*, round: Round) -> int:
    """Give each player seated in `round` who has no code for it yet their own code
    (publishing a round does this; so does seating a player into a round in play).
    Codes already given never change. Returns how many were issued."""
    seated = set(Seat.objects.filter(round=round).values_list("entry_id", flat=True))
    given = dict(PlayerCode.objects.filter(round=round).values_list("entry_id", "code"))
    taken = set(given.values())
    issued = []
    for entry_id in sorted(seated - set(given)):
        code = new_code()
        while code in taken:  # about one chance in a billion per code
            code = new_code()
        taken.add(code)
        issued.append(PlayerCode(round=round, entry_id=entry_id, code=code))
    PlayerCode.objects.bulk_create(issued)
    return len(issued)
