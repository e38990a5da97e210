"""games/rules is a pure engine: the standard library and pysol_cards, never Django."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import games.rules

ENGINE = Path(games.rules.__file__).parent
ALLOWED = set(sys.stdlib_module_names) | {"pysol_cards"}


def imports(path: Path) -> list[tuple[int, str]]:
    """Every absolute import of a module, as (level, top-level package); level > 0 is relative."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, (node.module or "").split(".")[0]))
    return found


ENGINE_FILES = sorted(ENGINE.glob("*.py"))


def test_the_engine_has_modules_to_check() -> None:
    assert {"board.py", "cards.py", "position.py", "tables.py"} <= {
        path.name for path in ENGINE_FILES
    }


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: path.name)
def test_engine_module_imports_only_stdlib_pysol_cards_or_itself(path: Path) -> None:
    outside = [name for level, name in imports(path) if level == 0 and name not in ALLOWED]

    assert outside == [], f"{path.name} imports {outside}"


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, games.rules, games.rules.cli, games.rules.position, games.rules.layout;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parents[1],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )

    assert result.stdout.strip() == "[]"
