"""The organiser's series page offers only what the services would accept: once the
final's first hand is recorded its legs and the settings that rank the series (or set
the final's carries) are shown frozen, with the reason; the final's menu lists only the
events seeding would take; the standings carry the public page's marks. And the
final's public page says where each entrant's carry comes from."""

from __future__ import annotations

import re
from html import unescape

import pytest

from core import caching, services
from core.series.services import FROZEN_FIELDS
from scoring.models import SeriesStanding
from tests.api.test_series_fair import two_table_leg
from tests.fixtures import hand_at, make_event, make_round
from tests.html import Page, signed_in
from tournaments.models import Entry, Event, Player, Series

# Real commits: the series standings are rebuilt when a leg's standings commit.
pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "/organiser/circuit/"
FROZEN = "so the series' qualification is frozen: reopen the series, with a reason"
SEEDED = "its players keep the carries they were seeded with"


@pytest.fixture
def players(db) -> list[Player]:
    return [Player.objects.create(name=f"P{i}") for i in range(10)]


@pytest.fixture
def series(alice) -> Series:
    """Alice's public circuit: four qualifiers, 25 points a rank carried into the final,
    players level with the last qualifier all qualify."""
    return services.create_series(
        data={
            "slug": "circuit",
            "name": "Circuit",
            "qualifiers": 4,
            "carry_over_step": 25,
            "ties_qualify": True,
        },
        by=alice,
    )


def directed(alice, **fields) -> Event:
    event = make_event(**fields)
    event.directors.add(alice)
    return event


def seeded_final(series: Series, alice, players: list[Player]) -> Event:
    """Two finished legs (alice directs them) and the final seeded from the page."""
    for day in (1, 2):
        two_table_leg(series, players, day=day).directors.add(alice)
    final = directed(alice, slug="final", name="Final", status=Event.Status.REGISTRATION)
    done = signed_in(alice).post(PAGE + "final/", {"event": "final"}, follow=True)
    assert "4 qualifiers are entered in Final" in done.content.decode()
    return final


def begin(final: Event) -> None:
    """The final's first hand recorded."""
    round_ = make_round(final, table_sizes=(4,), entries=list(final.entries.all()))
    services.record_hand(table=round_.tables.get(), number=1, entry=hand_at([1, 2, 3, 4]))


def text(html: str) -> str:
    """The page as a reader reads it: no tags, entities read, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def options(html: str, select: str) -> list[str]:
    """The values a select offers (a disabled option offers nothing)."""
    found = re.search(rf'<select id="{select}"[^>]*>(.*?)</select>', html, re.S)
    if found is None:
        return []
    chosen = re.findall(r"<option ([^>]*)>", found.group(1))
    return [re.search(r'value="([^"]*)"', o).group(1) for o in chosen if "disabled" not in o]


def setting(html: str, name: str) -> dict:
    """A settings box's attributes (the settings form is the page's last)."""
    settings = html[html.index('action="/organiser/circuit/settings/"') :]
    return Page("<form " + settings).fields[("", name)]["attrs"]


def test_the_finals_menu_lists_only_the_events_seeding_would_take(series, alice, players):
    two_table_leg(series, players, day=1).directors.add(alice)
    directed(alice, slug="final", name="Final", status=Event.Status.REGISTRATION)
    directed(alice, slug="spare", name="Spare", status=Event.Status.REGISTRATION)
    make_round(directed(alice, slug="begun", name="Begun"))  # a round seated: too late
    directed(alice, slug="done", name="Done", status=Event.Status.FINISHED)
    directed(alice, slug="hidden", name="Hidden", public=False)  # the series is public
    # A final carrying a score ranks by total points.
    directed(alice, slug="knockout", name="Knockout", format=Event.Format.KNOCKOUT)
    other = services.create_series(data={"slug": "other", "name": "Other"}, by=alice)
    services.update_series(series=other, data={"final": "spare"}, by=alice)
    client = signed_in(alice)
    page = client.get(PAGE).content.decode()
    assert options(page, "final-event") == ["final"]  # "spare" is the other's final
    services.update_series(series=other, data={"final": None}, by=alice)
    page = client.get(PAGE).content.decode()
    assert sorted(options(page, "final-event")) == ["final", "spare"]
    # Once the series has its final, that event alone: the service takes no other.
    client.post(PAGE + "final/", {"event": "final"})
    page = client.get(PAGE).content.decode()
    assert options(page, "final-event") == ["final"]
    assert "Seed the final again" in page
    refused = client.post(PAGE + "final/", {"event": "spare"}, follow=True)
    assert "This series already has its final." in refused.content.decode()


def test_once_the_final_has_begun_the_legs_and_ranking_settings_are_frozen(series, alice, players):
    final = seeded_final(series, alice, players)
    directed(alice, slug="spare", name="Spare", status=Event.Status.REGISTRATION)
    client = signed_in(alice)
    page = client.get(PAGE).content.decode()
    assert "/remove/" in page and options(page, "add-leg") == ["spare"]
    begin(final)

    page = client.get(PAGE).content.decode()
    read = text(page)
    # No Remove, no Add the leg: the reason instead, pointing at the reopen form.
    assert "/remove/" not in page and 'id="add-leg"' not in page
    assert "the series' legs stay as they are: reopen the series" in read
    assert 'href="#reopen-series"' in page and 'id="reopen-series"' in page
    # The frozen settings read-only, each with its reason; the others as they were.
    for name in FROZEN_FIELDS:
        assert "disabled" in setting(page, name), name
    assert "disabled" not in setting(page, "name")
    assert setting(page, "qualifiers")["value"] == "4"
    begun = "Can no longer change: The final has begun (its first hand is recorded)"
    # The step stays as seeded even once reopened; the rest until the series is reopened.
    assert read.count(f"{begun}, {FROZEN}") == len(FROZEN_FIELDS) - 1
    assert read.count(f"{begun}: {SEEDED}") == 1
    # The final's action is gone with its menu (the final can no longer be seeded).
    assert options(page, "final-event") == []

    # A frozen setting sent anyway is refused in the service's words, nothing saved.
    refused = client.post(PAGE + "settings/", {"name": "Circuit", "qualifiers": 2}, follow=True)
    assert "the series&#x27; qualification is frozen" in refused.content.decode()
    assert Series.objects.get(pk=series.pk).qualifiers == 4
    # The page as a browser sends it (the disabled boxes left out) keeps them.
    saved = client.post(PAGE + "settings/", {"name": "Circuit 2027", "public": "on"})
    assert saved.status_code == 302
    series.refresh_from_db()
    assert series.name == "Circuit 2027"
    assert (series.qualifiers, series.ties_qualify, series.carry_over_step) == (4, True, 25)

    # Reopened with a reason: the legs and the ranking settings may change again, but
    # the carries stay as seeded (the final can no longer be seeded again).
    client.post(PAGE + "reopen/", {"reason": "leg 2's sheet had a typo"})
    page = client.get(PAGE).content.decode()
    assert "/remove/" in page and options(page, "add-leg") == ["spare"]
    assert "leg 2&#x27;s sheet had a typo" in page
    assert "disabled" not in setting(page, "qualifiers")
    assert "disabled" in setting(page, "carry_over_step")
    assert SEEDED in text(page) and FROZEN not in text(page)
    refused = client.post(
        PAGE + "settings/",
        {"name": "Circuit", "qualifiers": 4, "carry_over_step": 10},
        follow=True,
    )
    assert "so its carried points stay as they were seeded" in text(refused.content.decode())
    assert Series.objects.get(pk=series.pk).carry_over_step == 25


def test_the_organisers_standings_show_shared_places_provisional_legs_and_tie_notes(
    series, alice, players
):
    leg = two_table_leg(series, players, day=1)
    services.reopen_round(round=leg.rounds.get(), reason="a score to check", by=None)
    page = text(signed_in(alice).get(PAGE).content.decode())
    public = text(signed_in(None).get("/series/circuit/").content.decode())
    # Each result's place shared with a player level but for the draw, its leg
    # provisional while reopened; P0 and P4 (level on all) told apart by the draw.
    assert page.count("#1 shared provisional : 90") == 2
    assert page.count("#5 shared provisional : 47.5") == 2
    rows = list(SeriesStanding.objects.filter(series=series).order_by("rank"))
    below = rows[1]
    note = f"level on points with {rows[0].player.name}: below by the series' draw"
    assert below.decided_by == "draw" and note in page and note in public


def field_rows(html: str) -> dict[str, str]:
    """The final's field, each player's row as read."""
    found = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)[1:]:
        words = text(row)
        found[words.split()[0]] = words
    return found


def field_of_the_final() -> dict[str, str]:
    """The final's public page, built afresh (its cached copy follows the final's own
    changes, not its series')."""
    caching.reset()
    return field_rows(signed_in(None).get("/events/final/").content.decode())


def test_the_finals_page_says_where_each_carry_comes_from(series, alice, players):
    for day in (1, 2):
        two_table_leg(series, players, day=day)
    final = directed(alice, slug="final", name="Final", status=Event.Status.REGISTRATION)
    Entry.objects.create(event=final, player=players[9])  # a wildcard
    services.create_final(series=series, event=final, by=alice)
    rank = dict(SeriesStanding.objects.filter(series=series).values_list("player__name", "rank"))
    first, second = sorted(("P0", "P4"), key=rank.get)
    third, fourth = sorted(("P1", "P5"), key=rank.get)
    rows = field_of_the_final()
    # Player, seed, carry: a qualifier's by series rank, the same for one level with the
    # rank above but for the draw; a wildcard's the lowest qualifier's.
    assert rows[first].endswith(" 1 0 series rank 1")
    assert rows[second].endswith(" 2 0 series rank 2, level with rank 1 but for the draw")
    assert rows[third].endswith(" 3 50 series rank 3")
    assert rows[fourth].endswith(" 4 50 series rank 4, level with rank 3 but for the draw")
    assert rows["P9"].endswith(" – 50 not a qualifier: the lowest qualifier's carry")

    # Out of step: a carry the series would no longer give says so.
    services.update_series(series=series, data={"qualifiers": 2}, by=alice)
    rows = field_of_the_final()
    assert rows[first].endswith(" 1 0 series rank 1")
    assert rows[third].endswith(" 3 50 as entered; the series would now give 0")
    assert rows["P9"].endswith(" – 50 as entered; the series would now give 0")

    # Seeded again with a carry set for the other entrants.
    services.update_series(series=series, data={"qualifiers": 4, "wildcard_carry": 30})
    services.create_final(series=series, event=final, by=alice)
    rows = field_of_the_final()
    assert rows[third].endswith(" 3 50 series rank 3")
    assert rows["P9"].endswith(" – 30 not a qualifier: the series' carry for other entrants")
