"""README.md is the package's description on a package index, where a link relative to
the repository leads nowhere: every link in it is absolute (http or https)."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
# [text](target) and <target>, outside code blocks and code spans
INLINE_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)[^)]*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)


def prose(text: str) -> str:
    without_blocks = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", without_blocks)


def test_every_readme_link_works_on_a_package_index():
    text = prose(README.read_text(encoding="utf-8"))
    targets = INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)
    assert [t for t in targets if not re.match(r"https?://", t)] == []


def test_the_check_finds_relative_links():
    text = prose("See [the rules](docs/rules.md) and `[code](not/a/link)`.\n\n[ref]: CHANGELOG.md\n")
    assert INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text) == ["docs/rules.md", "CHANGELOG.md"]
