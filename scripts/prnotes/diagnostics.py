"""Errors and warnings that point at a ``file:line``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class Located(Protocol):
    """Anything read from a ``path`` at a ``line`` (a seed entry, a prs.toml key)."""

    path: str
    line: int


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in an input file; sorts by location."""

    path: str
    line: int
    message: str

    @classmethod
    def at(cls, where: Located, message: str) -> Diagnostic:
        """A problem at the place ``where`` was read from."""
        return cls(where.path, where.line, message)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def place(where: Located) -> str:
    """``path:line`` of ``where``, for a message that points at a second place."""
    return f"{where.path}:{where.line}"


class InputError(Exception):
    """Raised when inputs are invalid; carries every problem found."""

    def __init__(self, problems: list[Diagnostic]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class CommandError(Exception):
    """A command failed for a reason other than bad input; the message says why."""
