"""The one-deck fast path of the claims search (docs/rules.md, "Claims").

Once no card is special any more (one deck, no exposed copy held, no opening
card due, no first-trick ban), only which card beats which decides who takes a
trick: ``PlainSearch`` keys a position by its cards renumbered by their order
among the cards still in play (``vocabulary.renumbered``), so positions that
differ only in cards already gone are one position, and its moves are single
cards in that numbering. The position itself is the engine's deal state, walked
with its own transitions (``andor.AndOr.child``). It proves a claim of no tricks
without search where the claimant can duck every lead of the others
(``ducks_every_lead``), and tries the plays likeliest to decide first.
"""
from __future__ import annotations

from collections.abc import Callable

from ..rules.cards import SEATS, SUIT_MASKS, SUIT_SIZE, Play, lowest_of_runs, mask_cards
from ..rules.moves import follow_single_mask, lead_options
from ..rules.state import DealState
from ..rules.tricks import leading_card
from .andor import AndOr, Nodes
from .vocabulary import Renumbered, live_cards, real_card, renumbered


def by_suit(cards: int, keep_high: bool) -> list[int]:
    """One card of each suit in the one-plane ``cards``: the lowest, or the highest."""
    kept = []
    for mask in SUIT_MASKS:
        suit = cards & mask
        if suit:
            kept.append(suit.bit_length() - 1 if keep_high else (suit & -suit).bit_length() - 1)
    return kept


def ducks_every_lead(mine: int, others: int) -> bool:
    """Whether a seat holding ``mine`` can follow every lead of the others below it, when
    only the others lead (a claim of no tricks keeps the lead away from the claimant) and
    ``others`` are every card they may still lead (one-plane, one deck).

    Suit by suit, with the seat's cards c1 < c2 < … and the others' o1 < o2 < …, it
    suffices that ci < oi for every i up to the shorter count: each time the suit is led
    with the others' j-th card the seat plays its highest card below the lead, which keeps
    the condition (as does every card the others play or lose, and shedding its highest
    card of a suit on a discard), and a seat out of the suit or facing no more leads of
    it only discards. Sufficient, not necessary: the others may do less than lead their
    lowest cards in order.
    """
    return all(ducks_suit(mine & mask, others & mask) for mask in SUIT_MASKS)


def ducks_suit(own: int, theirs: int) -> bool:
    """``ducks_every_lead`` for one suit's cards: ci < oi up to the shorter count."""
    if not own or not theirs:
        return True
    leads = theirs.bit_count()
    seen_own = seen_theirs = 0
    for card in mask_cards(own | theirs):
        if theirs >> card & 1:
            seen_theirs += 1
            continue
        seen_own += 1
        if seen_own > leads:
            break
        if seen_theirs >= seen_own:
            return False
    return True


def priority(move: Play, best: int, wants_all: bool) -> tuple[int, int]:
    """Sort key: the plays that serve the mover's side first.

    Against a claim of every trick, every seat (the claimant to win, the others to
    stop it) prefers a play that beats the trick so far; for a claim of none every
    seat prefers one that does not (the claimant to lose, the others to leave it
    winning). Among beating plays the cheapest first; among the others the dearest
    first (a discard sheds its highest card); a lead is strongest first when tricks
    are to be won, weakest first when they are to be lost.
    """
    card = move[-1]
    rank = card % SUIT_SIZE
    if best < 0:
        return (0, -rank if wants_all else rank)
    beats = card // SUIT_SIZE == best // SUIT_SIZE and card > best
    if beats:
        return (0 if wants_all else 1, rank)
    return (1 if wants_all else 0, -rank)


def plain_winner(node: Renumbered) -> int:
    """The card leading the trick in ``node`` so far (the card to beat), or -1 before the lead."""
    return leading_card([play[0] for play in node[3]])


def plain_live(node: Renumbered) -> int:
    """The cards in ``node`` held by the seats other than the one to act, or on the table."""
    seat, _, hands, trick = node
    live = 0
    for other in range(SEATS):
        if other != seat:
            live |= hands[other]
    for play in trick:
        live |= 1 << play[0]
    return live


class PlainSearch(AndOr[Renumbered, int]):
    """The fast path: one-deck positions where no card is special any more, keyed by their
    cards renumbered among the cards in play (``renumbered``), a move being one card in that
    numbering (``cards``: the card it stands for). A claim of no tricks is kept without
    search where the claimant can duck every lead of the others (``ducks_the_rest``).
    """

    exact = True

    def __init__(self, seat: int, wants_all: bool, nodes: Nodes) -> None:
        super().__init__(seat, wants_all, nodes)
        # (claimant's cards, the cards the others may lead) -> ducks_every_lead
        self.safe: dict[tuple[int, int], bool] = {}

    def look(self, pos: DealState) -> Renumbered | None:
        """None at the end of the deal or where the claimant ducks every lead left; else the renumbered position."""
        if pos.seat is None:
            return None
        key = renumbered(pos)
        return None if self.ducks_the_rest(key) else key

    def cards(self, pos: DealState, move: int) -> Play:
        return (real_card(move, live_cards(pos)),)

    def moves(self, pos: DealState, key: Renumbered) -> list[int]:
        """The cards worth trying (renumbered, as ``key``), likeliest to decide first."""
        seat, _, hands, trick = key
        hand = hands[seat]
        claimant = self.seat
        if trick:
            suit = trick[0][0] // SUIT_SIZE
            options = follow_single_mask(hand, 0, suit, False)
            follows = bool(options & SUIT_MASKS[suit])
        else:
            options = lead_options(hand, 0, 0)[0]
            follows = True
        if seat != claimant and self.wants_all:
            if not follows:
                cards = by_suit(options, keep_high=False)
            else:
                mine = hands[claimant]
                for i, play in enumerate(trick):
                    if (key[1] + i) % SEATS == claimant:
                        mine |= 1 << play[0]
                cards = lowest_of_runs(options, mine)
        elif seat == claimant and not self.wants_all and not follows:
            cards = by_suit(options, keep_high=True)
        elif seat == claimant and not self.wants_all and trick:
            cards = self.follows(key, options)
        else:
            cards = lowest_of_runs(options, plain_live(key))
        if not trick and seat != claimant and not self.wants_all:
            cards.sort(key=self.lead_order(hands))
            return cards
        best = plain_winner(key)
        cards.sort(key=lambda card: priority((card,), best, self.wants_all))
        return cards

    def lead_order(self, hands: tuple[int, ...]) -> Callable[[int], tuple[int, int]]:
        """Sort key of the others' leads against a claim of no tricks: first the suits where
        the claimant may not be able to duck every lead (``ducks_suit``), then the other
        suits it holds, then those it has none of; the lowest card of a suit first."""
        mine = hands[self.seat]
        others = 0
        for other in range(SEATS):
            if other != self.seat:
                others |= hands[other]
        rank = []
        for mask in SUIT_MASKS:
            own = mine & mask
            rank.append(2 if not own else 1 if ducks_suit(own, others & mask) else 0)
        return lambda card: (rank[card // SUIT_SIZE], card)

    def follows(self, pos: Renumbered, options: int) -> list[int]:
        """The claimant's cards worth trying when it follows suit against a claim of no
        tricks: of the cards below the one winning the trick (ducks) only the highest,
        since holding a lower card of a suit instead of a higher one is never worse for
        taking no trick (each play of the higher card that takes no trick, the lower one
        would not take either, and the same seat would win it); and when no seat plays
        after it, no card above (each would take the trick)."""
        best = plain_winner(pos)
        ducks = options & ((1 << best) - 1)
        kept = [ducks.bit_length() - 1] if ducks else []
        if len(pos[3]) == SEATS - 1:
            return kept or [(options & -options).bit_length() - 1]
        return kept + lowest_of_runs(options & ~ducks, plain_live(pos))

    def ducks_the_rest(self, pos: Renumbered) -> bool:
        """Whether, with another seat to play, a claim of no tricks is certain by
        ``ducks_every_lead``: the claimant follows every lead of the others below it
        from here on (the card on the table it must still follow counted as a lead; a
        trick it has played to and is not winning is lost to it already)."""
        seat, leader, hands, trick = pos
        claimant = self.seat
        if self.wants_all or seat == claimant or trick and leader == claimant:
            return False
        mine = hands[claimant]
        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~mine   # one deck: hands are disjoint
        if trick:
            place = (claimant - leader) % SEATS
            if place >= len(trick):
                others |= 1 << trick[0][0]
            elif trick[place][0] == plain_winner(pos):
                return False
        found = self.safe.get((mine, others))
        if found is None:
            found = self.safe[(mine, others)] = ducks_every_lead(mine, others)
        return found
