"""Tie notes: which key of the ranking separated two players on one score."""

from __future__ import annotations

from game import ranking
from game.tie_notes import TieRow, tie_notes, why_above


def row(name, score, **keys) -> TieRow:
    order = ["sets_played", "hands_missing", "points", "hands_won", "penalty_points", "draw"]
    return TieRow(name=name, score=score, keys=tuple((k, keys.get(k, 0)) for k in order))


def test_the_first_key_that_differs_is_named_with_both_values():
    alice = row("Alice", 775, sets_played=3, points=775, hands_won=4)
    bob = row("Bob", 775, sets_played=3, points=775, hands_won=3)
    assert why_above(alice, bob) == "hands won, 4 to 3"
    notes = tie_notes([alice, bob], "points")
    assert notes == [
        "Above Bob (level on 775 points): hands won, 4 to 3.",
        "Below Alice (level on 775 points): hands won, 4 to 3.",
    ]


def test_only_neighbours_on_one_score_get_a_note_and_the_draw_is_named():
    rows = [
        row("A", 700, points=700),
        row("B", 775, points=775, draw="a1"),
        row("C", 775, points=775, draw="b2"),
        row("D", 800, points=800),
    ]
    assert tie_notes(rows, "points") == [
        "",
        "Above C (level on 775 points): the seeded draw.",
        "Below B (level on 775 points): the seeded draw.",
        "",
    ]


def test_the_notes_follow_what_the_ranking_reports():
    sets = [
        ranking.SetRecord(entry=1, round=1, table=1, total=775, hands_won=2, penalty_points=0),
        ranking.SetRecord(entry=2, round=1, table=1, total=775, hands_won=4, penalty_points=0),
    ]
    entries = [ranking.EntryRecord(entry=1), ranking.EntryRecord(entry=2)]
    ranked = ranking.rank(format="total", sets=sets, entries=entries)
    rows = [TieRow(name=str(r.entry), score=r.points, keys=r.tiebreaks) for r in ranked]
    assert [r.entry for r in ranked] == [2, 1]
    assert tie_notes(rows, "points")[0] == "Above 1 (level on 775 points): hands won, 4 to 2."
