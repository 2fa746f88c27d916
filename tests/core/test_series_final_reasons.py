"""Why the grand final's entries cannot be made, in true words: a series that sends
nobody to its final (`qualifiers` 0) is told so, not that no leg has finished; and the
check an event's change of format needs, for a final that carries a score."""

from __future__ import annotations

import pytest

from core import services
from core.errors import InvalidInput, StateConflict
from core.series.services import check_final_format
from tests.core.test_series import leg
from tests.fixtures import hand_at, make_event, make_round
from tournaments.models import Entry, Event, Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def series(root):
    return services.create_series(data={"slug": "circuit", "name": "Circuit"}, by=root)


def test_a_series_with_no_qualifiers_says_so(series):
    leg(series, [Player.objects.create(name=f"P{i}") for i in range(4)], day=1)
    services.update_series(series=series, data={"qualifiers": 0})
    final = make_event(slug="final", status=Event.Status.REGISTRATION)
    with pytest.raises(StateConflict) as refused:
        services.create_final(series=series, event=final)
    reason = refused.value.errors["qualifiers"][0]
    assert "qualifiers" in reason and "no leg has finished" not in reason
    assert not Entry.objects.filter(event=final).exists()


def test_with_qualifiers_and_no_leg_finished_it_says_that(series):
    with pytest.raises(StateConflict) as refused:
        services.create_final(series=series, event=make_event(slug="final"))
    assert "no leg has finished" in refused.value.errors["event"][0]


def test_a_final_carrying_a_score_keeps_ranking_by_total_points(series):
    final = make_event(slug="final", status=Event.Status.REGISTRATION)
    services.update_series(series=series, data={"final": "final", "carry_over_step": 25})
    final.refresh_from_db()
    check_final_format(final, Event.Format.TOTAL)
    with pytest.raises(InvalidInput) as refused:
        services.update_event(event=final, data={"format": "table-points"})
    assert 'format "total"' in refused.value.errors["format"][0]
    assert Event.objects.get(pk=final.pk).format == Event.Format.TOTAL
    services.update_series(series=series, data={"carry_over_step": 0})
    final = services.update_event(event=final, data={"format": "knockout"})
    assert final.format == Event.Format.KNOCKOUT  # nothing carried: any format


def test_the_admin_refuses_a_new_step_once_the_final_has_begun(client, root, series):
    from tests.core.test_admin_house_rules import series_form

    leg(series, [Player.objects.create(name=f"P{i}") for i in range(4)], day=1)
    final = make_event(slug="final")
    services.create_final(series=series, event=final)
    round_ = make_round(final, table_sizes=(3,), entries=list(final.entries.all()))
    services.record_hand(table=round_.tables.get(), number=1, entry=hand_at([1, 2, 3]))
    client.force_login(root)
    url = f"/admin/tournaments/series/{series.pk}/change/"
    response = client.post(url, {**series_form(client, url), "carry_over_step": 10})
    assert response.status_code == 200
    assert b"has begun (its first hand is recorded)" in response.content
    series.refresh_from_db()
    assert series.carry_over_step == 0
