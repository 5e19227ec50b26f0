"""The lab's documents stay references: docs/performance.md and docs/bot.md are short enough to read,
every script they (and the other documents) name exists where they say, and measurement output stays
out of the tree (per-run files go to build/, which git ignores)."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = ("docs/performance.md", "docs/bot.md")
MAX_LINES = 400
# a path under bench/ as the documents write it, e.g. bench/perf/engine.py or bench/perf/ceiling/
BENCH_PATH = re.compile(r"(?<![\w/.-])bench/[\w./-]*\w")
# a module run with python -m, e.g. bench.bot.arena
BENCH_MODULE = re.compile(r"-m (bench(?:\.\w+)+)")
# a script named on its own in a folder's README, e.g. `engine.py`
SCRIPT = re.compile(r"`(\w+\.py)\b")


def tracked(*patterns):
    try:
        listing = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True,
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listing.decode("utf-8").split("\0") if name]


def named_paths(text):
    """Every bench/ path and every bench module the text names, as paths relative to the root."""
    paths = set(BENCH_PATH.findall(text))
    paths |= {module.replace(".", "/") + ".py" for module in BENCH_MODULE.findall(text)}
    return paths


def test_named_paths_reads_paths_and_modules():
    text = "run `python -m bench.bot.arena` or bench/perf/engine.py; see bench/perf/ceiling/ and bench/README.md."
    assert named_paths(text) == {"bench/bot/arena.py", "bench/perf/engine.py", "bench/perf/ceiling",
                                 "bench/README.md"}
    assert named_paths("my-bench/x.py, build/bench/y") == set()


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_is_at_most_400_lines(name):
    lines = (ROOT / name).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines: keep today's figures, leave the history to git"


def test_every_bench_path_a_document_names_exists():
    missing = [f"{name}: {path}" for name in tracked("*.md")
               for path in sorted(named_paths((ROOT / name).read_text(encoding="utf-8")))
               if not (ROOT / path).exists()]
    assert missing == []


def test_every_script_a_bench_readme_names_exists():
    missing = []
    for name in tracked("bench/*README.md"):
        folder = (ROOT / name).parent
        for script in SCRIPT.findall((ROOT / name).read_text(encoding="utf-8")):
            if not (folder / script).exists() and not (ROOT / "bench" / script).exists():
                missing.append(f"{name}: {script}")
    assert missing == []


def test_bench_keeps_its_scripts_in_folders_by_purpose():
    loose = [name for name in tracked("bench/*.py") if name.count("/") == 1]
    assert len(loose) <= 8, loose


def test_result_files_are_a_small_share_of_the_tree():
    names = tracked()
    data = [name for name in names if name.endswith((".jsonl", ".csv"))]
    total = sum(_lines(name) for name in names)
    assert sum(_lines(name) for name in data) < 0.05 * total, data


def _lines(name):
    try:
        return (ROOT / name).read_bytes().count(b"\n")
    except (FileNotFoundError, IsADirectoryError):
        return 0
