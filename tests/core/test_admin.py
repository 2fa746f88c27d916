from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Hand, HandScore
from tests.fixtures import make_user

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
    assert f"{score.seat.position}: {score.card_points} -&gt; {score.score}" in page


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


# --- One path for every write (issue 13, "What goes wrong today", item 5) ---------------


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


@pytest.fixture
def closed_round_hand(client):
    """A hand of a closed round of a played event, and a superuser in the admin."""
    from tests.fixtures import played_event

    played_event(slug="admin-open")
    hand = Hand.objects.filter(table__round__number=1, outcome="scored").first()
    client.force_login(make_user("root", superuser=True))
    return client, hand, state_of(hand)


def test_the_admin_refuses_to_change_a_hand_and_nothing_changes(closed_round_hand):
    client, hand, before = closed_round_hand
    score = hand.scores.first()
    # The case: a hand of a closed round set to 999 through the admin.
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
