"""``gongzhu-service conformance --batch``: the cases a batch can carry sent as calls of ``POST /batch``, each
call's item checked as the case's answer; the rest skipped with the reason. The suite passes so in process
and against a live gunicorn; a wrong answer inside a batch is reported with a one-call batch to paste."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter

import pytest

from gongzhu import cli
from gongzhu.conformance import batching, cases, runner
from gongzhu.conformance.cases import TRANSPORT_TAG
from gongzhu.conformance.transport import Answer, in_process

ALL = cases.load()
BY_ID = {case["id"]: case for case in ALL}
REASONS = {case["id"]: batching.refusal(case) for case in ALL}
BATCHED = [case for case in ALL if REASONS[case["id"]] is None]


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    status = runner.run(cli.parser().parse_args(["conformance", *args]), out)
    return status, out.getvalue()


def test_which_cases_a_batch_carries_and_why_not():
    assert REASONS["score-1d-transformer-alone"] is None
    # a language case says Content-Type: application/json, which a call's body is: it goes, with its language
    assert REASONS["error-language-zh-cn"] is None
    assert batching.call(BY_ID["error-language-zh-cn"]["request"], "x")["headers"] == {"Accept-Language": "zh-CN"}
    assert REASONS["title-0"] == "GET: a batch carries JSON POST operations only"
    assert REASONS["http-method-not-allowed-delete"] == "DELETE: a batch carries JSON POST operations only"
    assert REASONS["http-malformed-json"] == "its body is bytes, not a JSON value: a call's body is JSON"
    assert REASONS["http-bad-request-conflicting-lengths"] == \
        "its body is bytes, not a JSON value: a call's body is JSON"
    assert REASONS["http-too-many-fields"] == \
        "too_many_fields: a fault of the JSON text, which in a batch is the envelope's, refusing the whole batch"
    assert all(REASONS[c["id"]] is not None for c in ALL if TRANSPORT_TAG in c["tags"])
    assert all(REASONS[c["id"]] == "a batch itself: a batch does not carry /batch"
               for c in ALL if c["request"]["path"] == batching.BATCH_PATH)
    assert len(BATCHED) > 600


def test_calls_are_cut_within_the_caps():
    small = [{"id": str(n), "method": "POST", "url": "/ingots", "body": {"scores": [0, 0, 0, 0]}} for n in range(2500)]
    assert [len(chunk) for chunk in batching.chunks(small)] == [1000, 1000, 500]
    large = [{**small[0], "id": str(n), "body": {"pad": "x" * 300_000}} for n in range(7)]
    chunks = list(batching.chunks(large))
    assert [len(chunk) for chunk in chunks] == [3, 3, 1]
    assert all(batching.size(batching.envelope(chunk)["body"]) <= batching.MAX_BYTES for chunk in chunks)
    assert [c["id"] for chunk in chunks for c in chunk] == [str(n) for n in range(7)]


def test_the_whole_suite_passes_in_process_through_batches(tmp_path):
    status, out = run(["--in-process", "--batch", "--junit", str(tmp_path / "junit.xml")])
    lines = out.splitlines()
    assert lines[-1] == f"{len(BATCHED)} passed, 0 failed", out[-3000:]
    assert status == 0
    skipped = Counter(runner.IN_PROCESS_SKIP if TRANSPORT_TAG in c["tags"] else REASONS[c["id"]]
                      for c in ALL if REASONS[c["id"]] is not None)
    assert sorted(lines[:-1]) == sorted(f"{n} skipped ({reason})" for reason, n in skipped.items())
    suite = ElementTree.parse(tmp_path / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == (
        str(len(ALL)), "0", str(len(ALL) - len(BATCHED)))
    messages = {case.get("name"): case.find("skipped").get("message") for case in suite
                if case.find("skipped") is not None}
    assert messages["title-0"] == "GET: a batch carries JSON POST operations only"
    assert messages["http-uri-too-long"] == runner.IN_PROCESS_SKIP


@pytest.mark.live
def test_the_whole_suite_passes_against_the_live_server_through_batches(live_server):
    done = subprocess.run([sys.executable, "-m", "gongzhu", "conformance", "--base-url", live_server, "--batch"],
                          capture_output=True, text=True, timeout=600)
    lines = done.stdout.splitlines()
    assert lines[-1] == f"{len(BATCHED)} passed, 0 failed", done.stdout[-3000:]
    assert done.returncode == 0
    assert sum(int(line.split()[0]) for line in lines[:-1]) == len(ALL) - len(BATCHED)


@pytest.mark.live
def test_a_one_call_batch_curl_line_reproduces_the_call(live_server):
    """The line a failure inside a batch prints, pasted into a shell: the call's problem comes back as its item,
    in the call's language."""
    sent = batching.envelope([batching.call(BY_ID["error-language-zh-cn"]["request"], "error-language-zh-cn")])
    done = subprocess.run(["bash", "-c", runner.curl_line(live_server, sent)], capture_output=True, text=True,
                          timeout=60)
    assert re.search(r"^HTTP/1\.1 200 ", done.stdout, re.M), done.stdout[:500]
    item = json.loads(done.stdout.split("\n\n", 1)[1])["responses"][0]
    assert (item["id"], item["status"], item["body"]["code"], item["headers"]["Content-Language"]) == (
        "error-language-zh-cn", 422, "must_follow_suit", "zh-Hans")


def wrong_inside_batches(app):
    """Our app with one rule changed in every batch's answer: the lone transformer scores 40, not 50."""
    def changed(environ, start_response):
        return [b"".join(app(environ, start_response)).replace(b'"raw":[50,', b'"raw":[40,')]
    return changed


def test_a_wrong_answer_in_a_batch_is_reported_with_a_one_call_batch(app, monkeypatch):
    monkeypatch.setattr(runner, "sender", lambda options: (in_process(wrong_inside_batches(app)), "http://gz.test"))
    status, out = run(["--batch", "--tags", "scoring", "--skip-tags", "two-decks"])
    assert status == 1
    lines = out[out.index("FAIL score-1d-transformer-alone "):].splitlines()
    assert lines[0] == "FAIL score-1d-transformer-alone (scores-one-deck.json; rules.md §5 Raw score)"
    assert lines[2].startswith("  curl -s -i -X POST http://gz.test/batch -H 'Content-Type: application/json' "
                               "--data-binary '{\"requests\":[{\"id\":\"score-1d-transformer-alone\",\"method\":"
                               "\"POST\",\"url\":\"/score\",\"body\":{\"captured\":[[\"C10\"],")
    assert lines[3] == "  /raw: expected [50,-100,-150,50], got [40,-100,-150,50]"
    selected = [c for c in BATCHED if "scoring" in c["tags"] and "two-decks" not in c["tags"]]
    failed = len(re.findall(r"^FAIL ", out, re.M))
    assert out.splitlines()[-1] == f"{len(selected) - failed} passed, {failed} failed" and failed >= 1


def test_a_batch_answered_otherwise_fails_each_of_its_cases(monkeypatch):
    refused = Answer(422, {"content-type": "application/problem+json"}, b'{"code":"schema_violation"}')
    monkeypatch.setattr(runner, "sender", lambda options: (lambda request: refused, "http://gz.test"))
    status, out = run(["--batch", "--tags", "ingots"])
    ingots = [c for c in BATCHED if "ingots" in c["tags"]]
    assert status == 1 and out.splitlines()[-1] == f"0 passed, {len(ingots)} failed"
    assert out.count('  /batch answered 422: {"code":"schema_violation"}') == len(ingots)
    # ids other than the calls', or in another order
    def reversed_ids(request):
        items = [{"id": c["id"], "status": 200, "body": {}} for c in reversed(request["body"]["requests"])]
        return Answer(200, {"content-type": "application/json"}, json.dumps({"responses": items}).encode())
    monkeypatch.setattr(runner, "sender", lambda options: (reversed_ids, "http://gz.test"))
    status, out = run(["--batch", "--id", "score-1d-transformer-alone", "--id", "title-0", "--id",
                       "ingots-0"])
    assert status == 1 and "/batch answered the ids" in out
