"""Request validation compiled from the contract: one jsonschema-rs validator (JSON Schema 2020-12, the
dialect of OpenAPI 3.1) per request body schema and per path parameter, built once at start-up. No
constraint is written here: every one, the card names too, comes from ``openapi.yaml``. Valid input costs
one ``is_valid`` call; invalid input gets a bounded report: at most ``MAX_ERRORS`` items, each quoting at most
``MAX_ECHO`` characters of what was sent, the first alone past ``MAX_WALKED_VALUES`` values (docs/deployment.md).
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from itertools import islice
from typing import Any

import jsonschema_rs

from . import messages as text

MAX_ERRORS = 50
MAX_ECHO = 100
# An enum of more values than this is named by its description in a report, not listed.
MAX_LISTED_OPTIONS = 8
MAX_WALKED_VALUES = 1000
SCHEMA_VIOLATION = "schema_violation"
# A path segment is read as a JSON number when its schema asks for one, written as JSON writes it; an integer in
# digits only, with an optional minus (``/ranks/1e5`` and ``/ranks/5.0`` are no integer's path: a ``type`` violation).
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
NUMBER_TEXT = {"integer": INTEGER, "number": NUMBER}
# A number written longer than this is past every bound of the contract (and Python's
# limit on the digits of an int it reads).
MAX_NUMBER_TEXT = 100


@dataclass(frozen=True, slots=True)
class Violation:
    """One way the input fails its schema: where, which keyword, why."""

    pointer: str
    keyword: str
    detail: str
    location: str = "body"   # or "path": the pointer names a path parameter

    def as_json(self) -> dict[str, str]:
        item = {"pointer": self.pointer, "detail": self.detail, "code": SCHEMA_VIOLATION,
                "keyword": self.keyword}
        if self.location != "body":
            item["in"] = self.location
        return item


class SchemaViolation(Exception):
    """Input that does not match the contract; ``violations`` is bounded."""

    code = SCHEMA_VIOLATION

    def __init__(self, violations: list[Violation], truncated: bool) -> None:
        self.violations = violations
        self.truncated = truncated
        first = violations[0]
        where = first.pointer or (text.THE_BODY() if first.location == "body" else text.THE_PATH())
        detail = text.SCHEMA_AT(where=where, detail=first.detail)
        if len(violations) > 1:
            more = f"{len(violations) - 1}{'+' if truncated else ''}"
            detail = text.SCHEMA_MORE(where=where, detail=first.detail, more=more)
        super().__init__(detail)
        self.detail = detail


def _values_past(instance: Any, limit: int) -> bool:
    """Whether ``instance`` holds more than ``limit`` JSON values (counting stops there)."""
    stack, seen = [instance], 0
    while stack:
        item = stack.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return False


def _cut(instance: Any, length: int) -> Any:
    """``instance`` with every array cut to its first ``length`` items."""
    if isinstance(instance, list):
        return [_cut(item, length) for item in instance[:length]]
    if isinstance(instance, dict):
        return {key: _cut(value, length) for key, value in instance.items()}
    return instance


def _at(instance: Any, path) -> Any:
    for token in path:
        instance = instance[token]
    return instance


def _keyword_values(schema: Any, keyword: str) -> list[int]:
    """Every integer value of ``keyword`` in ``schema``."""
    if isinstance(schema, list):
        return [v for item in schema for v in _keyword_values(item, keyword)]
    if not isinstance(schema, dict):
        return []
    found = [schema[keyword]] if isinstance(schema.get(keyword), int) else []
    return found + [v for key, item in schema.items() if key not in INSTANCE_KEYWORDS
                    for v in _keyword_values(item, keyword)]


def pointer(path) -> str:
    """A JSON pointer (RFC 6901) of ``path``'s tokens."""
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in path)


def echo(value: Any) -> str:
    """What the client sent, as JSON, cut to ``MAX_ECHO`` characters."""
    return echo_text(json.dumps(value, ensure_ascii=False))


def echo_text(sent: str) -> str:
    return sent if len(sent) <= MAX_ECHO else sent[:MAX_ECHO] + "…"


# the JSON type of a decoded value's Python type (a dict's: "object")
JSON_TYPES = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}


def json_type(value: Any) -> str:
    # JSON Schema counts a number with a zero fraction as an integer
    if isinstance(value, float) and value.is_integer():
        return "integer"
    return JSON_TYPES.get(type(value), "object")


SIZE_TEXTS = {"minItems": text.AT_LEAST_ITEMS, "maxItems": text.AT_MOST_ITEMS,
              "minLength": text.AT_LEAST_CHARS, "maxLength": text.AT_MOST_CHARS}
RELATIONS = {"minimum": "≥", "maximum": "≤", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}


def _detail(kind, instance: Any, subschema: dict[str, Any], alternatives: list[str] | None = None) -> str:
    name, hint = kind.name, subschema.get("description", "")
    if name == "type":
        wanted = " or ".join(kind.types)
        return text.MUST_BE_TYPE(article="an" if wanted[0] in "aeiou" else "a", wanted=wanted,
                                 got=json_type(instance))
    if name in SIZE_TEXTS:
        return SIZE_TEXTS[name](limit=kind.limit, got=len(instance))
    if name in RELATIONS:
        return text.BOUND(relation=RELATIONS[name], limit=kind.limit, got=echo(instance))
    if name == "enum":
        if len(kind.options) > MAX_LISTED_OPTIONS and hint:
            # the 52 card names: what they are, not the list
            return text.NONE_OF_MANY(got=echo(instance), count=len(kind.options), hint=hint)
        return text.ONE_OF_VALUES(options=", ".join(json.dumps(o) for o in kind.options), got=echo(instance))
    if name == "pattern":
        return text.NO_MATCH(got=echo(instance), pattern=kind.pattern, hint=text.HINT(hint=hint) if hint else "")
    if name == "required":
        return text.REQUIRED()
    if name in ("oneOf", "anyOf") and alternatives:
        return text.NONE_OF(got=echo(instance), alternatives="; ".join(alternatives))
    return text.KEYWORD(keyword=name)


class Compiled:
    """A compiled schema of the contract (by ``$ref``) and its bounded error report."""

    def __init__(self, document: dict[str, Any], ref: str | None = None,
                 schema: dict[str, Any] | None = None) -> None:
        root = {"components": document.get("components", {})}
        root.update({"$ref": ref} if ref else (schema or {}))
        self.document = document
        self.validator = jsonschema_rs.Draft202012Validator(root)
        self.longest = max(_keyword_values(document, "maxItems"), default=0)
        self.is_valid = self.validator.is_valid

    def check(self, instance: Any, location: str = "body", prefix: tuple = ()) -> None:
        """Raise ``SchemaViolation`` unless ``instance`` matches."""
        if self.validator.is_valid(instance):
            return
        if _values_past(instance, MAX_WALKED_VALUES):
            # the first violation alone, found in a copy whose arrays past every maxItems of the contract
            # are cut (still too long): jsonschema-rs builds every error before the first is read
            for candidate in (_cut(instance, self.longest + 1), instance):
                try:
                    self.validator.validate(candidate)
                except jsonschema_rs.ValidationError as error:
                    found = self._violations(error, location, prefix, _at(instance, error.instance_path))
                    raise SchemaViolation(found[:1], truncated=True) from None
        found = self.violations(instance, location, prefix)
        raise SchemaViolation(found[:MAX_ERRORS], truncated=len(found) > MAX_ERRORS)

    def violations(self, instance: Any, location: str = "body", prefix: tuple = ()) -> list[Violation]:
        """Up to ``MAX_ERRORS + 1`` violations (one more tells that the list was cut)."""
        out: list[Violation] = []
        # a card that is no string fails its type and its enum of 52 names: the type tells it
        # (jsonschema-rs checks the type first)
        typed: set[str] = set()
        for error in islice(self.validator.iter_errors(instance), 2 * MAX_ERRORS + 2):
            found = self._violations(error, location, prefix)
            kind = error.kind
            if isinstance(kind, jsonschema_rs.ValidationErrorKind.Type):
                typed.add(found[0].pointer)
            elif isinstance(kind, jsonschema_rs.ValidationErrorKind.Enum) and len(kind.options) > MAX_LISTED_OPTIONS \
                    and found[0].pointer in typed:
                continue
            out.extend(found)
            if len(out) > MAX_ERRORS:
                break
        return out[:MAX_ERRORS + 1]

    def _violations(self, error, location: str, prefix: tuple, value: Any = None) -> list[Violation]:
        """``error`` as violations; ``value``: what the error points at when not ``error.instance``."""
        kind = error.kind
        instance = error.instance if value is None else value
        path = (*prefix, *error.instance_path)
        if kind.name == "additionalProperties":
            return [_unknown(path, key, location) for key in islice(kind.unexpected, MAX_ERRORS + 1)]
        if kind.name == "required":
            return [Violation(pointer((*path, kind.property)), "required",
                              _detail(kind, instance, {}), location)]
        subschema = self._subschema(error.schema_path)
        alternatives = [resolve(self.document, option).get("description", "").split("\n")[0].rstrip(".")
                        for option in subschema.get(kind.name, ())] if kind.name in ("oneOf", "anyOf") else None
        return [Violation(pointer(path), kind.name, _detail(kind, instance, subschema, alternatives),
                          location)]

    def _subschema(self, schema_path) -> dict[str, Any]:
        """The schema object holding the failed keyword (for its description)."""
        try:
            node = _at(self.document, list(schema_path)[:-1])
        except (KeyError, IndexError, TypeError):
            return {}
        return node if isinstance(node, dict) else {}


def _unknown(path: tuple, key: str, location: str) -> Violation:
    # A field name longer than the echo limit is named by its length, at its object.
    if len(key) > MAX_ECHO:
        return Violation(pointer(path), "additionalProperties", text.UNKNOWN_LONG_FIELD(length=len(key)), location)
    return Violation(pointer((*path, key)), "additionalProperties", text.UNKNOWN_FIELD(), location)


# Keywords whose values are instances, not schemas (no maxItems of theirs is the contract's).
INSTANCE_KEYWORDS = frozenset({"enum", "const", "default", "examples", "example"})


def resolve(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """A schema with its local ``$ref`` chain followed (``#/components/schemas/...``)."""
    while "$ref" in schema:
        schema = _at(document, schema["$ref"].removeprefix("#/").split("/"))
    return schema


def path_value(segment: str, schema: dict[str, Any], name: str) -> Any:
    """A path segment as the JSON value its schema reads: a number where one is asked
    (beyond every bound, at any length: a ``minimum``/``maximum`` violation)."""
    written = NUMBER_TEXT.get(schema.get("type", ""))
    if written is not None and written.fullmatch(segment):
        value = json.loads(segment) if len(segment) <= MAX_NUMBER_TEXT else math.inf
        if isinstance(value, float) and not math.isfinite(value):
            keyword, relation = ("minimum", "≥") if segment.startswith("-") else ("maximum", "≤")
            detail = text.BOUND(relation=relation, limit=schema.get(keyword), got=echo_text(segment)) \
                if keyword in schema else text.KEYWORD(keyword=keyword)
            raise SchemaViolation([Violation(pointer((name,)), keyword, detail, "path")], truncated=False)
        return value
    return segment
