"""Auto-play (托管) for the seat to act: a heuristic seat and a Monte Carlo one.

Pure, stdlib only, reads only what the acting seat may know, and uses the
engine only through ``gongzhu.rules``' public names. See docs/bot.md.
"""
from .advice import Suggestion, heuristic_suggestion, suggest
from .deal_review import Review, Stopped, review
from .exposures import suggest_exposures
from .heuristic import heuristic_play
from .knowledge import knowledge

__all__ = ["Review", "Stopped", "Suggestion", "heuristic_play", "heuristic_suggestion", "knowledge", "review",
           "suggest", "suggest_exposures"]
