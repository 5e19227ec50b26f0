"""make test's last lines: each part (main run, drills, pure pass) and whether it passed, so the screen a
run ends on says which part failed without scrolling back through its report.

Arguments are ``NAME=STATUS``: the part's exit status (pytest's or make's), or ``skipped`` where the
part did not run. Exit status 0 when every part passed, else 1.
"""
from __future__ import annotations

import sys

# pytest's exit status 5 means nothing was selected, as when PYTEST_ARGS names a file without drills.
PASSED = {"0", "5"}


def verdict(status: str) -> str:
    if status in PASSED:
        return "passed"
    if status == "skipped":
        return "not run (the main run failed)"
    return f"FAILED (exit status {status}: its report is above)"


def main(parts: list[str]) -> int:
    pairs = [part.partition("=")[::2] for part in parts]
    width = max(len(name) for name, _ in pairs)
    print("--- make test: each part")
    for name, status in pairs:
        print(f"{name.ljust(width)}  {verdict(status)}")
    failed = [name for name, status in pairs if status not in PASSED]
    print(f"make test: {'FAILED: ' + ', '.join(failed) if failed else 'every part passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
