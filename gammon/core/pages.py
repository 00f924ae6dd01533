"""The rules pages (docs/rules/*.md), wherever gammon runs from.

The pages have one home, docs/rules/ in the repository. In a checkout (and an editable
install) they are read there; building the package copies them into the wheel beside the
modules, as gammon/docs/rules/*.md (setup.py), where an installed gammon reads them.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
#: Where the pages are: in an installed wheel, then in a checkout.
_FOLDERS = (_PACKAGE / "docs" / "rules", _PACKAGE.parent / "docs" / "rules")


def rules_pages() -> dict[str, Path]:
    """Each rules page by its name (``backgammon``, ``long-nardy``, ``stakes``...), in
    order of name; empty where neither the package nor a checkout holds them."""
    for folder in _FOLDERS:
        if folder.is_dir():
            return {page.stem: page for page in sorted(folder.glob("*.md"))}
    return {}


def rules_page(name: str) -> str:
    """The text of the rules page ``name`` (Markdown)."""
    pages = rules_pages()
    if name not in pages:
        raise LookupError(f"no rules page {name!r}; the pages: {', '.join(pages) or 'none'}")
    return pages[name].read_text(encoding="utf-8")
