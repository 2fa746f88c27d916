"""House rules and series in the admin: checked as the API checks them."""

from __future__ import annotations

import json

import pytest

from tests.fixtures import make_user
from tournaments.models import HouseRuleset

pytestmark = pytest.mark.django_db


def form(**values) -> dict:
    data = {
        "slug": "tens",
        "name": "Tens",
        "hands": json.dumps([{"cards_dealt": 10, "threes": 2, "fours": 0}] * 10),
        "jokers_per_pack": 2,
        "overcall_penalty": 100,
        "false_laydown_penalty": 150,
        "down_and_out_doubles": "on",
    }
    data.update(values)
    return data


def test_the_admin_defines_a_house_ruleset_and_refuses_a_bad_one(client):
    client.force_login(make_user("root", superuser=True))
    url = "/admin/tournaments/houseruleset/add/"
    refused = client.post(url, form(jokers_per_pack=30))
    assert refused.status_code == 200 and b"0 to 8 jokers per pack" in refused.content
    assert not HouseRuleset.objects.exists()
    saved = client.post(url, form())
    assert saved.status_code == 302
    assert HouseRuleset.objects.get().values()["false_laydown_penalty"] == 150
    assert client.get("/admin/tournaments/series/add/").status_code == 200


def series_form(client, url: str) -> dict:
    """The admin's series form as it stands, ready to post back."""
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["organisers"] = [o.pk for o in form.instance.organisers.all()]
    return {name: value for name, value in data.items() if value is not False}


def test_the_admin_saves_a_series_through_the_series_services(client):
    """Created and changed as the API does it: its history names who, and a new name
    reaches the public pages of its legs (their screens are told)."""
    from core import services
    from tests.fixtures import make_event
    from tournaments.models import Event, Series

    root = make_user("root", superuser=True)
    client.force_login(root)
    added = client.post(
        "/admin/tournaments/series/add/",
        {"slug": "circuit", "name": "Circuit", "points_scale": "[10, 6, 4]", "qualifiers": 4,
         "prizes": "[]", "prize_ties": "draw", "draw_seed": 0, "carry_over_step": 0},
    )  # fmt: skip
    assert added.status_code == 302, added.content[:500]
    series = Series.objects.get(slug="circuit")
    assert series.history.get().history_user == root
    leg = make_event(slug="leg-1", name="Leg 1")
    services.add_leg(series=series, event=leg, by=root)
    before = Event.objects.get(pk=leg.pk).screen_version
    url = f"/admin/tournaments/series/{series.pk}/change/"
    data = {**series_form(client, url), "name": "Island Circuit"}
    assert client.post(url, data).status_code == 302
    series.refresh_from_db()
    assert series.name == "Island Circuit"
    assert series.history.latest().history_user == root
    assert Event.objects.get(pk=leg.pk).screen_version > before
