"""Problems in Chinese with ``Accept-Language: zh`` (codes and pointers unchanged),
English by default; ``Content-Language`` says which (docs/rules.md §7)."""
from __future__ import annotations

import re
import string

import pytest

import gongzhu.api.messages as api_messages
import gongzhu.rules.messages as rule_messages
from gongzhu.api.problems import negotiate
from gongzhu.rules.messages import Text
from tests.conftest import load_contract

from .deals import SEED1

CONTRACT = load_contract()
CJK = re.compile(r"[\u4e00-\u9fff]")
CJK_OR_PUNCTUATION = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]")


@pytest.mark.parametrize("header, language", [
    (None, "en"), ("", "en"), ("en", "en"), ("en-US,en;q=0.9", "en"),
    ("zh", "zh"), ("zh-CN", "zh"), ("zh-Hans", "zh"), ("zh-TW", "zh"), ("zh-Hant-HK", "zh"),
    ("ZH-cn", "zh"), ("fr, zh-CN;q=0.5", "zh"), ("en;q=0.9, zh;q=0.8", "en"),
    ("zh;q=0.8, en;q=0.9", "en"), ("zh-CN, en;q=0.9", "zh"), ("*", "en"), ("zh;q=0", "en"),
    ("fr, de", "en"), ("zh;q=abc", "en"), ("zh;q=2", "en"),
])
def test_accept_language_negotiation(header, language):
    assert negotiate(header) == language


def texts():
    for module in (rule_messages, api_messages):
        for name, value in vars(module).items():
            if isinstance(value, Text):
                yield f"{module.__name__}.{name}", value
            elif isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(item, Text):
                        yield f"{module.__name__}.{name}[{key}]", item


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("name, text", list(texts()))
def test_every_message_has_chinese_with_the_same_fields(name, text):
    # Chinese has no articles: the one field it may leave out
    assert fields(text.zh) <= fields(text.en) and fields(text.en) - fields(text.zh) <= {"article"}, name
    assert CJK_OR_PUNCTUATION.search(text.zh) or text.zh == text.en, name


def test_wrong_leader_in_chinese(client):
    english = client.post("/legal-moves", json={"hands": SEED1, "leader": 0})
    chinese = client.post("/legal-moves", json={"hands": SEED1, "leader": 0},
                          headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"})
    assert english.headers["Content-Language"] == "en"
    assert chinese.headers["Content-Language"] == "zh-Hans"
    assert "Accept-Language" in chinese.headers.getlist("Vary")
    e, z = english.get_json(), chinese.get_json()
    assert (e["title"], z["title"]) == ("Unprocessable Entity", "无法处理的请求内容")
    assert z["detail"] == ("首局的首引者必须持有 C2：座位 0 没有（持有者：座位 3）；"
                           "不给 leader 时，由先发到第一张 C2 的座位首引")
    assert e["detail"] == ("in the first deal the leader must hold C2: seat 0 does not (it is held by seat 3); "
                           "without leader, the seat dealt the first C2 leads")
    assert [(x["pointer"], x["code"]) for x in z["errors"]] == [(x["pointer"], x["code"]) for x in e["errors"]]
    assert z["code"] == e["code"] == "wrong_leader"


def test_schema_violation_in_chinese(client):
    answer = client.post("/legal-moves", json={"hands": SEED1, "extra": 1, "plays": "C2"},
                         headers={"Accept-Language": "zh"}).get_json()
    assert answer["code"] == "schema_violation"
    assert {(e["pointer"], e["keyword"], e["detail"]) for e in answer["errors"]} == {
        ("/extra", "additionalProperties", "未知字段：这个请求没有这个字段"),
        ("/plays", "type", "类型应为 array，而不是 string"),
    }
    assert answer["detail"].endswith("（另有 1 处问题）")


def test_http_problems_in_chinese(client):
    answer = client.get("/nowhere", headers={"Accept-Language": "zh-TW"})
    assert answer.status_code == 404
    assert answer.headers["Content-Language"] == "zh-Hans"
    assert answer.get_json()["title"] == "未找到"
    assert answer.get_json()["detail"] == "没有这个资源；本服务提供的操作见 /openapi.yaml"
    broken = client.post("/score", data=b"{", content_type="application/json", headers={"Accept-Language": "zh"})
    assert broken.get_json()["detail"].startswith("请求体不是合法的 JSON：")


def rejected_examples():
    """Every 422 example of the contract with the body that gets it."""
    for path, item in CONTRACT["paths"].items():
        for method, op in item.items():
            if method != "post":
                continue
            requests = op["requestBody"]["content"]["application/json"]["examples"]
            problems = op["responses"]["422"]["content"]["application/problem+json"]["examples"]
            for name, example in problems.items():
                body = example.get("x-request-body", requests.get(name, {}).get("value"))
                if body is not None:
                    yield pytest.param(path, body, example["value"], id=f"{path} {name}")


@pytest.mark.parametrize("path, body, english", list(rejected_examples()))
def test_every_rejected_example_has_a_chinese_answer(client, path, body, english):
    answer = client.post(path, json=body, headers={"Accept-Language": "zh-CN"})
    chinese = answer.get_json()
    assert answer.status_code == 422
    assert (chinese["code"], chinese["type"]) == (english["code"], english["type"])
    assert CJK.search(chinese["detail"]), chinese["detail"]
    assert [(e["pointer"], e["code"]) for e in chinese.get("errors", [])] == \
        [(e["pointer"], e["code"]) for e in english.get("errors", [])]
    for error in chinese.get("errors", []):
        assert CJK.search(error["detail"]), error
