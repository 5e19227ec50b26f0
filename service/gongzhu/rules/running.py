"""The running state of a deal, as a table shows it (docs/rules.md §9), and every other query over a
``DealState``'s position and history.

Written once here and used by ``/legal-moves``, ``/play``'s ``next``,
``/view``, the searches and the bot: the cards each seat has taken, the raw
score each seat would have if the deal ended now (exactly ``score_cards`` of
the cards taken, under the deal's exposures), the seat winning the trick on
the table, the cards each seat still holds, the effective exposures (the
automatic fourth card included), each seat's shown voids, every play with its
seat, who led and who won each trick, the first pig taker.

The state's fields are private to ``gongzhu.rules``; code outside it reads them
here. The searches' reads (``hands_bits``, ``captured_bits``, ``trick``, ...) return
the state's own lists, no copy: a search reads them at every node, and the
compiled build indexes a list natively where a read-only ``Sequence`` is a
generic call (a two-deck review position took ×1.07 with them). Read them,
never change them (tests/rules/test_one_door.py holds that outside the engine).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .cards import ONE_PLANE, PIG, PLANE, SEATS, SUIT_MASKS, SUIT_SIZE, SUITS, Card, Play, bits_cards
from .moves import Options
from .scoring import Doublings, ScoreSheet, score_bits, seat_raw
from .tricks import TrickResult, trick_ranking, trick_winner

if TYPE_CHECKING:
    from .state import DealState, Trick


def score_state(state: DealState) -> ScoreSheet:
    """Score a deal state's captured cards with its effective exposure."""
    return score_bits(state._rules, state._captured, state._exposed, state._doublings)


# ---- the position, bit by bit (the searches' reads) ---------------------------------------------

def hands_bits(state: DealState) -> list[int]:
    """The cards each seat holds (two-plane bits)."""
    return state._hands


def held_exposed(state: DealState) -> list[int]:
    """The exposed copies each seat still holds (two-plane bits)."""
    return state._held


def captured_bits(state: DealState) -> list[int]:
    """The cards each seat has taken (two-plane bits)."""
    return state._captured


def trick(state: DealState) -> list[Play]:
    """The plays on the table, in order (``DealState.trick`` as the state's own list)."""
    return state._trick


def winners(state: DealState) -> list[int]:
    """Who won each completed trick, in order."""
    return state._winners


def leader(state: DealState) -> int:
    """Who led the trick on the table (or leads the next one)."""
    return state._leader


def first_leader(state: DealState) -> int:
    """Who led the deal's first trick."""
    return state._first_leader


def suits_led(state: DealState) -> int:
    """The 4-bit mask of the suits led so far."""
    return state._suits_led


def first_round(state: DealState) -> bool:
    """Whether the trick on the table is its led suit's first round."""
    return state._first_round


def opening_lead(state: DealState) -> Card | None:
    """The card the next lead must be (first lead of a first deal), else None."""
    return state._opening


def doublings(state: DealState) -> Doublings:
    """What the deal's exposures do to scores (``scoring.doublings``)."""
    return state._doublings


def options(state: DealState) -> Options:
    """The legal plays of the seat to act as masks (``moves.play_options``); the deal must not be over."""
    return state._options()


def ban(state: DealState) -> bool:
    """Whether the first-trick ban governs the trick on the table."""
    return state._ban


def plain(state: DealState) -> bool:
    """Whether no card is special any more: no opening card due, no first-trick ban, and every exposed
    copy still held is of a suit already led (one whose first round is the trick on the table counts
    as not led: its exposed copies are still held back), so it plays as any other copy. Then the legal
    plays are the follow rules' alone, and only which card beats which decides who takes a trick (the
    play loops' fast cases, the solvers' renumbered positions). The one definition."""
    if state._opening is not None or state._ban:
        return False
    held = state._held
    if not (held[0] or held[1] or held[2] or held[3]):
        return True
    led = state._suits_led
    if state._trick and state._first_round:
        led &= ~(1 << state._trick[0][0] // SUIT_SIZE)
    both = held[0] | held[1] | held[2] | held[3]
    exposed = (both | both >> PLANE) & ONE_PLANE
    for suit in range(4):
        if exposed & SUIT_MASKS[suit] and not led >> suit & 1:
            return False
    return True


# ---- the history ---------------------------------------------------------------------------------

def trick_number(state: DealState) -> int:
    """The number of completed tricks (the trick on the table is trick ``trick_number + 1``)."""
    return len(state._winners)


def plays_count(state: DealState) -> int:
    """How many plays the deal has seen."""
    return len(state._plays) + len(state._trick)


def trick_leader(state: DealState, number: int) -> int:
    """Who led completed trick ``number`` (0-based)."""
    return state._winners[number - 1] if number else state._first_leader


def trick_plays(state: DealState, number: int) -> list[Play]:
    """The plays of completed trick ``number`` (0-based), in order."""
    return state._plays[SEATS * number:SEATS * number + SEATS]


def completed(state: DealState, number: int) -> Trick:
    """Completed trick ``number`` (0-based) of the history."""
    return state._completed(number)


def last_trick(state: DealState) -> Trick | None:
    """The last completed trick, if any."""
    return state._completed(len(state._winners) - 1) if state._winners else None


def completed_trick(state: DealState) -> TrickResult | None:
    """The trick the last play completed, ranked; else None."""
    last = last_trick(state)
    if last is None or state._trick:
        return None
    return TrickResult(leader=last.leader, plays=last.plays, led_suit=SUITS[last.plays[0][0] // SUIT_SIZE],
                       winner=last.winner, ranking=trick_ranking(last.plays, last.leader),
                       point_cards=last.point_cards)


def first_pig_taker(state: DealState) -> int | None:
    """The seat that took the first pig (SQ) of the deal, if taken yet."""
    for number, winner in enumerate(state._winners):
        for play in trick_plays(state, number):
            if PIG in play:
                return winner
    return None


def voids(state: DealState) -> tuple[int, ...]:
    """Per seat, the 4-bit mask of suits its plays show it holds no more of."""
    return state._voids()


def trick_seats(state: DealState) -> list[int]:
    """The seat of each play in the current trick."""
    return [(state._leader + i) % SEATS for i in range(len(state._trick))]


def played(state: DealState) -> int:
    """Two-plane bits of every card played so far (the tricks taken and the current trick)."""
    return state._played()


def plays(state: DealState) -> list[Play]:
    """Every play of the deal so far, in order."""
    return state._plays + state._trick


def captured(state: DealState) -> tuple[tuple[Card, ...], ...]:
    """The cards each seat has taken, sorted."""
    return tuple([bits_cards(b) for b in state._captured])


def raw_scores(state: DealState) -> tuple[int, ...]:
    """Raw scores of the cards each seat has captured so far."""
    rules, k = state._rules, state._doublings
    return tuple([seat_raw(rules, bits, k) for bits in state._captured])


# ---- what a table shows --------------------------------------------------------------------------

class Running(NamedTuple):
    """What the table shows at a deal state."""

    taken: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    winning: int | None
    hand_sizes: tuple[int, ...]
    exposed: tuple[tuple[Card, ...], ...]


def winning_seat(state: DealState) -> int | None:
    """The seat winning the trick on the table so far; None when no card is on it."""
    return trick_winner(state._trick, state._leader) if state._trick else None


def hand_sizes(state: DealState) -> tuple[int, ...]:
    """How many cards each seat still holds."""
    return tuple(bits.bit_count() for bits in state._hands)


def running_state(state: DealState) -> Running:
    """The running state of ``state``; ``points`` are ``score_cards(rules, taken, exposed).raw``."""
    return Running(taken=captured(state), points=raw_scores(state), winning=winning_seat(state),
                   hand_sizes=hand_sizes(state), exposed=state._exposed)


def void_suits(state: DealState) -> tuple[tuple[str, ...], ...]:
    """Per seat, the suit letters its plays have shown it holds no more of."""
    return tuple(tuple(letter for i, letter in enumerate(SUITS) if mask >> i & 1) for mask in state._voids())


def seated_plays(state: DealState) -> list[tuple[int, Play]]:
    """Every play of the deal so far, in order, with the seat that made it."""
    out = []
    for number in range(len(state._winners)):
        first = trick_leader(state, number)
        out += [((first + i) % SEATS, play) for i, play in enumerate(trick_plays(state, number))]
    out += [((state._leader + i) % SEATS, play) for i, play in enumerate(state._trick)]
    return out
