from __future__ import annotations

import html

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Hand, HandScore
from tests.core.shared_events import event_of, played_event_pk, user_named
from tests.fixtures import kept_for_the_module, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_with_demo(client):
    call_command("demo_event", players=8, rounds=1, seed=1, slug="demo")
    client.force_login(make_user("root", superuser=True))
    return client


def test_every_model_has_an_admin_list_and_change_page(admin_client_with_demo):
    client = admin_client_with_demo
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        if info[0] not in {"tournaments", "scoring"}:
            continue
        response = client.get(reverse(f"admin:{info[0]}_{info[1]}_changelist"))
        assert response.status_code == 200, info
        obj = model.objects.first()
        if obj is not None:
            response = client.get(reverse(f"admin:{info[0]}_{info[1]}_change", args=[obj.pk]))
            assert response.status_code == 200, info


def test_search_and_event_filter_work_on_hands(admin_client_with_demo):
    client = admin_client_with_demo
    hand = Hand.objects.filter(outcome="scored").first()
    name = hand.scores.first().seat.entry.player.name
    url = reverse("admin:scoring_hand_changelist")
    response = client.get(
        url, {"q": name, "table__round__event__id__exact": hand.table.round.event_id}
    )
    assert response.status_code == 200
    assert str(hand) in response.content.decode()


def test_a_table_shows_its_hand_scores_inline(admin_client_with_demo):
    hand = Hand.objects.filter(outcome="scored").first()
    response = admin_client_with_demo.get(
        reverse("admin:tournaments_table_change", args=[hand.table_id])
    )
    page = response.content.decode()
    assert "hands and hand scores" in page.lower()
    score = hand.scores.first()
    name = html.escape(score.seat.entry.player.name)
    assert f"{name} (seat {score.seat.position}): {score.card_points} -&gt; {score.score}" in page


def test_the_admin_names_players_not_seat_ids(admin_client_with_demo):
    hand = Hand.objects.filter(outcome="scored").select_related("went_out__entry__player").first()
    page = admin_client_with_demo.get(reverse("admin:scoring_hand_changelist")).content.decode()
    went_out = hand.went_out
    assert html.escape(f"{went_out.entry.player.name} (seat {went_out.position})") in page
    page = admin_client_with_demo.get(
        reverse("admin:scoring_hand_change", args=[hand.pk])
    ).content.decode()
    score = hand.scores.select_related("seat__entry__player").first()
    assert html.escape(score.seat.entry.player.name) in page
    # The hand's own page names who went out; no "round 1 table 1 seat 2".
    assert html.escape(f"{went_out.entry.player.name} (seat {went_out.position})") in page
    assert f"table {went_out.table.number} seat {went_out.position}" not in page
    history = admin_client_with_demo.get(
        reverse("admin:scoring_hand_history", args=[hand.pk])
    ).content.decode()
    assert html.escape(f"{went_out.entry.player.name} (seat {went_out.position})") in history


def test_a_hands_history_is_readable_in_the_admin(admin_client_with_demo):
    from core import services
    from game.rules import HandEntry, SeatEntry
    from tournaments.models import Round

    hand = Hand.objects.filter(outcome="scored").first()
    Round.objects.filter(pk=hand.table.round_id).update(status="published")
    services.record_hand(
        table=hand.table,
        number=hand.number,
        entry=HandEntry(went_out=1, scores=(SeatEntry(2, 7), SeatEntry(3, 8), SeatEntry(4, 9))),
    )
    response = admin_client_with_demo.get(reverse("admin:scoring_hand_history", args=[hand.pk]))
    assert response.status_code == 200
    assert response.content.decode().count("<tr") >= 3  # header, created, changed


# --- An event added in the admin is created by the service (no event here before) --------


def test_an_event_added_in_the_admin_is_created_by_the_service(client):
    from tournaments.models import Event

    root = make_user("root", superuser=True)
    client.force_login(root)
    url = reverse("admin:tournaments_event_add")
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data.update(
        {
            "slug": "new",  # the address of a director's page: refused as the API does
            "name": "Admin Open",
            "starts_on": "2025-06-01",
            "draw_seed": "42",  # not the admin's to choose: the draw stays unforeseeable
            "check_in": "on",
            "directors": [root.pk],
        }
    )
    response = client.post(url, data)
    assert "slug" in response.context["adminform"].form.errors
    assert not Event.objects.exists()
    data["slug"] = "admin-open"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    event = Event.objects.get(slug="admin-open")
    assert event.check_in is True
    assert event.draw_seed != "42" and len(event.draw_seed) == 64
    assert list(event.directors.all()) == [root]


def test_a_new_custom_event_in_the_admin_is_checked_as_create_event_checks_it(client):
    """The form asks `check_new_event`: jokers the house rules do not give are refused on
    the form (not a 500 from the save), and nothing is created."""
    from core.events.rulesets import create_house_ruleset
    from tests.core.test_house_rules import HOUSE
    from tournaments.models import Event

    root = make_user("root", superuser=True)
    house = create_house_ruleset(data=HOUSE, by=root)
    client.force_login(root)
    url = reverse("admin:tournaments_event_add")
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data.update({"slug": "house", "name": "House", "custom_ruleset": house.pk, "jokers": "5"})
    response = client.post(url, data)
    assert response.status_code == 200
    assert "set this to 6" in str(response.context["adminform"].form.errors["jokers"])
    assert not Event.objects.exists()
    data["jokers"] = "6"
    assert client.post(url, data).status_code == 302
    assert Event.objects.get(slug="house").director_penalty == HOUSE["overcall_penalty"]


# --- One path for every write: the admin goes through the services ----------------------


def state_of(hand) -> dict:
    """Everything an admin edit could have touched: the hand, its scores, their history,
    the standings and their version."""
    from scoring.models import Standing

    hand.refresh_from_db()
    event = hand.table.round.event
    event.refresh_from_db()
    return {
        "scores": list(hand.scores.values_list("pk", "score", "card_points")),
        "version": hand.version,
        "history": Hand.history.filter(id=hand.pk).count(),
        "score_history": HandScore.history.filter(hand_id=hand.pk).count(),
        "standings": list(Standing.objects.filter(event=event).values_list("pk", "points")),
        "standings_version": event.standings_version,
    }


@pytest.fixture(scope="module")
def admin_open(django_db_setup, django_db_blocker) -> int:
    """A played event, "admin-open", and a superuser, root: made once for the module's
    tests that use them, which come after those that need an empty database."""

    def build() -> int:
        make_user("root", superuser=True)
        return played_event_pk(slug="admin-open")

    yield from kept_for_the_module(django_db_blocker, build)


@pytest.fixture
def closed_round_hand(admin_open, client):
    """A hand of a closed round of a played event, and a superuser in the admin."""
    hand = Hand.objects.filter(
        table__round__event=event_of(admin_open), table__round__number=1, outcome="scored"
    ).first()
    client.force_login(user_named("root"))
    return client, hand, state_of(hand)


def test_the_admin_refuses_to_change_a_hand_and_nothing_changes(closed_round_hand):
    client, hand, before = closed_round_hand
    score = hand.scores.first()
    # A hand of a closed round set to 999 through the admin.
    posts = [
        (reverse("admin:scoring_hand_change", args=[hand.pk]), {"version": 2, "outcome": "scored"}),
        (
            reverse("admin:scoring_handscore_change", args=[score.pk]),
            {"card_points": 999, "score": 999, "penalty_points": 0},
        ),
        (reverse("admin:scoring_handscore_delete", args=[score.pk]), {"post": "yes"}),
        (reverse("admin:scoring_hand_delete", args=[hand.pk]), {"post": "yes"}),
        (reverse("admin:scoring_handscore_add"), {"hand": hand.pk, "score": 999}),
        (reverse("admin:scoring_penalty_add"), {"hand": hand.pk, "points": 999}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert state_of(hand) == before


def test_the_admin_shows_a_hand_read_only_with_a_link_to_the_sheet(closed_round_hand):
    client, hand, _ = closed_round_hand
    page = client.get(reverse("admin:scoring_hand_change", args=[hand.pk])).content.decode()
    sheet = reverse(
        "director:sheet", args=["admin-open", hand.table.round.number, hand.table.number]
    )
    assert f'href="{sheet}#hand-{hand.number}"' in page
    assert "Read-only here: change it on the director&#x27;s sheet" in page
    assert 'name="_save"' not in page  # no save button
    score = hand.scores.first()
    page = client.get(reverse("admin:scoring_handscore_change", args=[score.pk])).content.decode()
    assert f'href="{sheet}#hand-{hand.number}"' in page and 'name="_save"' not in page


def test_a_rounds_state_and_a_seats_leave_point_are_read_only_in_the_admin(closed_round_hand):
    from tournaments.models import Round, Seat

    client, hand, _ = closed_round_hand
    round_ = hand.table.round
    form = client.get(reverse("admin:tournaments_round_change", args=[round_.pk])).context[
        "adminform"
    ]
    assert {"status", "forced_close"} <= set(form.readonly_fields)
    seat = Seat.objects.filter(round=round_).first()
    form = client.get(reverse("admin:tournaments_seat_change", args=[seat.pk])).context["adminform"]
    assert "left_after_hand" in form.readonly_fields
    assert Round.objects.get(pk=round_.pk).status == "closed"


def test_the_admins_event_form_carries_the_agreed_settings_and_checks_them(
    closed_round_hand,
):
    client, hand, before = closed_round_hand
    event = hand.table.round.event
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    for name in ("overcall_penalty", "trinidad_doubling", "penalty_per_hand"):
        assert name in form.fields
    data["directors"] = [d.pk for d in event.directors.all()]
    data["penalty_per_hand"] = "on"  # hands exist: the setting can no longer change
    data = {k: v for k, v in data.items() if v is not False}
    response = client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["penalty_per_hand"] == [
        "Hands have been recorded with this setting; it can no longer change."
    ]
    event.refresh_from_db()
    assert event.penalty_per_hand is False


# --- The event's settings and the seats go through the services -------------------------


def event_form_data(client, event) -> tuple[str, dict]:
    """The admin's change page of `event` and its form's data, as a browser posts it."""
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["directors"] = [d.pk for d in event.directors.all()]
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    return url, data


def standings_now(event) -> dict:
    from core import background, derived
    from scoring.models import DerivedState, Standing

    event.refresh_from_db()
    rows = Standing.objects.filter(event=event).order_by("round__number", "entry_id")
    return {
        "rows": list(rows.values_list("round__number", "entry_id", "rank", "points")),
        "version": event.standings_version,
        "stale": derived.is_dirty(background.STANDINGS, event.pk),
        "marks": list(DerivedState.objects.values_list("kind", "key", "changes")),
    }


def settings_of(event) -> dict:
    from tournaments.models import Event

    return Event.objects.filter(pk=event.pk).values().get()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"packs": "3"}, "packs", "Hands have been recorded with this setting"),
        ({"status": "finished"}, None, "Round 2 is published (in play); close it before finishing"),
    ],
    ids=["a scoring setting once hands exist", "finishing with a round in play"],
)
def test_the_admin_refuses_what_update_event_refuses_and_writes_nothing(
    closed_round_hand, django_capture_on_commit_callbacks, change, field, message
):
    client, hand, _ = closed_round_hand
    event = hand.table.round.event
    url, data = event_form_data(client, event)
    data.update({"venue": "Montego Bay", **change})
    settings, standings = settings_of(event), standings_now(event)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the reason
    errors = response.context["adminform"].form.errors
    shown = errors[field] if field else errors["__all__"]
    assert any(message.lower() in e.lower() for e in shown), errors
    assert settings_of(event) == settings  # neither the refused setting nor the others
    assert standings_now(event) == standings
    assert callbacks == []


def test_a_ranking_setting_is_frozen_in_the_admin_once_a_round_is_closed(
    closed_round_hand, django_capture_on_commit_callbacks
):
    client, hand, _ = closed_round_hand
    event = hand.table.round.event
    before = standings_now(event)
    url, data = event_form_data(client, event)
    data.update({"format": "table-points", "table_points": "[9, 5, 2, 0]"})
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(url, data)
    assert response.status_code == 200  # the form again, with the reason
    errors = response.context["adminform"].form.errors
    assert "Round 1 is closed" in " ".join(errors["format"])
    assert "Round 1 is closed" in " ".join(errors["table_points"])
    event.refresh_from_db()
    assert event.format == "total" and standings_now(event) == before and callbacks == []


def test_seats_are_read_only_in_the_admin(closed_round_hand):
    from tournaments.models import Seat

    client, hand, before = closed_round_hand
    seat = Seat.objects.filter(table=hand.table).first()
    other = Seat.objects.exclude(entry=seat.entry).filter(round=seat.round).first()
    posts = [
        (
            reverse("admin:tournaments_seat_change", args=[seat.pk]),
            {"entry": other.entry_id, "table": seat.table_id, "round": seat.round_id},
        ),
        (reverse("admin:tournaments_seat_delete", args=[seat.pk]), {"post": "yes"}),
        (reverse("admin:tournaments_seat_add"), {"entry": other.entry_id, "position": 9}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    page = client.get(
        reverse("admin:tournaments_table_change", args=[hand.table_id])
    ).content.decode()
    assert 'name="seats-0-entry"' not in page and "seats-0-DELETE" not in page
    page = client.get(reverse("admin:tournaments_seat_change", args=[seat.pk])).content.decode()
    assert "swap, move" in page and 'name="_save"' not in page
    seat.refresh_from_db()
    assert seat.entry_id != other.entry_id
    assert state_of(hand) == before


def test_entries_rounds_and_tables_are_read_only_in_the_admin(closed_round_hand):
    """Who played a recorded set, a round's seating and a table's lock change only
    through the services (the director's pages, the API): the admin refuses, 403, and
    nothing changes."""
    from tournaments.models import Entry, Player, Round, Table

    client, hand, before = closed_round_hand
    table = hand.table
    round_ = table.round
    entry = hand.scores.first().seat.entry
    stranger = Player.objects.create(name="Nobody Played")
    posts = [
        (reverse("admin:tournaments_entry_change", args=[entry.pk]), {"player": stranger.pk}),
        (reverse("admin:tournaments_entry_add"), {"event": round_.event_id, "player": stranger.pk}),
        (reverse("admin:tournaments_entry_delete", args=[entry.pk]), {"post": "yes"}),
        (reverse("admin:tournaments_round_add"), {"event": round_.event_id, "number": 9}),
        (reverse("admin:tournaments_round_change", args=[round_.pk]), {"seed": 99}),
        (reverse("admin:tournaments_table_change", args=[table.pk]), {"locked": "on"}),
        (reverse("admin:tournaments_table_delete", args=[table.pk]), {"post": "yes"}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    entry.refresh_from_db()
    table.refresh_from_db()
    assert entry.player_id != stranger.pk and not table.locked
    assert not Entry.objects.filter(player=stranger).exists()
    assert not Round.objects.filter(event=round_.event, number=9).exists()
    assert Table.objects.filter(pk=table.pk).exists()
    assert state_of(hand) == before


def test_an_events_history_shows_in_the_admin(closed_round_hand):
    from core import services

    client, hand, _ = closed_round_hand
    event = hand.table.round.event
    services.set_day_options(event=event, check_in=True)
    page = client.get(reverse("admin:tournaments_event_history", args=[event.pk]))
    assert page.status_code == 200
    html_ = page.content.decode()
    records = list(event.history.all())
    assert len(records) >= 2 and records[0].check_in  # the latest: check-in turned on
    for record in records:
        assert f"/history/{record.history_id}/" in html_
