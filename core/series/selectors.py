"""Reads of series: who may see and organise one, its legs, the legs' final places
(what a rebuild ranks), its standings and prizes as pages and the API show them, and a
player's series results. A fixed number of queries whatever the series' size."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Max, Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from core.common import the_row
from core.errors import Missing
from core.jobs import SERIES_STANDINGS
from core.words import listing
from game import prizes as game_prizes
from game import series as game_series
from scoring.models import DerivedState, Hand, SeriesStanding, Standing
from tournaments.models import Event, HouseRuleset, Round, Series

User = AbstractBaseUser | AnonymousUser


def visible_series(user: User) -> QuerySet[Series]:
    everything = Series.objects.all()
    if getattr(user, "is_superuser", False):
        return everything
    if user.is_authenticated:
        return everything.filter(Q(public=True) | Q(organisers=user)).distinct()
    return everything.filter(public=True)


def series_for(user: User, slug: str) -> Series:
    found = the_row(visible_series(user).filter(slug=slug))
    if found is None:
        raise Missing(_("No such series."))
    return found


def can_organise(user: User, series: Series) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return series.organisers.filter(pk=user.pk).exists()


def can_change_ruleset(user: User, ruleset: HouseRuleset) -> bool:
    """Whoever defined a custom ruleset (its owners), or a superuser, may change it."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return ruleset.owners.filter(pk=user.pk).exists()


def organised_series(user: User) -> QuerySet[Series]:
    if getattr(user, "is_superuser", False):
        return Series.objects.all()
    if not user.is_authenticated:
        return Series.objects.none()
    return Series.objects.filter(organisers=user)


def series_list(user: User) -> QuerySet[Series]:
    """The series `user` organises, newest season first, each with its number of legs
    (`leg_count`): 1 query."""
    return organised_series(user).annotate(leg_count=Count("legs")).order_by("-season", "name")


def can_create_series(user: User) -> bool:
    return user.is_authenticated and (
        user.has_perm("tournaments.add_series") or user.has_perm("tournaments.add_event")
    )


def legs_of(series: Series) -> list[Event]:
    """The legs in date order (then name)."""
    return list(series.legs.order_by("starts_on", "name", "pk"))


def final_rounds(legs: list[Event]) -> dict[int, int]:
    """Each final leg's last closed round id: a leg is final when finished, or when its
    last planned round is closed. 1 query."""
    by_event = {leg.pk: leg for leg in legs}
    latest = (
        Round.objects.filter(event_id__in=by_event, status=Round.Status.CLOSED)
        .values("event_id")
        .annotate(number=Max("number"))
    )
    wanted = {}
    for row in latest:
        leg = by_event[row["event_id"]]
        if leg.status == Event.Status.FINISHED or row["number"] >= leg.rounds_planned:
            wanted[leg.pk] = row["number"]
    if not wanted:
        return {}
    query = Q()
    for event_id, number in wanted.items():
        query |= Q(event_id=event_id, number=number)
    return dict(Round.objects.filter(query).values_list("event_id", "pk"))


def series_slugs_shown(user: User, ids: Iterable[int]) -> dict[int, str | None]:
    """Each series id's slug if `user` may see that series, else None (a private
    series' slug tells of it): 1 query."""
    ids = set(ids)
    slugs = dict(visible_series(user).filter(pk__in=ids).values_list("pk", "slug"))
    return {pk: slugs.get(pk) for pk in ids}


def leg_of(series: Series, slug: str) -> Event:
    """A leg of the series by its slug; 404 if the series has no such leg."""
    leg = series.legs.filter(slug=slug).first()
    if leg is None:
        raise Missing(_("No such leg in this series."))
    return leg


@dataclass(frozen=True)
class LegRow:
    """A leg as a series page or print lists it: the event, and whether its results
    count yet ("scored"), it is being played ("in play") or it is still to come."""

    event: Event
    state: str

    @property
    def scored(self) -> bool:
        return self.state == "scored"

    @property
    def words(self) -> str:
        """The state in the reader's language."""
        return str(LEG_STATES.get(self.state, self.state))


LEFT_OUT = "not counted: it finished after the final began"
# A leg's state as pages and prints word it.
LEG_STATES = {
    "scored": pgettext_lazy("leg state", "scored"),
    "in play": pgettext_lazy("leg state", "in play"),
    "to come": pgettext_lazy("leg state", "to come"),
    LEFT_OUT: pgettext_lazy("leg state", "not counted: it finished after the final began"),
}
# How ties in a series are broken (`game.series.COUNTBACK_WORDS`), in the reader's
# language.
COUNTBACK_WORDS = gettext_lazy(
    "Players level on points share nothing by chance: a leg's place shared by players "
    "level on all but its draw shares its points. Ties: more points, then the counted "
    "results compared place by place (best first), then the better place in the latest "
    "leg both played, then the series' draw (its seed committed to from the start, "
    "revealed when the final is seeded)."
)


def final_started(series: Series) -> bool:
    """Whether the series' final has begun: its first hand is recorded, so it can no
    longer be seeded again. 1 query (none without a final)."""
    if series.final_id is None:
        return False
    return Hand.objects.filter(table__round__event_id=series.final_id).exists()


def qualification_frozen(series: Series) -> bool:
    """Whether the series' qualification is frozen: its final has begun and its
    organiser has not reopened it since. Its standings then count the legs as they
    stood when the final began. 1 query (none without a final)."""
    return series.reopened_at is None and final_started(series)


def leg_rows(legs: list[Event], *, frozen: bool = False) -> list[LegRow]:
    """The legs with their state: 1 query (`final_rounds`). In a frozen series a leg
    that became final after the final began is not counted, and says so."""
    scored = final_rounds(legs)

    def state(leg: Event) -> str:
        if leg.pk in scored:
            return LEFT_OUT if frozen and not leg.series_places else "scored"
        return "in play" if leg.status == Event.Status.RUNNING else "to come"

    return [LegRow(leg, state(leg)) for leg in legs]


def results_by_leg(row: SeriesStanding, legs: list[Event]) -> list[dict | None]:
    """A standings row's results in the legs' order (None: a leg they did not play)."""
    found = {result["event"]: result for result in row.results}
    return [found.get(leg.slug) for leg in legs]


def final_places(legs: list[Event]) -> dict[int, list[tuple[int, int, int]]]:
    """event id -> (player id, final place, how many share it) for every player of every
    final leg who played at least one set in it (a set left unfinished counts): a player
    who withdrew before their first set keeps a row in the leg's standings but earns
    nothing, and the leg is not one they played. Players level on everything the leg's
    tiebreaks compare but its draw share the best place they cover
    (`game.series.shared_places`). 2 queries."""
    rounds = final_rounds(legs)
    if not rounds:
        return {}
    rows = Standing.objects.filter(round_id__in=rounds.values()).values_list(
        "event_id", "entry__player_id", "rank", "sets_played", "tiebreaks"
    )
    by_leg: dict[int, list[tuple]] = {}
    for event_id, player, rank, played, tiebreaks in rows:
        by_leg.setdefault(event_id, []).append((player, rank, played, tiebreaks))
    places = {}
    for event_id, standings in by_leg.items():
        shared = game_series.shared_places(
            [(rank, game_series.level_values(tiebreaks)) for _, rank, _, tiebreaks in standings]
        )
        places[event_id] = sorted(
            (player, *shared[rank]) for player, rank, played, _ in standings if played > 0
        )
    return places


@dataclass(frozen=True)
class PrizeLine:
    place: int
    amount: Decimal
    item: str
    shared_with: tuple[int, ...] = ()
    currency: str = ""

    @property
    def text(self) -> str:
        return prize_text(self.amount, self.item, self.shared_with, self.currency)


def prize_text(
    amount: Decimal, item: str, shared_with: tuple[int, ...] = (), currency: str = ""
) -> str:
    """ "J$250.00 and a trophy (shared with place 3)" and the like, the amount written
    as the reader's language writes money."""
    money = number_format(amount, decimal_pos=2, use_l10n=True, force_grouping=True)
    parts = [f"{currency}{money}"] if amount else []
    if item:
        parts.append(item)
    text = _(" and ").join(parts)
    if shared_with:
        text = ngettext(
            "%(prize)s (shared with place %(places)s)",
            "%(prize)s (shared with places %(places)s)",
            len(shared_with),
        ) % {"prize": text, "places": listing(shared_with)}
    return text


def prize_table(prizes: list[dict] | None, currency: str = "") -> list[PrizeLine]:
    """A stored prize table by place, each with its text ("J$50,000.00 and a trophy")."""
    return [
        PrizeLine(p.place, p.amount, p.item, (), currency) for p in game_prizes.check_table(prizes)
    ]


def prize_lines(
    table: list[dict], groups: list[list[int]], policy: str, currency: str = ""
) -> dict[int, PrizeLine]:
    """Each rank's prize from a stored prize table and the tied groups."""
    prizes = game_prizes.check_table(table)
    won = game_prizes.awards(prizes, groups, policy=policy)
    return {
        rank: PrizeLine(rank, award.amount, award.item, award.shared_with, currency)
        for rank, award in won.items()
    }


def series_standings(series: Series) -> list[SeriesStanding]:
    """The standings in rank order with each player's name and each result's leg name
    and counted mark; `prize` on each row (None: none). 2 queries."""
    rows = list(
        SeriesStanding.objects.filter(series=series).select_related("player").order_by("rank")
    )
    groups: dict[int, list[int]] = {}
    for row in rows:
        groups.setdefault(row.tie_group, []).append(row.rank)
    lines = prize_lines(
        series.prizes, list(groups.values()), series.prize_ties, series.prize_currency
    )
    names = dict(series.legs.values_list("slug", "name"))
    above = None
    for row in rows:
        row.prize = lines.get(row.rank)
        for result in row.results:
            result["name"] = names.get(result["event"], result["event"])
        row.tie_note = tie_note(row, above, names)
        above = row
    return rows


# What put a player below another level on points (`game.series.DECIDED_WORDS`), in
# the reader's language.
DECIDED_WORDS = {
    "countback": gettext_lazy("on countback (counted results place by place)"),
    "latest_leg": gettext_lazy("on the latest leg both played"),
    "draw": gettext_lazy("by the series' draw"),
}


def tie_note(row: SeriesStanding, above: SeriesStanding | None, legs: dict[str, str]) -> str:
    """Why a player level on points with the one above is below them, in words ("" when
    points decided)."""
    if above is None or row.decided_by not in game_series.DECIDED_WORDS:
        return ""
    how = str(DECIDED_WORDS.get(row.decided_by, game_series.DECIDED_WORDS[row.decided_by]))
    if row.decided_by == game_series.ON_LATEST_LEG and row.latest_leg:
        how = _("%(how)s (%(leg)s)") % {"how": how, "leg": legs.get(row.latest_leg, row.latest_leg)}
    return _("level on points with %(name)s: below %(how)s") % {
        "name": above.player.name,
        "how": how,
    }


def event_prizes(event: Event, standings: list) -> dict[int, PrizeLine]:
    """An event's prizes by rank from its final standings (rows with `rank` and
    `tiebreaks`): players whose tiebreak values are equal up to the draw are tied."""
    if not event.prizes:
        return {}
    groups = game_prizes.tied_groups(
        standings, lambda row: [t for t in (row.tiebreaks or []) if not (t and t[0] == "draw")]
    )
    return prize_lines(event.prizes, groups, event.prize_ties, event.prize_currency)


def player_series(
    player_id: int, user: User, *, events: Iterable[Event] = ()
) -> list[SeriesStanding]:
    """A player's place in every series the user may see, each result's leg named from
    `events` (the events of theirs the page has read already: every leg they played in
    that the user may see), else by its slug. 1 query."""
    names = {event.slug: event.name for event in events}
    rows = list(
        SeriesStanding.objects.filter(player_id=player_id, series__in=visible_series(user))
        .select_related("series")
        .order_by("-series__season", "series__name")
    )
    for row in rows:
        for result in row.results:
            result["name"] = names.get(result["event"], result["event"])
    return rows


def series_of_event(event: Event) -> Series | None:
    """The public series the event is a leg of (1 query; none for an event of no
    series). A private series is not named on a public page."""
    if event.series_id is None:
        return None
    return Series.objects.filter(pk=event.series_id, public=True).first()


def standings_stale(series: Series) -> bool:
    """Whether a change is still being ranked into the series standings."""
    return DerivedState.objects.filter(
        kind=SERIES_STANDINGS, key=series.pk, dirty_since__isnull=False
    ).exists()


def series_over(series, legs: list) -> bool:
    """The series' results are final: its final finished, or (without one) every leg."""
    if series.final is not None:
        return series.final.status == Event.Status.FINISHED
    return bool(legs) and all(leg.scored for leg in legs)


def cut_after(rows: list) -> int | None:
    """The rank under which the qualification line is drawn (None: nobody below it)."""
    qualified = [row.rank for row in rows if row.qualified]
    last = max(qualified, default=0)
    return last if last and last < len(rows) else None


def qualifier_carries(rows: list[SeriesStanding], step: int) -> dict[int, tuple[int, str]]:
    """player -> (carry, why) for the stored series standings' qualifiers: by series
    rank, the same for players the countback left level but for the draw."""
    found: dict[int, tuple[int, str]] = {}
    first = None
    for row in rows:
        if first is None or row.decided_by != game_series.ON_DRAW:
            first = row.rank
        carry = game_series.carried_score(first, step)
        why = (
            _("series rank %(rank)s") % {"rank": row.rank}
            if first == row.rank
            else _("series rank %(rank)s, level with rank %(first)s but for the draw")
            % {"rank": row.rank, "first": first}
        )
        found[row.player_id] = (carry, why)
    return found


def wildcard_carry(series: Series, carries: dict[int, tuple[int, str]]) -> tuple[int, str]:
    if series.wildcard_carry is not None:
        return series.wildcard_carry, _("not a qualifier: the series' carry for other entrants")
    lowest = max((carry for carry, _why in carries.values()), default=0)
    return lowest, _("not a qualifier: the lowest qualifier's carry")


def final_carry(event: Event, player_id: int) -> int | None:
    """What a player entering `event` carries into it when it is a series' seeded final
    (a wildcard entered later, a reserve replacing a qualifier): a qualifier's own carry,
    anyone else's the series' carry for other entrants. None for any other event, or a
    final not yet seeded (seeding sets every carry). 2 queries (1 for another event)."""
    series = seeded_final_of(event)
    if series is None:
        return None
    rows = list(SeriesStanding.objects.filter(series=series, qualified=True).order_by("rank"))
    carries = qualifier_carries(rows, series.carry_over_step)
    if player_id in carries:
        return carries[player_id][0]
    return wildcard_carry(series, carries)[0]


def seeded_final_of(event: Event) -> Series | None:
    """The series whose final `event` is, once that final is seeded (None: no series'
    final, or not seeded yet). 1 query."""
    return Series.objects.filter(final=event, final_seeded_at__isnull=False).first()
