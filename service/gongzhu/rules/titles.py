"""等级 (titles) by accumulated score — docs/rules.md §6 ("等级规则").

A negative title holds at or below its number, a positive one at or above;
猪小弟 (0) covers −99,999 … 9,999.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Title:
    """A title, its pinyin (Hanyu Pinyin with tone marks) and its threshold."""

    name: str
    pinyin: str
    points: int


TITLES: Final[tuple[Title, ...]] = tuple(Title(n, y, p) for n, y, p in (
    ("八戒", "Bājiè", -50_000_000), ("猪圣", "Zhūshèng", -10_000_000), ("猪神", "Zhūshén", -5_000_000),
    ("猪王", "Zhūwáng", -1_000_000), ("乳猪格格", "Rǔzhū Gégé", -700_000), ("野猪", "Yězhū", -500_000),
    ("架子猪", "Jiàzizhū", -300_000), ("微型猪", "Wēixíngzhū", -100_000), ("猪小弟", "Zhū Xiǎodì", 0),
    ("猪倌", "Zhūguān", 10_000), ("猎人", "Lièrén", 50_000), ("屠夫", "Túfū", 100_000),
    ("饲养员", "Sìyǎngyuán", 200_000), ("优秀饲养员", "Yōuxiù Sìyǎngyuán", 300_000),
    ("养猪专业户", "Yǎngzhū Zhuānyèhù", 400_000), ("地主", "Dìzhǔ", 600_000), ("知县", "Zhīxiàn", 800_000),
    ("知州", "Zhīzhōu", 1_000_000), ("知府", "Zhīfǔ", 3_000_000), ("巡抚", "Xúnfǔ", 5_000_000),
    ("大学士", "Dàxuéshì", 7_000_000), ("宰相", "Zǎixiàng", 10_000_000), ("王爷", "Wángye", 50_000_000),
    ("帝王", "Dìwáng", 100_000_000),
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
