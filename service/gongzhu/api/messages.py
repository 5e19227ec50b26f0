"""The messages the HTTP layer writes, in English and in Chinese (see
``gongzhu.rules.messages`` for how a ``Text`` is written and rendered), and the
problem titles by status."""
from __future__ import annotations

from gongzhu.rules.messages import Text

# the body and its framing
NOT_UTF8 = Text("the body is not UTF-8: byte {at} cannot be decoded", "请求体不是 UTF-8：第 {at} 字节无法解码")
NOT_JSON: Text = Text("the body is not valid JSON: {error}", "请求体不是合法的 JSON：{error}")
TOO_DEEP: Text = Text("the body nests arrays and objects more than {limit} levels deep; no request of this API "
                      "nests them deeper", "请求体中数组和对象的嵌套超过 {limit} 层；本 API 的请求都不会嵌套得更深")
LONE_SURROGATE: Text = Text(
    "the string at {pointer} holds a lone surrogate ({code_point}), which is not a Unicode character",
    "{pointer} 处的字符串含有孤立代理项（{code_point}），它不是 Unicode 字符")
MEDIA_TYPE: Text = Text("send the body as {wanted}, not {sent}", "请以 {wanted} 发送请求体，而不是 {sent}")
NO_MEDIA_TYPE: Text = Text("send the body as {wanted}, with the header Content-Type: {wanted} (none was sent)",
                           "请以 {wanted} 发送请求体，并带上请求头 Content-Type: {wanted}（请求未带 Content-Type）")
CHARSET: Text = Text("send the body as UTF-8 (charset=utf-8), not charset={sent}",
               "请以 UTF-8 编码发送请求体（charset=utf-8），而不是 charset={sent}")
CONTENT_ENCODING: Text = Text("send the body as it is, with no Content-Encoding (this server decodes none), not {sent}",
                        "请直接发送请求体，不带 Content-Encoding（本服务器不解码任何内容编码），而不是 {sent}")
UTF16 = Text("send the body as UTF-8; it looks like UTF-16 or UTF-32",
             "请以 UTF-8 发送请求体；它看起来是 UTF-16 或 UTF-32")
TOO_LARGE: Text = Text("the request body is larger than this service accepts", "请求体超过了本服务接受的大小")
TOO_MANY_FIELDS: Text = Text("an object of the body has {count} fields; no object of this API has more than {limit}",
                       "请求体中有一个对象含 {count} 个字段；本 API 的对象最多 {limit} 个字段")
NOT_FOUND: Text = Text("no such resource; see /openapi.yaml for the operations this service offers",
                 "没有这个资源；本服务提供的操作见 /openapi.yaml")
METHOD: Text = Text("this resource allows {allowed} only", "这个资源只允许 {allowed}")
INTERNAL: Text = Text("the server failed to answer this request; it has been logged",
                      "服务器未能处理这个请求；已记录日志")
NOT_LOADED: Text = Text("the API contract (openapi.yaml) is not loaded", "API 契约（openapi.yaml）未加载")
BUSY: Text = Text("every bot slot of this server is thinking; retry after {seconds} s or on another server",
            "本服务器的托管计算位都在忙；请 {seconds} 秒后重试，或换一台服务器")

LATE: Text = Text("the request waited past its deadline; retry", "请求等待超过了期限；请重试")
# what the front (nginx) refused, answered here (pipeline.refusal)
REFUSED: dict[str, str] = {
    "bad_request": "the request is not valid HTTP/1.1",
    "invalid_host": "the Host header is not a host name with an optional port",
    "invalid_path": "the request's path encodes a NUL byte (%00), has a malformed %-escape or climbs above the root",
    "upgrade_not_supported": "this server speaks HTTP/1.1 only and upgrades no connection",
    "payload_too_large": TOO_LARGE.en,
    "uri_too_long": "the request target is too long",
    "header_fields_too_large": "the request head is too large",
    "unsupported_transfer_coding": "the only transfer coding accepted is chunked",
}
# a batch's envelope and its calls (batch.py)
DUPLICATE_ID: Text = Text("the id {id} is used by {first} already: each call of a batch has its own id",
                          "编号 {id} 已被 {first} 使用：批量请求中每个调用的编号必须不同")
TOO_MANY_CALLS: Text = Text("the batch has {count} calls; a batch carries at most {limit}",
                            "批量请求含 {count} 个调用；一个批量请求最多 {limit} 个")
BATCHES_BUSY: Text = Text("this server runs as many batches as it takes; retry after 1 s or on another server",
                          "本服务器同时处理的批量请求已满；请 1 秒后重试，或换一台服务器")
NOT_BATCHABLE: Text = Text("a batch carries the JSON POST operations of this service only, not {method} {url}",
                           "批量请求只能包含本服务的 JSON POST 操作，不能包含 {method} {url}")

NO_SEAT_TO_ACT: Text = Text("the deal is finished: no seat is to act", "这一局已经结束：没有座位要出牌")

# contract violations (``keyword`` of JSON Schema)
SCHEMA_AT: Text = Text("{where}: {detail}", "{where}：{detail}")
SCHEMA_MORE: Text = Text("{where}: {detail} (and {more} more)", "{where}：{detail}（另有 {more} 处问题）")
THE_BODY: Text = Text("the body", "请求体")
THE_PATH: Text = Text("the path", "路径")
MUST_BE_TYPE: Text = Text("must be {article} {wanted}, not {got}", "类型应为 {wanted}，而不是 {got}")
AT_LEAST_ITEMS: Text = Text("must have at least {limit} items, not {got}", "至少要有 {limit} 项，实际 {got} 项")
AT_MOST_ITEMS: Text = Text("must have at most {limit} items, not {got}", "最多 {limit} 项，实际 {got} 项")
AT_LEAST_CHARS: Text = Text("must have at least {limit} characters, not {got}",
                            "至少要有 {limit} 个字符，实际 {got} 个")
AT_MOST_CHARS: Text = Text("must have at most {limit} characters, not {got}", "最多 {limit} 个字符，实际 {got} 个")
BOUND: Text = Text("must be {relation} {limit}, not {got}", "应 {relation} {limit}，而不是 {got}")
ONE_OF_VALUES: Text = Text("must be one of {options}, not {got}", "必须是 {options} 之一，而不是 {got}")
NONE_OF_MANY: Text = Text("{got} is none of the {count} values allowed: {hint}",
                          "{got} 不是允许的 {count} 个值之一：{hint}")
NO_MATCH: Text = Text("{got} does not match {pattern}{hint}", "{got} 不符合格式 {pattern}{hint}")
HINT: Text = Text(": {hint}", "：{hint}")
REQUIRED: Text = Text("required field is missing", "缺少必填字段")
NONE_OF: Text = Text("{got} is none of: {alternatives}", "{got} 不符合以下任何一种：{alternatives}")
KEYWORD: Text = Text("does not satisfy `{keyword}`", "不满足 `{keyword}`")
UNKNOWN_FIELD: Text = Text("unknown field: not part of this request", "未知字段：这个请求没有这个字段")
UNKNOWN_LONG_FIELD: Text = Text("unknown field (a name of {length} characters): not part of this request",
                          "未知字段（名字长 {length} 个字符）：这个请求没有这个字段")

# problem titles by status (English: the HTTP reason phrase)
TITLES_ZH = {
    400: "请求格式错误",
    404: "未找到",
    405: "不允许的方法",
    413: "请求体过大",
    415: "不支持的媒体类型",
    422: "无法处理的请求内容",
    500: "服务器内部错误",
    503: "服务暂时不可用",
}
