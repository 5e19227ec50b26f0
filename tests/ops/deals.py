"""A deal for the operations tests: the hands ``/deal`` answers for seed 1."""
from gongzhu import rules as engine

SEED1 = [engine.format_cards(hand) for hand in engine.deal_hands(engine.Rules(), 1)]
