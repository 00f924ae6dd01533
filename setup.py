"""The rules pages (docs/rules/*.md) go into the wheel as gammon/docs/rules/*.md.

Everything else about the package is in pyproject.toml. The pages have one home,
docs/rules/, where the README links them; building the package copies them next to the
modules, where gammon.core.pages finds them in an installed wheel (in a checkout it reads
docs/rules/ itself). MANIFEST.in puts them in the sdist, which the wheel is built from.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PAGES = Path("docs") / "rules"
#: Where the pages go in the wheel, beside the modules.
TARGET = Path("gammon") / "docs" / "rules"


class BuildWithRulesPages(build_py):
    """build_py, and the rules pages copied into the built package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads docs/rules/ in place
            return
        target = Path(self.build_lib) / TARGET
        self.mkpath(str(target))
        for page in sorted(PAGES.glob("*.md")):
            self.copy_file(str(page), str(target / page.name))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        pages = [] if self.editable_mode else [
            str(Path(self.build_lib) / TARGET / page.name) for page in sorted(PAGES.glob("*.md"))]
        return [*super().get_outputs(include_bytecode), *pages]


setup(cmdclass={"build_py": BuildWithRulesPages})
