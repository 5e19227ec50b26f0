"""README.md is the package's description on a package index, where a link relative to
the repository leads nowhere: every link in it is absolute (http or https). The one
exception is the screenshot of the deal table page (``docs/table.png``): an image, not
a link to follow, whose alt text says what it shows where an index cannot show it."""
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
# [text](target) and <target>, outside code blocks and code spans
INLINE_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)[^)]*\)")
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)[^)]*\)")
REFERENCE_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)", re.M)


def prose(text: str) -> str:
    without_blocks = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", without_blocks)


def test_every_readme_link_works_on_a_package_index():
    text = prose(README.read_text(encoding="utf-8"))
    targets = INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)
    assert [t for t in targets if not re.match(r"https?://", t)] == []


def test_the_only_image_is_the_table_screenshot_with_its_alt_text():
    images = IMAGE.findall(prose(README.read_text(encoding="utf-8")))
    assert [target for _, target in images] == ["docs/table.png"]
    assert all(len(alt.split()) >= 5 for alt, _ in images)


def test_the_check_finds_relative_links():
    text = prose("See [the rules](docs/rules.md) and `[code](not/a/link)`.\n\n[ref]: CHANGELOG.md\n")
    assert INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text) == ["docs/rules.md", "CHANGELOG.md"]
