"""The conformance cases: JSON files shipped with the package (``cases/*.json``), read as data.

A case is a plain dict in the format ``case.schema.json`` describes (docs/conformance.md): the
runner never computes an expectation, it only compares what a server answers with what the file
says.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import Any

Case = dict[str, Any]

# Cases with this tag need a real HTTP server (request framing, the request line): a WSGI app
# called in process never sees those bytes.
TRANSPORT_TAG = "transport"


def case_files() -> list[str]:
    """The names of the shipped case files, sorted."""
    folder = resources.files(__package__).joinpath("cases")
    return sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))


def read_file(name: str) -> list[Case]:
    """The cases of one shipped file, each with ``file`` set to the file's name."""
    text = resources.files(__package__).joinpath("cases", name).read_text(encoding="utf-8")
    cases: list[Case] = json.loads(text)["cases"]
    return [{**case, "file": name} for case in cases]


def load() -> list[Case]:
    """Every shipped case, file by file in name order, each file's cases in their order."""
    return [case for name in case_files() for case in read_file(name)]


def schema() -> dict[str, Any]:
    """The JSON Schema of a case file."""
    text = resources.files(__package__).joinpath("case.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def select(cases: Iterable[Case], *, ids: Iterable[str] = (), tags: Iterable[str] = (),
           skip_tags: Iterable[str] = ()) -> Iterator[Case]:
    """The cases named in ``ids`` (all when empty) carrying one of ``tags`` (any when empty) and
    none of ``skip_tags``."""
    wanted_ids, wanted, unwanted = set(ids), set(tags), set(skip_tags)
    for case in cases:
        labels = set(case["tags"])
        if wanted_ids and case["id"] not in wanted_ids:
            continue
        if wanted and not labels & wanted:
            continue
        if labels & unwanted:
            continue
        yield case
