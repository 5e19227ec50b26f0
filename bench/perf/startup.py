"""What a start costs: importing the package and ``create_app()``, with the full
OpenAPI check of the contract (``GONGZHU_CHECK_CONTRACT=1``, what every start did
before the check moved to the tests) and without it (the default), in one run.

    python3 bench/perf/startup.py                 # 7 fresh interpreters per side, ABAB order
    python3 bench/perf/startup.py --runs 11 --baseline ../main   # and another checkout, same venv

Each run is a fresh interpreter (so imports are not cached) that prints the wall
time of ``import gongzhu.api`` + ``create_app()`` and of ``create_app()`` alone,
and its peak resident memory; the figures are medians over the runs. Also the
engine alone: ``import gongzhu.rules``, and whether openapi-spec-validator was
imported at all. ``--baseline ROOT`` adds a third side: the same probe importing
another checkout's package (its ``service/`` folder first on ``PYTHONPATH``), e.g.
one from before the check moved.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

# bench/: its _server (loaded once, by its name) keeps bench/perf, whose http.py shadows the stdlib, off sys.path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _server  # noqa: E402

PROBE = """
import json, resource, sys, time
started = time.perf_counter()
from gongzhu.api import create_app
imported = time.perf_counter()
create_app()
done = time.perf_counter()
print(json.dumps({"total_s": done - started, "create_app_s": done - imported,
                  "package": sys.modules["gongzhu"].__file__,
                  "validator": "openapi_spec_validator" in sys.modules,
                  "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
ENGINE_PROBE = """
import json, sys, time
started = time.perf_counter()
import gongzhu.rules
print(json.dumps({"total_s": time.perf_counter() - started, "flask": "flask" in sys.modules}))
"""


def probe(code: str, check: bool, baseline: Path | None = None) -> dict:
    env = {**os.environ, "GONGZHU_CHECK_CONTRACT": "1" if check else "0", "GONGZHU_LOG_FORMAT": "text"}
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline / "service")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, help="another checkout's root, measured with the same venv")
    chosen = parser.parse_args()
    runs, baseline = chosen.runs, chosen.baseline.resolve() if chosen.baseline else None
    sides: dict[str, list[dict]] = {"GONGZHU_CHECK_CONTRACT=1": [], "default (no check)": []}
    if baseline is not None:
        sides[f"baseline {baseline}"] = []
    for _ in range(runs):
        for label, got in sides.items():
            got.append(probe(PROBE, label.startswith("GONGZHU"), baseline if label.startswith("baseline") else None))
    engine = [probe(ENGINE_PROBE, False) for _ in range(runs)]
    print(f"startup: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, {runs} fresh interpreters per side")
    for label, got in sides.items():
        checkout = Path(got[0]["package"]).parents[2].name
        total = statistics.median(r["total_s"] for r in got) * 1000
        create = statistics.median(r["create_app_s"] for r in got) * 1000
        rss = statistics.median(r["max_rss_mib"] for r in got)
        print(f"  {label:32s} ({checkout}) import + create_app {total:7.1f} ms   create_app {create:7.1f} ms"
              f"   peak RSS {rss:5.1f} MiB   openapi-spec-validator imported: {got[0]['validator']}")
    print(f"  engine alone: import gongzhu.rules {statistics.median(r['total_s'] for r in engine) * 1000:.1f} ms"
          f" (Flask imported: {engine[0]['flask']})")


if __name__ == "__main__":
    _server.bootstrap()
    main()
