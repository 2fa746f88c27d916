"""A-to-Z lists sort names as people do (the Unicode Collation Algorithm), on SQLite
and PostgreSQL alike: an accented first letter sorts with its letter, not after Z."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from core import selectors
from core.screens.selectors import seating_board
from core.seating.find_table import seated_a_to_z
from game.collation import sort_key
from tests.fixtures import make_event, make_round, named_entries

pytestmark = pytest.mark.django_db

# As a reader expects them, A to Z.
IN_ORDER = [
    "Álvaro Alves",
    "Anna Archer",
    "dave Dunn",
    "Đorđe Petrović",
    "Émile Zola",
    "Łukasz Nowak",
    "Nguyễn Văn An",
    "Ørjan Berg",
    "Şükrü Öztürk",
    "Zoë Young",
    "Дмитрий Шостаков",
    "علی رضایی",
]


def test_the_unicode_collation_orders_names_as_a_reader_expects():
    shuffled = random.Random(7).sample(IN_ORDER, len(IN_ORDER))
    assert sorted(shuffled, key=sort_key) == IN_ORDER
    assert sorted(IN_ORDER) != IN_ORDER  # code points alone would put É after Z


def test_the_databases_lists_and_the_seating_lists_run_a_to_z():
    event = make_event()
    entries = named_entries(event, random.Random(3).sample(IN_ORDER, len(IN_ORDER)))
    round_ = make_round(event, table_sizes=(4, 4, 4), entries=entries)
    by_name = [e.player.name for e in selectors.entries_by_name(event)]
    if connection.vendor == "postgresql":  # SQLite orders by code point (core.collation)
        assert by_name == IN_ORDER
    else:
        assert sorted(by_name) == by_name
    assert [r.name for r in seating_board(event, round_.number)] == IN_ORDER
    assert [row[0] for row in seated_a_to_z(round_)] == IN_ORDER
