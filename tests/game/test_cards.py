"""Cards, their penalty values, the director's notation and the deck (RULES.md)."""

from __future__ import annotations

import pytest

from game.cards import (
    NOTATION_HELP,
    Card,
    CardNotationError,
    Deck,
    card_points,
    format_cards,
    hand_points,
    parse_card,
    parse_cards,
)

# --- values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rank", "points"),
    [("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9)],
)
@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_two_to_nine_are_worth_their_face_value(rank: str, points: int, suit: str) -> None:
    assert Card(rank, suit).points == points


@pytest.mark.parametrize("rank", ["10", "J", "Q", "K"])
@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_ten_and_court_cards_are_worth_ten(rank: str, suit: str) -> None:
    assert Card(rank, suit).points == 10


@pytest.mark.parametrize("suit", ["S", "C"])
def test_black_ace_is_worth_fifteen(suit: str) -> None:
    assert Card("A", suit).points == 15


@pytest.mark.parametrize("suit", ["H", "D"])
def test_red_ace_is_worth_one(suit: str) -> None:
    assert Card("A", suit).points == 1


def test_joker_is_worth_fifty_and_has_no_suit() -> None:
    joker = Card("JK")
    assert joker.is_joker
    assert joker.suit is None
    assert joker.points == 50
    assert not Card("J", "S").is_joker


def test_card_points_and_hand_points_add_up_the_values() -> None:
    cards = [Card("JK"), Card("A", "S"), Card("10", "H"), Card("7", "D"), Card("A", "D")]
    assert card_points(Card("A", "C")) == 15
    assert hand_points(cards) == 50 + 15 + 10 + 7 + 1
    assert hand_points([]) == 0


@pytest.mark.parametrize(("rank", "suit"), [("1", "H"), ("T", "S"), ("A", "X"), ("JK", "S")])
def test_a_card_that_does_not_exist_cannot_be_made(rank: str, suit: str) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)


# --- notation ---------------------------------------------------------------------------


def test_str_gives_the_canonical_notation() -> None:
    assert str(Card("10", "H")) == "10H"
    assert str(Card("A", "S")) == "AS"
    assert str(Card("JK")) == "JK"


def test_parse_cards_reads_the_api_example() -> None:
    assert parse_cards("JK AS 10H 7D") == [
        Card("JK"),
        Card("A", "S"),
        Card("10", "H"),
        Card("7", "D"),
    ]


def test_parse_cards_is_case_insensitive() -> None:
    assert parse_cards("jk as 10h 7d Qc") == parse_cards("JK AS 10H 7D QC")


def test_parse_cards_accepts_commas_and_any_whitespace() -> None:
    assert parse_cards(" 2s,3S ,\t4s\n5S,,6s ") == [Card(r, "S") for r in ("2", "3", "4", "5", "6")]


def test_parse_cards_keeps_duplicates_and_order() -> None:
    assert parse_cards("KD 2C KD") == [Card("K", "D"), Card("2", "C"), Card("K", "D")]


@pytest.mark.parametrize("text", ["", "   ", " , "])
def test_empty_text_is_no_cards(text: str) -> None:
    assert parse_cards(text) == []


def test_format_cards_round_trips_through_the_parser() -> None:
    cards = parse_cards("jk as 10h 7d")
    assert format_cards(cards) == "JK AS 10H 7D"
    assert parse_cards(format_cards(cards)) == cards


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("1H", 'unknown rank "1"'),
        ("11H", 'unknown rank "1"'),
        ("XS", 'unknown rank "X"'),
        ("AX", 'unknown suit "X"'),
        ("10HH", 'unknown suit "HH"'),
        ("10", "no suit given"),
        ("q", "no suit given"),
        ("JKS", "a joker has no suit"),
    ],
)
def test_a_bad_token_is_named_with_the_reason(token: str, reason: str) -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_card(token)
    assert caught.value.token == token
    assert caught.value.reason == reason
    assert str(caught.value).startswith(f'"{token}" is not a card: {reason}')
    assert NOTATION_HELP in str(caught.value)
    assert "(or T)" in NOTATION_HELP and "\u2660" in NOTATION_HELP and "JOKER" in NOTATION_HELP


# Card notation accepts T for ten, suit symbols and JOKER, and keeps the clear message
# for anything else.
@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("TH", Card("10", "H")),
        ("ts", Card("10", "S")),
        ("A\u2660", Card("A", "S")),
        ("10\u2665", Card("10", "H")),
        ("K\u2666", Card("K", "D")),
        ("t\u2663", Card("10", "C")),
        ("Q\u2661", Card("Q", "H")),
        ("A\u2660\ufe0f", Card("A", "S")),  # the emoji form some keyboards send
        ("JOKER", Card("JK")),
        ("joker", Card("JK")),
    ],
)
def test_ten_as_t_suit_symbols_and_joker_in_words_are_cards(typed: str, card: Card) -> None:
    assert parse_card(typed) == card


def test_a_hand_typed_with_symbols_reads_as_the_canonical_one() -> None:
    assert parse_cards("joker A\u2660 T\u2665 7\u2666") == parse_cards("JK AS 10H 7D")
    assert format_cards(parse_cards("joker A\u2660 T\u2665")) == "JK AS 10H"


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("\u2660", 'unknown rank "\u2660"'),
        ("A\u2660\u2660", 'unknown suit "\u2660\u2660"'),
        ("T", "no suit given"),
        ("TX", 'unknown suit "X"'),
        ("JOKERS", "a joker has no suit"),
        ("1\u2665", 'unknown rank "1"'),
    ],
)
def test_anything_else_keeps_the_clear_message(token: str, reason: str) -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_card(token)
    assert caught.value.reason == reason
    assert str(caught.value) == f'"{token}" is not a card: {reason} ({NOTATION_HELP})'


def test_parse_cards_names_the_first_bad_token_as_typed() -> None:
    with pytest.raises(CardNotationError) as caught:
        parse_cards("AS 1h ZZ")
    assert caught.value.token == "1h"
    assert isinstance(caught.value, ValueError)


# --- the deck ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("packs", "jokers", "size"), [(2, 4, 108), (2, 6, 110), (5, 15, 275), (1, 0, 52)]
)
def test_deck_size_is_52_per_pack_plus_jokers(packs: int, jokers: int, size: int) -> None:
    deck = Deck(packs=packs, jokers=jokers)
    assert deck.size == size
    assert len(deck.cards()) == size


def test_the_default_deck_is_two_packs_and_four_jokers() -> None:
    assert Deck() == Deck(packs=2, jokers=4)
    assert Deck().size == 108


def test_copies_are_the_packs_for_a_natural_card_and_the_jokers_for_a_joker() -> None:
    deck = Deck(packs=3, jokers=7)
    assert deck.copies(Card("10", "H")) == 3
    assert deck.copies(Card("JK")) == 7
    assert deck.cards().count(Card("10", "H")) == 3
    assert deck.cards().count(Card("JK")) == 7


@pytest.mark.parametrize(
    ("packs", "jokers"), [(0, 4), (-1, 4), (2, -1), (True, 4), (2, "4"), (2.0, 4)]
)
def test_a_deck_needs_whole_packs_and_no_negative_jokers(packs: object, jokers: object) -> None:
    with pytest.raises(ValueError):
        Deck(packs=packs, jokers=jokers)  # type: ignore[arg-type]


def test_standard_deck_22_cards_hold_at_most_400_points() -> None:
    # RULES.md's worked example: 16 dealt + 6 from calls in hand 9.
    assert Deck().max_points(22) == 4 * 50 + 4 * 15 + 14 * 10 == 400


@pytest.mark.parametrize(
    ("n_cards", "bound"),
    [
        (0, 0),
        (4, 200),  # the four jokers
        (8, 260),  # then the four black aces
        (15, 330),  # hand 1: 9 dealt + 6
        (18, 360),  # hands 4 and 5: 12 dealt + 6
        (40, 580),  # every joker, black ace, ten and court card
        (41, 589),  # then a nine
    ],
)
def test_max_points_takes_the_dearest_cards_first(n_cards: int, bound: int) -> None:
    assert Deck().max_points(n_cards) == bound


def test_red_aces_come_last_in_the_bound() -> None:
    deck = Deck(packs=1, jokers=0)
    assert deck.max_points(52) - deck.max_points(50) == 2  # the two red aces


def test_more_jokers_raise_the_bound() -> None:
    assert Deck(packs=2, jokers=6).max_points(22) == 6 * 50 + 4 * 15 + 12 * 10 == 480
    assert Deck(packs=5, jokers=15).max_points(22) == 15 * 50 + 7 * 15 == 855


def test_asking_for_more_cards_than_the_deck_gives_the_whole_deck() -> None:
    deck = Deck()
    whole = sum(card.points for card in deck.cards())
    assert whole == deck.total_points == 936
    assert deck.max_points(108) == whole
    assert deck.max_points(500) == whole


@pytest.mark.parametrize("n_cards", [-1, 2.5, "22", None])
def test_max_points_refuses_a_count_that_is_not_a_count(n_cards: object) -> None:
    with pytest.raises(ValueError):
        Deck().max_points(n_cards)  # type: ignore[arg-type]


def test_a_pasted_page_in_a_box_is_not_echoed_back_whole():
    with pytest.raises(CardNotationError) as refused:
        parse_cards("AS " + "Z" * 100_000)
    assert refused.value.token == "Z" * 100_000  # kept for whoever reads it
    assert str(refused.value).startswith('"ZZZZZZZZZZZZZZZZZ..." is not a card: unknown rank')
    assert len(str(refused.value)) < 200
