"""等级 (titles) by accumulated score — docs/rules.md §6 ("等级规则").

A negative title holds at or below its number, a positive one at or above;
猪小弟 (0) covers −99,999 … 9,999.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Title:
    name: str
    points: int


TITLES: tuple[Title, ...] = tuple(Title(n, p) for n, p in (
    ("八戒", -50_000_000), ("猪圣", -10_000_000), ("猪神", -5_000_000), ("猪王", -1_000_000),
    ("乳猪格格", -700_000), ("野猪", -500_000), ("架子猪", -300_000), ("微型猪", -100_000),
    ("猪小弟", 0), ("猪倌", 10_000), ("猎人", 50_000), ("屠夫", 100_000), ("饲养员", 200_000),
    ("优秀饲养员", 300_000), ("养猪专业户", 400_000), ("地主", 600_000), ("知县", 800_000),
    ("知州", 1_000_000), ("知府", 3_000_000), ("巡抚", 5_000_000), ("大学士", 7_000_000),
    ("宰相", 10_000_000), ("王爷", 50_000_000), ("帝王", 100_000_000),
))


def title_for(points: int) -> Title:
    """The title for an accumulated score."""
    if points < 0:
        for title in TITLES:
            if title.points < 0 and points <= title.points:
                return title
    else:
        for title in reversed(TITLES):
            if title.points > 0 and points >= title.points:
                return title
    return next(t for t in TITLES if t.points == 0)
