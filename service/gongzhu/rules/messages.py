"""Every message the engine writes, in English and in Chinese (简体中文).

A message is written once, as a ``Text``: an English and a Chinese template
with the same ``{fields}``. Calling a ``Text`` gives a ``Message``: a ``str``
holding the English sentence (the default everywhere) that keeps its template
and arguments, so the HTTP layer can render it in Chinese
(``message.render("zh")``) without parsing English. An argument that is itself
a ``Message`` (a suit's name, a nested problem) is rendered in the same
language. Codes and pointers never depend on the language.
"""
from __future__ import annotations

from typing import NamedTuple

LANGUAGES = ("en", "zh")


class Message(str):
    """An English sentence that can also be rendered in Chinese."""

    text: Text
    args: dict[str, object]

    def __new__(cls, text: Text, args: dict[str, object]) -> Message:
        made = super().__new__(cls, text.en.format(**args))
        made.text = text
        made.args = args
        return made

    def render(self, language: str) -> str:
        """The message in ``language`` (``"en"`` or ``"zh"``)."""
        if language != "zh":
            return str(self)
        return self.text.zh.format(**{name: localized(value, language) for name, value in self.args.items()})


def localized(value: object, language: str) -> str:
    """``value`` as text in ``language``: a ``Message`` is rendered, anything else as it is."""
    return value.render(language) if isinstance(value, Message) else str(value)


class Text(NamedTuple):
    """A message template in English and in Chinese, with the same fields."""

    en: str
    zh: str

    def __call__(self, **args: object) -> Message:
        return Message(self, args)


# Suit names, for messages that name a suit.
SUIT_NAMES = {
    "S": Text("S", "黑桃 (S)"),
    "H": Text("H", "红桃 (H)"),
    "D": Text("D", "方块 (D)"),
    "C": Text("C", "梅花 (C)"),
}


def suit_name(letter: str) -> Message:
    return SUIT_NAMES[letter]()


# What a duplicate card was: dealt, played, captured.
VERBS = {
    "dealt": Text("dealt", "发出"),
    "played": Text("played", "打出"),
    "captured": Text("captured", "收进"),
}

AND_MORE = Text("{first} (and {more} more)", "{first}（另有 {more} 处问题）")
PLAY_AT = Text("play {k}: {reason}", "第 {k} 手出牌：{reason}")

# cards and rules
NOT_A_CARD = Text("{text} is not a card: write suit S/H/D/C then rank 2-10/J/Q/K/A, upper case, e.g. 'SQ', 'C10'",
                  "{text} 不是一张牌：先写花色 S/H/D/C，再写点数 2-10/J/Q/K/A，大写，例如 'SQ'、'C10'")
DECKS_ONE_OR_TWO = Text("decks must be 1 or 2", "decks 只能是 1 或 2")
OPENING_CARD_ONE_OF = Text("opening_card must be one of {cards}", "opening_card 必须是 {cards} 之一")

# the deal
HAND_COUNT = Text("a deal has {seats} hands, got {got}", "一副牌有 {seats} 手牌，收到 {got} 手")
SEAT_CARD_COUNT = Text("seat {seat} was dealt {got} cards; {size} with {decks} deck(s)",
                       "座位 {seat} 发到 {got} 张牌；{decks} 副牌时每家 {size} 张")
DEALT_HAND_COUNT = Text("a hand as dealt has {size} cards with {decks} deck(s), got {got}",
                        "{decks} 副牌时一手牌有 {size} 张，收到 {got} 张")
DUPLICATE_CARD = Text("{card} is {verb} more than {decks} time(s)", "{card} {verb}超过 {decks} 次")

# exposure
NOT_EXPOSABLE = Text("{card} cannot be exposed: only SQ, DJ, C10 and HA can",
                     "{card} 不能亮：只有 SQ、DJ、C10、HA 可以亮")
EXPOSED_NOT_HELD = Text("seat {seat} exposes {card} {shown} time(s) but holds {held}",
                        "座位 {seat} 亮 {card} {shown} 次，但只持有 {held} 张")
EXPOSED_TOO_OFTEN = Text("{card} is exposed more times than there are copies", "{card} 亮出的次数多于牌的张数")
EXPOSED_LISTS = Text("exposed has {seats} lists", "exposed 应有 {seats} 个列表")

# the leader
LEADER_SEAT = Text("leader is a seat 0-3, got {leader}", "leader 是座位 0-3，收到 {leader}")
LEADER_MISSING = Text("a later deal needs leader: the seat that took the pig last deal",
                      "非首局必须给出 leader：上一局得到猪（SQ）的座位")
LEADER_NOT_HOLDER = Text(
    "in the first deal the leader must hold {card}: seat {leader} does not (it is held by {holders}); "
    "without leader, the seat dealt the first {card} leads",
    "首局的首引者必须持有 {card}：座位 {leader} 没有（持有者：{holders}）；"
    "不给 leader 时，由先发到第一张 {card} 的座位首引")
ONE_HOLDER = Text("seat {seat}", "座位 {seat}")
TWO_HOLDERS = Text("seats {first} and {second}", "座位 {first} 和 {second}")

# plays
PLAY_SIZE = Text("this trick needs {need} card(s) per play", "这一墩每次出 {need} 张牌")
LEAD_ONE_CARD = Text("a lead is one card", "首出只能是一张牌")
LEAD_ONE_OR_PAIR = Text("a lead is one card or a pair of identical cards", "首出是一张牌或一对相同的牌")
MUST_LEAD_OPENING = Text("the first lead of the first deal must be {card}", "首局的第一手必须出 {card}")
FIRST_TRICK_BAN = Text("SQ and C10 may not be played in the first trick while another card is legal",
                       "第一轮不许出猪（SQ）和变压器（C10），除非没有别的牌可出")
EXPOSED_FIRST_ROUND = Text("an exposed card may not be played in the first round of its suit "
                           "while the seat has another card of that suit",
                           "亮过的牌在该花色第一轮不能出，除非该花色只剩这一张")
MUST_FOLLOW_PAIR = Text("after a pair lead in {suit}: a pair of {suit} if held, else two {suit} cards, "
                        "else every {suit} card held plus any card",
                        "{suit}首出对子后：有{suit}对子必须出对子，否则出两张{suit}，再否则出所有{suit}并补任意牌")
MUST_FOLLOW_SUIT = Text("must follow suit {suit}", "必须跟出{suit}")
DEAL_FINISHED = Text("the deal is finished: all cards have been played", "这一局已经结束：所有牌都已出完")
NOT_YOUR_TURN = Text("it is seat {seat}'s turn, not seat {asked}'s", "现在轮到座位 {seat}，不是座位 {asked}")
NOT_HELD = Text("seat {seat} does not hold {card}", "座位 {seat} 没有 {card}")
NOT_HELD_TWICE = Text("seat {seat} does not hold {card} twice", "座位 {seat} 没有两张 {card}")
PLAY_REJECTED = Text("play rejected", "出牌无效")
NOT_A_MOVE = Text("{text} is not a move: a card ('SQ') or a list of one or two cards",
                  "{text} 不是一次出牌：一张牌（'SQ'）或一到两张牌的列表")
NOTHING_TO_UNDO = Text("there is no play to undo: none was applied to this state",
                       "没有可以撤回的出牌：这个状态上还没有出过牌")
VIEW_OF_OTHER_DEAL = Text("the view of seat {seat} is not of this deal", "座位 {seat} 的信息集不属于这一局")

# tricks
TRICK_PLAYS = Text("a trick has {seats} plays, got {got}", "一墩有 {seats} 次出牌，收到 {got} 次")
TRICK_LEAD = Text("a lead is one card, or in two-deck games a pair of identical cards",
                  "首出是一张牌，两副牌时也可以是一对相同的牌")
TRICK_PLAY_SIZE = Text("every play in this trick has {size} card(s), like the lead",
                       "这一墩每次出牌都是 {size} 张，和首出一样")

# claims
NOTHING_TO_CLAIM = Text("the deal is finished: there is nothing left to claim", "这一局已经结束：没有可以声称的牌")

# matches
LEADER_RULE_ONE_OF = Text("leader_rule must be one of {rules}", "leader_rule 必须是 {rules} 之一")
DEAL_AT = Text("deal {n}: {reason}", "第 {n} 局：{reason}")
MATCH_OVER = Text("the match ended with deal {ended} (totals {totals} reach ±{target}): no deal may follow it",
                  "本场已在第 {ended} 局结束（累计 {totals} 已达 ±{target}）：其后不能再有牌局")
UNFINISHED_DEAL = Text("deal {n} is unfinished ({plays} plays): only the last deal of a match may be",
                       "第 {n} 局尚未打完（{plays} 手出牌）：只有一场的最后一局可以未打完")
FIRST_DEAL_OF_MATCH = Text("deal 0 opens the match: first_deal is true there (the opening card's holder leads)",
                           "第 0 局是本场首局：first_deal 应为 true（持开局牌者首引）")
LATER_DEAL_OF_MATCH = Text("deal {n} is a later deal: first_deal is false there (the lead is free)",
                           "第 {n} 局不是首局：first_deal 应为 false（首引可出任意牌）")
PIG_TAKER_LEADS = Text("deal {n} is led by seat {leader}, who took the pig in deal {previous} "
                       "(with two decks, the first pig), not by seat {given}",
                       "第 {n} 局由座位 {leader} 首引：它在第 {previous} 局得到猪（两副牌时为第一只猪），"
                       "而不是座位 {given}")
ROTATION_LEADS = Text("with leader_rule rotation deal {n} is led by seat {leader} (the deal's number mod 4), "
                      "not by seat {given}",
                      "按 rotation（固定首引人轮转）规则，第 {n} 局由座位 {leader}（局号除以 4 的余数）首引，"
                      "而不是座位 {given}")
