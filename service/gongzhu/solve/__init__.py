"""Exact searches on open deals (every hand known), built on the rules engine: stdlib only.

``andor`` is the one AND/OR search core; ``claims`` decides a claim (声称) of the
remaining tricks, ``endgame`` values each move of a deal's last tricks for the
bot, ``values`` values every legal move of a position for the deal review
(``OpenValues``), ``plain`` searches positions of plain cards only; ``vocabulary`` holds
what they share (docs/engine-api.md, "Claims" and "Search").
"""
from .claims import CLAIM_KINDS, ClaimVerdict, claimed_captures, decide_claim, tricks_left
from .endgame import endgame_values
from .scale import raw_value, value_weights
from .values import OpenValues

__all__ = ["CLAIM_KINDS", "ClaimVerdict", "claimed_captures", "decide_claim", "endgame_values", "OpenValues",
           "raw_value", "tricks_left", "value_weights"]
