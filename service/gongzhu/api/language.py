"""The language of problem answers, from ``Accept-Language`` (RFC 9110 §12.5.4): English (``en``, the
default) or Chinese in simplified characters (``zh-Hans``) for every ``zh`` range (docs/rules.md,
"Languages"). The range with the highest ``q`` wins, the first on a tie; ``q=0`` is never chosen; ``*``
counts as English; other languages are skipped.
"""
from __future__ import annotations

ENGLISH, CHINESE = "en", "zh"
CONTENT_LANGUAGE = {ENGLISH: "en", CHINESE: "zh-Hans"}
MAX_RANGES = 32


def _language(tag: str) -> str | None:
    primary = tag.split("-", 1)[0]
    if primary == "zh":
        return CHINESE
    if primary in ("en", "*"):
        return ENGLISH
    return None


def _quality(params: list[str]) -> float:
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value)
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


def negotiate(header: str | None) -> str:
    """``"en"`` or ``"zh"`` for an ``Accept-Language`` value (English when absent)."""
    if not header:
        return ENGLISH
    best, best_q = ENGLISH, 0.0
    for item in header.split(",")[:MAX_RANGES]:
        tag, *params = item.split(";")
        language = _language(tag.strip().lower())
        if language is None:
            continue
        q = _quality(params)
        if q > best_q:
            best, best_q = language, q
    return best
