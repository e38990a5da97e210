import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pins(lines: list[str]) -> dict[str, str]:
    found = {}
    for line in lines:
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)(\[[^]]*\])?==(\S+)\s*(#.*)?", line)
        if match:
            found[re.sub(r"[-_.]+", "-", match[1]).lower()] = match[3]
    return found


def test_requirement_files_pin_exactly_what_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = pins((ROOT / "requirements.txt").read_text().splitlines())
    test = pins((ROOT / "requirements-test.txt").read_text().splitlines())

    declared_runtime = pins(project["dependencies"])
    declared_test = pins(project["optional-dependencies"]["test"])

    assert declared_runtime.items() <= runtime.items()
    assert declared_test.items() <= test.items()
