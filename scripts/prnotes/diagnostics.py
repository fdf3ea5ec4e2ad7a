"""Errors and warnings that point at a ``file:line``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in an input file; sorts by location."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class InputError(Exception):
    """Raised when inputs are invalid; carries every problem found."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CommandError(Exception):
    """A command failed for a reason other than bad input; the message says why."""
