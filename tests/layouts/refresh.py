"""Write a layout list (``tests/layouts/<owner>__<repo>.txt``) from a file list.

The file list (standard input) holds one path per line, relative to the
repository's root, as a release's archive has them (``tar tzf`` of an sdist
without its top folder, ``unzip -Z1`` of a wheel with the package's place in
the repository put back in front). Example::

    tar tzf vllm-0.34.0.tar.gz | cut -d/ -f2- | python tests/layouts/refresh.py \\
        --repo vllm-project/vllm --release "vllm 0.34.0, the PyPI sdist (the whole tree)" \\
        --commit "62d4bc3c7 (vllm/_version.py of that sdist)" --source-root vllm/ \\
        --roots "" vllm/ csrc/ tests/ --modules vllm/ > tests/layouts/vllm-project__vllm.txt

See docs/classification.md ("The repository's layout").
"""

from __future__ import annotations

import argparse
import sys


def entries(files: list[str], source_root: str, roots: list[str], modules: list[str]) -> list[str]:
    """Folders one and two levels below each root, and the .py files directly in ``modules``."""
    out = set()
    for path in files:
        if path.endswith("/") or "__pycache__" in path or ".egg-info" in path:
            continue
        for root in roots:
            if path.startswith(root):
                folders = path[len(root) :].split("/")[:-1]
                out.update(root + "/".join(folders[:depth]) + "/" for depth in (1, 2) if len(folders) >= depth)
        out.update(path for m in modules if path.startswith(m) and "/" not in path[len(m) :] and path.endswith(".py"))
    out.discard(source_root)
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", required=True)
    parser.add_argument("--release", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--roots", nargs="+", required=True, help='folders to list two levels deep ("" is the repository root)')
    parser.add_argument("--modules", nargs="*", default=[], help="folders whose top .py modules are listed")
    args = parser.parse_args()
    files = [line.strip() for line in sys.stdin if line.strip()]
    shown = ", ".join(r or "the repository root" for r in args.roots)
    print(f"# repo: {args.repo}")
    print(f"# release: {args.release}")
    print(f"# commit: {args.commit}")
    print(f"# source-root: {args.source_root}")
    print(f"# Folders one and two levels below {shown}, and the .py modules at the top of {', '.join(args.modules)}.")
    print("# Checked by tests/test_layouts.py; how to refresh: docs/classification.md.")
    for entry in entries(files, args.source_root, args.roots, args.modules):
        print(entry)


if __name__ == "__main__":
    main()
