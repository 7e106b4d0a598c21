"""The Guildmaster CSV reader and writer, without a database."""

import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.domain.csvformat import (
    GUILDMASTER_ORDER,
    REPEATS_GUILDMASTER,
    CsvGame,
    Finisher,
    UndecodableFile,
    decode_upload,
    parse_games_csv,
    write_games_csv,
)
from leagues.domain.names import name_normalize

SAMPLE = Path("/work/shared/guildmaster/mtgscores.csv")


def names(game: CsvGame) -> list[str]:
    return [f.name for f in game.finishers]


def only_game(text: str) -> CsvGame:
    parsed = parse_games_csv(text)
    assert parsed.problems == []
    assert len(parsed.games) == 1
    return parsed.games[0]


def problems_of(text: str, **options) -> list[tuple[int, str, str]]:
    return [(p.line, p.field, p.message) for p in parse_games_csv(text, **options).problems]


def test_plain_rows_are_games_in_finishing_order():
    parsed = parse_games_csv(",2022-01-01,PlayerA,PlayerB,PlayerC\n,2022-01-08,PlayerB,PlayerA\n")

    assert parsed.problems == []
    first, second = parsed.games
    assert (first.line, first.played_on, names(first)) == (
        1,
        date(2022, 1, 1),
        ["PlayerA", "PlayerB", "PlayerC"],
    )
    assert [f.place for f in first.finishers] == [1, 2, 3]
    assert (second.line, second.played_on, names(second)) == (
        2,
        date(2022, 1, 8),
        ["PlayerB", "PlayerA"],
    )


def test_header_row_is_skipped_and_remembered():
    parsed = parse_games_csv("id,date,winner,second\n,2022-01-01,Ann,Bob\n")

    assert parsed.problems == []
    assert parsed.header_line == 1
    assert [(g.line, names(g)) for g in parsed.games] == [(2, ["Ann", "Bob"])]


def test_a_bad_first_row_is_not_mistaken_for_a_header_when_it_has_a_date_like_value():
    parsed = parse_games_csv(",13/45/2022,Ann,Bob\n,2022-01-01,Ann,Bob\n")

    assert parsed.header_line is None
    assert [p.line for p in parsed.problems] == [1]


def test_bom_and_crlf_give_the_same_games_as_plain_text():
    plain = ",2022-01-01,Ann,Bob\n,1/2/2022,Bob,Cid,Ann\n"
    variants = [
        "\ufeff" + plain,
        plain.replace("\n", "\r\n"),
        "\ufeff" + plain.replace("\n", "\r\n"),
        ",date,first,second\r\n" + plain.replace("\n", "\r\n"),
    ]

    expected = [(g.played_on, g.finishers, g.note) for g in parse_games_csv(plain).games]
    assert len(expected) == 2
    for text in variants:
        parsed = parse_games_csv(text)
        assert parsed.problems == []
        assert [(g.played_on, g.finishers, g.note) for g in parsed.games] == expected


def test_decode_upload_strips_the_bom_and_reads_windows_1252_with_a_warning():
    assert decode_upload("\ufeff,2022-01-01,Zoë,Ann".encode()) == (",2022-01-01,Zoë,Ann", None)

    text, warning = decode_upload(",2022-01-01,Zoë,Ann".encode("cp1252"))
    assert text == ",2022-01-01,Zoë,Ann"
    assert "Windows-1252" in warning


def test_decode_upload_refuses_binary_files():
    with pytest.raises(UndecodableFile, match="NUL"):
        decode_upload(b"PK\x03\x04\x00\x00")


def test_trailing_empty_cells_are_ignored():
    game = only_game(",2022-01-01,Ann,Bob,,,,,,\r\n")

    assert names(game) == ["Ann", "Bob"]
    assert game.note == ""


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("2022-03-05", date(2022, 3, 5)),
        ("3/5/2022", date(2022, 3, 5)),
        ("12/31/2021", date(2021, 12, 31)),
        (" 1/20/2020 ", date(2020, 1, 20)),
    ],
)
def test_both_date_formats(cell, expected):
    assert only_game(f",{cell},Ann,Bob\n").played_on == expected


@pytest.mark.parametrize("cell", ["2022-13-01", "31/12/2021", "yesterday", "2/30/2022", "1/1/22"])
def test_a_bad_date_names_the_line_and_column_b(cell):
    text = f",2022-01-01,Ann,Bob\n,{cell},Ann,Bob\n,2022-01-02,Ann,Bob\n"

    parsed = parse_games_csv(text)

    [problem] = parsed.problems
    assert problem.line == 2
    assert "column B" in problem.field
    assert cell in problem.message
    assert "line 2, column B" in str(problem)
    assert [g.line for g in parsed.games] == [1, 3]


def test_a_missing_date_is_a_problem():
    [(line, field, message)] = problems_of(",2022-01-01,Ann,Bob\n,,Ann,Bob\n")

    assert (line, "column B" in field, "missing" in message) == (2, True, True)


def test_a_player_named_twice_in_a_row_is_a_problem_ignoring_case():
    [(line, field, message)] = problems_of(",2022-01-01,Ann,Bob,ann\n")

    assert line == 1
    assert field.startswith("column E")
    assert "twice" in message


def test_a_repeated_name_read_as_guildmaster_does_is_one_finisher_with_its_columns():
    # Guildmaster's sample, line 142: ",8/21/2021,Caid,Caid,Dylan,,,,,".
    parsed = parse_games_csv(
        ",8/21/2021,Caid,caid,Dylan,,Note\n", repeated_names=REPEATS_GUILDMASTER
    )

    assert parsed.problems == []
    [game] = parsed.games
    assert [(f.name, f.place, f.stats) for f in game.finishers] == [
        ("Caid", 1, {GUILDMASTER_ORDER: [1, 2]}),
        ("Dylan", 2, {GUILDMASTER_ORDER: [3]}),
    ]
    assert game.note == "Note"
    [(line, field, message)] = [(w.line, w.field, w.message) for w in parsed.warnings]
    assert (line, field[:8]) == (1, "column D")
    assert "twice" in message and "Guildmaster" in message


def test_rows_without_a_repeat_are_read_the_same_either_way():
    text = ",2022-01-01,Ann,Bob,Cy\n"

    assert parse_games_csv(text, repeated_names=REPEATS_GUILDMASTER).games == (
        parse_games_csv(text).games
    )
    assert parse_games_csv(text, repeated_names=REPEATS_GUILDMASTER).warnings == []


def test_a_repeated_name_with_guildhall_data_in_column_a_is_still_a_problem():
    text = '"{""places"": [1, 2, 3]}",2022-01-01,Ann,Ann,Bob\n'

    parsed = parse_games_csv(text, repeated_names=REPEATS_GUILDMASTER)

    assert parsed.games == []
    [(line, field, message)] = problems_of(text, repeated_names=REPEATS_GUILDMASTER)
    assert (line, field) == (1, "column A (Guildhall data)")
    assert "names a player twice" in message


def test_a_row_with_a_repeat_and_another_problem_is_refused_without_the_warning():
    parsed = parse_games_csv(",2022-13-01,Ann,Ann\n", repeated_names=REPEATS_GUILDMASTER)

    assert [p.field for p in parsed.problems] == ["column B (date)"]
    assert parsed.games == [] and parsed.warnings == []


def test_an_unknown_repeated_names_choice_is_an_error():
    with pytest.raises(ValueError, match="repeated_names"):
        parse_games_csv(",2022-01-01,Ann,Bob\n", repeated_names="merge")


@pytest.mark.parametrize("row", [",2022-01-01,Ann", ",2022-01-01,Ann,,,", ",2022-01-01"])
def test_fewer_than_two_players_is_a_problem(row):
    problems = problems_of(row + "\n")

    assert [(line, field) for line, field, _ in problems] == [(1, "players")]
    assert "at least 2" in problems[0][2]


def test_an_empty_winner_cell_with_the_row_going_on_is_a_problem():
    parsed = parse_games_csv(",2022-01-01,,Ann,Bob\n")

    assert parsed.games == []
    fields = [p.field for p in parsed.problems]
    assert any(f.startswith("column C") for f in fields)
    assert all(p.line == 1 for p in parsed.problems)


def test_text_after_an_empty_cell_is_the_note_not_a_player():
    game = only_game(",3/4/2020,Dylan,Jacob,,,,,,I think these games were on the trip \r\n")

    assert names(game) == ["Dylan", "Jacob"]
    assert game.note == "I think these games were on the trip"


def test_a_note_that_is_a_known_players_name_is_kept_but_warned_about():
    parsed = parse_games_csv(",2022-01-01,Ann,Bob,,Cid\n,2022-01-02,Cid,Ann\n")

    assert parsed.problems == []
    assert parsed.games[0].note == "Cid"
    assert names(parsed.games[0]) == ["Ann", "Bob"]
    assert [(w.line, w.field) for w in parsed.warnings] == [(1, "note")]


def test_names_with_surrounding_spaces_are_trimmed():
    game = only_game(",2022-01-01,  Josh ,Caid ,Brady  \n")

    assert names(game) == ["Josh", "Caid", "Brady"]


def test_an_unclosed_quote_that_swallows_rows_is_a_problem_not_a_long_note():
    text = ',2022-01-01,Ann,Bob,,"He said hi\n,2022-01-02,Ann,Bob\n,2022-01-03,Cid,Ann\n'

    parsed = parse_games_csv(text)

    assert parsed.games == []
    [problem] = parsed.problems
    assert problem.line == 1
    assert "quote" in problem.message


def meta_row(meta, players="Ann,Bob,Cid,Dee") -> str:
    cell = json.dumps(meta).replace('"', '""')
    return f'"{cell}",2022-01-01,{players}\n'


def test_the_json_column_gives_shared_places_seats_and_stats():
    game = only_game(
        meta_row(
            {
                "places": [1, 2, 2, 4],
                "seats": [3, 1, None, 2],
                "stats": [{"life": 7}, {}, {"cmd": "Atraxa"}, {}],
            }
        )
    )

    assert [(f.name, f.place, f.seat, f.stats) for f in game.finishers] == [
        ("Ann", 1, 3, {"life": 7}),
        ("Bob", 2, 1, {}),
        ("Cid", 2, None, {"cmd": "Atraxa"}),
        ("Dee", 4, 2, {}),
    ]


@pytest.mark.parametrize(
    ("cell", "words"),
    [
        ('"{not json"', "not valid JSON"),
        ('"{""places"": NaN}"', "not valid JSON"),
        ('"{""colour"": 1}"', "unknown key"),
        ('"{""places"": [1, 2]}"', '"places" must be a list of 4'),
        ('"{""places"": [1, 3, 3, 4]}"', "not a ranking"),
        ('"{""places"": [1, true, 3, 4]}"', '"places" must be a list'),
        ('"{""seats"": [1, 1, 2, 3]}"', '"seats" must be distinct'),
        ('"{""seats"": [0, 1, 2, 3]}"', '"seats" must be distinct'),
        ('"{""seats"": [1, 2, 3, 40000]}"', '"seats" must be distinct'),
        ('"{""stats"": [1, 2, 3, 4]}"', '"stats" must be a list of 4 dict'),
        ('"{""stats"": [{""a"": ""\\u0000""}, {}, {}, {}]}"', "NUL"),
        ('"{""stats"": [{""a"": 1e999}, {}, {}, {}]}"', "too large"),
    ],
)
def test_each_kind_of_bad_json_column_is_reported_on_its_line(cell, words):
    text = f",2022-01-01,Ann,Bob\n{cell},2022-01-02,Ann,Bob,Cid,Dee\n"

    parsed = parse_games_csv(text)

    assert [g.line for g in parsed.games] == [1]
    assert parsed.problems, "the bad JSON column was accepted"
    assert {p.line for p in parsed.problems} == {2}
    assert all(p.field.startswith("column A") for p in parsed.problems)
    assert any(words in p.message for p in parsed.problems), parsed.problems


def game(line, day, *finishers, note=""):
    return CsvGame(line=line, played_on=day, finishers=tuple(finishers), note=note)


def test_write_then_parse_round_trips_ties_seats_stats_notes_and_awkward_names():
    games = [
        game(1, date(2022, 1, 1), Finisher("Ann", 1), Finisher("Bob", 2)),
        game(
            2,
            date(2022, 1, 2),
            Finisher("=cmd()", 1, seat=2, stats={"life": 12}),
            Finisher("Smith, John", 1, seat=1),
            Finisher('Jo "the hammer" Lee', 3, stats={"deck": "Zur, the Enchanter"}),
            note="=1+1 was a formula, once",
        ),
        game(
            3,
            date(2022, 1, 3),
            Finisher("+1 Counter", 1),
            Finisher("-Minus", 2),
            Finisher("@at", 3),
            Finisher("'=quoted", 4),
            note="Line one\nline  two, with a comma",
        ),
    ]

    text = write_games_csv(games)
    parsed = parse_games_csv(text)

    assert parsed.problems == []
    assert parsed.games == games
    # Formula-looking cells are written with the apostrophe guard, never bare.
    cells = text.replace('"', "").split(",")
    assert "=cmd()" not in cells
    assert "'=cmd()" in text
    assert text.endswith("\r\n")


def test_plain_games_are_written_in_guildmasters_own_format():
    text = write_games_csv(
        [game(1, date(2022, 1, 1), Finisher("PlayerA", 1), Finisher("PlayerB", 2))]
    )

    assert text == ",2022-01-01,PlayerA,PlayerB\r\n"


def test_the_real_guildmaster_file():
    text, warning = decode_upload(SAMPLE.read_bytes())

    parsed = parse_games_csv(text)

    assert warning is None
    assert [(p.line, p.field[:8]) for p in parsed.problems] == [(142, "column D")]
    assert "Caid" in parsed.problems[0].message
    assert len(parsed.games) == 224
    assert 142 not in {g.line for g in parsed.games}
    by_line = {g.line: g for g in parsed.games}
    assert by_line[3].note == (
        "This bunch of games was the last chunk of Magic Monday games we played"
    )
    assert names(by_line[172])[0] == "Josh"
    assert names(by_line[208])[2:] == ["Caid", "Brady"]
    assert all(" " not in (n[0] + n[-1]) for g in parsed.games for n in names(g))


def test_the_real_guildmaster_file_read_as_guildmaster_does():
    text, _ = decode_upload(SAMPLE.read_bytes())

    parsed = parse_games_csv(text, repeated_names=REPEATS_GUILDMASTER)

    assert parsed.problems == []
    assert len(parsed.games) == 225
    [line_142] = [g for g in parsed.games if g.line == 142]
    assert [(f.name, f.stats[GUILDMASTER_ORDER]) for f in line_142.finishers] == [
        ("Caid", [1, 2]),
        ("Dylan", [3]),
    ]
    assert [w.line for w in parsed.warnings] == [142]


def test_a_guildmaster_row_round_trips_through_the_export():
    parsed = parse_games_csv(",2021-08-21,Caid,Caid,Dylan\n", repeated_names=REPEATS_GUILDMASTER)

    again = parse_games_csv(write_games_csv(parsed.games))

    assert again.problems == []
    assert again.games == parsed.games


# --- property: writing then reading gives the same games ----------------------------------

name_text = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=["L", "N", "P", "S", "Zs"],
        include_characters=",\"'=+-@",
    ),
    min_size=1,
    max_size=20,
).map(name_normalize)  # names as they are stored: a name is normalized on its way in


# PostgreSQL cannot store NUL in text or JSON, so the reader refuses it; leave it out here.
json_chars = st.characters(codec="utf-8", exclude_characters="\x00")


@st.composite
def csv_games(draw):
    count = draw(st.integers(min_value=2, max_value=6))
    players = draw(
        st.lists(
            name_text.filter(bool),
            min_size=count,
            max_size=count,
            unique_by=str.lower,
        )
    )
    # Random ties: each player either ties the one above or takes the next place.
    places = [1]
    for position in range(1, count):
        places.append(places[-1] if draw(st.booleans()) else position + 1)
    seats = draw(
        st.one_of(
            st.none(),
            st.permutations(range(1, count + 1)).map(list),
        )
    )
    stats = draw(
        st.lists(
            st.dictionaries(
                st.text(json_chars, max_size=5),
                st.integers() | st.text(json_chars, max_size=8),
                max_size=2,
            ),
            min_size=count,
            max_size=count,
        )
    )
    note = draw(st.one_of(st.just(""), st.text(json_chars, min_size=1, max_size=40).map(str.strip)))
    played_on = draw(st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)))
    finishers = tuple(
        Finisher(name=n, place=p, seat=seats[i] if seats else None, stats=stats[i])
        for i, (n, p) in enumerate(zip(players, places, strict=True))
    )
    return finishers, played_on, note


@settings(max_examples=200, deadline=None)
@given(st.lists(csv_games(), min_size=1, max_size=5))
def test_write_then_parse_returns_the_same_games(drawn):
    games = [
        CsvGame(line=i + 1, played_on=played_on, finishers=finishers, note=note)
        for i, (finishers, played_on, note) in enumerate(drawn)
    ]

    parsed = parse_games_csv(write_games_csv(games))

    assert parsed.problems == []
    assert [(g.played_on, g.finishers, g.note) for g in parsed.games] == [
        (g.played_on, g.finishers, g.note) for g in games
    ]
