"""Instructions of whole in-process WSGI requests, counted by callgrind: load on the machine does not
change them.

    python bench/perf/request_instructions.py                       # this checkout
    python bench/perf/request_instructions.py --root DIR            # another checkout, e.g. main
    python bench/perf/request_instructions.py --root DIR --count 1000

``DIR`` is another checkout's root, e.g. ``git -C /work/main archive main | tar -x -C DIR`` into an
empty folder. A checkout without compiled modules is compiled in place first (``setup.py build_ext
--inplace``, with this venv's mypyc), so both sides run the compiled build.

The app is built as ``make run`` builds it (the access lines are nginx's). For ``/healthz`` and each body of
``bench/perf/http.py`` (``bench/_server.py: bodies()``: ``/legal-moves`` one and two decks mid-deal,
``/score``, ``/play``) it makes ``--count`` whole WSGI calls, each closed as a server closes it (so
with its metrics), then a fifth of that many in a second run. Each body's calls
are one phase of the process (callgrind dumps its counts at a marker call, ``getppid``, between the
bodies), so one process counts every body; a request's instructions are the difference of the two
runs' phase over the difference in calls, so the interpreter's start-up, ``create_app`` and every
first-call cost drop out. The hash seed is fixed, so the counts repeat (within a few hundred
instructions a request: the metrics take the measured duration).

Printed: instructions a request for each, and the app's share (the request less ``/healthz``).
``--stages`` also counts each stage of a body alone, in a loop over the same objects as
``bench/perf/http.py``'s profile times them (parse, validate, convert, answer, serialize; each loop
frees the result of the call before).
Needs ``valgrind``.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# bench/perf/http.py shadows the standard library's ``http``: keep bench/ off sys.path, load helpers by path.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
ROOT = HERE.parent.parent


def _load(name: str, file: str):
    spec = importlib.util.spec_from_file_location(name, HERE / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_server = _load("_server", "../_server.py")
_server.bootstrap()

NAMES = ("healthz", "legal-moves-1deck", "legal-moves-2deck", "score", "play")
# the call between two bodies' phases: callgrind dumps its counts before it (os.getppid calls libc's)
MARKER = "getppid"
TOTALS = re.compile(r"^(?:summary|totals):\s+(\d+)", re.MULTILINE)


STAGES = ("parse", "validate", "convert", "answer", "serialize")


def _stage_calls(app) -> dict[str, object]:
    """Each stage of each body alone, as ``bench/perf/http.py``'s profile runs them: name -> call."""
    from gongzhu.api import operations, pipeline

    routes = app.extensions["gongzhu.pipeline"].routes()
    calls = {}
    for name, (path, raw) in _server.bodies().items():
        route = routes[path]["POST"]
        parsed = pipeline.parse_json(raw)
        call = operations.Call(route.handler.convert(parsed), parsed, {})
        answer = route.handler.answer(call)
        calls.update({
            f"{name} parse": lambda raw=raw: pipeline.parse_json(raw),
            f"{name} validate": lambda route=route, parsed=parsed: route.body.is_valid(parsed),
            f"{name} convert": lambda route=route, parsed=parsed: route.handler.convert(parsed),
            f"{name} answer": lambda route=route, call=call: route.handler.answer(call),
            f"{name} serialize": lambda answer=answer: pipeline.encode(answer),
        })
    return calls


def phase_names(stages: bool) -> list[str]:
    return [*NAMES, *(f"{name} {stage}" for name in NAMES[1:] for stage in STAGES)] if stages else list(NAMES)


def inner(count: int, stages: bool) -> None:
    """``count`` calls of each request (and of each stage), a marker call between them (run under
    callgrind)."""
    bench_http = _load("bench_http", "http.py")
    from gongzhu.api import create_app

    app = create_app()
    calls = {"healthz": bench_http._wsgi_call(app, "GET", "/healthz", None)}
    for name, (path, raw) in _server.bodies().items():
        calls[name] = bench_http._wsgi_call(app, "POST", path, raw)
    if stages:
        calls.update(_stage_calls(app))
    for name in phase_names(stages):
        call = calls[name]
        os.getppid()   # the phase before this one ends here
        for _ in range(count):
            call()
    os.getppid()


def phases(root: Path, count: int, stages: bool) -> dict[str, int]:
    """Instructions of each phase (a body's calls, or a stage's) in one process of ``count`` calls each."""
    with tempfile.TemporaryDirectory(prefix="gongzhu-callgrind-") as folder:
        out = Path(folder) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(root / "service"), os.environ.get("PYTHONPATH")])))
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--dump-before={MARKER}",
                   sys.executable, str(Path(__file__).resolve()), "--inner", "--count", str(count),
                   *(["--stages"] if stages else [])]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False, cwd="/")
        if done.returncode:
            sys.exit(done.stderr[-3000:])
        # one dump a marker call, numbered in order (the last one, at exit, holds the rest)
        dumps = sorted(Path(folder).glob("callgrind.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        counts = [int(TOTALS.search(p.read_text()).group(1)) for p in dumps]
    # dump 1 ends start-up; dump k + 1 ends the k-th phase (the marker after it)
    names = phase_names(stages)
    if len(counts) < len(names) + 1:
        sys.exit(f"callgrind wrote {len(counts)} dumps, {len(names) + 1} expected")
    return dict(zip(names, counts[1:len(names) + 1]))


def compiled(root: Path) -> bool:
    return any((root / "service").rglob("*.so"))


def ensure_compiled(root: Path) -> None:
    """``root`` compiled in place when it has no compiled module (an archive of a commit)."""
    if root.resolve() == ROOT.resolve() or compiled(root):
        return
    print(f"# compiling {root} in place (setup.py build_ext --inplace) ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=root, check=True,
                   capture_output=True)
    if not compiled(root):
        sys.exit(f"{root}: no compiled module after the build")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    ap.add_argument("--count", type=int, default=500, help="calls a body in the longer run (default 500)")
    ap.add_argument("--stages", action="store_true", help="also count each stage of each body alone")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.inner:
        inner(args.count, args.stages)
        return
    if not 50 <= args.count <= 100_000:
        sys.exit("count 50..100000")
    root = args.root.resolve()
    ensure_compiled(root)
    small = args.count // 5
    many, few = phases(root, args.count, args.stages), phases(root, small, args.stages)
    per = {name: (many[name] - few[name]) / (args.count - small) for name in many}
    print(f"# {root}: instructions a whole WSGI request (callgrind, {args.count} - {small} calls a body)")
    for name in NAMES:
        app = "" if name == "healthz" else f"  app's share (less /healthz) {per[name] - per['healthz']:>10,.0f}"
        print(f"{name:18s} {per[name]:>10,.0f}{app}")
    if args.stages:
        print("# each stage alone, in a loop over the same objects (its sum against the app's share)")
        for name in NAMES[1:]:
            parts = [per[f"{name} {stage}"] for stage in STAGES]
            print(f"{name:18s} " + ", ".join(f"{stage} {part:,.0f}" for stage, part in zip(STAGES, parts))
                  + f"; sum {sum(parts):,.0f} of {per[name] - per['healthz']:,.0f}")
    if args.json:
        args.json.write_text(json.dumps({"root": str(root), "count": args.count, "per_request": per}, indent=1))


if __name__ == "__main__":
    main()
