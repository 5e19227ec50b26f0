"""``gongzhu-service conformance``: runs the cases against a server, or against our own app in process.

Each failure is printed with its request as a curl line to paste, what was expected and what
came back; the last line is ``N passed, M failed``. The exit status is 1 when a case failed.
With ``--batch`` the cases go as calls of ``POST /batch``, each call's item checked as the case's
answer; a case a batch cannot carry is skipped, and each reason is a line ``N skipped (reason)``.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ElementTree
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gongzhu import settings
from gongzhu.conformance import batching
from gongzhu.conformance import cases as case_files
from gongzhu.conformance.expect import mismatches, parsed
from gongzhu.conformance.transport import Answer, Request, Wire, in_process, over_http, wire

# where a server started with its defaults answers
DEFAULT_BASE_URL = f"http://{settings.DEFAULT_HOST}:{settings.DEFAULT_PORT}"
IN_PROCESS_SKIP = f"tag {case_files.TRANSPORT_TAG}: they need a real HTTP server"


@dataclass(frozen=True, slots=True)
class Outcome:
    case: dict[str, Any]
    faults: list[str]
    seconds: float
    # what was sent for the case: its request, or a batch carrying it
    sent: Request
    # the server answered 503 ``busy`` (its answer to come back, ``Retry-After``) where the case expects otherwise
    busy: bool = False

    @property
    def passed(self) -> bool:
        return not self.faults


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--base-url", default=DEFAULT_BASE_URL,
                       help=f"the server to check (default {DEFAULT_BASE_URL})")
    where.add_argument("--in-process", action="store_true",
                       help="check this package's own app (create_app()) without a server; needs the server extra")
    parser.add_argument("--tags", default="", help="only the cases with one of these tags (comma-separated)")
    parser.add_argument("--skip-tags", default="", help="leave out the cases with any of these tags (comma-separated)")
    parser.add_argument("--id", action="append", default=[], dest="ids", metavar="ID",
                        help="only this case (repeatable)")
    parser.add_argument("--batch", action="store_true",
                        help="send the cases as calls of POST /batch (those a batch can carry; the rest are skipped)")
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    parser.add_argument("--list", action="store_true", help="list the selected cases (id, tags) and exit")


def words(text: str) -> list[str]:
    return [word.strip() for word in text.split(",") if word.strip()]


def curl_line(base_url: str, request: Request) -> str:
    """The request as a command line to paste; a padded or non-UTF-8 body is written by a python3 one-liner
    piped into curl, a padded path by one inside the URL."""
    sent = wire(request)
    if any(name.lower() == "transfer-encoding" for name, _ in sent.headers):
        return raw_http_line(base_url, sent)
    pad = request.get("pad") or {}
    url = shlex.quote(base_url.rstrip("/") + request["path"])
    if pad.get("where") == "path":
        url += f'"$(python3 -c \'print({json.dumps(pad["text"])} * {pad["times"]}, end="")\')"'
    parts = ["curl", "-s", "-i", "-X", sent.method, url]
    for name, value in sent.headers:
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if sent.body is None:
        return " ".join(parts)
    encoding = request.get("raw_encoding", "utf-8")
    if pad.get("where") != "body" and encoding == "utf-8":
        return " ".join([*parts, "--data-binary", shlex.quote(sent.body.decode("utf-8"))])
    text = repr(request["raw_body"]) + (f" + {pad['text']!r} * {pad['times']}" if pad.get("where") == "body" else "")
    script = f"import sys; sys.stdout.buffer.write(({text}).encode({encoding!r}))"
    return f"python3 -c {shlex.quote(script)} | " + " ".join([*parts, "--data-binary", "@-"])


def raw_http_line(base_url: str, sent: Wire) -> str:
    """A request whose framing is the point (curl would frame the body itself) as a python3 one-liner that
    writes its bytes to a socket and prints the answer."""
    base = urllib.parse.urlsplit(base_url)
    head = f"{sent.method} {base.path.rstrip('/')}{sent.path} HTTP/1.1\r\nHost: {base.netloc}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in sent.headers) + "Connection: close\r\n\r\n"
    data = head.encode("latin-1") + (sent.body or b"")
    script = (f"import socket; s = socket.create_connection(({base.hostname!r}, {base.port or 80})); "
              f"s.sendall({data!r}); print(s.makefile('rb').read().decode('utf-8', 'replace'))")
    return f"python3 -c {shlex.quote(script)}"


class NoServer(Exception):
    """Nothing listens at the base URL: every case would fail the same way, so the run stops at the first."""


# A case answered 503 busy is asked again, at most this many times in all, after the Retry-After the server gives.
BUSY_ATTEMPTS = 4
BUSY_WAIT_S = 1.0


def run_case(send: Callable[[Request], Answer], case: dict[str, Any]) -> Outcome:
    start = time.perf_counter()
    try:
        answer = send(case["request"])
    except ConnectionRefusedError as error:
        raise NoServer(error) from None
    except OSError as error:
        return Outcome(case, [f"no answer: {error}"], time.perf_counter() - start, case["request"])
    return Outcome(case, mismatches(case["expect"], answer), time.perf_counter() - start, case["request"],
                   busy_answer(case, answer))


def run_batched(send: Callable[[Request], Answer], chosen: Sequence[dict[str, Any]]) -> list[Outcome]:
    """The cases as calls of ``/batch``, as many in one batch as it takes; each call's item checked as the
    case's answer. A batch not answered as one item per call fails each of its cases."""
    outcomes = []
    calls = [batching.call(case["request"], case["id"]) for case in chosen]
    by_id = {case["id"]: case for case in chosen}
    for chunk in batching.chunks(calls):
        start = time.perf_counter()
        try:
            answers: list[Answer | str] = list(batching.answers(send, chunk))
        except ConnectionRefusedError as error:
            raise NoServer(error) from None
        except OSError as error:
            answers = [f"no answer: {error}"] * len(chunk)
        except ValueError as error:
            answers = [str(error)] * len(chunk)
        seconds = (time.perf_counter() - start) / len(chunk)
        for sent, answer in zip(chunk, answers):
            case = by_id[sent["id"]]
            if isinstance(answer, str):
                outcomes.append(Outcome(case, [answer], seconds, batching.envelope([sent])))
            else:
                outcomes.append(Outcome(case, mismatches(case["expect"], answer), seconds, batching.envelope([sent]),
                                        busy_answer(case, answer)))
    return outcomes


def report_failure(outcome: Outcome, base_url: str, out: TextIO) -> None:
    case = outcome.case
    print(f"FAIL {case['id']} ({case['file']}; {case['source']['section']})", file=out)
    print(f"  {case['description'].splitlines()[0]}", file=out)
    print(f"  {curl_line(base_url, outcome.sent)}", file=out)
    for fault in outcome.faults:
        print(f"  {fault}", file=out)


def write_junit(path: str, outcomes: Sequence[Outcome], skipped: Sequence[tuple[dict[str, Any], str]]) -> None:
    failures = sum(not o.passed for o in outcomes)
    suite = ElementTree.Element("testsuite", name="gongzhu-conformance", tests=str(len(outcomes) + len(skipped)),
                                failures=str(failures), errors="0", skipped=str(len(skipped)),
                                time=f"{sum(o.seconds for o in outcomes):.3f}")
    for outcome in outcomes:
        element = ElementTree.SubElement(suite, "testcase", classname=outcome.case["file"].removesuffix(".json"),
                                         name=outcome.case["id"], time=f"{outcome.seconds:.3f}")
        if not outcome.passed:
            failure = ElementTree.SubElement(element, "failure", message=outcome.faults[0])
            failure.text = "\n".join(outcome.faults)
    for case, reason in skipped:
        element = ElementTree.SubElement(suite, "testcase", classname=case["file"].removesuffix(".json"),
                                         name=case["id"])
        ElementTree.SubElement(element, "skipped", message=reason)
    ElementTree.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


def junit_folder(path: str) -> str | None:
    """Makes the report's folder, as a build tool's report option does (``--junit build/conformance.xml``
    from a fresh checkout); one line saying why, before any case runs, when it cannot be made."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot write the JUnit report {path}: {error.strerror or error}"
    return None


def sender(options: argparse.Namespace) -> tuple[Callable[[Request], Answer], str]:
    """The transport the options ask for, and the base URL the curl lines use."""
    if not options.in_process:
        return over_http(options.base_url), options.base_url
    from gongzhu.server_extra import require_server

    require_server()
    from gongzhu.api import create_app

    return in_process(create_app()), DEFAULT_BASE_URL


def skip_reason(case: dict[str, Any], options: argparse.Namespace) -> str | None:
    """Why a selected case is not run; ``None`` when it is."""
    if options.in_process and case_files.TRANSPORT_TAG in case["tags"]:
        return IN_PROCESS_SKIP
    return batching.refusal(case) if options.batch else None


def busy_answer(case: dict[str, Any], answer: Answer) -> bool:
    """The server answered 503 ``busy`` where the case expects another status: a loaded server, not the rules."""
    body = parsed(answer)
    return answer.status == 503 != case["expect"]["status"] and isinstance(body, dict) and body.get("code") == "busy"


def asked_again(run_all: Callable[[Sequence[dict[str, Any]]], list[Outcome]], outcomes: list[Outcome],
                out: TextIO) -> list[Outcome]:
    """The outcomes, where a case the server answered 503 ``busy`` is asked again after ``BUSY_WAIT_S`` (as
    ``Retry-After`` asks), up to ``BUSY_ATTEMPTS`` times: a busy server is not a failure of the rules. One line
    says how many were asked again."""
    by_id = {outcome.case["id"]: outcome for outcome in outcomes}
    again = [outcome.case for outcome in outcomes if outcome.busy]
    if again:
        print(f"{len(again)} answered 503 busy: asked again", file=out)
    for _ in range(BUSY_ATTEMPTS - 1):
        if not again:
            break
        time.sleep(BUSY_WAIT_S)
        for outcome in run_all(again):
            by_id[outcome.case["id"]] = outcome
        again = [case for case in again if by_id[case["id"]].busy]
    return [by_id[outcome.case["id"]] for outcome in outcomes]


def run(options: argparse.Namespace, out: TextIO | None = None) -> int:
    """Runs the selected cases, reporting to ``out`` (standard output); the exit status (0: all passed,
    1: a failure, 2: nothing selected, or no server at the base URL: one line says so)."""
    out = out or sys.stdout
    chosen = list(case_files.select(case_files.load(), ids=options.ids, tags=words(options.tags),
                                    skip_tags=words(options.skip_tags)))
    if options.list:
        for case in chosen:
            print(f"{case['id']}\t{','.join(case['tags'])}", file=out)
        return 0
    if not chosen:
        print("no case selected", file=out)
        return 2
    reasons = [(case, skip_reason(case, options)) for case in chosen]
    skipped = [(case, reason) for case, reason in reasons if reason]
    kept = [case for case, reason in reasons if not reason]
    if options.junit and (problem := junit_folder(options.junit)):
        print(problem, file=out)
        return 2
    send, base_url = sender(options)
    def run_all(cases: Sequence[dict[str, Any]]) -> list[Outcome]:
        return run_batched(send, cases) if options.batch else [run_case(send, case) for case in cases]

    try:
        outcomes = asked_again(run_all, run_all(kept), out)
    except NoServer as error:
        print(f"no server answers at {base_url} ({error.args[0].strerror or error.args[0]}); is it running?",
              file=out)
        return 2
    for outcome in outcomes:
        if not outcome.passed:
            report_failure(outcome, base_url, out)
    if options.junit:
        write_junit(options.junit, outcomes, skipped)
    passed = sum(o.passed for o in outcomes)
    for reason, count in Counter(reason for _, reason in skipped).most_common():
        print(f"{count} skipped ({reason})", file=out)
    print(f"{passed} passed, {len(outcomes) - passed} failed", file=out)
    return 0 if passed == len(outcomes) else 1


def main(args: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gongzhu-service conformance", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(args))


if __name__ == "__main__":
    sys.exit(main())
