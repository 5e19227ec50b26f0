"""The Gong Zhu (拱猪) rules engine: pure, stdlib only. See docs/engine-api.md."""
from .cards import (CARD_BY_NAME, CARD_NAMES, EXPOSABLE, HEART_ACE, PIG, SHEEP, SUITS,
                    TRANSFORMER, Card, format_card, format_cards, full_deck, parse_card, suit_of)
from .deal import deal_hands, first_leader, seeded_shuffle
from .errors import IllegalMove, InvalidDeal, Problem, RuleError
from .exposure import deal_exposure_counts, effective_exposure, exposure_counts
from .play import (DealState, apply_legal_move, apply_move, check_move, freeze, is_legal_move,
                   legal_moves, replay)
from .scoring import ScoreSheet, SeatScore, score_cards, score_state
from .simulate import new_table, random_deal, table_raw_scores
from .table import Table, advance, random_chooser
from .settlement import Ingots, Transfer, final_scores, normalize, partnership, settle_ingots
from .titles import TITLES, Title, title_for
from .tricks import TrickResult, rank_trick
from .variants import OPENING_CARDS, Rules

__all__ = [
    "CARD_BY_NAME", "CARD_NAMES", "EXPOSABLE", "HEART_ACE", "PIG", "SHEEP", "SUITS", "TRANSFORMER",
    "Card", "format_card", "format_cards", "full_deck", "parse_card", "suit_of",
    "deal_hands", "first_leader", "seeded_shuffle",
    "IllegalMove", "InvalidDeal", "Problem", "RuleError",
    "deal_exposure_counts", "effective_exposure", "exposure_counts",
    "DealState", "freeze", "apply_legal_move", "apply_move", "check_move", "is_legal_move", "legal_moves", "replay",
    "ScoreSheet", "SeatScore", "score_cards", "score_state",
    "new_table", "random_deal", "table_raw_scores", "Table", "advance", "random_chooser",
    "Ingots", "Transfer", "final_scores", "normalize", "partnership", "settle_ingots",
    "TITLES", "Title", "title_for",
    "TrickResult", "rank_trick",
    "OPENING_CARDS", "Rules",
]
