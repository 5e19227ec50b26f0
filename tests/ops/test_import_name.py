"""The import package is ``gongzhu``: an application with its own ``service`` package embeds the engine.

The host's ``service`` (first on ``sys.path``, as a backend's own package is when it
runs from its project folder) and ``gongzhu`` are imported side by side in a fresh
interpreter, and the engine deals and answers legal moves there.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_host_with_its_own_service_package_imports_the_engine(tmp_path):
    host = tmp_path / "service"
    host.mkdir()
    (host / "__init__.py").write_text("OWNER = 'the host application'\n")
    (host / "rules.py").write_text("NAME = 'the host application rules'\n")
    program = textwrap.dedent("""
        import service, service.rules
        import gongzhu.rules as engine
        rules = engine.Rules()
        state = engine.replay(rules, hands=engine.deal_hands(rules, rng=__import__("random").Random(1)))
        moves = [engine.format_cards(m) for m in engine.legal_moves(state)]
        print(service.OWNER, "|", service.rules.NAME, "|", engine.__name__, "|", moves)
    """)
    out = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, check=True)
    owner, host_rules, engine_name, moves = out.stdout.strip().split(" | ")
    assert (owner, host_rules, engine_name) == ("the host application", "the host application rules", "gongzhu.rules")
    assert moves == "[['C2']]"
