"""The errors and warnings of the package: the CLI's problems, with their paths."""

from __future__ import annotations

from collections.abc import Sequence

Problem = tuple[str, str]
"""A problem: its path (``shares[0].borrow_limit``; ``""`` for the input as a whole) and
its message."""


class ScenarioError(ValueError):
    """The engine refused an input, as ``quotasim`` does with exit code 2.

    ``problems`` lists every problem as ``(path, message)``; ``str(error)`` is exactly the
    lines ``quotasim`` writes on standard error (``error: PATH: MESSAGE``, one per line).
    """

    problems: list[Problem]
    lines: list[str]

    def __init__(self, problems: Sequence[tuple[str, str, str]]) -> None:
        self.problems = [(p, m) for p, m, _ in problems]
        self.lines = [f"error: {line}" for _, _, line in problems]
        super().__init__("\n".join(self.lines))

    def __reduce__(self):  # picklable across processes (Dask, Ray, process pools)
        return (
            _rebuild,
            ([(p, m, line[len("error: ") :]) for (p, m), line in zip(self.problems, self.lines)],),
        )


def _rebuild(problems: Sequence[tuple[str, str, str]]) -> ScenarioError:
    return ScenarioError(problems)


class ScenarioWarning(UserWarning):
    """A warning of the validator or an import (``warning: PATH: MESSAGE`` on the CLI)."""
