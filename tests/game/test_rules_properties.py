"""Property tests: any legal hand is scored by the formula; any broken or junk entry
is refused with HandInvalid and never with another exception."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.cards import Card, Deck, hand_points, parse_cards
from game.rules import (
    FIELDS,
    PENALTY_KINDS,
    RULESETS,
    HandEntry,
    HandInvalid,
    HandSpec,
    PenaltyEntry,
    Ruleset,
    ScoredHand,
    SeatEntry,
    TableRules,
    score_hand,
)
from game.rulesets import CARDS_PER_CALL

DECKS = (Deck(), Deck(packs=2, jokers=6), Deck(packs=3, jokers=6), Deck(packs=5, jokers=15))
RULESET_LIST = tuple(RULESETS.values())
# Hypothesis's default of 100 hands a property: each draws its ruleset, deck, hand number,
# seats and penalties, so each ruleset and deck comes up several times; 200 took twice
# the time.
PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@dataclass(frozen=True)
class Deal:
    """A legal hand as a director would enter it, with what it was built from."""

    ruleset: Ruleset
    deck: Deck
    spec: HandSpec
    seats: tuple[int, ...]
    went_out: int
    extra_calls: dict[int, int]  # each seat's calls beyond three
    entry: HandEntry
    table_rules: TableRules

    def score(self, entry: HandEntry | None = None) -> ScoredHand:
        return score_hand(
            ruleset=self.ruleset,
            deck=self.deck,
            number=self.spec.number,
            seats=self.seats,
            entry=self.entry if entry is None else entry,
            table_rules=self.table_rules,
        )

    @property
    def sat_out(self) -> set[int]:
        return {p.seat for p in self.entry.penalties if p.kind == "challenge"}

    @property
    def others(self) -> list[int]:
        return [seat for seat in self.seats if seat != self.went_out]

    def bound(self, seat: int) -> int:
        return self.deck.max_points(self.spec.max_held(self.extra_calls[seat]))


def notation(draw: st.DrawFn, cards: list[Card]) -> str:
    """The cards as a director might type them: any case, spaces or commas."""
    tokens = [str(card).lower() if draw(st.booleans()) else str(card) for card in cards]
    separator = draw(st.sampled_from([" ", ",", ", ", "  ", "\t"]))
    return separator.join(tokens)


@st.composite
def legal_deals(draw: st.DrawFn) -> Deal:
    ruleset = draw(st.sampled_from(RULESET_LIST))
    deck = draw(st.sampled_from(DECKS))
    spec = draw(st.sampled_from(ruleset.hands))
    seats = tuple(range(1, draw(st.integers(3, 6)) + 1))
    went_out = draw(st.sampled_from(seats))
    others = [seat for seat in seats if seat != went_out]
    table_rules = TableRules(
        director_penalty=draw(st.integers(50, 500)),
        overcall_penalty=draw(st.booleans()),
        down_and_out=draw(st.none() | st.booleans()),
        penalty_per_hand=draw(st.booleans()),
    )

    def amount() -> int | None:  # a penalty's own amount, where the event allows one
        return draw(st.none() | st.integers(50, 500)) if table_rules.penalty_per_hand else None

    penalties: list[PenaltyEntry] = []
    extra_calls = dict.fromkeys(seats, 0)
    # What the deck can still feed after every seat's deal and the first discard.
    most = max(0, (deck.size - spec.cards_dealt * len(seats) - 1) // CARDS_PER_CALL - 3)
    for seat in others:
        # In Trinidad the challenge is the remedy for over-calling: one or the other.
        if ruleset.challenge_allowed and draw(st.booleans()):
            extra = draw(st.none() | st.integers(1, min(2, most))) if most else None
            penalties.append(PenaltyEntry(seat, "challenge", extra_calls=extra))
            extra_calls[seat] = extra or 0
        elif most and draw(st.booleans()):
            extra = draw(st.none() | st.integers(1, min(3, most)))
            points = amount() if table_rules.overcall_penalty else None
            penalties.append(PenaltyEntry(seat, "overcall", extra_calls=extra, points=points))
            extra_calls[seat] = extra or 1
    for seat in others:  # a false laydown never goes out (RULES.md)
        if draw(st.integers(0, 4)) == 0:
            penalties.append(PenaltyEntry(seat, "false_laydown", points=amount()))

    sat_out = {p.seat for p in penalties if p.kind == "challenge"}
    counted = [seat for seat in others if seat not in sat_out]
    # The table as a whole: what the counted seats hold together has a bound too.
    budget = deck.max_points(sum(spec.max_held(extra_calls[seat]) for seat in counted))
    pool = list(deck.cards())
    draw(st.randoms(use_true_random=False)).shuffle(pool)
    scores: list[SeatEntry] = []
    for seat in others:
        most = spec.max_held(extra_calls[seat])
        later = sum(1 for s in counted if s > seat)  # each needs at least 1 point
        cap = deck.max_points(most)
        if seat in counted:
            cap = min(cap, budget - later)
        # Leave a card in the pool for every seat after this one.
        room = min(most, len(pool) - len(seats))
        if room >= 1 and draw(st.booleans()):
            n_cards = draw(st.integers(1, room))
            held = pool[:n_cards]
            if hand_points(held) <= cap:
                pool = pool[n_cards:]
                scores.append(SeatEntry(seat, cards=notation(draw, held)))
                budget -= hand_points(held) if seat in counted else 0
                continue
        points = draw(st.integers(1, cap))
        budget -= points if seat in counted else 0
        scores.append(SeatEntry(seat, points=points))
    out_entry = draw(st.sampled_from(["absent", "zero", "no cards"]))
    if out_entry == "zero":
        scores.append(SeatEntry(went_out, points=0))
    elif out_entry == "no cards":
        scores.append(SeatEntry(went_out, cards=""))

    entry = HandEntry(
        went_out=went_out,
        down_and_out=table_rules.doubles(ruleset) and draw(st.booleans()),
        scores=tuple(draw(st.permutations(scores))),
        penalties=tuple(draw(st.permutations(penalties))),
    )
    return Deal(ruleset, deck, spec, seats, went_out, extra_calls, entry, table_rules)


def expected_scores(deal: Deal) -> dict[int, tuple[int, int, int]]:
    """(card points, penalty points, score) per seat, worked out from RULES.md directly."""
    entry = deal.entry
    cards = dict.fromkeys(deal.seats, 0)
    for score in entry.scores:
        cards[score.seat] = (
            score.points if score.cards is None else hand_points(parse_cards(score.cards))
        )
    penalty = dict.fromkeys(deal.seats, 0)
    agreed = deal.table_rules
    for charge in entry.penalties:
        if charge.kind == "challenge":
            penalty[charge.seat] += 50
        elif charge.kind == "overcall" and not agreed.overcall_penalty:
            penalty[charge.seat] += 0
        else:
            penalty[charge.seat] += (
                agreed.director_penalty if charge.points is None else charge.points
            )
    # A challenge's cards plus 50 are that seat's score: a down and out does not double it.
    challenged = {charge.seat for charge in entry.penalties if charge.kind == "challenge"}
    doubled = {
        seat: entry.down_and_out and seat != deal.went_out and seat not in challenged
        for seat in deal.seats
    }
    return {
        seat: (
            cards[seat],
            penalty[seat],
            cards[seat] * (2 if doubled[seat] else 1) + penalty[seat],
        )
        for seat in deal.seats
    }


@PROPERTY_SETTINGS
@given(legal_deals())
def test_every_legal_hand_is_accepted_and_scored_by_the_formula(deal: Deal) -> None:
    hand = deal.score()
    assert hand.outcome == "scored"
    assert (hand.number, hand.contract) == (deal.spec.number, deal.spec.contract)
    assert [r.seat for r in hand.results] == list(deal.seats)
    assert all(r.score >= 0 for r in hand.results)
    assert hand.result_for(deal.went_out).card_points == 0
    expected = expected_scores(deal)
    assert {r.seat: (r.card_points, r.penalty_points, r.score) for r in hand.results} == expected
    challenged = {p.seat for p in deal.entry.penalties if p.kind == "challenge"}
    assert {r.seat for r in hand.results if r.sat_out} == challenged


# --- one thing broken -------------------------------------------------------------------


def without_seat(entry: HandEntry, seat: int) -> tuple[SeatEntry, ...]:
    return tuple(score for score in entry.scores if score.seat != seat)


@st.composite
def broken_deals(draw: st.DrawFn) -> tuple[Deal, HandEntry, str, str]:
    """A legal deal, the same entry broken in one way, and the field and words expected."""
    deal = draw(legal_deals())
    entry = deal.entry
    seat = draw(st.sampled_from(deal.others))
    how = draw(
        st.sampled_from(
            [
                "two out",
                "no cards",
                "negative",
                "over the bound",
                "seat not at table",
                "overcall on the seat out",
                "too many copies",
                "missing",
            ]
        )
    )
    if how == "two out":
        scores = (*without_seat(entry, seat), SeatEntry(seat, points=0))
        return deal, replace(entry, scores=scores), "scores", "only the player who went out"
    if how == "no cards":
        scores = (*without_seat(entry, seat), SeatEntry(seat, cards=""))
        return deal, replace(entry, scores=scores), "scores", "no cards entered"
    if how == "negative":
        points = -draw(st.integers(1, 1000))
        scores = (*without_seat(entry, seat), SeatEntry(seat, points=points))
        return deal, replace(entry, scores=scores), "scores", "cannot be negative"
    if how == "over the bound":
        points = deal.bound(seat) + draw(st.integers(1, 100))
        scores = (*without_seat(entry, seat), SeatEntry(seat, points=points))
        # A seat challenged without its extra calls is told the challenge needs them.
        unsaid = any(
            p.seat == seat and p.kind == "challenge" and p.extra_calls is None
            for p in entry.penalties
        )
        words = "the challenge was right" if unsaid else "cards can hold"
        return deal, replace(entry, scores=scores), "scores", words
    if how == "seat not at table":
        stranger = len(deal.seats) + draw(st.integers(1, 5))
        if draw(st.booleans()):
            scores = (*entry.scores, SeatEntry(stranger, points=5))
            return deal, replace(entry, scores=scores), "scores", "not at this table"
        penalties = (*entry.penalties, PenaltyEntry(stranger, "false_laydown"))
        return deal, replace(entry, penalties=penalties), "penalties", "not at this table"
    if how == "overcall on the seat out":
        penalties = (*entry.penalties, PenaltyEntry(deal.went_out, "overcall"))
        return deal, replace(entry, penalties=penalties), "penalties", "may not go out"
    if how == "too many copies":
        card = draw(st.sampled_from(sorted(set(deal.deck.cards()), key=str)))
        # One more than the deck holds, spread over the players still in so that no
        # one of them holds more cards than they could.
        copies = deal.deck.copies(card) + 1
        # A seat that sat out a challenge put its cards back into play: the copies
        # are counted among the others.
        others = [s for s in deal.others if s not in deal.sat_out]
        assume(others)
        share, rest = divmod(copies, len(others))
        held = {s: [card] * (share + (i < rest)) for i, s in enumerate(others)}
        scores = [score for score in entry.scores if score.seat not in others]
        scores += [SeatEntry(s, cards=" ".join(map(str, c))) for s, c in held.items() if c]
        scores += [SeatEntry(s, points=1) for s, c in held.items() if not c]
        return deal, replace(entry, scores=tuple(scores)), "scores", f"the {card} appears"
    scores = without_seat(entry, seat)
    return deal, replace(entry, scores=scores), "scores", "no score entered"


@PROPERTY_SETTINGS
@given(broken_deals())
def test_a_legal_hand_broken_in_one_way_is_refused_with_the_reason(
    case: tuple[Deal, HandEntry, str, str],
) -> None:
    deal, entry, field, words = case
    try:
        deal.score(entry)
    except HandInvalid as invalid:
        messages = invalid.by_field().get(field, [])
        assert any(words in message for message in messages), invalid.by_field()
    else:
        raise AssertionError(f"accepted a broken hand: {entry}")


# --- junk -------------------------------------------------------------------------------

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.binary(max_size=4),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.tuples(),
)
seat_like = st.integers(-2, 8) | junk
seat_entries = st.builds(
    SeatEntry,
    seat=seat_like,
    points=st.integers(-50, 500) | junk,
    cards=st.none() | st.text(alphabet="AJKQSHDC0123456789 ,xjk\t", max_size=24) | junk,
)
penalty_entries = st.builds(
    PenaltyEntry,
    seat=seat_like,
    kind=st.sampled_from(PENALTY_KINDS) | junk,
    extra_calls=st.none() | st.integers(-2, 5) | junk,
    points=st.none() | st.integers(0, 600) | junk,
)
hand_entries = st.builds(
    HandEntry,
    redeal=st.booleans() | junk,
    went_out=st.integers(0, 7) | junk,
    down_and_out=st.booleans() | junk,
    scores=st.lists(seat_entries | junk, max_size=7) | junk,
    penalties=st.lists(penalty_entries | junk, max_size=4) | junk,
)


@PROPERTY_SETTINGS
@given(
    ruleset=st.sampled_from(RULESET_LIST),
    deck=st.sampled_from(DECKS),
    number=st.integers(-1, 12) | junk,
    size=st.integers(3, 6),
    entry=hand_entries,
)
def test_junk_is_only_ever_refused_with_hand_invalid(
    ruleset: Ruleset, deck: Deck, number: object, size: int, entry: HandEntry
) -> None:
    try:
        hand = score_hand(
            ruleset=ruleset,
            deck=deck,
            number=number,  # type: ignore[arg-type]
            seats=range(1, size + 1),  # type: ignore[arg-type]
            entry=entry,
        )
    except HandInvalid as invalid:
        assert invalid.problems
        assert all(p.field in FIELDS and p.message for p in invalid.problems)
        assert sum(map(len, invalid.by_field().values())) == len(invalid.problems)
    else:
        assert isinstance(hand, ScoredHand)
        assert all(r.score >= 0 for r in hand.results)
