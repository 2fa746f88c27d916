"""Two real players of one name in one players file: both are imported when the file
tells them apart (another club, country or rating); a row repeating another is still
refused, and two rows never become one registered player."""

from __future__ import annotations

import pytest

from core import importing
from core.entries.selectors import namesakes_of
from core.errors import InvalidInput
from tests.fixtures import make_event
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db


def csv(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.fixture
def event():
    return make_event(slug="kingston", status=Event.Status.REGISTRATION)


def test_two_players_of_one_name_from_different_clubs_are_both_entered(event):
    data = csv(
        "name,club,country,seed",
        "Andre Brown,Kingston Kalooki Club,JM,1",
        "Andre Brown,Toronto Caribbean Club,CA,2",
    )
    preview = importing.preview_import(event=event, data=data)
    assert preview.ok
    assert preview.rows[1].notices == [
        "Another Andre Brown is on row 2: both are entered as two players, told apart on "
        "the event's lists by their club."
    ]
    result = importing.apply_import(event=event, data=data)
    assert len(result.created) == 2 and len(result.entered) == 2
    assert sorted(namesakes_of(event).values()) == [
        "Andre Brown (Kingston Kalooki Club)",
        "Andre Brown (Toronto Caribbean Club)",
    ]


def test_two_of_one_name_and_club_told_apart_by_their_rating_are_numbered(event):
    data = csv(
        "name,club,rating",
        "Andre Brown,Kingston Kalooki Club,1620",
        "Andre Brown,Kingston Kalooki Club,1450",
    )
    preview = importing.preview_import(event=event, data=data)
    assert preview.ok
    assert "by their club and a number" in preview.rows[1].notices[0]
    importing.apply_import(event=event, data=data)
    first, second = Player.objects.order_by("pk")
    assert (first.rating, second.rating) == (1620, 1450)
    assert namesakes_of(event) == {
        first.pk: "Andre Brown (Kingston Kalooki Club, 1)",
        second.pk: "Andre Brown (Kingston Kalooki Club, 2)",
    }


def test_a_row_repeating_another_is_refused_with_what_to_do_and_nothing_is_written(event):
    data = csv(
        "name,club,country,seed",
        "Andre Brown,Kingston Kalooki Club,JM,1",
        "Lorna Bailey,,,2",
        "andre  BROWN,kingston kalooki club,Jamaica,3",
    )
    row = {r.line: r for r in importing.preview_import(event=event, data=data).rows}[4]
    assert row.errors == [
        "Row 4: andre BROWN is already on row 2, with the same club, country and rating; "
        "remove one. If they are two people, tell them apart in the file (a club, a country "
        "or a rating, or Sr./Jr. in the name)."
    ]
    with pytest.raises(InvalidInput) as refused:
        importing.apply_import(event=event, data=data)
    assert set(refused.value.errors) == {"row 4"}
    assert (Player.objects.count(), Entry.objects.count()) == (0, 0)


def test_two_rows_are_never_merged_with_one_registered_player(event):
    known = Player.objects.create(name="Andre Brown", club="", country="")
    data = csv("name,club", "Andre Brown,Kingston Kalooki Club", "Andre Brown,Toronto Club")
    preview = importing.preview_import(event=event, data=data)
    # Both rows could be the registered Andre Brown (no club): the first is offered as
    # him, the second is a new player unless the director says otherwise.
    assert [row.suggested for row in preview.rows] == [known.pk, importing.NEW]
    assert preview.ok
    with pytest.raises(InvalidInput) as refused:
        importing.apply_import(event=event, data=data, choices={2: known.pk, 3: known.pk})
    assert refused.value.errors == {
        "row 3": [
            f"Row 3: Andre Brown (#{known.pk}) is already merged with row 2; one registered "
            "player is one person: choose a different person for one row."
        ]
    }
    assert (Player.objects.count(), Entry.objects.count()) == (1, 0)
    result = importing.apply_import(event=event, data=data)
    assert result.merged == [known] and len(result.created) == 1
    assert Entry.objects.filter(event=event).count() == 2
