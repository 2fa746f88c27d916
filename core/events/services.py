"""Director actions on an event's settings: create it, change it. Checks come first and
raise a `ServiceError` naming the field and the reason; only then is anything written.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.caching import announce_version
from core.common import full_clean_or_raise, with_history_user
from core.errors import InvalidInput, StateConflict
from core.hands.selectors import event_has_hands
from core.hands.services import overrule_open_proposals
from core.locks import for_request
from core.ratings.services import queue_ratings_refresh
from core.rounds.services import check_can_finish
from core.screens.services import screens_changed
from core.series.services import check_final_format, check_may_be_private, check_prizes
from core.standings.services import queue_standings_refresh
from core.stored_texts.words import stored_time_rule
from core.words import translated
from game.ranking import check_tiebreaks as check_chain
from game.rulesets import deal_problem
from tournaments.models import PLAYED_ROUND_STATUSES, Event, Round

EVENT_FIELDS = (
    "slug",
    "name",
    "starts_on",
    "venue",
    "ruleset",
    "packs",
    "jokers",
    "format",
    "rounds_planned",
    "director_penalty",
    "overcall_penalty",
    "trinidad_doubling",
    "penalty_per_hand",
    "table_points",
    "advance_per_table",
    "even_knockout_places",
    "seating",
    "odd_tables",
    "public",
    "status",
    "tiebreaks",
    "table_entry",
    "round_minutes",
    "time_rule",
)
# House rules and prizes: settings too, kept apart from the archive's list.
EXTRA_FIELDS = (
    "custom_ruleset",
    "prizes",
    "prize_currency",
    "prize_ties",
    # The day's options: they take effect from the next round seated.
    "check_in",
    "club_avoidance",
    # The language of its pages for a reader who asks for none the site has.
    "language",
)
# Changing these after a hand is recorded would change what the recorded hands mean.
SCORING_FIELDS = (
    "custom_ruleset",
    "ruleset",
    "packs",
    "jokers",
    "director_penalty",
    "overcall_penalty",
    "trinidad_doubling",
    "penalty_per_hand",
)
# Changing these changes how the recorded sets rank.
RANKING_FIELDS = (
    "format",
    "table_points",
    "advance_per_table",
    "even_knockout_places",
    "tiebreaks",
    "rounds_planned",
)


# Addresses of the director's own pages, beside /director/<slug>/: an event of one of
# these slugs would be out of its directors' reach.
RESERVED_SLUGS = frozenset({"new", "site", "archive"})


def check_slug(value: Any) -> None:
    if value in RESERVED_SLUGS:
        raise InvalidInput(
            _('"%(slug)s" is the address of one of the director\'s pages; choose another slug.')
            % {"slug": value},
            field="slug",
        )


def check_table_points(value: Any) -> None:
    ok = (
        isinstance(value, list)
        and 1 <= len(value) <= 6
        and all(isinstance(v, int | float) and not isinstance(v, bool) and v >= 0 for v in value)
    )
    if not ok:
        raise InvalidInput(
            _("Give 1 to 6 placement points, best place first, none negative (e.g. [4, 2, 1, 0])."),
            field="table_points",
        )
    if any(a < b for a, b in zip(value, value[1:], strict=False)):
        raise InvalidInput(
            _("Placement points must not grow from one place to the next."),
            field="table_points",
        )


def check_tiebreaks(value: Any) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(_("Give a list of tiebreak names."), field="tiebreaks")
    try:
        check_chain(value)
    except ValueError as error:
        raise InvalidInput(translated(error), field="tiebreaks") from error


def check_settings(data: Mapping[str, Any]) -> None:
    check_draw_untouched(data)
    check_unknown_fields(data)
    if "slug" in data:
        check_slug(data["slug"])
    if "table_points" in data:
        check_table_points(data["table_points"])
    if "tiebreaks" in data:
        check_tiebreaks(data["tiebreaks"])
    if "prizes" in data:
        check_prizes(data["prizes"])


def with_house_rules(data: Mapping[str, Any]) -> dict[str, Any]:
    """The settings with the ruleset following the custom ruleset: naming one makes the
    ruleset "custom"; a built-in ruleset drops it. Prizes stored as checked; the rule at
    time given in the default's words is the default (worded for each reader)."""
    data = dict(data)
    if data.get("custom_ruleset") is not None:
        data["ruleset"] = Event.Ruleset.CUSTOM
    elif "ruleset" in data and data["ruleset"] != Event.Ruleset.CUSTOM:
        data["custom_ruleset"] = None
    if "prizes" in data:
        data["prizes"] = check_prizes(data["prizes"])
    if "time_rule" in data:
        data["time_rule"] = stored_time_rule(data["time_rule"])
    return data


def default_overcall_penalty(ruleset: str) -> bool:
    """Whether an over-call costs the director penalty when the event says nothing: in
    a Trinidad set the remedy for over-calling is the challenge, so it is off there
    unless the event asks for it; on in every other set (RULES.md, "Decided for
    tournaments"). House rules price an over-call themselves."""
    return ruleset != Event.Ruleset.TRINIDAD


def with_agreed_defaults(data: dict[str, Any]) -> dict[str, Any]:
    """A new event's agreed rules where its settings say nothing: the over-call
    penalty as its ruleset has it (`default_overcall_penalty`)."""
    if "overcall_penalty" not in data:
        data["overcall_penalty"] = default_overcall_penalty(
            data.get("ruleset", Event.Ruleset.JAMAICA)
        )
    return data


def following_the_ruleset(event: Event, data: dict[str, Any]) -> dict[str, Any]:
    """A change of ruleset that does not name the over-call penalty takes the new
    ruleset's default with it: a Jamaican event turned Trinidad stops charging an
    over-call, as a new Trinidad event would, unless the director says otherwise."""
    ruleset = data.get("ruleset", event.ruleset)
    if ruleset != event.ruleset and "overcall_penalty" not in data:
        data["overcall_penalty"] = default_overcall_penalty(ruleset)
    return data


# The draw is the site's, never a setting: its seed is made secret and at random when
# the event (or series) is created, and only its SHA-256 is shown until it is revealed.
DRAW_FIELDS = ("draw_seed", "draw_commitment")


def check_draw_untouched(data: Any, *, of: str = "event") -> None:
    """Refuse (400, naming the field) any attempt to set the draw's seed or commitment
    of an event, or with `of="series"` of a series; nothing is written."""
    if not isinstance(data, Mapping):
        return
    if of == "series":
        seed = _("The draw seed is made by the site when the series is created and cannot be set.")
        commitment = _(
            "The draw commitment is the SHA-256 of the seed the site made when the series "
            "was created; it cannot be set."
        )
    else:
        seed = _("The draw seed is made by the site when the event is created and cannot be set.")
        commitment = _(
            "The draw commitment is the SHA-256 of the seed the site made when the event "
            "was created; it cannot be set."
        )
    words = {"draw_seed": seed, "draw_commitment": commitment}
    named = {name: [words[name]] for name in DRAW_FIELDS if name in data}
    if named:
        raise InvalidInput(named)


def check_unknown_fields(data: Mapping[str, Any]) -> None:
    unknown = sorted(set(data) - set(EVENT_FIELDS) - set(EXTRA_FIELDS))
    if unknown:
        raise InvalidInput({name: [_("This is not an event setting.")] for name in unknown})


def check_agreed_rules(event: Event) -> None:
    """The settings that must agree with each other, once the model's own checks pass:
    the deck deals every hand to the largest table the seating makes, and Trinidad
    doubling belongs to a Trinidad set."""
    if event.ruleset == Event.Ruleset.CUSTOM and event.custom_ruleset_id is None:
        raise InvalidInput(
            _("A custom ruleset needs its house rules: name one."), field="custom_ruleset"
        )
    if event.ruleset != Event.Ruleset.CUSTOM and event.custom_ruleset_id is not None:
        raise InvalidInput(
            _('House rules are played with the ruleset "custom".'), field="custom_ruleset"
        )
    problem = deal_problem(event.rules, event.deck, event.largest_table)
    if problem is not None:
        problem = translated(problem)
        raise InvalidInput(
            {
                "packs": [
                    _(
                        "The deck is too small: %(problem)s. Add a pack or jokers "
                        "(or seat tables of three for the odd players)."
                    )
                    % {"problem": problem}
                    if event.largest_table > 4
                    else _("The deck is too small: %(problem)s. Add a pack or jokers.")
                    % {"problem": problem}
                ]
            }
        )
    if event.trinidad_doubling and not event.rules.challenge_allowed:
        raise InvalidInput(
            _(
                "Trinidad doubling is for a Trinidad set; house rules say themselves whether a "
                "down and out doubles (their down_and_out_doubles)."
            )
            if event.ruleset == Event.Ruleset.CUSTOM
            else _(
                "Trinidad doubling is for a Trinidad set; a Jamaican set always doubles on a "
                "down and out."
            ),
            field="trinidad_doubling",
        )


def house_settings(event: Event) -> dict[str, Any]:
    """The event settings a custom ruleset decides, as its house rules set them ({}: a
    built-in ruleset): the deck's jokers (so many per pack) and the penalty for an
    over-call, so an event's document says what its hands are played to."""
    values = event.house_values
    if values is None:
        return {}
    return {
        "jokers": event.packs * values["jokers_per_pack"],
        "director_penalty": values["overcall_penalty"],
    }


def apply_house_settings(event: Event, data: Mapping[str, Any], stored: Event) -> None:
    """Set what the house rules decide on `event`; a value `data` asks for that differs
    (and is not simply the one `stored` already had, as a form sends back: for a new
    event, the default) is refused, naming the field."""
    in_force = house_settings(event)
    refused = {
        name: [
            _(
                "The house rules (%(name)s) set this to %(value)s; change them there, or "
                "play a built-in ruleset."
            )
            % {"name": event.house_values["name"], "value": value}
        ]
        for name, value in in_force.items()
        if name in data and data[name] != value and data[name] != getattr(stored, name)
    }
    if refused:
        raise InvalidInput(refused)
    for name, value in in_force.items():
        setattr(event, name, value)


def check_rounds_planned(event: Event, planned: Any) -> None:
    """No fewer rounds planned than the event already has (a bad value is the model's
    to refuse)."""
    if isinstance(planned, int) and not isinstance(planned, bool):
        made = event.rounds.count()
        if planned < made:
            raise StateConflict(
                ngettext(
                    "The event has %(count)s rounds already; plan at least %(count)s.",
                    "The event has %(count)s rounds already; plan at least %(count)s.",
                    made,
                )
                % {"count": made},
                field="rounds_planned",
            )


def check_format_change(event: Event, format: Any) -> None:
    """An event does not become a knockout, or stop being one, once a round is in play
    or played; the final of a series carrying a score keeps ranking by total points."""
    knockout = Event.Format.KNOCKOUT
    if knockout in (format, event.format) and (
        event.rounds.filter(status__in=PLAYED_ROUND_STATUSES).exists()
    ):
        raise StateConflict(
            _(
                "A round has been played: the event cannot become a knockout, or stop being "
                "one, now (who went through decides the later rounds' seating)."
            ),
            field="format",
        )
    check_final_format(event, format)


# How played sets rank: frozen once a round is closed (the draw's seed is never a
# setting: it is secret and random from the event's creation).
FROZEN_FIELDS = ("format", "table_points", "advance_per_table", "even_knockout_places", "tiebreaks")


def check_ranking_frozen(event: Event, data: Mapping[str, Any]) -> None:
    """Results are frozen when they are played: once a round is closed, the settings
    that rank its sets cannot change (409, naming each field and the rounds that hold
    them). A played round changes only by reopening it, with its director's reason."""
    changed = [
        f
        for f in FROZEN_FIELDS
        if f in data and as_compared(data[f]) != as_compared(getattr(event, f))
    ]
    if not changed:
        return
    closed = list(
        event.rounds.filter(status=Round.Status.CLOSED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if not closed:
        return
    if len(closed) == 1:
        message = _(
            "Round %(round)s is closed and ranked with this setting, so it can no longer "
            "change: played results stay as they were ranked."
        ) % {"round": closed[0]}
    else:
        message = _(
            "Rounds %(first)s to %(last)s are closed and ranked with this setting, so it can "
            "no longer change: played results stay as they were ranked."
        ) % {"first": closed[0], "last": closed[-1]}
    raise StateConflict({field: [message] for field in changed})


def as_compared(value: Any) -> Any:
    """A setting as stored, for comparing (lists arrive as lists or tuples)."""
    return list(value) if isinstance(value, (list, tuple)) else value


def check_event(event: Event) -> None:
    """Every check of an event's settings as they would be saved."""
    full_clean_or_raise(event)
    check_agreed_rules(event)


@transaction.atomic
def create_event(*, data: Mapping[str, Any], by: AbstractBaseUser | None = None) -> Event:
    """Create an event; the user who creates it becomes one of its directors."""
    event = check_new_event(data)
    with_history_user(event, by).save()
    if by is not None and by.is_authenticated:
        event.directors.add(by)
    return event


def check_new_event(data: Mapping[str, Any]) -> Event:
    """The event `data` would create, after every check `create_event` makes; nothing is
    saved. The admin's event form checks through this too."""
    check_settings(data)
    event = Event(**with_agreed_defaults(with_house_rules(data)))
    apply_house_settings(event, data, Event())  # a form's defaults ask for nothing
    check_event(event)
    return event


def check_update(event: Event, data: Mapping[str, Any]) -> Event:
    """`event` (as stored) with `data` applied, after every check an update makes;
    nothing is saved. The admin's event form checks through this too."""
    check_settings(data)
    data = with_house_rules(data)
    if "slug" in data and data["slug"] != event.slug and event.rounds.exists():
        raise StateConflict(
            {
                "slug": [
                    _(
                        "The slug is in the address of this event's pages and of the QR "
                        "codes printed on its score sheets; it cannot change once a round "
                        "has started."
                    )
                ]
            }
        )
    changed_scoring = [f for f in SCORING_FIELDS if f in data and data[f] != getattr(event, f)]
    if changed_scoring and event_has_hands(event):
        raise StateConflict(
            {
                f: [_("Hands have been recorded with this setting; it can no longer change.")]
                for f in changed_scoring
            }
        )
    check_ranking_frozen(event, data)
    data = following_the_ruleset(event, data)
    if "rounds_planned" in data:
        check_rounds_planned(event, data["rounds_planned"])
    if "format" in data and data["format"] != event.format:
        check_format_change(event, data["format"])
    finishing = is_finishing(event, data)
    changed = copy.copy(event)
    for field, value in data.items():
        setattr(changed, field, value)
    apply_house_settings(changed, data, event)
    check_event(changed)
    if event.public and not changed.public:
        check_may_be_private(event)  # a public series' legs and final stay public
    if finishing:
        check_can_finish(changed)
    return changed


def is_finishing(event: Event, data: Mapping[str, Any]) -> bool:
    return data.get("status") == Event.Status.FINISHED and event.status != Event.Status.FINISHED


@for_request("event")
def update_event(
    *, event: Event, data: Mapping[str, Any], by: AbstractBaseUser | None = None
) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    finishing = is_finishing(event, data)
    reranked = any(f in data and data[f] != getattr(event, f) for f in RANKING_FIELDS)
    visibility = "public" in data and data["public"] != event.public
    directors_take_over = (
        data.get("table_entry") == Event.TableEntry.DIRECTORS
        and event.table_entry != Event.TableEntry.DIRECTORS
    )
    event = check_update(event, data)
    with_history_user(event, by).save()
    if directors_take_over:
        overrule_open_proposals(event, by)
    if visibility:
        # Every process's copy of the event is checked against this announcement, so
        # a hidden event stops being served at once, not when the copies expire. Told
        # before the new screen version (hooks run in order): a live page reading
        # between the two sees the event hidden, never a change of a hidden event.
        announce_version(event, event.standings_version)
    screens_changed(event)  # the name, the time rule... on pages already cached
    event.refresh_from_db(fields=["screen_version"])
    if finishing or reranked:
        queue_standings_refresh(event)  # ranked anew, or final
    if visibility:
        queue_ratings_refresh()  # ratings count public events only
    return event
