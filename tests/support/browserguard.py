"""What every browser test fails on: a JavaScript error or an HTTP error.

Each Playwright context the tests and benchmarks open comes from
:func:`guarded_context`, which records, for every page of the context:

- an uncaught exception or rejected promise (``pageerror``),
- a ``console.error`` message (the browser logs one for a resource that
  fails to load, and search.js one for a Sphinx it was not written for),
- a response with HTTP status 400 or more, for the page or any asset or
  fetch it makes.

:meth:`Guard.check` raises :class:`BrowserProblems` with one line per problem;
the kit calls it after every page it drives, and ``tests/conftest.py`` calls
it for every guard after every test, so a test that forgets still fails.
An init script also keeps the errors in the page (``window.__prnotesErrors``)
so that :meth:`Guard.wait_for` stops waiting at the first one instead of
running into its timeout: a broken search fails in a second, not after the
timeout.

Timeouts are short (:data:`TIMEOUT_MS`): a page of the fixture site loads in
well under a second, so a wait that takes longer is a failure.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

TIMEOUT_MS = 10_000

INIT_SCRIPT = """
(() => {
  const errors = [];
  Object.defineProperty(window, "__prnotesErrors", {value: errors});
  window.addEventListener("error", (e) => errors.push(`pageerror: ${e.message}`));
  window.addEventListener("unhandledrejection", (e) => errors.push(`unhandled rejection: ${e.reason}`));
  const original = console.error;
  console.error = (...args) => {
    errors.push(`console.error: ${args.join(" ")}`);
    original.apply(console, args);
  };
})();
"""

_GUARDS: weakref.WeakSet = weakref.WeakSet()


class BrowserProblems(AssertionError):
    """A page showed a JavaScript error or answered with an HTTP error."""


@dataclass(eq=False)
class Guard:
    """The problems of one browser context, in the order they happened."""

    problems: list[str] = field(default_factory=list)

    def attach(self, page) -> None:
        page.on("pageerror", lambda error: self.problems.append(f"{page.url}: pageerror: {error}"))
        page.on(
            "console",
            lambda message: message.type == "error"
            and self.problems.append(f"{page.url}: console.error: {message.text}"),
        )

    def response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def take(self) -> list[str]:
        """The problems so far, forgotten once returned."""
        found, self.problems[:] = list(self.problems), []
        return found

    def expect(self, page) -> list[str]:
        """The problems so far, which the test expected: forgotten, here and in ``page``."""
        page.evaluate("() => { window.__prnotesErrors.length = 0; }")
        return self.take()

    def check(self) -> None:
        found = self.take()
        if found:
            raise BrowserProblems("the browser reported:\n" + "\n".join(sorted(set(found), key=found.index)))

    def wait_for(self, page, expression: str, timeout: float = TIMEOUT_MS, polling: float = 10) -> None:
        """Wait until ``expression`` (a JavaScript function) is true, or a
        JavaScript error happens in the page; then :meth:`check`."""
        page.wait_for_function(
            f"() => window.__prnotesErrors.length > 0 || Boolean(({expression})())", timeout=timeout, polling=polling
        )
        self.check()


def guarded_context(browser, timeout: float = TIMEOUT_MS, **options):
    """A new browser context with a :class:`Guard` on it: ``(context, guard)``."""
    context = browser.new_context(**options)
    context.set_default_timeout(timeout)
    guard = Guard()
    context.add_init_script(INIT_SCRIPT)
    context.on("page", guard.attach)
    context.on("response", guard.response)
    _GUARDS.add(guard)
    return context, guard


def pending_problems() -> list[str]:
    """What every guard still holds, forgotten once returned (for conftest)."""
    return [p for guard in list(_GUARDS) for p in guard.take()]
