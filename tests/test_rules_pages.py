"""Every rule labelled in docs/rules/ has a test that names it.

A rules page marks each rule with a bold label such as **BG-ENTER-FIRST**; the test
that checks the rule is named after the label (``test_bg_enter_first...``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs" / "rules").glob("*.md"))
LABEL = re.compile(r"\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*")
TEST = re.compile(r"^\s*def (test_\w+)", re.MULTILINE)


def _test_names() -> set[str]:
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names.update(TEST.findall(path.read_text()))
    return names


def test_there_are_rules_pages():
    assert any(page.name == "backgammon.md" for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_rule_label_has_a_test(page: Path):
    labels = LABEL.findall(page.read_text())
    assert labels, f"{page.name} labels no rules"
    names = _test_names()
    missing = [
        label
        for label in dict.fromkeys(labels)
        if not any(name.startswith("test_" + label.lower().replace("-", "_")) for name in names)
    ]
    assert not missing, f"{page.name}: rules without a test named after them: {missing}"


def test_the_code_reads_the_pages_from_the_checkout():
    """gammon.core.pages reads docs/rules/ in a checkout (an installed wheel holds them as
    gammon/docs/rules/: tests/test_package.py checks that)."""
    from gammon.core.pages import rules_page, rules_pages

    assert rules_pages() == {page.stem: page for page in PAGES}
    assert rules_page("backgammon") == (ROOT / "docs" / "rules" / "backgammon.md").read_text()
    with pytest.raises(LookupError, match="no rules page 'chess'"):
        rules_page("chess")
