"""The modules of ``games`` import each other in one direction: no cycle among module-level
imports, and no import hidden inside a function to dodge one."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "games"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The ``games`` modules an import statement names (a package's submodule when ``from
    package import submodule`` names one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name in MODULES]
    base = node.module or ""
    if node.level:
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([base] if base else [])])
    names = []
    for alias in node.names:
        if f"{base}.{alias.name}" in MODULES:
            names.append(f"{base}.{alias.name}")
        elif base in MODULES:
            names.append(base)
    return names


def module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module loads: at the top level, or inside a top-level ``if`` or
    ``try`` (``if TYPE_CHECKING:`` included, so type-only imports cannot hide a cycle)."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If | ast.Try):
            pending.extend(node.body + node.orelse)
            pending.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                pending.extend(handler.body)
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        edges[module] = {
            target
            for node in module_level_imports(tree)
            for target in imported(node, module)
            if target != module
        }
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_the_import_graph_of_games_has_no_cycle() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_the_graph_sees_the_imports_that_matter() -> None:
    edges = graph()
    assert "games.services" in edges["games.views"]
    assert "games.services" in edges["games.daily"]
    assert "games.leaderboard" in edges["games.services"]
    assert "games.rules.variants" in edges["games.rules.board"]


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen, pending = set(), [start]
    while pending:
        for target in edges.get(pending.pop(), ()):
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return seen


def test_presentation_cannot_reach_the_database() -> None:
    """Sentences and board views are made from what a service passes in: nothing that
    ``games.presentation`` imports, directly or not, knows the models or the ORM."""
    modules = {"games.presentation", *reachable(graph(), "games.presentation")}
    assert "games.models" not in modules
    for module in modules:
        tree = ast.parse(MODULES[module].read_text())
        for node in module_level_imports(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names.append(getattr(node, "module", None) or "")
            assert not any(n.startswith("django.db") for n in names), module


def test_tools_live_outside_the_app() -> None:
    """Benchmarks and the load test are developers' tools (``tools/``), not the site's."""
    names = {module.rsplit(".", 1)[-1] for module in MODULES}
    assert not names & {"bench", "loadtest", "bench_solver"}


def test_a_cycle_is_found() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(edges) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


# The engine (games/rules) is rewritten on its own; its deferred imports are its own.
DJANGO_LAYER = [m for m in MODULES if not m.startswith("games.rules")]


@pytest.mark.parametrize("module", DJANGO_LAYER)
def test_no_games_module_is_imported_inside_a_function(module: str) -> None:
    """A function-local import of another ``games`` module hides a cycle; the app config's
    ``ready()`` (Django's place for connecting signal receivers) is the one exception."""
    tree = ast.parse(MODULES[module].read_text())
    hidden = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if module == "games.apps" and function.name == "ready":
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import | ast.ImportFrom) and imported(node, module):
                hidden.append(f"line {node.lineno}: {ast.unparse(node)}")
    assert not hidden, hidden
