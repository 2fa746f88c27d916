"""The guarantee adjusted scores give (README, "Standings"): a player who did nothing
wrong never ranks below where their set, adjusted for the hands their table could not
play, puts them, whatever other sets at their table are cut short (the others withdraw
mid-set). In total and knockout their rank never drops; in table-points they keep every
placement point, and only a tablemate who now beats the one who left (instead of
sharing a place with them) can pass them. Over random events."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import adjusted
from game.adjusted import Adjustment
from game.ranking import FORMATS, INCOMPLETE, WITHDREW, EntryRecord, SetRecord, rank

HANDS = 9
PROPERTIES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def events(draw):
    """An event of 1-3 rounds, 6-13 players seated at tables of 3-5, every set complete;
    one player (`who`) whose set in one round was completed by adjusted scores, and
    some of their tablemates in that round whose sets will be cut short; the format."""
    players = draw(st.integers(6, 13))
    rounds = draw(st.integers(1, 3))
    sets = []
    for number in range(1, rounds + 1):
        order = draw(st.permutations(range(1, players + 1)))
        sizes, left = [], players
        while left:
            size = left if left <= 5 else draw(st.integers(3, min(5, left - 3)))
            sizes.append(size)
            left -= size
        start = 0
        for table, size in enumerate(sizes, 1):
            for entry in order[start : start + size]:
                sets.append(
                    SetRecord(
                        entry=entry,
                        round=number,
                        table=table,
                        total=draw(st.integers(0, 400)),
                        hands_won=draw(st.integers(0, HANDS)),
                        penalty_points=draw(st.sampled_from([0, 0, 0, 10])),
                    )
                )
            start += size
    format = draw(st.sampled_from(FORMATS))
    # A knockout's later rounds are seated from who went through: sets drawn for them
    # in advance would not be, so in a knockout the player's round is the latest.
    mine = draw(st.sampled_from([s for s in sets if format != "knockout" or s.round == rounds]))
    made = tuple(
        Adjustment(0, hand, draw(st.integers(0, 80)), draw(st.booleans()), adjusted.RULE)
        for hand in range(HANDS - draw(st.integers(1, 5)) + 1, HANDS + 1)
    )
    sets = [replace(s, adjusted=made) if s is mine else s for s in sets]
    mates = [
        s for s in sets if (s.round, s.table) == (mine.round, mine.table) and s.entry != mine.entry
    ]
    cut = draw(st.lists(st.sampled_from(mates), min_size=1, unique_by=lambda s: s.entry))
    return players, sets, mine.entry, cut, format


def cut_short(record: SetRecord, missing: int) -> SetRecord:
    """The same set, its player gone after `HANDS - missing` hands."""
    return replace(
        record,
        state=INCOMPLETE,
        hands_missing=missing,
        why=WITHDREW,
        total=record.total * (HANDS - missing) // HANDS,
        hands_won=min(record.hands_won, HANDS - missing),
    )


@PROPERTIES
@given(event=events(), missing=st.integers(1, 8), advance=st.integers(1, 2))
def test_others_cut_short_at_their_table_never_lower_a_player_with_an_adjusted_set(
    event, missing, advance
):
    players, sets, who, cut, format = event
    entries = [EntryRecord(n) for n in range(1, players + 1)]
    ranked = {
        r.entry: r.rank
        for r in rank(format=format, sets=sets, entries=entries, advance_per_table=advance)
    }
    gone = {(s.entry, s.round) for s in cut}
    after_sets = [cut_short(s, missing) if (s.entry, s.round) in gone else s for s in sets]
    withdrawn = {entry for entry, _ in gone}
    after_entries = [EntryRecord(n, withdrawn=n in withdrawn) for n in range(1, players + 1)]
    again = rank(format=format, sets=after_sets, entries=after_entries, advance_per_table=advance)
    after = {r.entry: r.rank for r in again}
    if format != "table-points":
        assert after[who] <= ranked[who]
        return
    # In table-points the player keeps every placement point, and only a tablemate who
    # now beats the one who left (no longer sharing a place with them) can pass them.
    before = {r.entry: r for r in rank(format=format, sets=sets, entries=entries)}
    now = {r.entry: r for r in again}
    assert now[who].table_points >= before[who].table_points
    mates = {s.entry for s in sets if (s.round, s.table) in {(c.round, c.table) for c in cut}}
    passed = {e for e in after if after[e] < after[who] and ranked[e] > ranked[who]}
    assert passed <= mates - {who}
