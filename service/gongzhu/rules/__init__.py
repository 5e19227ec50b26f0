"""The Gong Zhu (拱猪) rules engine: pure, stdlib only. See docs/engine-api.md.

The package exports what a game backend embedding the engine uses: rules,
cards by name, dealing, the deal state and its transitions, checking and
scoring, matches and titles, the errors. Bit-level helpers, the play loops
and their choosers stay in their modules (``gongzhu.rules.cards``,
``gongzhu.rules.table``, ...), importable from there.
"""
from .build import engine_build
from .cards import CARD_NAMES, PIG, SHEEP, TRANSFORMER, Card, Play, format_cards, parse_card
from .deal import deal_hands
from .errors import IllegalMove, InvalidDeal, Problem, RuleError
from .information import SeatView
from .match import Match, score_match
from .messages import localized
from .play import apply_move, check_move, initial_state, is_legal_move, legal_moves, replay
from .running import running_state
from .scoring import ScoreSheet, score_cards
from .settlement import Ingots, exact_score, final_scores, settle_ingots
from .simulate import random_deal
from .state import DealState, Trick
from .titles import title_for
from .tricks import TrickResult, rank_trick
from .variants import DEFAULT_RULES, Rules

__all__ = [
    "engine_build",
    "CARD_NAMES", "PIG", "SHEEP", "TRANSFORMER", "Card", "Play", "format_cards", "parse_card",
    "deal_hands",
    "IllegalMove", "InvalidDeal", "Problem", "RuleError",
    "SeatView",
    "Match", "score_match",
    "localized",
    "apply_move", "check_move", "initial_state", "is_legal_move", "legal_moves", "replay",
    "running_state",
    "ScoreSheet", "score_cards",
    "Ingots", "exact_score", "final_scores", "settle_ingots",
    "random_deal",
    "DealState", "Trick",
    "title_for",
    "TrickResult", "rank_trick",
    "DEFAULT_RULES", "Rules",
]
