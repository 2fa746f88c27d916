"""Importing players from CSV: the preview (nothing written) and the import (all or
nothing), through core.importing."""

from __future__ import annotations

import pytest

from core import importing
from core.errors import InvalidInput
from core.importing import reading
from tests.fixtures import make_event, make_user
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db


def csv(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode("utf-8")


GOOD = csv(
    "Name,Club,Country,Seed",
    "Andre Brown,Kingston Kalooki Club,JM,1",
    "Beverley Campbell,Spanish Town Card Players,Jamaica,2",
    "Carlton Clarke,San Fernando Card Club,TT,3",
)


@pytest.fixture
def event():
    return make_event(slug="kingston", status=Event.Status.REGISTRATION)


def counts() -> tuple[int, int]:
    return Player.objects.count(), Entry.objects.count()


def test_the_preview_reads_every_row_and_writes_nothing(event):
    preview = importing.preview_import(event=event, data=GOOD)
    assert preview.ok
    assert [(r.line, r.name, r.club, r.country, r.seed) for r in preview.rows] == [
        (2, "Andre Brown", "Kingston Kalooki Club", "JM", 1),
        (3, "Beverley Campbell", "Spanish Town Card Players", "JM", 2),
        (4, "Carlton Clarke", "San Fernando Card Club", "TT", 3),
    ]
    assert all(r.suggested == importing.NEW for r in preview.rows)
    assert counts() == (0, 0)


def test_importing_creates_the_players_and_enters_them_with_their_seeds(event):
    director = make_user("alice")
    result = importing.apply_import(event=event, data=GOOD, by=director)
    assert len(result.created) == 3 and len(result.entered) == 3
    entries = Entry.objects.filter(event=event).select_related("player").order_by("seed_number")
    assert [(e.player.name, str(e.player.country), e.seed_number) for e in entries] == [
        ("Andre Brown", "JM", 1),
        ("Beverley Campbell", "JM", 2),
        ("Carlton Clarke", "TT", 3),
    ]
    assert Entry.history.filter(history_user=director).count() == 3


def test_headers_are_case_insensitive_and_a_rating_column_is_optional(event):
    data = csv("  PLAYER NAME ; COUNTRY ; Rating ", "Andre Brown;jam;1500", "Lorna Bailey;;")
    result = importing.apply_import(event=event, data=data)
    players = {p.name: p for p in result.created}
    assert players["Andre Brown"].rating == 1500
    assert str(players["Andre Brown"].country) == "JM"
    assert players["Lorna Bailey"].rating is None
    assert str(players["Lorna Bailey"].country) == ""


def test_a_byte_order_mark_is_tolerated():
    data = "\ufeffname,country\nAndre Brown,JM\n".encode()
    preview = importing.preview_import(event=make_event(), data=data)
    assert preview.ok
    assert preview.rows[0].name == "Andre Brown"


def test_a_windows_1252_file_is_read_and_the_preview_says_it_guessed(event):
    data = "name,club\nJosé Pérez,Café Club\n".encode("cp1252")
    preview = importing.preview_import(event=event, data=data)
    assert preview.ok
    assert (preview.rows[0].name, preview.rows[0].club) == ("José Pérez", "Café Club")
    assert "read as Windows-1252" in preview.notices[0]
    assert "CSV UTF-8" in preview.notices[0]
    bom = "\ufeffname,club\nZoë Young,Club\n".encode()  # Excel's "CSV UTF-8"
    preview = importing.preview_import(event=event, data=bom)
    assert preview.rows[0].name == "Zoë Young" and preview.notices == []


def test_a_file_in_no_encoding_it_can_read_is_refused_with_a_clear_error(event):
    data = b"name,club\nJos\x81 P\x8drez,Club\n"  # bytes neither UTF-8 nor Windows-1252 has
    preview = importing.preview_import(event=event, data=data)
    assert not preview.ok
    assert "not UTF-8" in preview.errors[0] and "nor Windows-1252" in preview.errors[0]
    assert "CSV UTF-8" in preview.errors[0]
    with pytest.raises(InvalidInput) as refused:
        importing.apply_import(event=event, data=data)
    assert "file" in refused.value.errors
    assert counts() == (0, 0)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "empty"),
        (b"club,country\nKingston,JM\n", "'name'"),
        (b"name\n", "no players"),
        (b"name,Name\nA,B\n", "Two columns"),
    ],
)
def test_a_file_it_cannot_use_is_a_file_error(event, data, expected):
    preview = importing.preview_import(event=event, data=data)
    assert preview.rows == []
    assert expected in " ".join(preview.errors)


def test_a_row_without_a_name_is_an_error_naming_the_row(event):
    data = csv("name,club,country", "Andre Brown,KKC,JM", ",Lonely Club,JM")
    preview = importing.preview_import(event=event, data=data)
    assert not preview.ok
    assert preview.rows[0].errors == []
    assert preview.rows[1].errors == ["Row 3: the name is missing."]


def test_a_bad_country_is_an_error_naming_the_row_and_the_value(event):
    data = csv("name,country", "Andre Brown,Jamica", "Beverley Campbell,XX", "Carl Clarke,T&T")
    preview = importing.preview_import(event=event, data=data)
    assert "Row 2" in preview.rows[0].errors[0] and "'Jamica'" in preview.rows[0].errors[0]
    assert "Row 3" in preview.rows[1].errors[0] and "'XX'" in preview.rows[1].errors[0]
    assert preview.rows[2].errors == [] and preview.rows[2].country == "TT"


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("JM", "JM"),
        ("jm", "JM"),
        ("JAM", "JM"),
        ("Jamaica", "JM"),
        ("trinidad and tobago", "TT"),
        ("Trinidad & Tobago", "TT"),
        ("USA", "US"),
        ("United Kingdom", "GB"),
        ("St. Lucia", "LC"),
        ("", ""),
    ],
)
def test_countries_are_iso_codes_or_english_names(written, code):
    assert reading.resolve_country(written) == code


def test_bad_seeds_and_ratings_are_errors(event):
    data = csv("name,seed,rating", "A One,0,", "B Two,x,", "C Three,,12.5", "D Four,4,1500.0")
    rows = importing.preview_import(event=event, data=data).rows
    assert "seed '0'" in rows[0].errors[0]
    assert "seed 'x'" in rows[1].errors[0]
    assert "rating '12.5'" in rows[2].errors[0]
    assert rows[3].errors == [] and (rows[3].seed, rows[3].rating) == (4, 1500)


def test_duplicates_within_the_file_are_errors(event):
    data = csv(
        "name,seed", "Andre Brown,1", "  andre   BROWN ,2", "Lorna Bailey,1", "Marcia Reid,3"
    )
    preview = importing.preview_import(event=event, data=data)
    rows = {r.line: r for r in preview.rows}
    assert "already on row 2" in rows[3].errors[0]
    assert "seed 1 is also given on row 2" in rows[4].errors[0]
    assert rows[2].errors == [] and rows[5].errors == []
    with pytest.raises(InvalidInput) as refused:
        importing.apply_import(event=event, data=data)
    assert set(refused.value.errors) == {"row 3", "row 4"}
    assert counts() == (0, 0)


def test_a_row_with_too_many_values_is_an_error(event):
    data = csv("name,club", "Brown, Andre,Kingston Kalooki Club")
    preview = importing.preview_import(event=event, data=data)
    assert "3 values but the header names 2 columns" in preview.rows[0].errors[0]


def test_a_registered_player_is_offered_for_merging_and_merging_reuses_them(event):
    known = Player.objects.create(name="Andre Brown", club="Kingston Kalooki Club", country="JM")
    data = csv("name,club,country", "andre  brown,Kingston Kalooki Club,JM", "Lorna Bailey,,")
    preview = importing.preview_import(event=event, data=data)
    andre = preview.rows[0]
    assert [c.id for c in andre.candidates] == [known.pk]
    assert andre.suggested == known.pk
    result = importing.apply_import(event=event, data=data)
    assert result.merged == [known]
    assert Player.objects.filter(name__iexact="andre brown").count() == 1
    assert Entry.objects.filter(event=event, player=known).exists()


def test_the_director_may_say_a_namesake_is_a_different_person(event):
    known = Player.objects.create(name="Andre Brown", club="KKC", country="JM")
    data = csv("name,club,country", "Andre Brown,KKC,JM")
    importing.apply_import(event=event, data=data, choices={2: importing.NEW})
    assert Player.objects.filter(name="Andre Brown").count() == 2
    assert not Entry.objects.filter(event=event, player=known).exists()


def test_a_namesake_from_another_club_is_offered_but_not_chosen(event):
    known = Player.objects.create(name="Andre Brown", club="Toronto Caribbean Club", country="CA")
    data = csv("name,club,country", "Andre Brown,Kingston Kalooki Club,JM")
    row = importing.preview_import(event=event, data=data).rows[0]
    assert [c.id for c in row.candidates] == [known.pk]
    assert row.suggested == importing.NEW
    assert "another club" in row.notices[0]
    result = importing.apply_import(event=event, data=data, choices={2: known.pk})
    assert result.merged == [known]


def test_merging_with_a_player_who_is_not_a_candidate_is_refused(event):
    stranger = Player.objects.create(name="Someone Else")
    data = csv("name", "Andre Brown")
    with pytest.raises(InvalidInput, match="not one of the registered players"):
        importing.apply_import(event=event, data=data, choices={2: stranger.pk})
    assert counts() == (1, 0)


def test_a_player_already_entered_gets_a_notice_not_a_second_entry(event):
    known = Player.objects.create(name="Andre Brown")
    Entry.objects.create(event=event, player=known, seed_number=7)
    data = csv("name,seed", "Andre Brown,7", "Lorna Bailey,")
    row = importing.preview_import(event=event, data=data).rows[0]
    assert row.errors == []
    assert "already entered" in row.notices[0]
    result = importing.apply_import(event=event, data=data)
    assert result.already_entered == [known]
    assert Entry.objects.filter(event=event).count() == 2


def test_a_withdrawn_player_is_entered_again(event):
    known = Player.objects.create(name="Andre Brown")
    Entry.objects.create(event=event, player=known, status=Entry.Status.WITHDRAWN)
    data = csv("name", "Andre Brown")
    assert "active again" in importing.preview_import(event=event, data=data).rows[0].notices[0]
    importing.apply_import(event=event, data=data)
    assert Entry.objects.get(event=event, player=known).status == Entry.Status.ACTIVE


def test_a_seed_held_by_another_entry_is_an_error(event):
    Entry.objects.create(event=event, player=Player.objects.create(name="Holder"), seed_number=1)
    data = csv("name,seed", "Andre Brown,1")
    row = importing.preview_import(event=event, data=data).rows[0]
    assert row.errors == ["Row 2: seed 1 is already taken by Holder."]


def test_a_finished_event_takes_no_players(event):
    event.status = Event.Status.FINISHED
    event.save()
    preview = importing.preview_import(event=event, data=GOOD)
    assert "finished" in preview.errors[0]
    with pytest.raises(InvalidInput):
        importing.apply_import(event=event, data=GOOD)
    assert counts() == (0, 0)


def test_a_failure_part_way_leaves_nothing_behind(event, monkeypatch):
    """The file passed the preview, but the third entry is refused when written:
    the first two players and entries are rolled back with it."""
    from core import services

    real = services.register_entry
    calls = []

    def flaky(**kwargs):
        calls.append(kwargs["player"].name)
        if len(calls) == 3:
            raise InvalidInput("refused", field="player")
        return real(**kwargs)

    monkeypatch.setattr(importing, "register_entry", flaky)
    with pytest.raises(InvalidInput) as refused:
        importing.apply_import(event=event, data=GOOD)
    assert refused.value.errors == {"row 4": ["Row 4: refused"]}
    assert counts() == (0, 0)


def test_the_preview_runs_a_fixed_number_of_queries(event, django_assert_max_num_queries):
    rows = ["name,club,country,seed"] + [f"Player {i},Club,JM,{i}" for i in range(1, 201)]
    Player.objects.bulk_create([Player(name=f"Player {i}") for i in range(1, 201)])
    with django_assert_max_num_queries(3):
        preview = importing.preview_import(event=event, data=csv(*rows))
    assert len(preview.rows) == 200 and all(r.candidates for r in preview.rows)
