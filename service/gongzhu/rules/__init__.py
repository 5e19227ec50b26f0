"""The Gong Zhu (拱猪) rules engine: pure, stdlib only. See docs/engine-api.md."""
from .build import engine_build
from .cards import (
                    CARD_BY_NAME,
                    CARD_NAMES,
                    DIAMONDS,
                    EXPOSABLE,
                    HEART_ACE,
                    HEART_MASK,
                    HEARTS,
                    ONE_PLANE,
                    PIG,
                    PLANE,
                    SEATS,
                    SHEEP,
                    SPADES,
                    SUIT_MASK,
                    SUIT_MASKS,
                    SUIT_SIZE,
                    SUITS,
                    TRANSFORMER,
                    Card,
                    Play,
                    bits_cards,
                    format_card,
                    format_cards,
                    full_deck,
                    hand_bits,
                    lowest_of_runs,
                    mask_cards,
                    parse_card,
                    suit_of,
)
from .claims import CLAIM_KINDS, ClaimVerdict, claimed_captures, decide_claim, tricks_left
from .deal import deal_hands, dealt_hand_problems, first_leader, seeded_shuffle
from .endgame import endgame_values
from .errors import IllegalMove, InvalidDeal, Problem, RuleError
from .exposure import deal_exposure_counts, effective_exposure, exposure_counts
from .information import SeatView, sample_hidden, seat_view
from .match import (
                    LEADER_RULES,
                    MATCH_TARGET,
                    PIG_TAKER,
                    DealRecord,
                    Match,
                    MatchDeal,
                    NextDeal,
                    Standing,
                    deal_leader,
                    next_deal,
                    score_match,
)
from .messages import Message, Text, localized
from .play import apply_legal_move, apply_move, check_move, initial_state, is_legal_move, legal_moves, replay
from .running import Running, hand_sizes, running_state, score_state, seated_plays, void_suits, winning_seat
from .scoring import HEART_VALUES, ScoreSheet, SeatScore, exposure_values, score_cards
from .settlement import (
    Ingots,
    Transfer,
    base_scores,
    exact_score,
    final_scores,
    normalize,
    partnership,
    settle_ingots,
)
from .simulate import random_deal
from .state import NO_EXPOSURE, DealState, Trick
from .table import Chooser, FunctionChooser, RandomChooser, Scripted, advance, random_chooser, scripted
from .titles import TITLES, Title, title_for
from .tricks import TrickResult, leading_card, leading_index, rank_trick
from .variants import DEFAULT_RULES, OPENING_CARDS, Rules

__all__ = [
    "engine_build",
    "CLAIM_KINDS", "ClaimVerdict", "claimed_captures", "decide_claim", "tricks_left",
    "CARD_BY_NAME", "CARD_NAMES", "DIAMONDS", "EXPOSABLE", "HEART_ACE", "HEART_MASK", "HEARTS", "ONE_PLANE", "PLANE",
    "PIG", "SEATS",
    "SHEEP", "SPADES", "SUIT_MASK", "SUIT_MASKS", "SUIT_SIZE", "SUITS", "TRANSFORMER", "Card", "Play", "bits_cards",
    "format_card", "format_cards", "full_deck", "hand_bits", "lowest_of_runs", "mask_cards", "parse_card", "suit_of",
    "endgame_values",
    "deal_hands", "dealt_hand_problems", "first_leader", "seeded_shuffle",
    "IllegalMove", "InvalidDeal", "Problem", "RuleError",
    "deal_exposure_counts", "effective_exposure", "exposure_counts",
    "SeatView", "sample_hidden", "seat_view",
    "LEADER_RULES", "MATCH_TARGET", "PIG_TAKER", "DealRecord", "Match", "MatchDeal", "NextDeal", "Standing",
    "deal_leader", "next_deal", "score_match",
    "Message", "Text", "localized",
    "NO_EXPOSURE", "apply_legal_move", "apply_move", "check_move", "initial_state", "is_legal_move", "legal_moves",
    "replay",
    "Running", "hand_sizes", "running_state", "seated_plays", "void_suits", "winning_seat",
    "HEART_VALUES", "ScoreSheet", "SeatScore", "exposure_values", "score_cards", "score_state",
    "Ingots", "Transfer", "base_scores", "exact_score", "final_scores", "normalize", "partnership", "settle_ingots",
    "random_deal",
    "DealState", "Trick",
    "Chooser", "FunctionChooser", "RandomChooser", "Scripted", "advance", "random_chooser", "scripted",
    "TITLES", "Title", "title_for",
    "TrickResult", "leading_card", "leading_index", "rank_trick",
    "DEFAULT_RULES", "OPENING_CARDS", "Rules",
]
