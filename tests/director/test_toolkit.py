"""The director's toolkit pages: who may use them, and importing players from the page
(upload, preview, confirm or cancel)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.fixtures import make_entries, make_event, make_round, make_user, played_event
from tournaments.models import Entry, Event, Player, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(alice):
    """Round 1 closed, round 2 published: enough for every page to have something."""
    event = make_event(slug="kingston", name="Kingston Kalooki Open")
    event.directors.add(alice)
    entries = make_entries(event, 4)
    make_round(event, entries=entries, status=Round.Status.CLOSED)
    make_round(event, number=2, entries=entries)
    return event


@pytest.fixture
def played(alice):
    return played_event(director=alice)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def base(slug: str = "kingston") -> str:
    return f"/director/{slug}/toolkit/"


PAGES = [
    "",
    "import/",
    "import/preview/",
    "rounds/1/table-cards.pdf",
    "rounds/1/score-sheets.pdf",
    "results.pdf",
    "exports/standings.csv",
    "exports/hands.csv",
]


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_visitors_are_sent_to_sign_in(event, page):
    response = Client().get(base() + page)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("page", PAGES)
def test_another_events_director_gets_404(event, bob, page):
    assert client_for(bob).get(base() + page).status_code == 404


@pytest.mark.parametrize("page", PAGES)
def test_a_superuser_may_use_every_page(event, page):
    response = client_for(make_user("root", superuser=True)).get(base() + page)
    assert response.status_code in (200, 302)


def test_the_index_links_every_tool(event, alice):
    html = client_for(alice).get(base()).content.decode()
    for link in [p for p in PAGES if p and p != "import/preview/"] + ["rounds/2/table-cards.pdf"]:
        assert f'href="{base()}{link}' in html


def test_pdfs_and_csv_files_download_with_their_types(played, alice):
    client = client_for(alice)
    cards = client.get(base() + "rounds/1/table-cards.pdf")
    assert cards["Content-Type"] == "application/pdf"
    assert cards.content.startswith(b"%PDF")
    assert 'filename="kingston-round-1-table-cards.pdf"' in cards["Content-Disposition"]
    sheets = client.get(base() + "rounds/2/score-sheets.pdf?paper=a4")
    assert sheets.content.startswith(b"%PDF")
    assert client.get(base() + "rounds/2/score-sheets.pdf?paper=huge").status_code == 404
    assert client.get(base() + "rounds/9/table-cards.pdf").status_code == 404
    standings = client.get(base() + "exports/standings.csv")
    assert standings["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in standings["Content-Disposition"]
    # UTF-8 with a byte-order mark, so Excel on Windows reads the accents; ?bom=0: plain.
    assert standings.content.decode().startswith("\ufeffround,rank,player_id,player")
    plain = client.get(base() + "exports/standings.csv?bom=0").content.decode()
    assert plain.startswith("round,rank,player_id,player")
    assert client.get(base() + "exports/standings.csv?round=1").status_code == 200
    assert client.get(base() + "exports/standings.csv?round=7").status_code == 404
    assert client.get(base() + "exports/standings.csv", {"round": "²"}).status_code == 404
    hands = client.get(base() + "exports/hands.csv").content.decode()
    assert hands.startswith("\ufeffround,table")


# --- importing players from the page ---------------------------------------------------


@pytest.fixture
def open_event(alice):
    event = make_event(slug="kingston", status=Event.Status.REGISTRATION)
    event.directors.add(alice)
    return event


def upload(client: Client, text: str, name: str = "players.csv"):
    file = SimpleUploadedFile(name, text.encode("utf-8"), content_type="text/csv")
    return client.post(base() + "import/", {"players": file})


def test_upload_then_preview_then_confirm_imports_the_players(open_event, alice):
    client = client_for(alice)
    response = upload(client, "name,club,country\nAndre Brown,KKC,JM\nLorna Bailey,,TT\n")
    assert response.status_code == 302
    assert response["Location"] == base() + "import/preview/"
    preview = client.get(base() + "import/preview/")
    html = preview.content.decode()
    assert "Andre Brown" in html and "Trinidad and Tobago" in html
    assert "Nothing has been saved yet" in html
    assert not Player.objects.exists()
    token = preview.context["waiting"]["token"]
    done = client.post(base() + "import/preview/", {"token": token, "action": "confirm"})
    assert done.status_code == 302 and done["Location"] == base()
    assert Entry.objects.filter(event=open_event).count() == 2
    assert "2 entered" in client.get(base()).content.decode()
    # The pending import is gone once done.
    assert client.get(base() + "import/preview/").status_code == 302


def test_cancel_saves_nothing(open_event, alice):
    client = client_for(alice)
    upload(client, "name\nAndre Brown\n")
    token = client.get(base() + "import/preview/").context["waiting"]["token"]
    response = client.post(base() + "import/preview/", {"token": token, "action": "cancel"})
    assert response.status_code == 302
    assert "nothing was saved" in client.get(base()).content.decode()
    assert not Player.objects.exists() and not Entry.objects.exists()
    assert client.get(base() + "import/preview/").status_code == 302


def test_the_preview_shows_each_rows_errors_and_offers_no_import(open_event, alice):
    client = client_for(alice)
    upload(client, "name,country\nAndre Brown,Jamica\n,JM\nAndre Brown,Jamica\n")
    response = client.get(base() + "import/preview/")
    html = response.content.decode()
    assert "Row 2: &#x27;Jamica&#x27; is not a country" in html
    assert "Row 3: the name is missing." in html
    assert "Row 4: Andre Brown is already on row 2" in html
    assert 'value="confirm"' not in html
    token = response.context["waiting"]["token"]
    refused = client.post(base() + "import/preview/", {"token": token, "action": "confirm"})
    assert refused.status_code == 400
    assert not Player.objects.exists()


def test_a_duplicate_can_be_merged_or_kept_apart_from_the_page(open_event, alice):
    andre = Player.objects.create(name="Andre Brown", club="KKC", country="JM")
    lorna = Player.objects.create(name="Lorna Bailey", club="SFC", country="TT")
    client = client_for(alice)
    upload(client, "name,club,country\nAndre Brown,KKC,JM\nLorna Bailey,SFC,TT\n")
    response = client.get(base() + "import/preview/")
    html = response.content.decode()
    assert f'name="choice-2" value="{andre.pk}" checked' in html
    assert "Merge with existing player" in html
    token = response.context["waiting"]["token"]
    client.post(
        base() + "import/preview/",
        {"token": token, "action": "confirm", "choice-2": str(andre.pk), "choice-3": "new"},
    )
    entered = set(Entry.objects.filter(event=open_event).values_list("player_id", flat=True))
    assert andre.pk in entered and lorna.pk not in entered
    assert Player.objects.filter(name="Lorna Bailey").count() == 2
    assert Player.objects.filter(name="Andre Brown").count() == 1


def test_a_stale_token_confirms_nothing(open_event, alice):
    client = client_for(alice)
    upload(client, "name\nAndre Brown\n")
    response = client.post(base() + "import/preview/", {"token": "old", "action": "confirm"})
    assert response.status_code == 302
    assert not Player.objects.exists()


def test_an_unreadable_upload_is_refused_on_the_upload_page(open_event, alice):
    client = client_for(alice)
    file = SimpleUploadedFile("players.csv", b"name\nJos\x81\n")
    response = client.post(base() + "import/", {"players": file})
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()
    assert client.post(base() + "import/", {}).status_code == 400


def test_a_windows_1252_upload_is_previewed_with_a_notice(open_event, alice):
    client = client_for(alice)
    file = SimpleUploadedFile("players.csv", "name,club\nJosé Pérez,Café\n".encode("cp1252"))
    assert client.post(base() + "import/", {"players": file}).status_code == 302
    html = client.get(base() + "import/preview/").content.decode()
    assert "José Pérez" in html and "read as Windows-1252" in html


def test_one_directors_pending_import_is_not_anothers(open_event, alice):
    carol = make_user("carol")
    open_event.directors.add(carol)
    upload(client_for(alice), "name\nAndre Brown\n")
    assert client_for(carol).get(base() + "import/preview/").status_code == 302


def test_every_toolkit_page_leads_back_to_the_dashboard(w, director):
    for path in ("toolkit/", "toolkit/import/"):
        page = director.get(w.url(path)).content.decode()
        assert f'href="/director/{w.event.slug}/">← Kingston Open: dashboard</a>' in page
