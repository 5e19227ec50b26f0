"""Every tracked text file is self-contained: no comment, docstring, document or
contract text cites what a newcomer cannot open. Rules are cited as
"rules.md §n" (docs/rules.md), behaviour is described where it is used, and
nothing points at design notes outside the repository, issue numbers, or
scratch files."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Files that are generated, not written: their text is not ours to cite from.
SKIPPED = {"tests/contract/node/package-lock.json"}

# (what is wrong, pattern). Spelled so that this file does not match itself.
EVERYWHERE = [
    ("a design note outside the repository", re.compile(r"\b(SPEC|STYLE)\.md\b", re.IGNORECASE)),
    ("a section of a design note outside the repository", re.compile(r"\bSPEC ?§? ?[0-9]", re.IGNORECASE)),
    ("an issue number", re.compile(r"\bissues? ?#?[0-9]+", re.IGNORECASE)),
    ("a rule text outside the repository (cite rules.md §n)",
     re.compile(r"\bthe sp" r"ec\b|\bsp" r"ec texts?\b", re.IGNORECASE)),
    ("a deal named in a design note outside the repository", re.compile(r"\bseed [A-Z]\b")),
    ("a file outside the repository", re.compile(r"(?<![\w/.])se" r"eds/")),
]
# Documents only: a path under /tmp is a scratch file of one machine, while
# configuration and tests may name the pod's /tmp directories on purpose.
IN_DOCUMENTS = [
    ("a scratch file", re.compile(r"/tmp/[\w.-]")),
]


def tracked_files():
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listing.decode("utf-8").split("\0") if name and name not in SKIPPED]


def text_of(name):
    """The file's text, or None for a binary file (or one that no longer exists)."""
    try:
        data = (ROOT / name).read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def findings(name, text):
    patterns = EVERYWHERE + (IN_DOCUMENTS if name.endswith(".md") else [])
    for number, line in enumerate(text.splitlines(), start=1):
        for what, pattern in patterns:
            if pattern.search(line):
                yield f"{name}:{number}: {what}: {line.strip()}"


def test_findings_catch_each_pattern():
    cited = "see SPEC" + ".md §7 and SP" + "EC 3.1 (issue" + " 4); the sp" + "ec texts; STYLE" + ".md; seed" + " A"
    assert len(list(findings("x.py", cited))) == 5
    assert list(findings("README.md", "run it > /tmp" + "/out.txt")) == [
        "README.md:1: a scratch file: run it > /tmp" + "/out.txt"]
    assert list(findings("deployment.yaml", "value: /tmp" + "/metrics")) == []
    assert list(findings("x.py", 'rules.md §3; spec["containers"]; issues; a seed' + " 0")) == []


def test_tracked_files_cite_only_what_the_repository_holds():
    problems = [problem for name in tracked_files() if (text := text_of(name)) is not None
                for problem in findings(name, text)]
    assert problems == []
