"""The package's layout: no import circles in scripts/prnotes/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "prnotes"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the package modules it imports (at the top or in a function).

    ``from . import x`` imports the module ``x``, not its package.
    """
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                named = [f"{target}.{alias.name}" for alias in node.names if f"{target}.{alias.name}" in modules]
                graph[name].update(named or ([target] if target in modules else []))
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in modules)
        graph[name].discard(name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles():
    assert circles(imports(_modules())) == []


def test_the_check_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# --- a house a newcomer finds their way in (issue 42) ----------------------

ROOT = PACKAGE.parents[1]
_PATH_RE = re.compile(
    r"(?<![\w/.])(?:scripts/)?(?:prnotes/)?((?:sphinxext|render|model|parse|write|build|commands|search|facts|links|lists|page|site|book|static|templates|starter)/[\w/.-]+?\.(?:py|sty|js|toml|json|html|css))(?![\w])"
)
_DOTTED_RE = re.compile(r"(?<![\w.])prnotes(?:\.[a-z_]+){2,}")
# Not ours: the theme's own template, a host name.
_OTHERS = {"static/webpack-macros.html", "prnotes.example.org"}


def _resolves(parts: list[str]) -> bool:
    """A module, or a name of one: a module file's attribute, or a name a package's __init__ has."""
    path = PACKAGE.parent.joinpath(*parts)
    if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
        return True
    parent = PACKAGE.parent.joinpath(*parts[:-1])
    if parent.with_suffix(".py").exists():
        return _resolves(parts[:-1])
    init = parent / "__init__.py"
    return init.exists() and parts[-1] in init.read_text(encoding="utf-8")


def missing_references(texts: dict[str, str]) -> list[tuple[str, str]]:
    """``(where, name)`` of every package file or module a text names that does not exist."""
    found = []
    for where, text in texts.items():
        for match in _PATH_RE.finditer(text):
            rel = match.group(1)
            if rel not in _OTHERS and not any((base / rel).exists() for base in (PACKAGE, PACKAGE / "sphinxext")):
                found.append((where, rel))
        for match in _DOTTED_RE.finditer(text):
            if match.group() not in _OTHERS and not _resolves(match.group().split(".")):
                found.append((where, match.group()))
    return sorted(set(found))


def test_the_docs_name_only_what_exists():
    texts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]}
    texts |= {
        p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(PACKAGE.rglob("*"))
        if p.suffix in (".py", ".html", ".css", ".js", ".sty") and "__pycache__" not in p.parts
    }
    assert missing_references(texts) == []


def test_the_docs_check_sees_a_missing_module():
    assert missing_references({"x.md": "see `sphinxext/nowhere.py` and prnotes.model.nowhere, not prnotes.dates"}) == [
        ("x.md", "prnotes.model.nowhere"),
        ("x.md", "sphinxext/nowhere.py"),
    ]


def test_one_setup_calls_one_setup_per_component():
    init = (PACKAGE / "sphinxext" / "__init__.py").read_text(encoding="utf-8")
    components = sorted(p.parent.name for p in (PACKAGE / "sphinxext").glob("*/__init__.py"))
    assert components == ["book", "facts", "links", "lists", "page", "search", "site"]
    for name in components:
        assert f"def setup_{name}(app" in (PACKAGE / "sphinxext" / name / "__init__.py").read_text(encoding="utf-8")
        assert f"    setup_{name}(app)\n" in init
def test_no_folder_of_the_package_holds_more_than_a_dozen_modules():
    crowded = {
        folder.relative_to(PACKAGE).as_posix(): n
        for folder in [PACKAGE, *PACKAGE.rglob("*")]
        if folder.is_dir() and (n := len(list(folder.glob("*.py")))) > 12
    }
    assert crowded == {}




def test_vulture_finds_no_dead_code():
    """Nothing in the package that nothing calls (tests/vulture_whitelist.py
    names what Sphinx, docutils and the templates use by name)."""
    import subprocess
    import sys

    found = subprocess.run(
        [sys.executable, "-m", "vulture", str(PACKAGE), str(ROOT / "tests" / "vulture_whitelist.py"), "--min-confidence", "60"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert (found.returncode, found.stdout) == (0, ""), found.stdout
