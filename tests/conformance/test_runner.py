"""``gongzhu-service conformance``: the whole suite passes against our app in process and against a live
gunicorn; a wrong answer is reported with its case, a curl line that reproduces it, what was expected
and what came back; tags and ids select cases; JUnit XML for CI systems."""
from __future__ import annotations

import io
import re
import socket
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from gongzhu import cli
from gongzhu.conformance import cases, runner, transport
from gongzhu.conformance.cases import TRANSPORT_TAG
from gongzhu.conformance.transport import in_process

ALL = cases.load()
IN_PROCESS = sum(TRANSPORT_TAG not in c["tags"] for c in ALL)


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    parser = cli.parser()
    status = runner.run(parser.parse_args(["conformance", *args]), out)
    return status, out.getvalue()


def test_the_whole_suite_passes_in_process(tmp_path):
    # the report's folder is made, as the README's `--junit build/conformance.xml` from a fresh checkout needs
    status, out = run(["--in-process", "--junit", str(tmp_path / "build" / "junit.xml")])
    assert out.splitlines()[-1] == f"{IN_PROCESS} passed, 0 failed", out[-3000:]
    assert status == 0
    suite = ElementTree.parse(tmp_path / "build" / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == (
        str(len(ALL)), "0", str(len(ALL) - IN_PROCESS))


@pytest.mark.live
def test_the_whole_suite_passes_against_the_live_server(live_server, tmp_path):
    junit = tmp_path / "junit.xml"
    done = subprocess.run([sys.executable, "-m", "gongzhu", "conformance", "--base-url", live_server,
                           "--junit", str(junit)], capture_output=True, text=True, timeout=600)
    assert done.stdout.splitlines()[-1] == f"{len(ALL)} passed, 0 failed", done.stdout[-3000:]
    assert done.returncode == 0
    assert ElementTree.parse(junit).getroot().get("failures") == "0"


@pytest.mark.live
def test_the_curl_lines_reproduce_the_requests(live_server):
    """A failure's curl line, pasted into a shell, sends the case's request: the same status comes back
    (a JSON body, a raw body in UTF-16, a padded body, a padded path, a chunked body written to a socket)."""
    chosen = ["error-language-zh-cn", "http-unsupported-charset-utf16", "http-payload-too-large", "http-uri-too-long",
              "http-bad-framing-chunk-size", "score-1d-transformer-alone", "http-not-found"]
    for case in (c for c in ALL if c["id"] in chosen):
        line = runner.curl_line(live_server, case["request"])
        done = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=60)
        status = re.search(r"^HTTP/1\.1 (\d{3})", done.stdout, re.M)
        assert status and int(status.group(1)) == case["expect"]["status"], (case["id"], line, done.stdout[:500])
        if "problem" in case["expect"]:
            assert f'"code":"{case["expect"]["problem"]["code"]}"' in done.stdout, case["id"]


def wrong_raw_scores(app):
    """Our app with one rule changed on the way out: the lone transformer scores 40, not 50."""
    def changed(environ, start_response):
        chunks = b"".join(app(environ, start_response))
        if environ["PATH_INFO"] == "/score":
            return [chunks.replace(b'"raw":[50,', b'"raw":[40,')]
        return [chunks]
    return changed


def test_a_wrong_answer_is_reported_with_its_case_and_a_curl_line(app, monkeypatch):
    monkeypatch.setattr(runner, "sender", lambda options: (in_process(wrong_raw_scores(app)), "http://gz.test"))
    status, out = run(["--tags", "scoring", "--skip-tags", "two-decks"])
    assert status == 1
    report = out[out.index("FAIL score-1d-transformer-alone "):]
    lines = report.splitlines()
    assert lines[0] == "FAIL score-1d-transformer-alone (scores-one-deck.json; rules.md §5 Raw score)"
    assert lines[2].startswith("  curl -s -i -X POST http://gz.test/score -H 'Content-Type: application/json' "
                               "--data-binary '{\"captured\":[[\"C10\"],")
    assert lines[3] == "  /raw: expected [50,-100,-150,50], got [40,-100,-150,50]"
    selected = [c for c in ALL if "scoring" in c["tags"] and "two-decks" not in c["tags"]]
    failed = len(re.findall(r"^FAIL ", out, re.M))
    assert failed >= 1
    assert out.splitlines()[-1] == f"{len(selected) - failed} passed, {failed} failed"


def test_tags_skip_tags_and_ids_select_cases():
    status, out = run(["--list", "--tags", "grand-slam", "--skip-tags", "exposure"])
    assert status == 0
    listed = [line.split("\t")[0] for line in out.splitlines()]
    assert listed == [c["id"] for c in ALL if "grand-slam" in c["tags"] and "exposure" not in c["tags"]]
    assert "score-2d-grand-slam" in listed and "score-1d-grand-slam-all-exposed" not in listed
    status, out = run(["--in-process", "--id", "score-2d-grand-slam", "--id", "match-1d-rules-md"])
    assert (status, out) == (0, "2 passed, 0 failed\n")
    assert run(["--in-process", "--tags", "no-such-tag"]) == (2, "no case selected\n")


def test_the_command_line_runs_it(capsys):
    assert cli.main(["conformance", "--in-process", "--tags", "titles"]) == 0
    titles = sum("titles" in c["tags"] for c in ALL)
    assert capsys.readouterr().out.splitlines()[-1] == f"{titles} passed, 0 failed"


def test_no_server_at_the_base_url_is_one_line_and_the_run_stops_there():
    from tests.servers import free_port

    url = f"http://127.0.0.1:{free_port()}"
    for batch in ([], ["--batch"]):
        status, out = run(["--base-url", url, *batch])  # every case: one line, not a failure each
        assert (status, out) == (2, f"no server answers at {url} (Connection refused); is it running?\n")


def test_a_report_that_cannot_be_written_is_one_line_before_any_case_runs(tmp_path):
    (tmp_path / "file").write_text("")
    status, out = run(["--in-process", "--junit", str(tmp_path / "file" / "junit.xml")])
    assert (status, out) == (2, f"cannot write the JUnit report {tmp_path}/file/junit.xml: File exists\n")


def test_a_server_that_answers_nothing_fails_the_case():
    with socket.create_server(("127.0.0.1", 0)) as silent:  # accepts, never answers: each case times out
        silent.settimeout(0)
        port = silent.getsockname()[1]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(transport, "TIMEOUT_S", 0.2)
            status, out = run(["--base-url", f"http://127.0.0.1:{port}", "--id", "title-0"])
    assert status == 1
    assert "no answer:" in out and out.splitlines()[-1] == "0 passed, 1 failed"


def test_a_case_the_server_answered_busy_is_asked_again_and_the_others_are_not():
    from gongzhu.conformance.runner import BUSY_ATTEMPTS, Outcome, asked_again, busy_answer
    from gongzhu.conformance.transport import Answer

    busy_body = b'{"type":"urn:gongzhu:problem:busy","status":503,"code":"busy"}'
    assert busy_answer({"expect": {"status": 200}}, Answer(503, {}, busy_body))
    assert not busy_answer({"expect": {"status": 503}}, Answer(503, {}, busy_body))  # a case that expects it
    assert not busy_answer({"expect": {"status": 200}}, Answer(503, {}, b'{"code":"not_ready"}'))
    cases = [{"id": name, "expect": {"status": 200}, "request": {}} for name in ("busy", "wrong", "ok")]
    first = [Outcome(cases[0], ["status: 503"], 0.0, {}, busy=True),
             Outcome(cases[1], ["status: expected 200, got 422: {}"], 0.0, {}), Outcome(cases[2], [], 0.0, {})]
    asked: list[list[str]] = []

    def run_all(again):
        asked.append([case["id"] for case in again])
        busy = len(asked) < 2
        return [Outcome(case, ["status: 503"] if busy else [], 0.0, {}, busy=busy) for case in again]

    out = io.StringIO()
    found = asked_again(run_all, first, out)
    assert asked == [["busy"], ["busy"]] and BUSY_ATTEMPTS >= 3
    assert [o.passed for o in found] == [True, False, True]
    assert out.getvalue() == "1 answered 503 busy: asked again\n"
    # a server busy every time: the case fails as it was answered, after BUSY_ATTEMPTS in all
    asked.clear()
    found = asked_again(lambda again: [Outcome(c, ["status: 503"], 0.0, {}, busy=True) for c in again
                                       if asked.append(c) is None], first, io.StringIO())
    assert len(asked) == BUSY_ATTEMPTS - 1 and found[0].faults == ["status: 503"]
