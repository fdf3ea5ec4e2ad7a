"""What a subcommand of ``prnotes`` declares: its name, help, options and what it runs.

:mod:`prnotes.cli` turns these declarations into the argument parser, adds
``--root`` to each, and prints every error, so a subcommand module holds only
its own logic and one :class:`Command`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One argument: argparse's ``add_argument(*names, **settings)``."""

    names: tuple[str, ...]
    settings: tuple[tuple[str, Any], ...]

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.names, **dict(self.settings))


def flag(*names: str, help: str) -> Option:  # noqa: A002 - argparse's name
    """An option that is off unless given."""
    return Option(names, (("action", "store_true"), ("help", help)))


def argument(*names: str, help: str, **settings: Any) -> Option:  # noqa: A002 - argparse's name
    """An option or positional argument that takes a value (argparse's settings)."""
    return Option(names, (*sorted(settings.items()), ("help", help)))


@dataclass(frozen=True)
class Command:
    """A subcommand: ``prnotes <name> [options]`` calls ``run(args)`` for the exit status.

    ``args.root`` is the project folder and ``args.tool`` the command's name
    for messages (``prnotes <name>``).
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    options: tuple[Option, ...] = ()
