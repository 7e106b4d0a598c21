"""The CSV reader against random and hostile input: it reads or it reports, and never raises.

Whatever the bytes, `decode_upload` either gives text or raises `UndecodableFile` (the one
domain error), and `parse_games_csv` returns games and problems. Every problem names a line
of the file and a field (a column, "players", "note" or "row"); every game it returns is one
the database can store: 2 to MAX_PLAYERS players, names of 1 to 100 characters without control
characters, a note without NUL, a valid ranking.
"""

import csv
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.domain.csvformat import (
    MAX_PLAYERS,
    NAME_MAX_LENGTH,
    NOTE_MAX_LENGTH,
    UndecodableFile,
    decode_upload,
    parse_games_csv,
)
from leagues.domain.ranking import is_valid_ranking

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
FIELD = re.compile(r"^(column [A-Z]+( \(.+\))?|players|note|row)$")


def physical_lines(text: str) -> int:
    return len(re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")))


def assert_read_or_reported(text: str) -> None:
    """The contract of parse_games_csv on any text (see the module docstring)."""
    parsed = parse_games_csv(text)
    last_line = physical_lines(text) + 1
    for problem in [*parsed.problems, *parsed.warnings]:
        assert 1 <= problem.line <= last_line, problem
        assert FIELD.match(problem.field), problem
        assert problem.message.strip(), problem
        assert str(problem).startswith(f"line {problem.line}, ")
    bad_lines = {p.line for p in parsed.problems}
    lines = [g.line for g in parsed.games]
    assert lines == sorted(set(lines))
    for game in parsed.games:
        assert game.line not in bad_lines
        assert 2 <= len(game.finishers) <= MAX_PLAYERS
        names = [f.name for f in game.finishers]
        assert len({n.lower() for n in names}) == len(names)
        for name in names:
            assert 1 <= len(name) <= NAME_MAX_LENGTH
            assert not CONTROL.search(name)
            assert name == name.strip()
        assert "\x00" not in game.note
        assert len(game.note) <= NOTE_MAX_LENGTH
        assert is_valid_ranking([f.place for f in game.finishers])


def assert_decoded_or_refused(data: bytes) -> None:
    try:
        text, warning = decode_upload(data)
    except UndecodableFile as error:
        assert str(error)
        return
    assert "\x00" not in text
    assert warning is None or "Windows-1252" in warning
    assert_read_or_reported(text)


# --- Random bytes and random text -------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_are_decoded_and_read_or_refused(data):
    assert_decoded_or_refused(data)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000))
def test_random_text_is_read_or_reported(text):
    assert_read_or_reported(text)


HOSTILE_CELLS = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "Ann",
            "ann",
            "Bob",
            "=cmd()",
            '=HYPERLINK("http://x","y")',
            "+1",
            "-2+3",
            "@SUM(A1)",
            "\t=tab",
            "\r=cr",
            "'=quoted",
            "'",
            '"',
            '""',
            '"unclosed',
            "a,b",
            "line\nbreak",
            "\x00",
            "Bo\x00b",
            "\x07bell",
            "\ufeff",
            "\u202eevil",
            "İlker",
            "ilker",
            "ß",
            "SS",
            "🂡",
            "x" * 10_000,
            "y" * 101,
            "{",
            '{"places": [1, 1]}',
            '{"places": [1, 2, 2, 4], "seats": [1, 2, 3, 4]}',
            '{"stats": [{"a": 1e999}, {}]}',
            '{"places": ' + "[" * 5000 + "]" * 5000 + "}",
            '{"places": [' + "9" * 5000 + ", 1]}",
            "2022-01-01",
            "1/2/2022",
            "2/30/2022",
            "0001-01-01",
            "9999-12-31",
            "date",
            "game_id",
        ]
    ),
    st.text(max_size=30),
)


@st.composite
def hostile_files(draw) -> str:
    rows = []
    for _ in range(draw(st.integers(0, 12))):
        cells = [draw(HOSTILE_CELLS)]
        cells.append(draw(st.one_of(st.sampled_from(["2022-01-01", "3/4/2020"]), HOSTILE_CELLS)))
        cells += draw(st.lists(HOSTILE_CELLS, max_size=8))
        rows.append(cells)
    quoted = draw(st.booleans())
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    if quoted:
        out = []
        for cells in rows:
            out.append(",".join('"' + c.replace('"', '""') + '"' for c in cells))
        text = end.join(out)
    else:
        text = end.join(",".join(cells) for cells in rows)
    prefix = draw(st.sampled_from(["", "\ufeff", "game_id,date,player,placement\n", "id,date\n"]))
    return prefix + text


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hostile_files())
def test_hostile_files_are_read_or_reported(text):
    assert_read_or_reported(text)
    assert_decoded_or_refused(text.encode("utf-8"))


# --- Encodings --------------------------------------------------------------------------------

PLAIN = ",2022-01-01,Zoë,Ann\r\n,2022-01-02,Ann,Zoë\r\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_refused_with_a_reason(encoding):
    with pytest.raises(UndecodableFile, match="NUL"):
        decode_upload(PLAIN.encode(encoding))


@pytest.mark.parametrize(
    ("data", "warned"),
    [
        (PLAIN.encode("utf-8"), False),
        (PLAIN.encode("utf-8-sig"), False),
        (PLAIN.encode("cp1252"), True),
        (PLAIN.encode("latin-1"), True),  # é, ë are the same bytes in both
    ],
    ids=["utf-8", "utf-8-bom", "windows-1252", "latin-1"],
)
def test_utf8_with_or_without_bom_and_ansi_read_the_same_names(data, warned):
    text, warning = decode_upload(data)

    parsed = parse_games_csv(text)

    assert (warning is not None) == warned
    assert parsed.problems == []
    assert [[f.name for f in g.finishers] for g in parsed.games] == [["Zoë", "Ann"], ["Ann", "Zoë"]]


def test_latin1_bytes_that_windows_1252_lacks_are_refused():
    with pytest.raises(UndecodableFile, match="neither UTF-8 nor Windows-1252"):
        decode_upload(",2022-01-01,\x81nn,Bob\n".encode("latin-1"))


# --- One hostile thing at a time, each reported where it is ----------------------------------


def only_problem(text: str):
    parsed = parse_games_csv(text)
    assert parsed.games == [] or all(g.line != parsed.problems[0].line for g in parsed.games)
    return parsed.problems


def test_a_name_of_ten_thousand_characters_is_reported_in_its_column():
    problems = only_problem(",2022-01-01,Ann," + "x" * 10_000 + "\n")

    assert [(p.line, p.field) for p in problems] == [(1, "column D (2nd place)")]
    assert f"longer than {NAME_MAX_LENGTH}" in problems[0].message


def test_a_row_of_ten_thousand_players_is_reported_not_imported():
    names = ",".join(f"P{i}" for i in range(10_000))

    problems = only_problem(f",2022-01-01,{names}\n,2022-01-02,Ann,Bob\n")

    assert [(p.line, p.field) for p in problems] == [(1, "players")]
    assert f"at most {MAX_PLAYERS}" in problems[0].message


def test_a_results_file_game_of_a_thousand_rows_is_reported():
    rows = "".join(f"g1,2022-01-01,P{i},{i + 1}\n" for i in range(1000))

    problems = only_problem("game_id,date,player,placement\n" + rows)

    assert [(p.line, p.field) for p in problems] == [(2, "players")]


def test_a_results_file_name_with_control_characters_is_reported():
    problems = only_problem(
        "game_id,date,player,placement\ng1,2022-01-01,Ann,1\ng1,2022-01-01,B\x07b,2\n"
    )

    assert [(p.line, p.field) for p in problems] == [(3, "column C (player)")]
    assert "control characters" in problems[0].message


def test_a_note_with_a_nul_is_reported_because_the_database_cannot_store_it():
    problems = only_problem(",2022-01-01,Ann,Bob,,no\x00te\n")

    assert [(p.line, p.field) for p in problems] == [(1, "note")]


def test_a_line_longer_than_the_csv_field_limit_is_reported_on_its_line():
    text = ",2022-01-01,Ann,Bob\n,2022-01-02,Ann," + "x" * (csv.field_size_limit() + 1) + "\n"

    parsed = parse_games_csv(text)

    assert [g.line for g in parsed.games] == [1]
    assert [(p.line, p.field) for p in parsed.problems] == [(2, "row")]


@pytest.mark.parametrize("formula", ["=cmd()", "+1+1", "-1", "@SUM(A1:A9)", "=HYPERLINK(1)"])
def test_a_formula_is_read_as_a_plain_name_and_never_evaluated(formula):
    parsed = parse_games_csv(f",2022-01-01,{formula},Bob\n,2022-01-02,'{formula},Bob\n")

    assert parsed.problems == []
    # Unescaped or written with Guildhall's apostrophe guard: the same literal name.
    assert [g.finishers[0].name for g in parsed.games] == [formula, formula]


def test_five_thousand_games_of_two_thousand_players_read_quickly():
    rows = [
        f",2022-01-{1 + n % 28:02d},P{n % 2000},P{(n + 1) % 2000},P{(n + 7) % 2000}"
        for n in range(5000)
    ]
    text = "\r\n".join(rows) + "\r\n"

    started = time.perf_counter()
    parsed = parse_games_csv(text)
    elapsed = time.perf_counter() - started

    assert parsed.problems == []
    assert len(parsed.games) == 5000
    assert len({f.name for g in parsed.games for f in g.finishers}) == 2000
    assert elapsed < 5, f"{elapsed:.1f} s for 5,000 rows"
