"""The seed format and every bad-input case, with exact messages."""

from __future__ import annotations

import pytest

from prnotes.diagnostics import InputError
from prnotes.parse.seeds import parse_prs, parse_seed

GOOD = "vllm-project/vllm\n\n标题一 (#12)\n\n正文一。\n\n标题二\n\n### 阅读建议 值得精读。\n第二行。\n"


def test_parses_titles_bodies_numbers_and_lines():
    seed = parse_seed("s.txt", GOOD.encode())
    assert seed.repo == "vllm-project/vllm"
    assert [(e.title, e.number, e.line, e.body_line) for e in seed.entries] == [
        ("标题一", 12, 3, 5),
        ("标题二", None, 7, 9),
    ]
    # The digest tool's label is not advice text; the second line stays.
    assert seed.entries[1].body == "值得精读。\n第二行。"


@pytest.mark.parametrize(
    "data",
    [
        GOOD.encode(),
        b"\xef\xbb\xbf" + GOOD.encode(),  # BOM
        GOOD.replace("\n", "\r\n").encode(),  # CRLF
        ("  vllm-project/vllm  \n\n\n\n" + GOOD.split("\n", 2)[2] + "\n\n\n").encode(),
    ],
    ids=["lf", "bom", "crlf", "extra-blank-lines"],
)
def test_equivalent_spellings_parse_the_same(data):
    def content(raw):
        return [(e.repo, e.title, e.body, e.number) for e in parse_seed("s.txt", raw).entries]

    assert content(data) == content(GOOD.encode())


def test_full_width_number():
    seed = parse_seed("s.txt", "o/r\n\n标题（#345）\n\n正文\n".encode())
    assert (seed.entries[0].title, seed.entries[0].number) == ("标题", 345)


def messages(data: bytes, path: str = "seeds/x.txt") -> list[str]:
    with pytest.raises(InputError) as info:
        parse_seed(path, data)
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", ["seeds/x.txt:1: empty file: expected owner/repo on line 1"]),
        (b"\n  \n", ["seeds/x.txt:1: empty file: expected owner/repo on line 1"]),
        (
            "标题\n\n正文\n".encode(),
            ["seeds/x.txt:1: line 1 must be the repository as owner/repo, found '标题'"],
        ),
        (b"vllm\n\nt\n\nb\n", ["seeds/x.txt:1: line 1 must be the repository as owner/repo, found 'vllm'"]),
        (b"o/r\n", ["seeds/x.txt:1: no entries after the repository line"]),
        (b"o/r\n\nt1\n\nb1\n\nt2\n", ["seeds/x.txt:7: title 't2' has no body"]),
        (
            b"o/r\n\nline a\nline b\n\nbody\n",
            [
                "seeds/x.txt:3: title block has 2 lines; a title is one line, "
                "followed by a blank line and its body"
            ],
        ),
        (b"o/r\n\nt\n\nok\n\nt2\n\nbad \xff byte\n", ["seeds/x.txt:9: invalid UTF-8: byte 0xff at column 5"]),
        (b"o/r\n\nt\n\nbell\x07\n", ["seeds/x.txt:5: control character U+0007 is not allowed"]),
        ("o/r\n\nt\n\n### 阅读建议 \n".encode(), ["seeds/x.txt:5: body of 't' is only a label"]),
        ("o/r\n\n(#5)\n\nb\n".encode(), ["seeds/x.txt:3: title is empty"]),
    ],
    ids=[
        "empty",
        "blank",
        "no-repo-line",
        "malformed-repo",
        "no-entries",
        "title-without-body",
        "two-line-title",
        "invalid-utf8",
        "control-char",
        "label-only-body",
        "number-only-title",
    ],
)
def test_bad_input_names_file_and_line(data, expected):
    assert messages(data) == expected


def test_every_problem_in_a_file_is_reported():
    data = b"o/r\n\nt1\nt1b\n\nb1\n\nt2\n\nb2\n\nt3\n"
    assert messages(data) == [
        "seeds/x.txt:3: title block has 2 lines; a title is one line, followed by a blank line and its body",
        "seeds/x.txt:12: title 't3' has no body",
    ]


def test_prs_toml():
    text = '["o/r"]\n"标题" = { number = 7, upstream_title = "[CI] Fix" }\n'
    info = parse_prs("seeds/prs.toml", text.encode())[("o/r", "标题")]
    assert (info.number, info.upstream_title, info.line) == (7, "[CI] Fix", 2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('["o/r"]\n"t" = { number = "x" }\n', "seeds/prs.toml:2: 't': number must be a whole number from 1 to 999999999"),
        ('["o/r"]\n"t" = { number = 1, colour = 2 }\n', "seeds/prs.toml:2: 't': unknown keys colour"),
        ('["o/r"]\n"t" = 5\n', 'seeds/prs.toml:2: \'t\': expected { number = N, upstream_title = "…" }'),
        ('["o/r"\n', None),
    ],
    ids=["number-type", "unknown-key", "not-a-table", "syntax"],
)
def test_bad_prs_toml(text, expected):
    with pytest.raises(InputError) as info:
        parse_prs("seeds/prs.toml", text.encode())
    message = str(info.value.problems[0])
    if expected is None:
        assert message.startswith("seeds/prs.toml:1: invalid TOML:")
    else:
        assert message == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The body of the first entry is missing: the second title is not its body.
        (
            "o/r\n\n第一个标题 (#1)\n\n第二个标题 (#2)\n\n值得精读。第二个的正文。\n\n第三个标题 (#3)\n\n值得快速浏览。\n",
            ["seeds/x.txt:3: title '第一个标题 (#1)' has no body"],
        ),
        # In the middle.
        (
            "o/r\n\nA (#1)\n\n值得精读。正文 A。\n\nB (#2)\n\nC (#3)\n\n这是 C 的正文，很长也没有句号\n\nD (#4)\n\n值得快速浏览。\n",
            ["seeds/x.txt:7: title 'B (#2)' has no body"],
        ),
        # At the end, with short bodies that read like titles: the last one.
        ("o/r\n\nt1\n\nb1\n\nt2\n\nb2\n\nt3\n", ["seeds/x.txt:11: title 't3' has no body"]),
    ],
    ids=["first", "middle", "last"],
)
def test_a_title_without_body_is_named_where_it_is(text, expected):
    assert messages(text.encode()) == expected


def test_a_title_without_body_leaves_the_other_entries_paired():
    from prnotes.parse.seeds import _blocks, _title_without_body

    lines = "o/r\n\nA (#1)\n\nB (#2)\n\n值得精读。\n\nC (#3)\n\n值得精读。\n".split("\n")
    assert _title_without_body(_blocks(lines, 1)) == 0
    assert _title_without_body(_blocks(lines[:-3], 1)) is None  # an even count: nothing to find


def test_a_seed_file_name_too_long_for_its_pages_is_refused(tmp_path):
    """The digest page and its temporary file are named after the seed: a name
    the file system would refuse there is refused here, at the file."""
    from prnotes.parse.seeds import MAX_NAME_BYTES, read_seeds
    from prnotes.diagnostics import InputError

    seeds = tmp_path / "seeds"
    seeds.mkdir()
    ok = "0" * (MAX_NAME_BYTES - 4) + ".txt"
    (seeds / ok).write_text("o/r\n\nT (#5)\n\n值得精读。\n", encoding="utf-8")
    assert [s.path for s in read_seeds(seeds, tmp_path)[0]] == [f"seeds/{ok}"]
    long = "长" * 80 + ".txt"  # 244 bytes
    (seeds / long).write_text("o/r\n\nU (#6)\n\n值得精读。\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_seeds(seeds, tmp_path)
    assert [str(p) for p in info.value.problems] == [
        f"seeds/{long}:1: the file name is 244 bytes long; rename the file: a seed file name may have at most "
        f"{MAX_NAME_BYTES} bytes in UTF-8 (its digest page and the build's files are named after it)"
    ]
