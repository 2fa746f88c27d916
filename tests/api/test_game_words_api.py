"""The rules engine's and the clock's refusals through the API, in the language its
client asks for: the English a program has always read when it asks for none."""

from __future__ import annotations

import pytest

from tests.api.conftest import hand_url
from tests.fixtures import make_round

pytestmark = pytest.mark.django_db

BAD = {
    "went_out": 1,
    "scores": [
        {"seat": 2, "points": 0},
        {"seat": 3, "cards": "JK ZZ"},
        {"seat": 4, "points": 12},
    ],
    "penalties": [{"seat": 4, "kind": "overcall", "extra_calls": 0}],
}


def put_bad(api, alice, **headers):
    response = api.as_(alice).put(hand_url(), BAD, format="json", **headers)
    assert response.status_code == 400, response.json()
    return response.json()


def test_a_program_that_asks_for_nothing_reads_the_engines_english(api, alice, playing):
    assert put_bad(api, alice) == {
        "scores": [
            'seat 3: "ZZ" is not a card: unknown rank "Z" (ranks are A, 2-10 (or T), J, Q, K '
            "and suits S, H, D, C (or ♠ ♥ ♦ ♣), or JK (or JOKER) for a joker)",
            "seat 2: 0 points, but only the player who went out can score 0",
        ],
        "penalties": ["seat 4: extra_calls counts the calls beyond three, at least 1, not 0"],
    }


def test_a_bad_hand_is_explained_in_russian(api, alice, playing):
    assert put_bad(api, alice, HTTP_ACCEPT_LANGUAGE="ru") == {
        "scores": [
            "место 3: «ZZ» — не карта: неизвестное достоинство «Z» (достоинства — A, 2–10 "
            "(или T), J, Q, K, масти — S, H, D, C (или ♠ ♥ ♦ ♣), джокер — JK (или JOKER))",
            "место 2: 0 очков, но 0 может получить только вышедший игрок",
        ],
        "penalties": [
            "место 4: extra_calls — число вызовов сверх трёх, не меньше 1, а не 0",
        ],
    }


def test_a_bad_hand_is_explained_in_persian_with_its_values_as_sent(api, alice, playing):
    body = put_bad(api, alice, HTTP_ACCEPT_LANGUAGE="fa")
    assert body["scores"][1] == (
        "صندلی 2: صفر امتیاز، اما فقط بازیکنی که بیرون رفته می\u200cتواند صفر بگیرد"
    )
    assert body["scores"][0].startswith("صندلی 3: «ZZ» کارت نیست: ارزش ناشناخته «Z»")
    assert body["penalties"] == [
        "صندلی 4: extra_calls تعداد درخواست\u200cهای بیش از سه است، دست\u200cکم 1، نه 0"
    ]


def test_the_clock_refuses_in_the_language_asked_for(api, alice, event):
    make_round(event, table_sizes=(4,))
    clock = "/api/v1/events/kingston/rounds/1/clock/"
    client = api.as_(alice)
    english = client.post(clock, {"action": "pause"}, format="json")
    russian = client.post(clock, {"action": "pause"}, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert english.status_code == russian.status_code == 409
    assert english.json() == {"action": ["The clock has not started."]}
    assert russian.json() == {"action": ["Часы ещё не запущены."]}
