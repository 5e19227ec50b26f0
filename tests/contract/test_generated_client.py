"""A Python client generated from openapi.yaml (openapi-python-client) plays a
whole seeded deal against the live gunicorn server:
/deal → /exposures → (/legal-moves → /play) × 52 → /score → /ingots.

If the contract cannot be turned into a working client, or the server answers
anything the generated models cannot parse, this fails.
"""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from tests.conftest import CONTRACT

pytestmark = pytest.mark.live

PACKAGE = "gongzhu_client"
CONFIG = f"post_hooks: []\nproject_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\n"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("client")
    config = root / "config.yaml"
    config.write_text(CONFIG)
    out = root / PACKAGE
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(CONTRACT),
         "--config", str(config), "--output-path", str(out), "--meta", "none"],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_generated_client_plays_a_whole_seeded_deal(generated, live_server):
    from gongzhu_client import Client
    from gongzhu_client.api.play import deal, legal_moves, play
    from gongzhu_client.api.rules import exposures, score, settle_ingots
    from gongzhu_client.models import (
        DealRequest,
        DealResult,
        DealScore,
        DealState,
        ExposuresRequest,
        ExposuresResult,
        IngotsRequest,
        IngotsResult,
        LegalMoves,
        PlayRequest,
        PlayResult,
        ScoreRequest,
        ScoreSheet,
    )

    client = Client(base_url=live_server, raise_on_unexpected_status=True)

    dealt = deal.sync(client=client, body=DealRequest(seed=1))
    assert isinstance(dealt, DealResult)
    hands = dealt.hands
    assert sorted(len(h) for h in hands) == [13, 13, 13, 13]
    assert dealt.leader == next(s for s in range(4) if "C2" in hands[s])

    # The seat holding the pig exposes it (亮牌) before play.
    pig_seat = next(s for s in range(4) if "SQ" in hands[s])
    exposed = [["SQ"] if s == pig_seat else [] for s in range(4)]
    shown = exposures.sync(client=client, body=ExposuresRequest(hands=hands, exposed=exposed))
    assert isinstance(shown, ExposuresResult)
    assert shown.exposed == exposed and shown.automatic == []
    assert shown.values.sq == -200

    plays: list[list[str]] = []
    captured: list[list[str]] = [[], [], [], []]
    final = None
    for number in range(52):
        state = DealState(hands=hands, exposed=exposed, plays=plays)
        options = legal_moves.sync(client=client, body=state)
        assert isinstance(options, LegalMoves), options
        assert not options.finished and options.moves
        move = options.moves[number % len(options.moves)]
        result = play.sync(client=client, body=PlayRequest(hands=hands, exposed=exposed,
                                                           plays=plays, move=move,
                                                           seat=options.seat))
        assert isinstance(result, PlayResult), result
        assert result.state.plays == plays + [move]
        plays = result.state.plays
        if result.trick is not None:
            captured[result.trick.winner] += [c for p in result.trick.plays for c in p]
        if number < 51:
            assert result.score is None
            assert isinstance(result.next_.seat, int) and result.next_.moves
        else:
            final = result.score
    assert isinstance(final, DealScore)
    assert sorted(c for seat in captured for c in seat) == sorted(c for h in hands for c in h)

    finished = legal_moves.sync(client=client, body=DealState(hands=hands, exposed=exposed, plays=plays))
    assert finished.finished and finished.moves == [] and finished.seat is None

    sheet = score.sync(client=client, body=ScoreRequest(captured=captured, exposed=exposed))
    assert isinstance(sheet, ScoreSheet)
    assert sheet.raw == final.raw
    assert sheet.final == final.final
    assert sum(sheet.final) == 0
    assert final.next_leader == next(s for s in range(4) if "SQ" in captured[s])

    settled = settle_ingots.sync(client=client, body=IngotsRequest(scores=sheet.raw, multiplier=2))
    assert isinstance(settled, IngotsResult)
    assert sum(settled.net) == 0
    best = max(sheet.raw)
    assert settled.winners == [s for s in range(4) if sheet.raw[s] == best]
    assert all(t.amount == 2 * (best - sheet.raw[t.from_]) for t in settled.transfers)


def test_generated_client_plays_a_two_deal_match(generated, live_server):
    """Two seeded deals played to the end, each deal's `record` from /play appended to
    the match as it is; /match totals them and says who leads the third deal."""
    from gongzhu_client import Client
    from gongzhu_client.api.play import deal, legal_moves, match, play
    from gongzhu_client.models import DealRecord, DealRequest, DealState, MatchReport, MatchRequest, PlayRequest

    client = Client(base_url=live_server, raise_on_unexpected_status=True)

    def play_deal(seed: int, first_deal: bool, leader: int | None):
        hands = deal.sync(client=client, body=DealRequest(seed=seed, first_deal=first_deal)).hands
        lead = {} if leader is None else {"leader": leader}
        plays: list[list[str]] = []
        while True:
            state = DealState(hands=hands, plays=plays, first_deal=first_deal, **lead)
            options = legal_moves.sync(client=client, body=state)
            move = options.moves[len(plays) % len(options.moves)]
            result = play.sync(client=client, body=PlayRequest(hands=hands, plays=plays, move=move,
                                                               first_deal=first_deal, **lead))
            plays = result.state.plays
            if result.score is not None:
                assert isinstance(result.record, DealRecord)
                return result.record, result.score

    first, first_score = play_deal(1, True, None)
    second, second_score = play_deal(2, False, first_score.next_leader)
    report = match.sync(client=client, body=MatchRequest(deals=[first, second]))
    assert isinstance(report, MatchReport), report
    assert [d.leader for d in report.deals] == [first.leader, first_score.next_leader]
    assert [d.pig_taker for d in report.deals] == [first_score.next_leader, second_score.next_leader]
    assert report.totals == [a + b for a, b in zip(first_score.normalized, second_score.normalized, strict=True)]
    assert report.finished == any(abs(t) >= 1000 for t in report.totals)
    if not report.finished:
        assert (report.next_.first_deal, report.next_.leader) == (False, second_score.next_leader)
