"""`manage.py import_players SLUG FILE`: the preview, then all or nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.fixtures import make_event, make_user
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return make_event(slug="kingston", status=Event.Status.REGISTRATION)


def write(tmp_path, *lines: str) -> str:
    path = tmp_path / "players.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def run(*args: str, **options) -> str:
    out = io.StringIO()
    call_command("import_players", *args, stdout=out, **options)
    return out.getvalue()


def test_it_imports_the_file_and_says_what_it_did(event, tmp_path):
    path = write(tmp_path, "name,club,country", "Andre Brown,KKC,JM", "Lorna Bailey,,TT")
    out = run("kingston", path, "--noinput")
    assert "line 2: Andre Brown (KKC, JM) -> new player" in out
    assert "2 entered, 2 new players" in out
    assert sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Andre Brown",
        "Lorna Bailey",
    ]


def test_a_dry_run_shows_the_preview_and_writes_nothing(event, tmp_path):
    path = write(tmp_path, "name", "Andre Brown")
    out = run("kingston", path, "--dry-run")
    assert "Andre Brown" in out and "nothing was imported" in out
    assert not Player.objects.exists()


def test_rows_with_errors_stop_the_import(event, tmp_path):
    path = write(tmp_path, "name,country", "Andre Brown,JM", ",JM", "Lorna Bailey,Atlantis")
    out = io.StringIO()
    with pytest.raises(CommandError, match="2 problem"):
        call_command("import_players", "kingston", path, "--noinput", stdout=out)
    assert "Row 3: the name is missing." in out.getvalue()
    assert "'Atlantis' is not a country" in out.getvalue()
    assert not Player.objects.exists()


def test_merge_and_new_choose_what_a_duplicate_is(event, tmp_path):
    andre = Player.objects.create(name="Andre Brown", club="KKC", country="JM")
    lorna = Player.objects.create(name="Lorna Bailey", club="Other", country="GB")
    path = write(tmp_path, "name,club,country", "Andre Brown,KKC,JM", "Lorna Bailey,SFC,TT")
    out = run("kingston", path, "--noinput", "--new", "2", "--merge", f"3={lorna.pk}")
    assert f"registered: player {andre.pk} Andre Brown" in out
    entered = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    assert lorna.pk in entered and andre.pk not in entered
    assert Player.objects.filter(name="Andre Brown").count() == 2


def test_the_director_can_cancel_at_the_prompt(event, tmp_path, monkeypatch):
    path = write(tmp_path, "name", "Andre Brown")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("sys.stdin", Terminal("n\n"))
    out = run("kingston", path)
    assert "Cancelled: nothing was imported." in out
    assert not Player.objects.exists()


def test_the_entries_are_recorded_as_the_given_users(event, tmp_path):
    alice = make_user("alice")
    path = write(tmp_path, "name", "Andre Brown")
    run("kingston", path, "--noinput", "--by", "alice")
    assert Entry.history.get().history_user == alice


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere", "{path}"], "No event 'nowhere'"),
        (["kingston", "{missing}"], "Cannot read"),
        (["kingston", "{path}", "--merge", "2"], "LINE=PLAYER_ID"),
        (["kingston", "{path}", "--by", "nobody"], "No user 'nobody'"),
    ],
)
def test_bad_arguments_are_clear_errors(event, tmp_path, args, message):
    path = write(tmp_path, "name", "Andre Brown")
    args = [a.format(path=path, missing=tmp_path / "missing.csv") for a in args]
    with pytest.raises(CommandError, match=message):
        run(*args, "--noinput")
    assert not Player.objects.exists()
