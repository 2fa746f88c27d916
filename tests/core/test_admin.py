from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

from scoring.models import Hand
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
