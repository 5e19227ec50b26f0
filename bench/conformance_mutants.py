"""How many wrong engines the conformance cases alone catch: a mutation run over the rules modules.

    .venv/bin/python bench/conformance_mutants.py                  # every mutant (long: see docs/conformance.md)
    .venv/bin/python bench/conformance_mutants.py --sample 400     # a seeded random sample of them
    .venv/bin/python bench/conformance_mutants.py --list           # the mutants, one a line, without running

A mutant is service/gongzhu/rules/<module>.py with one change, made on the pure build (a copy of service/
without compiled modules, as bench/_builds.py makes it): a comparison turned (< and <=, > and >=, == and
!=), an arithmetic or bit operator swapped (+ -, * //, & |, << >>), `and`/`or` swapped, `not` dropped,
True/False flipped, or an integer constant n made n + 1. Type annotations are left alone. Each mutant
is run by a worker process that imports the mutated engine afresh, builds our app (create_app()) and
sends it the conformance cases in process, stopping at the first case that fails: the mutant is
*killed* by that case. A mutant whose import or app fails, or which runs past --timeout seconds, is
killed too (counted apart). A mutant that passes every case *survived*.

Output: one JSON line per mutant in build/mutants/results-<time>.jsonl (--survivors FILE runs again only
the survivors of such a file), the survivors with their diff in
build/mutants/survivors.txt, and a summary on standard output.
"""
from __future__ import annotations

import argparse
import ast
import json
import random
import select
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench/ itself off the path (its http.py would shadow the standard library's), the repository on it
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench._builds import pure_copy, pure_env  # noqa: E402

OUT = ROOT / "build" / "mutants"
RULES = Path("gongzhu") / "rules"
BINARY = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "//"), ast.FloorDiv: ("//", "*"),
          ast.BitAnd: ("&", "|"), ast.BitOr: ("|", "&"), ast.LShift: ("<<", ">>"), ast.RShift: (">>", "<<"),
          ast.Mod: ("%", "//")}
COMPARE = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
           ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
BOOLEAN = {ast.And: ("and", "or"), ast.Or: ("or", "and")}


@dataclass(frozen=True, slots=True)
class Mutant:
    module: str  # file name under gongzhu/rules/
    line: int
    start: int  # byte offsets into the module's source
    end: int
    old: str
    new: str

    @property
    def name(self) -> str:
        return f"{self.module}:{self.line}: {self.old!r} -> {self.new!r}"


def annotation_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node inside a type annotation (never evaluated: the modules use postponed annotations)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, ast.arg) and node.annotation:
            annotations.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            inside |= {id(n) for n in ast.walk(annotation)}
    return inside


def line_starts(source: bytes) -> list[int]:
    starts = [0]
    for i, byte in enumerate(source):
        if byte == 10:
            starts.append(i + 1)
    return starts


def between(source: bytes, starts: list[int], a: ast.AST, b: ast.AST) -> tuple[int, int]:
    return starts[a.end_lineno - 1] + a.end_col_offset, starts[b.lineno - 1] + b.col_offset  # type: ignore[attr-defined]


def operator_at(source: bytes, span: tuple[int, int], text: str) -> int | None:
    """Where the operator ``text`` stands alone between two operands (not inside a longer operator)."""
    gap = source[span[0]:span[1]]
    at = gap.find(text.encode())
    while at >= 0:
        before = gap[at - 1:at] if at else b" "
        after = gap[at + len(text):at + len(text) + 1] or b" "
        if before not in b"<>=!*/&|" and after not in b"<>=*/&|":
            return span[0] + at
        at = gap.find(text.encode(), at + 1)
    return None


def mutants_of(module: str, source: bytes) -> list[Mutant]:
    tree = ast.parse(source)
    skip = annotation_nodes(tree)
    starts = line_starts(source)
    found: list[Mutant] = []

    def add(node: ast.AST, start: int | None, old: str, new: str) -> None:
        if start is not None:
            found.append(Mutant(module, node.lineno, start, start + len(old.encode()), old, new))  # type: ignore[attr-defined]

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            old, new = BINARY[type(node.op)]
            add(node, operator_at(source, between(source, starts, node.left, node.right), old), old, new)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:]):
                if type(op) in COMPARE:
                    old, new = COMPARE[type(op)]
                    add(node, operator_at(source, between(source, starts, left, right), old), old, new)
        elif isinstance(node, ast.BoolOp):
            old, new = BOOLEAN[type(node.op)]
            for left, right in zip(node.values, node.values[1:]):
                span = between(source, starts, left, right)
                at = source[span[0]:span[1]].find(f" {old} ".encode())
                add(node, span[0] + at + 1 if at >= 0 else None, old, new)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            start = starts[node.lineno - 1] + node.col_offset
            if source[start:start + 4] == b"not ":
                add(node, start, "not ", "")
        elif isinstance(node, ast.Constant) and type(node.value) in (bool, int):
            start = starts[node.lineno - 1] + node.col_offset
            end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[operator]
            old = source[start:end].decode()
            if isinstance(node.value, bool):
                add(node, start, old, str(not node.value))
            elif old.isdigit():
                add(node, start, old, str(node.value + 1))
    return sorted(found, key=lambda m: (m.start, m.new))


def apply(source: bytes, mutant: Mutant) -> bytes:
    assert source[mutant.start:mutant.end].decode() == mutant.old, mutant
    return source[:mutant.start] + mutant.new.encode() + source[mutant.end:]


def all_mutants(root: Path) -> list[Mutant]:
    found = []
    for path in sorted((root / RULES).glob("*.py")):
        source = path.read_bytes()
        for mutant in mutants_of(path.name, source):
            try:
                compile(apply(source, mutant), path.name, "exec")
            except SyntaxError:
                continue
            found.append(mutant)
    return found


# ---------------------------------------------------------------- the worker (a separate interpreter)

def worker(root: Path) -> None:
    """Reads mutants (JSON lines) on stdin; for each, imports the mutated engine afresh and runs the cases.
    A mutant that passes them all is then sent a random corpus of requests (recorded first from the
    unchanged engine): an answer that differs shows the mutant is not equivalent."""
    sys.dont_write_bytecode = True
    corpus = record_corpus()
    print(json.dumps({"corpus": len(corpus)}), flush=True)
    for line in sys.stdin:
        mutant = Mutant(**json.loads(line))
        path = root / RULES / mutant.module
        original = path.read_bytes()
        path.write_bytes(apply(original, mutant))
        try:
            verdict = run_cases(corpus)
        except BaseException as error:  # noqa: BLE001 - a mutant may break anything: it is then killed
            verdict = {"killed": True, "by": f"error: {type(error).__name__}: {str(error)[:200]}"}
        finally:
            path.write_bytes(original)
        print(json.dumps(verdict), flush=True)


def fresh_app():
    """Our app built from a fresh import of every gongzhu module (the mutated one included)."""
    import importlib

    import prometheus_client

    for name in [m for m in sys.modules if m == "gongzhu" or m.startswith("gongzhu.")]:
        del sys.modules[name]
    # the app's metrics register themselves as their module is imported: each fresh import registers anew
    for collector in list(prometheus_client.REGISTRY._collector_to_names):
        prometheus_client.REGISTRY.unregister(collector)
    importlib.invalidate_caches()
    from gongzhu.api import create_app
    from gongzhu.conformance.transport import in_process

    return in_process(create_app())


# What a rule decides in each answer: a field outside these (a claim's refutation or positions count, a
# problem's wording) may differ between correct implementations, so a difference there shows nothing.
RULE_FIELDS = {
    "/legal-moves": ("seat", "moves", "finished", "trick_number", "winning", "taken", "points", "exposed"),
    "/play": ("state", "trick", "score", "next"),
    "/view": ("hand", "to_act", "moves", "winning", "taken", "points", "voids", "exposed"),
    "/claim": ("holds", "tricks_left", "score"),
    "/match": ("deals", "totals", "ledger", "finished", "winners", "standings", "next"),
}


def comparable(path: str, body: bytes) -> object:
    """The part of an answer the rules decide: a problem's code and faults, else the rule fields."""
    try:
        value = json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")
    if not isinstance(value, dict):
        return value
    if "code" in value and "status" in value:
        return [value["code"], [(e["pointer"], e["code"]) for e in value.get("errors", [])]]
    fields = RULE_FIELDS.get(path)
    return {k: v for k, v in value.items() if fields is None or k in fields}


def run_cases(corpus: list[tuple[dict, int, object]]) -> dict[str, object]:
    send = fresh_app()
    from gongzhu.conformance import cases
    from gongzhu.conformance.expect import mismatches

    for case in cases.load():
        if cases.TRANSPORT_TAG in case["tags"]:
            continue
        faults = mismatches(case["expect"], send(case["request"]))
        if faults:
            return {"killed": True, "by": case["id"], "fault": faults[0][:200]}
    for request, status, body in corpus:
        answer = send(request)
        if answer.status != status or comparable(request["path"], answer.body) != body:
            return {"killed": False, "by": None, "differs": request}
    return {"killed": False, "by": None, "differs": None}


CORPUS_SEED = 4545


def record_corpus() -> list[tuple[dict, int, object]]:
    """Random requests over every deterministic operation and the unchanged engine's answers to them."""
    send = fresh_app()
    rng = random.Random(CORPUS_SEED)
    requests: list[dict] = []

    def post(path: str, body: dict, keep: bool = True) -> dict:
        request = {"method": "POST", "path": path, "body": body}
        if keep:
            requests.append(request)
        answer = send(request)
        return json.loads(answer.body) if answer.status == 200 else {}

    for walk in range(120):
        decks = 1 + walk % 2
        rules = {"decks": decks} if decks == 2 else {}
        for option in ("first_trick_ban", "pig_flips_with_all_hearts", "partnership"):
            if rng.random() < 0.3:
                rules[option] = True
        if rng.random() < 0.2:
            rules["opening_card"] = rng.choice(["S2", "S3", "S7"])
        if rng.random() < 0.1:
            rules["must_lead_opening_card"] = False
        deal = post("/deal", {"rules": rules, "seed": CORPUS_SEED + walk})
        hands = deal["hands"]
        state: dict = {"rules": rules, "hands": hands, "plays": []}
        if rng.random() < 0.3:
            state.update(first_deal=False, leader=rng.randrange(4))
        if rng.random() < 0.6:
            state["exposed"] = [[c for c in h if c in ("SQ", "DJ", "C10", "HA") and rng.random() < 0.6] for h in hands]
        while True:
            turn = post("/legal-moves", state, keep=rng.random() < 0.3 or len(state["plays"]) < 6)
            if not turn or turn.get("finished"):
                break
            tricks_left = (13 * decks * 4 - len(state["plays"])) // 4
            if tricks_left <= (4 if decks == 1 else 2) and rng.random() < 0.15:
                post("/claim", {**state, "claim": {"seat": rng.randrange(4),
                                                   "kind": rng.choice(["all_tricks", "no_tricks"])}})
            if rng.random() < 0.05:
                post("/view", {**state, "seat": rng.randrange(4)})
            move = rng.choice(turn["moves"])
            if rng.random() < 0.03:
                post("/play", {**state, "move": rng.choice([*turn["moves"], state["hands"][0][:1]])})
            state = {**state, "plays": state["plays"] + [move]}
        post("/match", {"rules": rules, "deals": [{k: v for k, v in state.items() if k != "rules"}]})
        post("/exposures", {"rules": rules, "hands": hands, "exposed": state.get("exposed", [[], [], [], []])})
    cards = [s + r for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    for i in range(300):
        decks = 1 + i % 2
        scoring = [c for c in cards if c[0] == "H" or c in ("SQ", "DJ", "C10")] * decks
        captured: list[list[str]] = [[], [], [], []]
        weights = [rng.random() ** 3 for _ in range(4)]
        for card in scoring:
            captured[rng.choices(range(4), weights)[0]].append(card)
        exposed: list[list[str]] = [[], [], [], []]
        for card in ("SQ", "DJ", "C10", "HA"):
            for _ in range(decks):
                if rng.random() < 0.4:
                    exposed[rng.randrange(4)].append(card)
        post("/score", {"rules": {"decks": decks, "partnership": rng.random() < 0.3,
                                  "pig_flips_with_all_hearts": rng.random() < 0.3},
                        "captured": captured, "exposed": exposed})
        pool = cards * decks
        rng.shuffle(pool)
        suit = rng.choice("SHDC")
        plays = []
        for _ in range(4):
            size = 2 if decks == 2 and plays and len(plays[0]) == 2 or (decks == 2 and not plays and
                                                                        rng.random() < 0.6) else 1
            of_suit = [c for c in pool if c[0] == suit]
            if size == 2 and rng.random() < 0.5 and any(of_suit.count(c) == 2 for c in of_suit):
                card = next(c for c in of_suit if of_suit.count(c) == 2)
                play = [card, card]
            else:
                play = [of_suit[0] if rng.random() < 0.7 else pool[0] for _ in range(size)]
                if not plays and size == 2:
                    play = [of_suit[0], of_suit[0]] if of_suit.count(of_suit[0]) == 2 else [of_suit[0]]
            for c in play:
                if c in pool:
                    pool.remove(c)
            plays.append(play)
        post("/trick", {"rules": {"decks": decks}, "leader": rng.randrange(4), "plays": plays})
        scores = [rng.randrange(-50, 30) * 10 for _ in range(4)]
        post("/ingots", {"scores": scores, "multiplier": rng.randrange(1, 5), "fee": rng.randrange(0, 3)})
    for points in [rng.randrange(-60_000_000, 120_000_000) for _ in range(100)]:
        requests.append({"method": "GET", "path": f"/ranks/{points}"})
    recorded = []
    for request in requests:
        answer = send(request)
        recorded.append((request, answer.status, comparable(request["path"], answer.body)))
    return recorded


# ---------------------------------------------------------------- the parent

class Worker:
    def __init__(self, root: Path) -> None:
        env = pure_env(root) | {"PYTHONDONTWRITEBYTECODE": "1"}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def ready(self, timeout: float) -> int:
        """Waits for the worker's corpus; its size."""
        assert self.proc.stdout
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        size: int = json.loads(line)["corpus"]
        return size

    def judge(self, mutant: Mutant, timeout: float) -> dict[str, object] | None:
        """The verdict, or None when the worker ran past ``timeout`` (it is then stopped)."""
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(asdict(mutant)) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.stop()
            return None
        verdict: dict[str, object] = json.loads(line)
        return verdict

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, help="run this many mutants drawn at random (seeded)")
    parser.add_argument("--seed", type=int, default=45, help="the sample's seed (default 45)")
    parser.add_argument("--module", action="append", default=[], help="only this rules module (repeatable)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a mutant may run (default 60)")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--survivors", metavar="FILE",
                        help="run only the mutants that survived in FILE (a results.jsonl of an earlier run)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        worker(Path(options.worker))
        return 0
    root = pure_copy(OUT / "src")
    mutants = [m for m in all_mutants(root) if not options.module or m.module in options.module]
    if options.list:
        for mutant in mutants:
            print(mutant.name)
        print(f"{len(mutants)} mutants")
        return 0
    # a sample runs in its random order: a run cut short is still a random sample
    chosen = random.Random(options.seed).sample(mutants, options.sample) \
        if options.sample and options.sample < len(mutants) else mutants
    if options.survivors:
        earlier = [json.loads(line) for line in Path(options.survivors).read_text(encoding="utf-8").splitlines()]
        chosen = [Mutant(**{k: r[k] for k in ("module", "line", "start", "end", "old", "new")})
                  for r in earlier if not r["killed"]]
    return run(root, mutants, chosen, options.timeout)


def run(root: Path, mutants: list[Mutant], chosen: list[Mutant], timeout: float) -> int:
    start = time.monotonic()
    results, survivors = [], []
    worker_process = Worker(root)
    corpus = worker_process.ready(600)
    differing = []
    with (OUT / f"results-{time.strftime('%H%M%S')}.jsonl").open("w", encoding="utf-8") as log:
        for i, mutant in enumerate(chosen, 1):
            verdict = worker_process.judge(mutant, timeout)
            if verdict is None:
                verdict = {"killed": True, "by": "timeout"}
                worker_process = Worker(root)
                worker_process.ready(600)
            results.append(verdict)
            log.write(json.dumps({**asdict(mutant), **verdict}) + "\n")
            log.flush()
            if not verdict["killed"]:
                survivors.append(mutant)
                if verdict["differs"]:
                    differing.append(mutant)
            state = "killed" if verdict["killed"] else "SURVIVED, differs" if verdict.get("differs") else "survived"
            print(f"[{i}/{len(chosen)}] {state} {mutant.name}"
                  + (f" by {verdict['by']}" if verdict["killed"] else ""), flush=True)
    worker_process.stop()
    write_survivors(root, survivors, differing)
    crashed = sum(str(r["by"]).startswith(("error:", "timeout")) for r in results)
    killed = sum(bool(r["killed"]) for r in results)
    shown = killed + len(differing)
    print(f"{len(mutants)} mutants of gongzhu/rules/*.py, {len(chosen)} run"
          f"{' (a seeded sample)' if len(chosen) < len(mutants) else ''} in {time.monotonic() - start:.0f} s")
    print(f"killed by the conformance cases: {killed} ({killed - crashed} by a failing case, {crashed} by an error "
          f"or the timeout); survived: {len(survivors)}, of which {len(differing)} answer some request of a "
          f"{corpus}-request random corpus differently (not equivalent) and {len(survivors) - len(differing)} "
          "answer all of it as the unchanged engine does (presumed equivalent)")
    print(f"score over the mutants shown not equivalent: {killed} of {shown} "
          f"({100 * killed / max(shown, 1):.1f} %); survivors with their diff in build/mutants/survivors.txt")
    return 0


def write_survivors(root: Path, survivors: list[Mutant], differing: list[Mutant]) -> None:
    lines = []
    for mutant in survivors:
        source = (root / RULES / mutant.module).read_bytes()
        starts = line_starts(source)
        first = starts[mutant.line - 1]
        end = source.find(b"\n", first)
        before = source[first:end].decode()
        after = apply(source, mutant)[first:end + len(mutant.new) - len(mutant.old)].decode()
        lines += [mutant.name + (" (differs on the corpus)" if mutant in differing else ""),
                  f"  - {before.strip()}", f"  + {after.strip()}"]
    (OUT / "survivors.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
