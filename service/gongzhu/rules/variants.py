"""Rule options (docs/rules.md §2, §5): named, with the traditional rules' defaults."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import CARD_BY_NAME, Card
from .errors import RuleError
from .messages import DECKS_ONE_OR_TWO, OPENING_CARD_ONE_OF

OPENING_CARDS: Final = ("C2", "S2", "S3", "S7")
DECK_COUNTS: Final = (1, 2)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """One game's options. Defaults are the main traditional rule text's (R in docs/rules.md)."""

    decks: int = 1
    partnership: bool = False
    opening_card: str = "C2"
    must_lead_opening_card: bool = True
    first_trick_ban: bool = False
    pig_flips_with_all_hearts: bool = False

    def __post_init__(self) -> None:
        if self.decks not in DECK_COUNTS:
            raise RuleError(DECKS_ONE_OR_TWO(), code="invalid_rules", path="/rules/decks")
        if self.opening_card not in OPENING_CARDS:
            raise RuleError(OPENING_CARD_ONE_OF(cards=", ".join(OPENING_CARDS)),
                            code="invalid_rules", path="/rules/opening_card")

    @property
    def opening(self) -> Card:
        return CARD_BY_NAME[self.opening_card]

    @property
    def hand_size(self) -> int:
        return 13 * self.decks


DEFAULT_RULES: Final = Rules()
