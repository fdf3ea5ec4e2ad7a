"""Write a definitions list (``scripts/prnotes/model/definitions/<owner>__<repo>.txt``)
from a release's source archive: where the repository defines each name.

A note that cites ``XgrammarBackend`` or ``StructuredOutputManager.grammar_bitmask()``
and no path is filed by the module that defines the name (prnotes.model.filing).
The list holds, for each Python module of the package, the names defined at
its top level (classes and functions) when no other module defines the same
name and no module or folder of the package has it as its name
(``fused_moe`` is a folder of vLLM and a function elsewhere); only names that
read as code (CamelCase, or with an ``_`` inside) of 6 characters or more.
A name that another module uses as a variable (an argument, a keyword, an
assigned name or attribute, a field: ``separate_reasoning`` is an argument
of the server and a function of SGLang's frontend language; an alias such as
``PreTrainedTokenizerFast = TokenizersBackend``) is left out too, as are
methods: ``tp_size`` or ``silu_and_mul`` as a method of one class says little
about where a note belongs. Example::

    python tests/layouts/definitions.py /tmp/sd/vllm-0.34.0.tar.gz --package vllm/ \\
        --repo vllm-project/vllm --release "vllm 0.34.0, the PyPI sdist" \\
        --commit "62d4bc3c7 (vllm/_version.py of that sdist)" \\
        > scripts/prnotes/model/definitions/vllm-project__vllm.txt

``--package`` is the package's folder inside the archive (after its top
folder); ``--place`` is put in front of it to give the path in the repository
(``--package sglang/ --place python/``). See docs/classification.md.
"""

from __future__ import annotations

import argparse
import ast
import functools
import re
import sys
import tarfile
import zipfile
from collections import defaultdict

# CamelCase (a hump after the first), or an "_" inside; a leading "_" allowed.
_CODE_NAME_RE = re.compile(r"_?(?:[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+|[A-Z]{2,}[a-z][A-Za-z0-9]+)")
_DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def defined(tree: ast.Module) -> set[str]:
    """The top-level classes and functions of a module."""
    return {node.name for node in tree.body if isinstance(node, _DEFINITIONS)}


def variables(tree: ast.Module) -> set[str]:
    """The names a module uses as variables: arguments, keywords, assigned names and attributes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            names.add(node.id if isinstance(node, ast.Name) else node.attr)
    return names


def _files(archive: str):
    """(path, how to read it, or None for a folder) of each member: an sdist's
    paths after its top folder, a wheel's as they are (PyTorch publishes no
    sdist; its wheel holds the package's Python source)."""
    if archive.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as wheel:
            for info in wheel.infolist():
                yield info.filename, (None if info.is_dir() else functools.partial(wheel.read, info))
        return
    with tarfile.open(archive) as tar:
        for member in tar:
            yield member.name.split("/", 1)[-1], (functools.partial(_read, tar, member) if member.isfile() else None)


def _read(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    return tar.extractfile(member).read()


def definitions(archive: str, package: str, place: str) -> dict[str, list[str]]:
    """Module path -> the names only it defines, sorted."""
    where: dict[str, set[str]] = defaultdict(set)
    used: dict[str, set[str]] = defaultdict(set)  # a name -> the modules that use it as a variable
    stems: set[str] = set()  # the names of the package's modules and folders
    for path, read in _files(archive):
        if path.startswith(package):
            stems.update(part.removesuffix(".py") for part in path.split("/"))
        if read is None or not path.endswith(".py") or not path.startswith(package):
            continue
        try:
            tree = ast.parse(read())
        except (SyntaxError, ValueError):
            continue  # a template or a file for another Python: it defines nothing here
        for name in defined(tree):
            where[name].add(place + path)
        for name in variables(tree):
            used[name].add(place + path)
    out: dict[str, list[str]] = defaultdict(list)
    for name, paths in where.items():
        if len(paths) == 1 and len(name) >= 6 and name not in stems and used[name] <= paths and _CODE_NAME_RE.fullmatch(name):
            out[next(iter(paths))].append(name)
    return {path: sorted(names) for path, names in sorted(out.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", help="the release's source archive (.tar.gz), or a wheel that holds the source (.whl)")
    parser.add_argument("--package", required=True, help="the package's folder inside the archive, e.g. vllm/")
    parser.add_argument("--place", default="", help="put in front of the package's paths, e.g. python/")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--release", required=True)
    parser.add_argument("--commit", required=True)
    args = parser.parse_args()
    found = definitions(args.archive, args.package, args.place)
    out = sys.stdout
    out.write(f"# repo: {args.repo}\n# release: {args.release}\n# commit: {args.commit}\n")
    out.write("# Each line: a module's path in the repository, then the names only it defines (tests/layouts/definitions.py).\n")
    for path, names in found.items():
        out.write(f"{path} {' '.join(names)}\n")


if __name__ == "__main__":
    main()
