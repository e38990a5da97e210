"""The examples in docstrings run: every module of ``games`` (the engine's first) is
checked with ``doctest``, so an example that drifts from the code fails the suite."""

import doctest
import importlib
import pkgutil

import pytest

import games

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(games.__path__, prefix="games.")
    # Migrations are generated; a __main__ module runs its command line when imported.
    if ".migrations" not in info.name and not info.name.endswith(".__main__")
)


def test_the_engine_modules_are_found() -> None:
    assert {"games.rules.variants", "games.rules.cards", "games.presentation"} <= set(MODULES)


def test_the_engine_has_examples() -> None:
    found = doctest.DocTestFinder().find(importlib.import_module("games.rules.cards"))
    assert sum(len(test.examples) for test in found) > 0


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_a_wrong_example_fails() -> None:
    def wrong() -> None:
        """
        >>> 1 + 1
        3
        """

    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(verbose=False)
    for test in finder.find(wrong, "wrong", globs={}):
        runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 1
