"""How two players of one name are told apart on every list (core.entries.names), and
which no-show a substitute replaced, read from the entries' history: plain Python, no
database."""

from __future__ import annotations

from core import stored_texts as st
from core.entries.names import shown_names
from core.entries.selectors import pair_substitutions


def test_a_name_nobody_else_has_is_shown_as_it_is():
    assert shown_names([(1, "Andre Brown", "KKC"), (2, "Lorna Bailey", "")]) == {
        1: "Andre Brown",
        2: "Lorna Bailey",
    }


def test_namesakes_of_different_clubs_are_told_apart_by_their_club():
    shown = shown_names([(1, "Andre Brown", "Kingston"), (2, "andre  BROWN", "Toronto")])
    assert shown == {1: "Andre Brown (Kingston)", 2: "andre  BROWN (Toronto)"}


def test_namesakes_of_one_club_are_numbered_in_the_order_they_registered():
    shown = shown_names(
        [(9, "Andre Brown", "Kingston"), (4, "Andre Brown", "kingston"), (5, "Andre Brown", "X")]
    )
    assert shown == {
        4: "Andre Brown (kingston, 1)",  # each with their club as registered
        9: "Andre Brown (Kingston, 2)",
        5: "Andre Brown (X)",
    }


def test_namesakes_without_clubs_are_numbered_and_a_missing_club_is_said():
    assert shown_names([(1, "Andre Brown", ""), (2, "Andre Brown", "")]) == {
        1: "Andre Brown (1)",
        2: "Andre Brown (2)",
    }
    assert shown_names([(1, "Andre Brown", ""), (2, "Andre Brown", "Kingston")]) == {
        1: "Andre Brown (no club)",
        2: "Andre Brown (Kingston)",
    }


def test_the_same_people_get_the_same_names_whatever_their_order():
    people = [(3, "Andre Brown", "K"), (1, "Andre Brown", "K"), (2, "Lorna Bailey", "")]
    assert shown_names(people) == shown_names(reversed(people))


# As `core.entries.event_day.substitute_entry` stores them: codes, worded when shown.
NO_SHOW = st.stored(st.NO_SHOW, name="Jane Doe")
SUB = st.stored(st.SUBSTITUTE, name="Andre Brown")


def test_a_substitute_replaces_the_no_show_whose_row_comes_before_theirs():
    rows = [(1, "active", None), (1, "withdrawn", NO_SHOW), (2, "active", SUB)]
    assert pair_substitutions(rows) == {1: 2}


def test_an_imported_history_still_names_the_substitute():
    rows = [
        (1, "active", None),
        (1, "withdrawn", f"alice (imported): {NO_SHOW}"),
        (2, "active", f"alice (imported): {SUB}"),
    ]
    assert pair_substitutions(rows) == {1: 2}


def test_a_player_who_withdrew_is_not_replaced_and_one_back_again_no_longer_is():
    withdrew = [(1, "active", None), (1, "withdrawn", None), (2, "active", SUB)]
    assert pair_substitutions(withdrew) == {}
    back = [(1, "withdrawn", NO_SHOW), (2, "active", SUB), (1, "active", None)]
    assert pair_substitutions(back) == {}
    withdrawn_again = [*back, (1, "withdrawn", None)]
    assert pair_substitutions(withdrawn_again) == {}


def test_a_no_show_stays_replaced_through_later_changes_to_their_entry():
    rows = [(1, "withdrawn", NO_SHOW), (2, "active", SUB), (1, "withdrawn", "seed freed")]
    assert pair_substitutions(rows) == {1: 2}
