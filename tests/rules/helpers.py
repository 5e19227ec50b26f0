"""Test-side card names and deal builders, written from rules.md §1 and
docs/engine-api.md (Card = suit_index * 13 + rank_index, suits S H D C),
independently of the engine's own tables."""

from collections import Counter

SUIT_LETTERS = "SHDC"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NAMES = tuple(s + r for s in SUIT_LETTERS for r in RANK_NAMES)
CARD = {name: index for index, name in enumerate(NAMES)}
CARDS_PER_DECK = 52
SEATS = 4


def c(name):
    """One card int from its notation, e.g. c("SQ") == 10."""
    return CARD[name]


def cs(text):
    """A tuple of card ints from space-separated notation."""
    return tuple(CARD[name] for name in text.split())


def names(cards):
    return [NAMES[card] for card in cards]


def singles(text):
    """Expected single-card moves, as a sorted list of 1-tuples."""
    return sorted((card,) for card in cs(text))


def normalized_moves(moves):
    """A move list with each move's cards sorted and the list sorted."""
    return sorted(tuple(sorted(move)) for move in moves)


def build_hands(fixed, *, decks=1, avoid=None):
    """Four hands (as dealt) holding the given cards; the rest of the
    deck(s) is filled in card order, never giving a seat a suit it avoids.

    fixed: {seat: "SQ S9 ..."}; avoid: {seat: "SH"} suit letters."""
    avoid = avoid or {}
    per_seat = CARDS_PER_DECK * decks // SEATS
    remaining = Counter(dict.fromkeys(range(CARDS_PER_DECK), decks))
    hands = {seat: list(cs(fixed.get(seat, ""))) for seat in range(SEATS)}
    for hand in hands.values():
        remaining.subtract(hand)
    assert all(n >= 0 for n in remaining.values()), "a card is fixed too often"
    # Seats with more suits to avoid pick first so the others can take the rest.
    order = sorted(range(SEATS), key=lambda seat: -len(avoid.get(seat, "")))
    for seat in order:
        banned = {SUIT_LETTERS.index(letter) for letter in avoid.get(seat, "")}
        for card in range(CARDS_PER_DECK):
            while len(hands[seat]) < per_seat and remaining[card] > 0 and card // 13 not in banned:
                hands[seat].append(card)
                remaining[card] -= 1
        assert len(hands[seat]) == per_seat, f"cannot fill seat {seat}"
    return tuple(tuple(hands[seat]) for seat in range(SEATS))


def advance(engine, state, *moves):
    """Apply moves in turn; None stands for the first listed legal move
    (used only to reach a position, never as the thing under test)."""
    for move in moves:
        if move is None:
            move = engine.legal_moves(state)[0]
        state = engine.apply_move(state, move)
    return state
