"""Exact searches on open deals (every hand known), built on the rules engine: stdlib only.

What is here (docs/bot.md, "Exact endgames"; docs/engine-api.md, "Claims" and "Search"):

- one value scale, ``scale`` (each seat's raw score weighted: the bot's ``exact_score`` units, the review's
  raw points, ``raw_value``); one move order, ``order``; one vocabulary of cards and keys, ``vocabulary``
  (live cards, renumbering, distinct moves, ``position_key`` and ``equivalent_key``); "no card special any
  more" defined once, ``running.plain``;
- one driver for values, ``endgame.mtd`` (MTD(f): null-window questions "at least t?"), over two
  representations of a position: the engine's deal state, searched by the AND/OR core ``andor.AndOr.decide``
  (``endgame.AtLeast``), and, one deck with no card special, four hands in ints (``plain_open.PlainOpen``,
  its own fail-soft loop: the second search loop, still to fold into the first);
- what asks them: ``claims`` decides a claim (声称) of the remaining tricks on the AND/OR core (``plain``:
  its one-deck fast path), ``endgame`` values each move of a deal's last tricks for the bot, ``values``
  every legal move of a position for the deal review (``OpenValues``).
"""
from .claims import CLAIM_KINDS, ClaimVerdict, claimed_captures, decide_claim, tricks_left
from .endgame import endgame_values
from .scale import raw_value, value_weights
from .values import OpenValues

__all__ = ["CLAIM_KINDS", "ClaimVerdict", "claimed_captures", "decide_claim", "endgame_values", "OpenValues",
           "raw_value", "tricks_left", "value_weights"]
