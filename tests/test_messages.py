"""The exact text of every error and warning the conversion prints.

Messages about seeds and the model are also pinned in test_parse.py and
test_model.py; this file covers the taxonomy, prs.toml, unreadable files, the
command's own lines, and the full output of a failing run.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.sandbox import ROOT, TAXONOMY, convert, copy_project
from prnotes.diagnostics import InputError
from prnotes.parse.seeds import parse_prs
from prnotes.model.taxonomy import load_taxonomy

GOOD_TAXONOMY = (TAXONOMY / "taxonomy.toml").read_text(encoding="utf-8")
MINIMAL = '[[subsystem]]\nslug = "other"\ntitle = "其他"\n'
SHARED, DEFAULT = "taxonomy.toml", "taxonomy/default.toml"


def taxonomy_errors(tmp_path: Path, files: dict[str, str | bytes]) -> list[str]:
    """Problems of a project whose taxonomy is ``files`` (a minimal default set unless given)."""
    files = {SHARED: "", DEFAULT: MINIMAL, **files}
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    with pytest.raises(InputError) as info:
        load_taxonomy(tmp_path)
    return [str(p) for p in info.value.problems]


def test_real_taxonomy_loads():
    taxonomy = load_taxonomy(ROOT)
    assert taxonomy.fallback == "other"
    assert taxonomy.sets[-1].is_default and taxonomy.sets[0].flat_pages


RULES = '\n[[subsystem]]\nslug = "ci"\ntitle = "CI"\n'
SLUG_RECIPE = "must be lower-case letters and digits joined by single hyphens, at most 40 characters (like 'kv-cache')"
MARKUP = "titles are shown in badges and links as written; leave out ` < > \\"
O_R = "taxonomy/o__r.toml"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({DEFAULT: "[[subsystem]\n"}, [f"{DEFAULT}:1: invalid TOML: Expected ']]' at the end of an array declaration (column 12)"]),
        ({SHARED: b"# \xff\n"}, ["taxonomy.toml:1: invalid UTF-8: byte 0xff at column 3"]),
        ({DEFAULT: ""}, [f"{DEFAULT}:1: no [[subsystem]] tables"]),
        ({DEFAULT: 'subsystem = "ci"\n'}, [f"{DEFAULT}:1: 'subsystem' must be written as [[subsystem]] tables"]),
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\ntitle = "无名"\n'},
            [f"{DEFAULT}:5: [[subsystem]] #2: 'slug' must be a string"],
        ),
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\nslug = "ci"\ntitle = "CI"\ntitle_words = "CI"\n'},
            [f"{DEFAULT}:8: [[subsystem]] #2: 'title_words' must be a list of non-empty strings"],
        ),
        (
            {DEFAULT: MINIMAL + 'keywords = ["CI"]\n'},
            [
                f"{DEFAULT}:4: [[subsystem]] #1: unknown key 'keywords' "
                "(expected one of slug, title, intro, weight, title_words, body_words)"
            ],
        ),
        ({DEFAULT: MINIMAL + 'intro = 3\n'}, [f"{DEFAULT}:4: [[subsystem]] #1: 'intro' must be a string"]),
        ({DEFAULT: MINIMAL + 'weight = 0\n'}, [f"{DEFAULT}:4: [[subsystem]] #1: 'weight' must be a positive number"]),
        (
            {SHARED: MINIMAL},
            [
                "taxonomy.toml:1: unknown table 'subsystem' (expected one of weights, rule, audience, tag, aliases); "
                "subsystems are per repository, in taxonomy/<owner>__<repo>.toml and taxonomy/default.toml"
            ],
        ),
        (
            {DEFAULT: MINIMAL + '\n[[audience]]\nslug = "a"\ntitle = "A"\n'},
            [f"{DEFAULT}:5: unknown table 'audience' (expected one of flat_pages, subsystem, rule, paths)"],
        ),
        (
            {SHARED: '[weights]\nprefixes = 3\n'},
            [
                "taxonomy.toml:2: [weights]: unknown weight 'prefixes' "
                "(expected one of body, body_cap, code, code_cap, prefix, tag, title, title_cap)"
            ],
        ),
        ({SHARED: '[weights]\ncode_cap = 1.5\n'}, ["taxonomy.toml:2: [weights]: 'code_cap' must be a whole number ≥ 0"]),
        (
            {O_R: MINIMAL + '\n[[rule]]\nsubsystem = "ci"\nprefixes = ["CI"]\n'},
            [f"{O_R}:6: [[rule]] #1: names unknown subsystem 'ci'"],
        ),
        (
            {SHARED: '[[rule]]\nsubsystem = "ci"\nprefixes = ["CI"]\n'},
            ["taxonomy.toml:2: [[rule]] #1: names subsystem 'ci', which no set in taxonomy/ has"],
        ),
        (
            {O_R: MINIMAL + '\n[[rule]]\nsubsystem = "other"\n'},
            [f"{O_R}:5: [[rule]] #1: gives no prefixes, code, title_words or body_words"],
        ),
        ({"taxonomy/vllm.toml": MINIMAL}, ["taxonomy/vllm.toml:1: a subsystem set's file is named <owner>__<repo>.toml (like vllm-project__vllm.toml), or default.toml"]),
        ({"taxonomy/O__R.toml": MINIMAL, O_R: MINIMAL}, [f"{O_R}:1: o/r has a set already (taxonomy/O__R.toml)"]),
        (
            {"taxonomy/a__b_c.toml": MINIMAL, "taxonomy/a__b.c.toml": MINIMAL},
            ["taxonomy/a__b_c.toml:1: a/b_c and a/b.c (taxonomy/a__b.c.toml) would have the same subsystem pages: only one can have a set"],
        ),
        (
            {O_R: MINIMAL + RULES + '\n[[rule]]\nsubsystem = "ci"\nprefixes = ["CI"]\n'
             '\n[[rule]]\nsubsystem = "other"\nprefixes = ["ci"]\n'},
            [f"{O_R}:15: [[rule]] #2: prefixes entry 'ci' already speaks for subsystem 'ci' in o/r's rules"],
        ),
        (
            {O_R: MINIMAL + RULES + '\n[[rule]]\nsubsystem = "ci"\ncode = ["docs/"]\nweight = -1\n'},
            [f"{O_R}:12: [[rule]] #1: 'weight' must be a positive number"],
        ),
        (
            {O_R: 'flat_pages = true\n' + MINIMAL, "taxonomy/a__b.toml": 'flat_pages = true\n' + MINIMAL},
            [f"{O_R}:1: 'flat_pages' is already true in taxonomy/a__b.toml: only one set's pages can be notes/subsystem/<slug>"],
        ),
        ({DEFAULT: 'flat_pages = true\n' + MINIMAL}, [f"{DEFAULT}:1: 'flat_pages' is for a repository's set, not the default one"]),
        (
            {SHARED: '[[audience]]\nslug = "a"\ntitle = "A"\npatterns = ["(未闭合"]\n'},
            ["taxonomy.toml:1: [[audience]] #1: invalid regular expression '(未闭合': missing ): (未闭合"],
        ),
        (
            # RE2 has no look-around: such a pattern is refused, not run by a backtracking engine.
            {SHARED: '[[audience]]\nslug = "a"\ntitle = "A"\npatterns = ["(?<=a)b"]\n'},
            ["taxonomy.toml:1: [[audience]] #1: invalid regular expression '(?<=a)b': invalid perl operator: (?<="],
        ),
        ({SHARED: '[[tag]]\nslug = "t"\npatterns = ["x"]\n'}, ["taxonomy.toml:1: [[tag]] #1: 'title' must be a string"]),
        ({SHARED: '[aliases]\naiter = "aiter"\n'}, ["taxonomy.toml:1: [aliases] must map words to owner/repo strings"]),
        (
            {DEFAULT: '[[subsystem]]\nslug = "ci"\ntitle = "CI"\n'},
            [f"{DEFAULT}:1: a subsystem with slug 'other' is required (where notes no rule speaks for go)"],
        ),
        # Slugs name files: one recipe for all of them, no duplicates, no reserved names.
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\nslug = "../../../x"\ntitle = "X"\n'},
            [f"{DEFAULT}:6: [[subsystem]] #2: slug '../../../x' {SLUG_RECIPE}"],
        ),
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\ntitle = "X"\nslug = "../pr-index"\n'},
            [f"{DEFAULT}:7: [[subsystem]] #2: slug '../pr-index' {SLUG_RECIPE}"],
        ),
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\nslug = "ci"\ntitle = "CI"\n\n[[subsystem]]\ntitle = "CI 2"\nslug = "ci"\n'},
            [f"{DEFAULT}:11: [[subsystem]] #3: duplicate slug 'ci' (first at line 6)"],
        ),
        (
            {SHARED: '[[tag]]\nslug = "ROCm"\ntitle = "ROCm"\npatterns = ["ROCm"]\n'},
            [f"taxonomy.toml:2: [[tag]] #1: slug 'ROCm' {SLUG_RECIPE}"],
        ),
        (
            {SHARED: '[[tag]]\nslug = "a"\ntitle = "A"\npatterns = ["a"]\n\n[[tag]]\nslug = "a"\ntitle = "B"\npatterns = ["b"]\n'},
            ["taxonomy.toml:7: [[tag]] #2: duplicate slug 'a' (first at line 2)"],
        ),
        (
            {SHARED: '[[tag]]\nslug = "index"\ntitle = "I"\npatterns = ["i"]\n'},
            ["taxonomy.toml:2: [[tag]] #1: slug 'index' is reserved for the tag index page"],
        ),
        (
            {SHARED: '[[audience]]\nslug = "a"\ntitle = "A"\npatterns = ["a"]\n'
             '\n[[audience]]\nslug = "a"\ntitle = "B"\npatterns = ["b"]\n'},
            ["taxonomy.toml:7: [[audience]] #2: duplicate slug 'a' (first at line 2)"],
        ),
        (
            {SHARED: '[[audience]]\nslug = "for ci"\ntitle = "A"\npatterns = ["a"]\n'},
            [f"taxonomy.toml:2: [[audience]] #1: slug 'for ci' {SLUG_RECIPE}"],
        ),
        # Titles show as written: markup characters in one are refused with the line.
        (
            {DEFAULT: MINIMAL + '\n[[subsystem]]\nslug = "ci"\ntitle = "CI `x`"\n'},
            [f"{DEFAULT}:7: [[subsystem]] #2: 'title' holds `: {MARKUP}"],
        ),
        (
            {SHARED: '[[tag]]\nslug = "t"\ntitle = "T <x>"\npatterns = ["x"]\n'},
            [f"taxonomy.toml:3: [[tag]] #1: 'title' holds < >: {MARKUP}"],
        ),
    ],
    ids=[
        "syntax",
        "utf8",
        "empty",
        "not-tables",
        "missing-slug",
        "words-type",
        "unknown-key",
        "intro-type",
        "subsystem-weight",
        "subsystems-in-the-shared-file",
        "shared-table-in-a-set",
        "unknown-weight",
        "cap-not-whole",
        "unknown-subsystem",
        "shared-rule-for-no-set",
        "rule-without-signals",
        "set-file-name",
        "repo-twice",
        "repo-keys-alike",
        "prefix-for-two-subsystems",
        "rule-weight",
        "two-flat-sets",
        "flat-default",
        "bad-regex",
        "regex-look-behind",
        "tag-without-title",
        "bad-alias",
        "no-other",
        "slug-outside-repository",
        "slug-over-pr-index",
        "duplicate-subsystem-slug",
        "slug-upper-case",
        "duplicate-tag-slug",
        "reserved-tag-slug",
        "duplicate-audience-slug",
        "audience-slug-with-space",
        "markup-in-subsystem-title",
        "markup-in-tag-title",
    ],
)
def test_taxonomy_messages(tmp_path, files, expected):
    assert taxonomy_errors(tmp_path, files) == expected


def test_the_default_set_is_required(tmp_path):
    (tmp_path / SHARED).write_text("", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_taxonomy(tmp_path)
    assert [str(p) for p in info.value.problems] == [
        f"{DEFAULT}:1: the default subsystem set is missing: every repository without a set of its own is filed by it"
    ]


def test_a_project_without_a_taxonomy_is_filed_by_the_packaged_one(tmp_path):
    packaged = load_taxonomy(TAXONOMY)
    own = load_taxonomy(tmp_path)
    assert [s.path for s in own.sets] == [f"prnotes/starter/{s.path}" for s in packaged.sets]
    assert [sub.slug for s in own.sets for sub in s.subsystems] == [sub.slug for s in packaged.sets for sub in s.subsystems]


def test_problems_of_every_taxonomy_file_are_reported_together(tmp_path):
    assert taxonomy_errors(tmp_path, {SHARED: '[weights]\ncode_cap = -1\n', DEFAULT: ""}) == [
        "taxonomy.toml:2: [weights]: 'code_cap' must be a whole number ≥ 0",
        f"{DEFAULT}:1: no [[subsystem]] tables",
    ]


def test_missing_taxonomy(tmp_path):
    (tmp_path / "taxonomy").mkdir()
    (tmp_path / DEFAULT).write_text(MINIMAL, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_taxonomy(tmp_path)
    assert [str(p) for p in info.value.problems] == ["taxonomy.toml:1: cannot read the file: No such file or directory"]


def prs_errors(text: str) -> list[str]:
    with pytest.raises(InputError) as info:
        parse_prs("seeds/prs.toml", text.encode())
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('["o/r"\n', ["seeds/prs.toml:1: invalid TOML: Expected ']' at the end of a table declaration (column 7)"]),
        ('["o/r"]\n"t" = { number = 1\n', ["seeds/prs.toml:2: invalid TOML: Unclosed inline table (column 19)"]),
        ('x = 1\n', ["seeds/prs.toml:1: 'x' is not an owner/repo table"]),
        ('["vllm"]\n"t" = { number = 1 }\n', ["seeds/prs.toml:1: 'vllm' is not an owner/repo table"]),
        ('["o/r"]\n"t" = { number = 0 }\n', ["seeds/prs.toml:2: 't': number must be a whole number from 1 to 999999999"]),
        ('["o/r"]\n"t" = { number = true }\n', ["seeds/prs.toml:2: 't': number must be a whole number from 1 to 999999999"]),
        (
            '["o/r"]\n"t" = { number = 1, upstream_title = "a\\nb" }\n',
            ["seeds/prs.toml:2: 't': upstream_title must be a one-line string"],
        ),
        (
            '["o/r"]\n"t" = { number = 1, upstream_title = 5 }\n',
            ["seeds/prs.toml:2: 't': upstream_title must be a one-line string"],
        ),
        (
            # The line is found for the key itself, not for a longer key that contains it.
            '["o/r"]\n"ab" = { number = 1 }\n"a" = { number = -1 }\n',
            ["seeds/prs.toml:3: 'a': number must be a whole number from 1 to 999999999"],
        ),
        (
            '["o/r"]\n"t" = { number = 1234567890123456789012345 }\n',
            ["seeds/prs.toml:2: 't': number must be a whole number from 1 to 999999999"],
        ),
    ],
    ids=[
        "syntax",
        "unclosed",
        "not-a-table",
        "not-a-repo",
        "zero",
        "bool",
        "multi-line-upstream",
        "upstream-type",
        "key-line",
        "huge",
    ],
)
def test_prs_messages(text, expected):
    assert prs_errors(text) == expected


def run(proj: Path, capsys, *args: str) -> tuple[int, list[str]]:
    code = convert(proj, *args)
    return code, capsys.readouterr().err.splitlines()


def test_failing_run_prints_every_problem_and_a_summary(tmp_path, capsys):
    proj = copy_project(
        tmp_path / "p",
        {
            "a.txt": "o/r\n\nA (#1)\n\n值得精读。\n\nA\n\n值得精读。\n",
            "b.txt": "o/r\n\nB (#1)\n\n值得精读。\n",
            "c.txt": "o/r\n\nC\n",
            "prs.toml": '["o/r"]\n"A" = { number = 2 }\n',
        },
    )
    assert run(proj, capsys) == (
        1,
        [
            "error: seeds/c.txt:3: title 'C' has no body",
            "prnotes notes: 1 error(s); nothing written",
        ],
    )
    (proj / "seeds/c.txt").unlink()
    assert run(proj, capsys) == (
        1,
        [
            "error: seeds/a.txt:3: title says #1 but 'o/r' in prs.toml (line 2) says #2",
            "error: seeds/a.txt:7: duplicate title 'A' in o/r (first at seeds/a.txt:3)",
            "prnotes notes: 2 error(s); nothing written",
        ],
    )
    assert not (proj / "notes").exists()


def test_shared_page_is_an_error(tmp_path, capsys):
    proj = copy_project(
        tmp_path / "p", {"a.txt": "o/a-b\n\nA (#1)\n\n值得精读。\n", "b.txt": "o/a_b\n\nB (#1)\n\n值得精读。\n"}
    )
    assert run(proj, capsys) == (
        1,
        [
            "error: seeds/b.txt:1: o/a_b and o/a-b (seeds/a.txt:1) are two repositories whose pages would have "
            "the same names (notes/o/a-b/…): the site cannot hold both",
            "prnotes notes: 1 error(s); nothing written",
        ],
    )


def test_unreadable_seed(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。\n"})
    (proj / "seeds/b.txt").mkdir()
    assert run(proj, capsys) == (
        1,
        ["error: seeds/b.txt:1: cannot read the file: Is a directory", "prnotes notes: 1 error(s); nothing written"],
    )


def test_warnings_and_strict(tmp_path, capsys):
    seeds = {"a.txt": "o/r\n\n无关\n\n一段话。\n", "prs.toml": '["o/r"]\n"别的" = { number = 3 }\n'}
    proj = copy_project(tmp_path / "p", seeds)
    warnings = [
        "seeds/a.txt:3: no subsystem rule matches '无关'; filed under 'other'",
        "seeds/a.txt:5: no reading verdict found in the advice of '无关'",
        "seeds/prs.toml:2: prs.toml entry '别的' of o/r matches no seed entry",
    ]
    assert run(proj, capsys, "--strict") == (
        1,
        [f"error: {w}" for w in warnings] + ["prnotes notes: 3 warning(s) under --strict; nothing written"],
    )
    assert not (proj / "notes").exists()
    assert run(proj, capsys) == (0, [f"warning: {w}" for w in warnings])


def test_check_and_summary_lines(tmp_path, capsys):
    proj = copy_project(tmp_path / "p", {"a.txt": "o/r\n\nA (#1)\n\n值得精读。CI 门禁。\n\nB (#2)\n\n值得精读。CI。\n"})
    assert main_output(proj, capsys) == (
        0,
        "prnotes notes: 2 notes, 24 pages: 24 written, 0 unchanged, 0 removed\n",
    )
    (proj / "seeds/a.txt").write_text("o/r\n\nA (#1)\n\n值得精读。CI 门禁，改了。\n", encoding="utf-8")
    assert run(proj, capsys, "--check") == (
        1,
        [
            "out of date: index.md",
            "out of date: notes/digests/a.md",
            "out of date: notes/digests/index.md",
            "out of date: notes/feeds.md",
            "out of date: notes/o/r/pr-1.md",
            "out of date: notes/reading/close.md",
            "out of date: notes/reading/index.md",
            "out of date: notes/subsystem/o/r/ci.md",
            "stale: notes/o/r/pr-2.md",
            "prnotes notes: notes/ is out of date; run `make notes`",
        ],
    )


def main_output(proj: Path, capsys) -> tuple[int, str]:
    from prnotes.commands.cli import main

    code = main(["notes", "--root", str(proj)])
    return code, capsys.readouterr().out


NAME_RULE = (
    "rename the file: a seed file name may be any UTF-8 text ending in .txt, spaces and punctuation included, "
    "but no control, bidirectional control, line separator, private-use or noncharacter code points"
)


@pytest.mark.parametrize(
    ("name", "shown", "what"),
    [
        ("a\n# evil.txt", "a\\x0a# evil.txt", "control character U+000A"),
        ("一\t👍🏽.txt", "一\\x09👍🏽.txt", "control character U+0009"),
        ("abc\u202etxt.exe.txt", "abc\\u202etxt.exe.txt", "bidirectional control character U+202E"),
    ],
    ids=["newline", "tab", "bidi"],
)
def test_seed_file_name_with_a_control_character(tmp_path, capsys, name, shown, what):
    # Found by the audit: the name is on every page, and a newline in it
    # started a heading there.
    proj = copy_project(tmp_path / "p", {name: "o/r\n\nA (#1)\n\n值得精读。\n"})
    assert run(proj, capsys) == (
        1,
        [
            f"error: seeds/{shown}:1: the file name has {what}; {NAME_RULE}",
            "prnotes notes: 1 error(s); nothing written",
        ],
    )


@pytest.mark.parametrize(
    ("title", "number"),
    [("T (#12)", 12), ("T（#12）", 12), ("T (#0)", None), ("T (#١٢)", None), ("T (#1234567890)", None)],
    ids=["ascii", "full-width", "zero", "arabic-indic-digits", "ten-digits"],
)
def test_title_numbers(title, number):
    from prnotes.parse.seeds import split_title_number

    assert split_title_number(title) == (("T", number) if number else (title, None))


def test_the_command_exits_with_main_s_status_and_its_whole_output(tmp_path):
    # The console script ends with os._exit: nothing printed may be lost, and
    # the status is main's, usage errors and --help included.
    import subprocess
    import sys

    def command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "prnotes.commands.cli", *args], capture_output=True, text=True, cwd=tmp_path)

    proj = copy_project(tmp_path / "p", {f"{i:03}.txt": "o/r\n\nA (#1)\n\n值得精读。\n" for i in range(40)})
    bad = command("notes", "--root", str(proj))
    problems = bad.stderr.splitlines()
    assert bad.returncode == 1 and len(problems) == 40 and problems[-1] == "prnotes notes: 39 error(s); nothing written"
    assert command("--help").returncode == 0 and command("--help").stdout.startswith("usage: prnotes")
    assert command("no-such-command").returncode == 2
    assert command("audit", "--root", str(tmp_path / "nowhere")).returncode == 1  # a CommandError: no build


def test_the_pdf_build_s_sphinx_exits_with_sphinx_s_status_and_output(tmp_path):
    # python -m prnotes.build.sphinx_build: sphinx-build, ended with os._exit.
    import subprocess
    import sys

    def sphinx(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "prnotes.build.sphinx_build", *args], capture_output=True, text=True, cwd=tmp_path)

    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "conf.py").write_text("", encoding="utf-8")
    (tmp_path / "src" / "index.rst").write_text("Title\n=====\n\n:unknown-role:`x`\n", encoding="utf-8")
    assert sphinx("--version").returncode == 0 and sphinx("--version").stdout.startswith("sphinx-build ")
    assert sphinx("-b", "text", "-q", "src", "out").returncode == 0
    assert (tmp_path / "out" / "index.txt").read_text(encoding="utf-8").startswith("Title")
    failed = sphinx("-b", "text", "-q", "-W", "-E", "src", "out")
    assert failed.returncode == 1 and "unknown-role" in failed.stderr
    assert sphinx("-b").returncode == 2


def test_a_sphinx_error_is_sphinx_s_own_and_the_paths_are_the_project_s(tmp_path):
    # `prnotes build`: an error that stops Sphinx (an unknown builder) is
    # reported by Sphinx, with its status; an error in conf.py is found
    # before Sphinx starts, in one line with its line. Paths in Sphinx's
    # arguments are read from the project folder, --root's included.
    import subprocess
    import sys

    proj = copy_project(tmp_path / "p")

    def command(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "prnotes.commands.cli", *args], capture_output=True, text=True, cwd=tmp_path)

    stopped = command("build", "--root", str(proj), "--", "-q", "-b", "no-such-builder", ".", "_build/x")
    assert stopped.returncode == 2 and "no-such-builder" in stopped.stderr, stopped.stderr
    conf = (proj / "conf.py").read_text(encoding="utf-8")
    (proj / "conf.py").write_text(conf + "raise RuntimeError('boom')\n", encoding="utf-8")
    raised = command("build", "--notes", "-q", "--root", str(proj), "--", "-q", "-b", "html", ".", "_build/x")
    line = conf.count("\n") + 1
    assert (raised.returncode, raised.stderr) == (1, f"prnotes build: conf.py:{line}: RuntimeError: boom; nothing built\n")
    (proj / "conf.py").write_text(conf, encoding="utf-8")
    # An argument Sphinx does not know: said once, by Sphinx's parser.
    wrong = command("build", "--root", str(proj), "--", "--no-such-option", ".", "_build/x")
    assert wrong.returncode == 2 and wrong.stderr.count("usage:") == 1, wrong.stderr
    # Options without the folders get the site's folders; nothing at all is the site, converted first.
    options = command("build", "--root", str(proj), "-q", "--", "-q", "-j", "1")
    assert options.returncode == 0, options.stderr
    assert (proj / "_build/html/index.html").is_file() and (proj / "_build/doctrees").is_dir()
    shutil.rmtree(proj / "_build")
    (proj / "index.md").unlink()
    none = command("build", "--root", str(proj), "-q")
    assert none.returncode == 0, none.stderr
    assert (proj / "index.md").is_file() and (proj / "_build/html/index.html").is_file()
    shutil.rmtree(proj / "_build")

    built = command("build", "--notes", "-q", "--root", str(proj), "--", "-q", "-b", "html", ".", "_build/html")
    assert built.returncode == 0, built.stderr
    assert (proj / "_build/html/index.html").is_file() and not (tmp_path / "_build").exists()
    # A quiet build says nothing but that this copy has no git to date digests by.
    assert built.stdout == ""
    lines = built.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("warning: ") and "not in a git repository" in lines[0], built.stderr


def test_a_root_that_loops_is_named(tmp_path, capsys):
    from prnotes.commands.cli import main

    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main(["notes", "--root", str(loop)]) == 2
    assert capsys.readouterr().err == f"prnotes notes: {loop} is a link that loops back on itself; pass a project folder\n"
