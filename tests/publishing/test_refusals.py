"""What the site refuses: a change its rules disagree with, a damaged change, a bad
batch, a wrong or revoked link. Nothing of a refused batch is applied, the reason is
kept on the link and said to the publisher, and no request is ever answered 500."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.db.models import Sum

from core import services
from core.publishing import links
from core.publishing.applying import Refused
from scoring.models import Hand, HandScore
from tests.publishing.pair import (
    CHANGES_URL,
    DB,
    STATUS_URL,
    Pair,
    gzipped,
    history_counts,
    post_batch,
    record_next_hand,
)
from tournaments.models import PublishedRow

pytestmark = DB

ARCHIVE_URL = "/api/v1/publishing/archive/"


def record_hand_3(pair: Pair, alice) -> dict[str, Any]:
    """Hand 3 at table 1 recorded at the venue: its change (not applied)."""
    assert record_next_hand(pair.venue, by=alice) == 3
    change = pair.capture()
    assert change["seq"] == 2 and len(change["rows"]["hands"]) == 1
    return change


def site_rows(pair: Pair) -> dict[str, Any]:
    """What the site holds of the event (and every history row there is)."""
    scores = HandScore.objects.filter(hand__table__round__event=pair.site)
    return {
        "hands": Hand.objects.filter(table__round__event=pair.site).count(),
        "scores": scores.count(),
        "points": scores.aggregate(s=Sum("score"))["s"],
        "mapped": PublishedRow.objects.filter(link__event=pair.site).count(),
        "history": history_counts(),
    }


def test_a_hand_the_rules_engine_disagrees_with_is_refused_and_nothing_applied(small, alice, wire):
    change = record_hand_3(small, alice)
    tampered = copy.deepcopy(change)
    tampered["rows"]["hand_scores"][1]["score"] += 5
    before = site_rows(small)

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [tampered]})

    assert answer.status_code == 422, answer.content
    body = answer.json()
    assert body["refused"]["seq"] == 2
    assert "round 1, table 1, hand 3" in body["refused"]["reason"]
    assert "scores" in body["refused"]["reason"]
    assert body["acknowledged"] == 1 and body["stream"] == small.stream
    link = small.link
    assert (link.refused_seq, link.refused_reason) == (2, body["refused"]["reason"])
    assert link.acknowledged == 1
    assert site_rows(small) == before
    # The site says so when the publisher asks how far it has the event.
    status = wire.get(STATUS_URL, HTTP_AUTHORIZATION=f"Link {small.secret}").json()
    assert status["refused"] == body["refused"] and status["acknowledged"] == 1

    # The venue's true change is taken, and the refusal is forgotten.
    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [change]})
    assert answer.status_code == 200, answer.content
    assert answer.json()["acknowledged"] == 2 and answer.json()["refused"] is None
    small.settled()
    assert small.differences() == []


def test_a_refused_change_in_a_batch_refuses_the_batch_whole(small, alice, wire):
    change = record_hand_3(small, alice)
    services.post_announcement(event=small.venue, text="Tea is served", by=alice)
    after = small.capture()
    tampered = copy.deepcopy(after)
    tampered["rows"]["announcements"][0]["text"] = "\x00"
    before = site_rows(small)

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [change, tampered]})

    assert answer.status_code == 422, answer.content
    assert answer.json()["refused"]["seq"] == 3
    assert "announcements row 1, text" in answer.json()["refused"]["reason"]
    # Change 2 was good, but a batch is applied whole or not at all.
    assert small.link.acknowledged == 1
    assert site_rows(small) == before


def unknown_section(change):
    change["rows"]["bogus"] = []


def unknown_part(change):
    change["extras"] = {}


def score_of_a_missing_hand(change):
    change["rows"]["hand_scores"][0]["hand"] = 999_999


def hand_at_a_missing_table(change):
    change["rows"]["hands"][0]["table"] = 999_999


def a_row_not_an_object(change):
    change["rows"]["hands"] = ["hand 3"]


def a_row_missing_a_field(change):
    del change["rows"]["hands"][0]["number"]


def a_number_in_words(change):
    change["rows"]["hands"][0]["number"] = "three"


def gone_not_a_list(change):
    change["gone"] = {"hands": "all of them"}


def history_of_no_section(change):
    change["history"]["bogus"] = []


def history_row_of_an_unknown_kind(change):
    change["history"]["hands"][0]["history_type"] = "?"


DAMAGE = {
    unknown_section: "the change's rows: no such sections here: bogus",
    unknown_part: "the change: unknown extras",
    score_of_a_missing_hand: "hand_scores, hand: no hands row has id 999999",
    hand_at_a_missing_table: "hands, table: no tables row has id 999999",
    a_row_not_an_object: "hands row 1: not an object",
    a_row_missing_a_field: "hands row 1: missing number",
    a_number_in_words: "hands row 1, number",
    gone_not_a_list: "the change's gone hands: not a list of keys",
    history_of_no_section: "the change's history: no such sections here: bogus",
    history_row_of_an_unknown_kind: "history of hands row 1, history_type",
}


def test_a_damaged_change_is_refused_with_a_reason(small, alice):
    true = record_hand_3(small, alice)
    before = site_rows(small)
    for damage, reason in DAMAGE.items():
        change = copy.deepcopy(true)
        damage(change)

        with pytest.raises(Refused) as refused:
            small.apply(change)

        assert refused.value.seq == 2, damage.__name__
        assert reason in refused.value.reason, (damage.__name__, refused.value.reason)
        link = small.link
        assert (link.refused_seq, link.refused_reason) == (2, refused.value.reason)
        assert link.acknowledged == 1
        assert site_rows(small) == before, damage.__name__
    # The change as the venue made it is still taken.
    assert small.apply(true).acknowledged == 2
    assert small.link.refused_seq is None
    assert small.differences() == []


@pytest.mark.parametrize("section", ["standings", "announcements"])
def test_history_of_a_section_that_keeps_none_is_refused_not_a_500(small, wire, section):
    change = {"seq": 2, "stream": small.stream, "history": {section: []}}

    answer = post_batch(wire, small.secret, {"stream": small.stream, "changes": [change]})

    assert answer.status_code == 422, answer.status_code
    assert section in answer.json()["refused"]["reason"]


BAD_BATCHES = {
    "not gzip": (b'{"stream": "s", "changes": []}', "changes"),
    "not JSON": (gzipped(b'{"stream": "s", "changes": ['), "changes"),
    "not an object": (gzipped([1, 2]), "changes"),
    "no changes": (gzipped({"stream": "s"}), "changes"),
    "changes not a list": (gzipped({"stream": "s", "changes": {"seq": 1}}), "changes"),
    "no stream": (gzipped({"changes": []}), "stream"),
    "stream not text": (gzipped({"stream": 7, "changes": []}), "stream"),
}


def test_a_bad_batch_gets_400_naming_the_field(small, wire):
    before = site_rows(small)
    for name, (body, field) in BAD_BATCHES.items():
        answer = wire.post(
            CHANGES_URL,
            data=body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Link {small.secret}",
            HTTP_CONTENT_ENCODING="gzip",
        )

        assert answer.status_code == 400, (name, answer.content)
        assert list(answer.json()) == [field] and answer.json()[field], name
    assert site_rows(small) == before
    assert small.link.refused_seq is None


def test_a_batch_sent_without_gzip_is_taken_too(small, alice, wire):
    change = record_hand_3(small, alice)
    answer = post_batch(
        wire, small.secret, {"stream": small.stream, "changes": [change]}, gzip_it=False
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["acknowledged"] == 2


def said(answer) -> str:
    body = answer.json()
    return str(body.get("detail") or body.get("non_field_errors") or "")


def test_a_wrong_or_revoked_link_opens_nothing(small, alice, wire):
    change = record_hand_3(small, alice)
    batch = gzipped({"stream": small.stream, "changes": [change]})
    secret = small.secret
    refused = {
        "no authorization": ({}, (401, 403)),
        "another scheme": ({"HTTP_AUTHORIZATION": f"Bearer {secret}"}, (401, 403)),
        "the scheme alone": ({"HTTP_AUTHORIZATION": "Link "}, (401, 403)),
        "a director's token": ({"HTTP_AUTHORIZATION": "Token 0123456789abcdef"}, (401, 403)),
        "a mistyped link": ({"HTTP_AUTHORIZATION": f"Link {secret[:-2]}xy"}, (403,)),
        "another event's link": (
            {"HTTP_AUTHORIZATION": f"Link {links.create_link(event=small.venue)}"},
            None,  # opens that event, never this one
        ),
    }
    before = site_rows(small)

    def answers(headers):
        sent = wire.post(
            CHANGES_URL,
            data=batch,
            content_type="application/json",
            HTTP_CONTENT_ENCODING="gzip",
            **headers,
        )
        return sent, wire.get(STATUS_URL, **headers), wire.get(ARCHIVE_URL, **headers)

    for who, (headers, expected) in refused.items():
        if expected is None:
            sent, asked, _archive = answers(headers)
            assert asked.json()["event"] == small.venue.slug, who
            continue
        for answer in answers(headers):
            assert answer.status_code in expected, (who, answer.status_code, answer.content)
            assert said(answer), who
            assert "acknowledged" not in answer.json() and "payload" not in answer.json()
    assert site_rows(small) == before

    assert links.revoke_link(event=small.site)
    for answer in answers({"HTTP_AUTHORIZATION": f"Link {secret}"}):
        assert answer.status_code == 403, answer.content
        assert "revoked" in said(answer)
    assert site_rows(small) == before
    assert small.link.acknowledged == 1


ODD_CHANGES = [
    [1],
    ["change"],
    [None],
    [{"seq": "2"}],
    [{"seq": True}],
    [{"seq": 2.5}],
    [{"seq": 0}],
    [{"seq": 10**30}],
    [{"seq": 2, "rows": []}],
    [{"seq": 2, "rows": {"hands": {}}}],
    [{"seq": 2, "rows": {"hands": [{"id": "1"}]}}],
    [{"seq": 2, "rows": {"players": [{"id": 1, "name": "x" * 500}]}}],
    [{"seq": 2, "gone": {"hands": [1, 2]}}],
    [{"seq": 2, "gone": {"standings": ["1:x"]}}],
    [{"seq": 2, "gone": []}],
    [{"seq": 2, "history": {"hands": "x"}}],
    [{"seq": 2, "history": {"hands": [{"id": 1}]}}],
    [{"seq": 2, "event": []}],
    [{"seq": 2, "event": {"slug": "elsewhere"}}],
    [{"seq": 2, "event": {"rounds_planned": -4}}],
    [{"seq": 2, "event": {"format": "poker"}}],
    [{"seq": 2, "event": {"house_rules": "x"}}],
    [{"seq": 2, "at": "2026-13-45T99:00:00"}],
    [{"seq": 2, "rows": {"entries": [{"id": 1, "player": 77}]}}],
]


def test_odd_changes_are_answered_never_with_a_500(small, wire):
    before = site_rows(small)
    for changes in ODD_CHANGES:
        batch = {"stream": small.stream, "changes": changes}

        answer = post_batch(wire, small.secret, batch)

        assert answer.status_code in (400, 409, 422), (changes, answer.status_code, answer.content)
    assert site_rows(small) == before
    assert small.link.acknowledged == 1


@pytest.mark.parametrize(
    "batch",
    [
        {"changes": [{"seq": -1}]},
        {"stream": "", "changes": [{"seq": 10**30}]},
    ],
    ids=["negative seq", "no stream, huge seq"],
)
def test_a_refused_batch_of_an_impossible_number_is_not_a_500(small, wire, batch):
    batch = {"stream": small.stream, **batch}

    answer = post_batch(wire, small.secret, batch)

    assert answer.status_code in (400, 409, 422), (answer.status_code, answer.content)
    assert small.link.acknowledged == 1
