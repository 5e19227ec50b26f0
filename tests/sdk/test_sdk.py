"""The SDKs ``make sdk`` builds from the contract (sdk/build.py), each played
through a seeded match of two deals against the live gunicorn server, the two
deals' records (as ``/play`` answers them at each deal's end) then sent to
``/match`` through the SDK:

- the Python package (openapi-python-client), its wheel installed on its own;
- the TypeScript package (openapi-typescript + openapi-fetch), compiled by
  ``tsc --strict``, its game test importing it by its package name.

Deal 1 is a first deal (the holder of C2 leads); deal 2 is dealt with
``first_deal: false`` and led by the seat that took the pig in deal 1. Both
SDKs leave out the operations tagged ``meta``, and their names are the
contract's own: every Python model is a schema of the contract by its name.
The example of each SDK's README runs and plays the same deal. Each SDK's ``batch()`` sends a few
calls in one ``POST /batch``, one of them refused, and gives each call's answer typed by its
operation, as the call alone is answered.
"""
from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import subprocess
import sys
import tarfile
import zipfile

import pytest
import requests

from tests.conftest import ROOT, load_contract

pytestmark = pytest.mark.live

NODE_BIN = ROOT / "tests" / "contract" / "node" / "node_modules" / ".bin"
PACKAGE = "gongzhu_client"
SEED = 5
TIMEOUT = 300
CARDS = sorted(s + r for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))


def contract() -> dict:
    return load_contract()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The folder sdk/build.py built both SDKs in."""
    if not (NODE_BIN / "tsc").exists():
        pytest.fail("the npm tools are missing: make test installs them (npm ci in tests/contract/node)")
    out = tmp_path_factory.mktemp("sdk")
    result = subprocess.run([sys.executable, str(ROOT / "sdk" / "build.py"), "--out", str(out)],
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.fixture(scope="module")
def sdk_site(built, tmp_path_factory):
    """An empty folder with the Python SDK's wheel installed alone into it."""
    version = contract()["info"]["version"]
    target = tmp_path_factory.mktemp("site")
    wheel = built / "dist" / f"{PACKAGE}-{version}-py3-none-any.whl"
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                             "--no-deps", "--target", str(target), str(wheel)],
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return target


@pytest.fixture(scope="module")
def python_sdk(sdk_site):
    """The Python SDK imported from its wheel."""
    target = sdk_site
    sys.path.insert(0, str(target))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(target))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def meta_paths(document: dict) -> set[str]:
    return {path for path, item in document["paths"].items()
            if any("meta" in op.get("tags", ()) for op in item.values() if isinstance(op, dict))}


def test_the_sdk_contract_leaves_out_the_meta_operations(built):
    full = contract()
    sdk = json.loads((built / "openapi.json").read_text(encoding="utf-8"))
    assert meta_paths(full) >= {"/docs", "/docs/{asset}", "/metrics", "/openapi.yaml"}
    assert set(sdk["paths"]) == set(full["paths"]) - meta_paths(full)
    assert {"/healthz", "/readyz", "/version"} <= set(sdk["paths"])
    assert [t["name"] for t in sdk["tags"]] == [t["name"] for t in full["tags"] if t["name"] != "meta"]
    schema_ts = (built / "typescript" / "src" / "schema.ts").read_text(encoding="utf-8")
    assert '"/play": {' in schema_ts and '"/docs": {' not in schema_ts and '"/metrics": {' not in schema_ts


def test_python_sdk_names_are_the_contracts(python_sdk):
    from gongzhu_client import api, models

    schemas = contract()["components"]["schemas"]
    assert set(models.__all__) <= set(schemas)
    assert {"PlayOutcome", "NewDeal", "ExposureSheet", "NextState", "Health", "ClaimUndecidedReason"} \
        <= set(models.__all__)
    # A field gets a trailing underscore when its wire name is a Python keyword (from, in) or
    # builtin (next, RFC 9457's type); no other does.
    renamed = {f"{name}.{field}" for name in models.__all__
               for field in getattr(getattr(models, name), "__annotations__", {}) if field.endswith("_")}
    assert renamed == {"Transfer.from_", "ProblemError.in_", "Problem.type_", "PlayOutcome.next_",
                       "MatchReport.next_"}
    assert {m.name for m in pkgutil.iter_modules(api.__path__)} == {"play", "rules", "bot", "status", "batch"}


def test_python_sdk_is_a_typed_package(built):
    wheel = next((built / "dist").glob(f"{PACKAGE}-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert f"{PACKAGE}/py.typed" in names and f"{PACKAGE}/api/play/play.py" in names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Name: gongzhu-client" in metadata and "# gongzhu-client (Python)" in metadata


def play_deal_python(sdk, client, seed: int, leader: int | None) -> dict:
    """One deal, every play the first legal move; its hands, leader, plays and score."""
    from gongzhu_client.api.play import deal, legal_moves, play
    from gongzhu_client.models import DealRequest, DealState, LegalMoves, NewDeal, PlayOutcome, PlayRequest

    later = {} if leader is None else {"first_deal": False, "leader": leader}
    dealt = deal.sync(client=client, body=DealRequest(seed=seed, first_deal=leader is None))
    assert isinstance(dealt, NewDeal)
    assert dealt.seed == seed and dealt.first_deal is (leader is None)
    # A first deal names its leader, the holder of C2; a later deal leaves it to the match.
    assert dealt.leader == (next(s for s in range(4) if "C2" in dealt.hands[s]) if leader is None else None)
    hands = dealt.hands
    turn = legal_moves.sync(client=client, body=DealState(hands=hands, plays=[], **later))
    assert isinstance(turn, LegalMoves)
    first_leader = turn.seat
    plays: list[list[str]] = []
    while not turn.finished:
        move = turn.moves[0]
        outcome = play.sync(client=client, body=PlayRequest(hands=hands, plays=plays, move=move, seat=turn.seat,
                                                           **later))
        assert isinstance(outcome, PlayOutcome), outcome
        assert outcome.state.plays == plays + [move]
        plays, turn = outcome.state.plays, outcome.next_
        assert (outcome.score is None) is (len(plays) < 52)
    return {"hands": hands, "leader": first_leader, "plays": plays, "score": outcome.score.to_dict(),
            "record": outcome.record.to_dict()}


def check_match(base: str, deals: list[dict]) -> None:
    """What both SDKs' matches must show, checked against the API called by hand."""
    first, second = deals
    assert first["hands"][first["leader"]].count("C2") == 1
    assert first["plays"][0] == ["C2"]
    assert second["leader"] == first["score"]["next_leader"]
    for number, (played, first_deal) in enumerate(zip(deals, (True, False)), start=1):
        assert sorted(c for hand in played["hands"] for c in hand) == CARDS
        assert sorted(c for p in played["plays"] for c in p) == CARDS
        dealt = requests.post(f"{base}/deal", json={"seed": SEED + number - 1, "first_deal": first_deal},
                              timeout=10).json()
        assert dealt["hands"] == played["hands"]
        state = {"hands": played["hands"], "first_deal": first_deal, "leader": played["leader"],
                 "plays": played["plays"][:-1], "move": played["plays"][-1]}
        last = requests.post(f"{base}/play", json=state, timeout=10)
        assert last.status_code == 200, last.text
        assert played["score"] == last.json()["score"]
        assert sum(played["score"]["normalized"]) == 0 and sum(played["score"]["final"]) == 0
        assert played["record"] == {"hands": played["hands"], "exposed": [[], [], [], []], "plays": played["plays"],
                                    "first_deal": first_deal, "leader": played["leader"]}


def check_match_report(report: dict, deals: list[dict]) -> None:
    """/match on the two records: each deal's leader and pig taker, totals the sums of the deals'
    normalized scores, and (the match going on) the next deal led by the second deal's pig taker."""
    first, second = deals
    assert [d["leader"] for d in report["deals"]] == [first["leader"], second["leader"]]
    assert [d["pig_taker"] for d in report["deals"]] == [first["score"]["next_leader"],
                                                           second["score"]["next_leader"]]
    totals = [a + b for a, b in zip(first["score"]["normalized"], second["score"]["normalized"])]
    assert report["totals"] == totals
    assert report["finished"] is False and max(abs(t) for t in totals) < 1000
    assert report["next"] == {"first_deal": False, "leader": second["score"]["next_leader"]}


def test_python_sdk_plays_a_seeded_two_deal_match(python_sdk, live_server):
    from gongzhu_client import Client
    from gongzhu_client.api.play import match
    from gongzhu_client.api.rules import settle_ingots
    from gongzhu_client.api.status import version
    from gongzhu_client.models import IngotsRequest, IngotsResult, MatchReport, MatchRequest, Version

    client = Client(base_url=live_server, raise_on_unexpected_status=True)
    about = version.sync(client=client)
    assert isinstance(about, Version) and about.contract == contract()["info"]["version"]
    first = play_deal_python(python_sdk, client, SEED, None)
    second = play_deal_python(python_sdk, client, SEED + 1, first["score"]["next_leader"])
    check_match(live_server, [first, second])
    report = match.sync(client=client, body=MatchRequest.from_dict({"deals": [first["record"], second["record"]]}))
    assert isinstance(report, MatchReport), report
    check_match_report(report.to_dict(), [first, second])
    # The match's ingots: each deal's raw scores settled, summing to zero.
    for played in (first, second):
        settled = settle_ingots.sync(client=client, body=IngotsRequest(scores=played["score"]["raw"]))
        assert isinstance(settled, IngotsResult) and sum(settled.net) == 0


def test_python_sdk_parses_a_problem(python_sdk, live_server):
    from gongzhu_client import Client
    from gongzhu_client.api.play import play
    from gongzhu_client.models import Card, PlayRequest, Problem

    client = Client(base_url=live_server)
    sent = requests.post(f"{live_server}/deal", json={"seed": SEED}, timeout=10).json()["hands"]
    # the contract's cards are an enum: the generated models take and give Card members
    hands = [[Card(name) for name in hand] for hand in sent]
    holder = next(s for s in range(4) if Card.C2 in hands[s])
    other = hands[(holder + 1) % 4][0]
    problem = play.sync(client=client, body=PlayRequest(hands=hands, plays=[], move=[other]))
    assert isinstance(problem, Problem)
    assert (problem.status, problem.code) == (422, "card_not_in_hand")
    assert [(e.pointer, e.code) for e in problem.errors] == [("/move/0", "card_not_in_hand")]


def test_python_sdk_reviews_a_deal(python_sdk, live_server):
    from gongzhu_client import Client, answer
    from gongzhu_client.api.bot import review
    from gongzhu_client.models import Review, ReviewRequest

    client = Client(base_url=live_server, raise_on_unexpected_status=True)
    played = play_deal_python(python_sdk, client, SEED, None)
    found = answer(review.sync(client=client, body=ReviewRequest(hands=played["hands"], plays=played["plays"],
                                                                 seed=1, budget_ms=300)))
    assert isinstance(found, Review)
    by_hand = requests.post(f"{live_server}/review", timeout=30,
                            json={"hands": played["hands"], "plays": played["plays"], "seed": 1, "budget_ms": 300})
    assert found.to_dict() == by_hand.json()
    assert [d.play for d in found.decisions] == list(range(52))
    assert found.decisions[-1].exact and found.score is not None


def test_typescript_sdk_is_a_compiled_package(built):
    version = contract()["info"]["version"]
    with tarfile.open(built / "dist" / f"gongzhu-client-{version}.tgz") as packed:
        names = set(packed.getnames())
        manifest = json.load(packed.extractfile("package/package.json"))
    assert {"package/package.json", "package/README.md", "package/dist/index.js", "package/dist/index.d.ts",
            "package/dist/schema.d.ts"} <= names
    assert not any("/test" in n or n.endswith(".ts") and not n.endswith(".d.ts") for n in names)
    assert (manifest["name"], manifest["version"]) == ("gongzhu-client", version)
    assert list(manifest["dependencies"]) == ["openapi-fetch"]


def test_typescript_sdk_plays_a_seeded_two_deal_match(built, live_server):
    played = subprocess.run(["node", "test-build/play.js", live_server, str(SEED)], cwd=built / "typescript",
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert played.returncode == 0, played.stdout + played.stderr
    result = json.loads(played.stdout)
    check_match(live_server, result["deals"])
    check_match_report(result["match"], result["deals"])
    assert result["problem"] == "schema_violation"


def test_typescript_sdk_reviews_a_deal(built, python_sdk, live_server):
    from gongzhu_client import Client

    played = play_deal_python(python_sdk, Client(base_url=live_server, raise_on_unexpected_status=True), SEED, None)
    deal = {"hands": played["hands"], "plays": played["plays"]}
    done = subprocess.run(["node", "test-build/review.js", live_server], cwd=built / "typescript",
                          input=json.dumps(deal), capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    by_hand = requests.post(f"{live_server}/review", timeout=30, json={**deal, "seed": 1, "budget_ms": 300})
    assert result["review"] == by_hand.json()
    assert [d["play"] for d in result["review"]["decisions"]] == list(range(52))
    # each seat's total, summed in TypeScript from its decisions (to the answer's one decimal), is the
    # one the answer gives it
    assert [round(total, 1) for total in result["totals"]] == [seat["loss"] for seat in result["review"]["seats"]]
    # and its verdicts, counted in TypeScript, are the seat's counts; every estimate read has its errors
    seats = result["review"]["seats"]
    assert [{k: n for k, n in seat["verdicts"].items() if n} for seat in seats] == result["verdicts"]
    estimated = [d for d in result["review"]["decisions"] if not d["exact"]]
    assert estimated and result["errors"] == [[d["play"], d["se"], d["loss_se"]] for d in estimated]


def test_python_sdk_solves_a_position(python_sdk, live_server):
    from gongzhu_client import Client, answer
    from gongzhu_client.api.bot import solve
    from gongzhu_client.models import Card, Solve, SolveRequest

    from tests.faults.test_serving_drills import _mid_deal

    client = Client(base_url=live_server, raise_on_unexpected_status=True)
    state = _mid_deal(plays=40)
    hands, plays = ([[Card(c) for c in row] for row in state[key]] for key in ("hands", "plays"))
    found = answer(solve.sync(client=client, body=SolveRequest(hands=hands, plays=plays)))
    assert isinstance(found, Solve)
    by_hand = requests.post(f"{live_server}/solve", timeout=30, json=state)
    assert found.to_dict() == by_hand.json()
    assert found.exact and [v.move for v in found.values] == requests.post(
        f"{live_server}/legal-moves", timeout=30, json=state).json()["moves"]


def test_typescript_sdk_solves_a_position(built, live_server):
    from tests.faults.test_serving_drills import _mid_deal

    # 10 tricks left in 1 ms: bounds for some moves
    for state, cut in ((_mid_deal(plays=40), False), ({**_mid_deal(plays=12), "budget_ms": 1}, True)):
        done = subprocess.run(["node", "test-build/solve.js", live_server], cwd=built / "typescript",
                              input=json.dumps(state), capture_output=True, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, done.stdout + done.stderr
        result = json.loads(done.stdout)
        found = result["solve"]
        assert found["exact"] is not cut
        if not cut:
            assert found == requests.post(f"{live_server}/solve", timeout=30, json=state).json()
            assert result["best"] == found["best"] and result["bounded"] == []
        else:
            assert result["bounded"] == [[v["move"], v["lower"], v["upper"]] for v in found["values"] if not v["exact"]]
            assert result["bounded"]


def readme_code(path, language: str, block: int = 0) -> str:
    """A code block of a README in ``language``: the first (the deal played), or another."""
    text = path.read_text(encoding="utf-8")
    return text.split(f"```{language}\n")[1 + block].split("```", 1)[0]


def printed_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", text)]


@pytest.fixture(scope="module")
def readme_scripts(built, live_server):
    """The TypeScript README's examples (the deal played, the batch) for the live server, compiled by
    ``tsc --strict`` in one run: the package's folder, with them in ``readme-build/``."""
    package = built / "typescript"
    (package / "readme").mkdir()
    for name, block in (("example", 0), ("batch", 1)):
        code = readme_code(ROOT / "sdk" / "typescript" / "README.md", "ts", block)
        (package / "readme" / f"{name}.ts").write_text(code.replace("http://localhost:8080", live_server)
                                                       + "export {};\n", encoding="utf-8")
    (package / "tsconfig.readme.json").write_text(json.dumps({
        "extends": "./tsconfig.json", "include": ["readme/*.ts"],
        "compilerOptions": {"rootDir": "readme", "outDir": "readme-build", "declaration": False,
                            "types": ["node"], "skipLibCheck": True}}), encoding="utf-8")
    compiled = subprocess.run([str(NODE_BIN / "tsc"), "-p", "tsconfig.readme.json"], cwd=package,
                              capture_output=True, text=True, timeout=TIMEOUT)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return package


def test_readme_examples_play_the_same_deal(python_sdk, readme_scripts, live_server, capsys):
    from gongzhu_client import Client

    client = Client(base_url=live_server, raise_on_unexpected_status=True)
    expected = play_deal_python(python_sdk, client, 1, None)["score"]
    expected = [*expected["final"], expected["next_leader"]]
    code = readme_code(ROOT / "sdk" / "python" / "README.md", "python").replace("http://localhost:8080", live_server)
    exec(compile(code, "sdk/python/README.md", "exec"), {})
    assert printed_numbers(capsys.readouterr().out) == expected

    ran = subprocess.run(["node", "readme-build/example.js"], cwd=readme_scripts, capture_output=True, text=True,
                         timeout=TIMEOUT)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert printed_numbers(ran.stdout) == expected


def test_the_python_readme_examples_pass_mypy_strict(sdk_site, tmp_path):
    """A typed team's check: the examples (the deal, the batch), against the installed wheel's annotations
    (py.typed), with no error; answer() narrows each operation's ``Model | Problem | None`` to the model,
    and a batch's ``answers[call]`` is the call's ``Model | Problem``."""
    for name, block in (("example", 0), ("batch_example", 1)):
        code = readme_code(ROOT / "sdk" / "python" / "README.md", "python", block)
        (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "example.py",
                              "batch_example.py"], cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
                             env={**os.environ, "PYTHONPATH": str(sdk_site)})
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("Success: no issues found in 2 source files")


def test_answer_raises_a_problem_as_an_exception(python_sdk, live_server):
    from gongzhu_client import ApiProblem, Client, answer
    from gongzhu_client.api.play import play
    from gongzhu_client.models import Card, PlayRequest

    sent = requests.post(f"{live_server}/deal", json={"seed": SEED}, timeout=10).json()["hands"]
    hands = [[Card(name) for name in hand] for hand in sent]
    holder = next(s for s in range(4) if Card.C2 in hands[s])
    with pytest.raises(ApiProblem) as raised:
        answer(play.sync(client=Client(base_url=live_server), body=PlayRequest(
            hands=hands, plays=[], move=[hands[(holder + 1) % 4][0]])))
    assert (raised.value.code, raised.value.problem.status) == ("card_not_in_hand", 422)
    assert str(raised.value).startswith("422 card_not_in_hand: ")


def alone(base: str, path: str, body: dict, language: str | None = None) -> requests.Response:
    """The answer of one call sent alone, by hand."""
    headers = {} if language is None else {"Accept-Language": language}
    return requests.post(f"{base}{path}", json=body, headers=headers, timeout=10)


def out_of_turn(hands: list[list[str]]) -> list[str]:
    """A first play of a card the seat to act (C2's holder) does not hold: ``card_not_in_hand`` at ``/move/0``."""
    holder = next(s for s in range(4) if "C2" in hands[s])
    return [hands[(holder + 1) % 4][0]]


def test_python_sdk_batches_calls_each_answer_typed(python_sdk, live_server):
    from gongzhu_client import ApiProblem, Call, Client, answer, batch, calls
    from gongzhu_client.models import Card, DealRequest, DealState, IngotsRequest, LegalMoves, PlayRequest, Problem

    client = Client(base_url=live_server, raise_on_unexpected_status=True)
    sent = alone(live_server, "/deal", {"seed": SEED}).json()["hands"]
    hands = [[Card(name) for name in hand] for hand in sent]
    move = out_of_turn(sent)
    moves = calls.legal_moves(DealState(hands=hands, plays=[]))
    settled = calls.settle_ingots(IngotsRequest(scores=[100, 0, -200, -200]), id="settle")
    refused = calls.play(PlayRequest(hands=hands, plays=[], move=[Card(move[0])]), accept_language="zh")
    nested = Call("/batch", {"requests": []}, LegalMoves.from_dict, id="nested")
    answers = batch(client, [moves, settled, refused, nested])

    assert len(answers) == 4
    assert [answers.status(c) for c in (moves, settled, refused, nested)] == [200, 200, 422, 422]
    got_moves = answers[moves]
    assert isinstance(got_moves, LegalMoves)
    assert got_moves.to_dict() == alone(live_server, "/legal-moves", {"hands": sent, "plays": []}).json()
    assert answer(answers[settled]).net == alone(live_server, "/ingots", {"scores": [100, 0, -200, -200]}).json()["net"]
    problem = answers[refused]
    single = alone(live_server, "/play", {"hands": sent, "plays": [], "move": move}, "zh").json()
    assert isinstance(problem, Problem)
    assert (problem.status, problem.code, problem.detail) == (422, single["code"], single["detail"])
    assert [(e.pointer, e.code) for e in problem.errors] == [("/move/0", "card_not_in_hand")]
    assert "\u4e00" <= problem.detail[0] <= "\u9fff", problem.detail  # in Chinese, as the call asked
    with pytest.raises(ApiProblem) as raised:
        answer(answers[nested])
    assert raised.value.code == "not_batchable"
    assert list(answers)[1] == answers[settled]

    with pytest.raises(ApiProblem) as raised:
        batch(client, [calls.deal(DealRequest(seed=1), id="a"), calls.deal(DealRequest(seed=2), id="a")])
    assert raised.value.code == "duplicate_id"
    assert [(e.pointer, e.code) for e in raised.value.problem.errors] == [("/requests/1/id", "duplicate_id")]


def test_python_sdk_calls_are_the_contracts_batchable_operations(python_sdk):
    from gongzhu_client import calls

    operations = {op["operationId"] for path, item in contract()["paths"].items() for method, op in item.items()
                  if method == "post" and "requestBody" in op and path != "/batch"}
    assert set(calls.__all__) == operations and "legal_moves" in operations and "batch" not in operations


def test_typescript_sdk_batches_calls_each_answer_typed(built, live_server):
    done = subprocess.run(["node", "test-build/batch.js", live_server, str(SEED)], cwd=built / "typescript",
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    hands = result["hands"]
    assert result["ids"] == ["0", "settle", "2", "3"] and result["statuses"] == [200, 200, 422, 422]
    assert result["moves"] == alone(live_server, "/legal-moves", {"hands": hands}).json()
    assert result["seat"] == result["moves"]["seat"]
    assert result["net"] == alone(live_server, "/ingots", {"scores": [100, 0, -200, -200]}).json()["net"]
    single = alone(live_server, "/play", {"hands": hands, "plays": [], "move": out_of_turn(hands)}, "zh")
    refused = result["refused"]
    assert {k: v for k, v in refused["error"].items() if k != "request_id"} == \
        {k: v for k, v in single.json().items() if k != "request_id"}
    assert refused["headers"] == {"Content-Language": single.headers["Content-Language"]} == \
        {"Content-Language": "zh-Hans"}
    assert result["nested"] == "not_batchable"
    assert result["twice"]["code"] == "duplicate_id"
    assert [(e["pointer"], e["code"]) for e in result["twice"]["errors"]] == [("/requests/1/id", "duplicate_id")]


def readme_batch_expected(base: str) -> tuple[list[int], dict]:
    """What both READMEs' batch examples print, from the calls sent alone: how many legal moves the first
    deal starts with and the ingots; then the three-hand state's problem, in Chinese."""
    hands = alone(base, "/deal", {"seed": 1}).json()["hands"]
    count = len(alone(base, "/legal-moves", {"hands": hands, "plays": []}).json()["moves"])
    net = alone(base, "/ingots", {"scores": [100, 0, -200, -200]}).json()["net"]
    problem = alone(base, "/legal-moves", {"hands": hands[:3], "plays": []}, "zh")
    assert (problem.status_code, problem.json()["code"]) == (422, "schema_violation")
    return [count, *net], {**problem.json(), "language": problem.headers["Content-Language"]}


def test_readme_batch_examples_answer_as_the_calls_alone(python_sdk, readme_scripts, live_server, capsys):
    numbers, problem = readme_batch_expected(live_server)
    code = readme_code(ROOT / "sdk" / "python" / "README.md", "python", 1)
    exec(compile(code.replace("http://localhost:8080", live_server), "sdk/python/README.md", "exec"), {})
    first, second = capsys.readouterr().out.splitlines()
    assert (printed_numbers(first), second) == (numbers, f"{problem['code']} {problem['detail']}")
    ran = subprocess.run(["node", "readme-build/batch.js"], cwd=readme_scripts, capture_output=True, text=True,
                         timeout=TIMEOUT)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    first, second = ran.stdout.splitlines()
    assert (printed_numbers(first), second) == (numbers, f"422 {problem['code']} {problem['language']}")
