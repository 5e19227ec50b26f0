"""Is a request too late to start? One rule (``gongzhu.settings.request_deadline``) for a single request and for
a batch's calls: the request timeout after nginx handed the request over (``X-Request-Start: t=<seconds>``), else
after the application first asks (no front, or a value that is not nginx's)."""
from __future__ import annotations

import json
import time

import pytest

from gongzhu import settings
from gongzhu.api import batch as batch_module
from gongzhu.api.pipeline import REQUEST_TIMEOUT_S

BODY = {"captured": [[], [], [], []]}
INGOTS = {"scores": [100, 0, -200, -200]}


@pytest.mark.parametrize("sent, deadline", [
    ("t=1000.250", 1010.25),   # nginx's: from when it handed the request over
    (None, 2010.0),            # no front: from now
    ("t=", 2010.0), ("1000", 2010.0), ("t=abc", 2010.0), ("t=inf", 2010.0), ("t=nan", 2010.0),  # not nginx's
])
def test_the_deadline_is_the_timeout_after_the_hand_over_else_after_now(sent, deadline):
    environ = {} if sent is None else {"HTTP_X_REQUEST_START": sent}
    assert settings.request_deadline(environ, 2000.0, 10.0) == deadline


def test_too_late_is_past_the_deadline_once_the_work_is_done():
    assert not settings.too_late(1010.0, 1010.0)
    assert settings.too_late(1010.0, 1010.001)
    assert not settings.too_late(1010.0, 1009.0, 1.0)
    assert settings.too_late(1010.0, 1009.5, 1.0)


def score(client, **headers):
    return client.post("/score", data=json.dumps(BODY), content_type="application/json", headers=headers)


# the header, given the seconds since the hand-over (made when the test runs, not when it is collected)
LATE, PROMPT = (lambda: f"t={time.time() - REQUEST_TIMEOUT_S - 5:.3f}"), (lambda: f"t={time.time():.3f}")


@pytest.mark.parametrize("sent, status", [
    (None, 200), (lambda: "t=abc", 200),                      # from now: never late when first asked
    (LATE, 503), (PROMPT, 200),
])
def test_a_single_request_is_late_by_the_rule(client, sent, status):
    answer = score(client, **({} if sent is None else {"X-Request-Start": sent()}))
    assert answer.status_code == status
    if status == 503:
        assert (answer.get_json()["code"], answer.headers["Retry-After"]) == ("busy", "1")


def batch_of(client, count, **headers):
    envelope = {"requests": [{"id": str(i), "method": "POST", "url": "/ingots", "body": INGOTS}
                             for i in range(count)]}
    answer = client.post("/batch", data=json.dumps(envelope), content_type="application/json", headers=headers)
    return answer


def test_a_batch_handed_over_past_its_deadline_is_refused_whole(client):
    answer = batch_of(client, 2, **{"X-Request-Start": LATE()})
    assert (answer.status_code, answer.get_json()["code"]) == (503, "busy")


def test_a_batchs_calls_are_late_from_the_hand_over_not_from_when_it_started(client, monkeypatch):
    handed, timeout = round(time.time() - 1), REQUEST_TIMEOUT_S
    # the batch starts half the timeout after nginx handed it over; its calls find the clock at 0.6 and 1.2 times
    # the timeout after it: late from the hand-over (from the start the second would still be in time)
    times = [handed + timeout / 2, handed + timeout * 0.6, handed + timeout * 1.2]
    monkeypatch.setattr(batch_module, "clock", iter(times).__next__)
    answers = batch_of(client, 2, **{"X-Request-Start": f"t={handed}"}).get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 503]
    assert answers[1]["body"]["code"] == "busy"


def test_a_batchs_calls_with_no_front_are_late_from_when_it_started(client, monkeypatch):
    timeout = REQUEST_TIMEOUT_S
    monkeypatch.setattr(batch_module, "clock", iter([1000.0, 1000 + timeout - 1, 1000 + timeout + 0.5]).__next__)
    answers = batch_of(client, 2).get_json()["responses"]
    assert [a["status"] for a in answers] == [200, 503]
